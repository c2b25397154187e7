// The tokenizer's client as a merchant's own page would use it (@payform/card/tokenize): a
// tokenizer that never answers is unreachable after its time, not a promise pending for ever, and
// a connection dropped once is tried again.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sealedCardToken, TokenizeRefusedError, tokenizeCard, TokenizerUnreachableError } from './tokenize.js';

const hung = createServer(() => undefined);
afterEach(() => {
  hung.closeAllConnections();
  return new Promise<void>((resolve) => hung.close(() => resolve()));
});

describe('a tokenizer that never answers', () => {
  it('is unreachable once timeoutMs has passed', async () => {
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/api/v1/sdk/tokenize`;
    const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvv: '123' };
    await expect(tokenizeCard({ url, widgetKey: 'key', timeoutMs: 200 }, card)).rejects.toBeInstanceOf(TokenizerUnreachableError);
  });
});

describe('a tokenizer whose connection drops', () => {
  /** A tokenizer on loopback that cuts the first `drops` connections before answering, then seals every card. */
  async function dropping(drops: number): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
    let asked = 0;
    const server = createServer((request, response) => {
      asked += 1;
      request.resume();
      if (asked <= drops) return void request.socket.destroy();
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: 'sealed' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/sdk/tokenize`;
    const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
    return { url, asked: () => asked, close };
  }
  const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvv: '123' };

  it('is asked once more, within the same time limit: one drop costs the customer nothing', async () => {
    const tokenizer = await dropping(1);
    try {
      expect(await sealedCardToken({ url: tokenizer.url, widgetKey: 'key', timeoutMs: 5_000 }, card)).toBe('sealed');
      expect(tokenizer.asked()).toBe(2);
    } finally {
      await tokenizer.close();
    }
  });

  it('is unreachable when the second try drops too, and asked no third time', async () => {
    const tokenizer = await dropping(2);
    try {
      await expect(sealedCardToken({ url: tokenizer.url, widgetKey: 'key', timeoutMs: 5_000 }, card)).rejects.toBeInstanceOf(TokenizerUnreachableError);
      expect(tokenizer.asked()).toBe(2);
    } finally {
      await tokenizer.close();
    }
  });
});

describe('the errors\' names', () => {
  it('stay theirs in a merchant\'s minified build, where the classes are renamed', () => {
    // What a minifier leaves of the class: another name, the same class.
    const renamed = { o: class extends TokenizerUnreachableError {}, r: class extends TokenizeRefusedError {} };
    expect(String(new renamed.o('The tokenizer could not be reached'))).toBe('TokenizerUnreachableError: The tokenizer could not be reached');
    expect(new renamed.r(401, 'unauthorized').name).toBe('TokenizeRefusedError');
  });
});

describe('a time limit no timer can hold', () => {
  it.each([Infinity, 0, 1.5, 2 ** 31])('%s is the page’s mistake, named, not a tokenizer out of reach', async (timeoutMs) => {
    const sent: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (input) => (sent.push(input), Response.json({ data: 'sealed' }));
    const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvv: '123' };
    const refused = await sealedCardToken({ url: 'https://widget.gateway.example/api/v1/sdk/tokenize', widgetKey: 'key', fetch, timeoutMs }, card).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RangeError);
    expect(refused).toMatchObject({ message: `timeoutMs must be a whole number of milliseconds from 1 to 2147483647 (it is ${timeoutMs})` });
    expect(sent).toEqual([]);
  });
});

