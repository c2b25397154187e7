import { describe, expect, it } from 'vitest';
import { isBrowserLoopbackHost, isLoopbackHost } from './loopback.js';

describe('this machine’s host names', () => {
  it('are localhost and the loopback addresses; a name that begins with 127. is a name', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['127.example.com', 'shop.localhost', 'localhost.example.com', '10.0.0.1']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('include localhost’s subdomains for a browser, which resolves them itself', () => {
    for (const host of ['shop.localhost', 'a.b.localhost', 'localhost', '127.0.0.1']) expect(isBrowserLoopbackHost(host), host).toBe(true);
    for (const host of ['localhost.example.com', '127.example.com', 'shoplocalhost']) expect(isBrowserLoopbackHost(host), host).toBe(false);
  });
});
