/**
 * The exchanges' own timeout (`timeoutMs`), over real HTTP: a receiver that never answers, and
 * one that sends its head and stalls the body, both end in a TimeoutError on either exchange.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchExchange, pooledExchange } from './exchange.js';
import type { Exchange } from './exchange.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/silent') return; // never answers
    if (request.url === '/stalls') return void response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '10' }).write('half');
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (exchange: Exchange, path: string, timeoutMs = 50) =>
  exchange({ url: new URL(path, base), method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x', timeoutMs, maxAnswerBytes: 1024 });

describe.each([
  ['undici pools', pooledExchange()],
  ['fetch', fetchExchange(globalThis.fetch)],
])('timeoutMs over %s', (_name, exchange) => {
  it('fails an exchange that gets no answer with a TimeoutError', async () => {
    await expect(post(exchange, '/silent')).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('fails an answer whose body stalls with a TimeoutError, not the reset it causes', async () => {
    await expect(post(exchange, '/stalls')).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('lets an answer in time through', async () => {
    // Time enough for a busy machine: only the answers that never come must time out.
    const answer = await post(exchange, '/ok', 5_000);
    expect(answer.status).toBe(200);
    expect(new TextDecoder().decode(answer.body)).toBe('ok');
  });
});

describe('pooledExchange where undici has no pools', () => {
  it('is refused as it is made, naming what to use instead, rather than failing every call as an unreachable gateway', async () => {
    // Bun answers `import 'undici'` with a stub whose Agent has no `request`.
    const { Agent } = await import('undici');
    // Shadowed on Agent's own prototype; undici defines it further up, where it stays.
    Object.defineProperty(Agent.prototype, 'request', { value: undefined, configurable: true });
    try {
      expect(() => pooledExchange()).toThrow("pooledExchange needs undici's connection pools, which this runtime does not have (Bun's undici is a stub): leave the client's exchange unset, or give fetchExchange(fetch)");
    } finally {
      delete (Agent.prototype as { request?: unknown }).request;
    }
    expect(typeof pooledExchange()).toBe('function');
  });
});
