// The tokenizer's client as a merchant's own page would use it (@payform/card/tokenize): a
// tokenizer that never answers is unreachable after its time, not a promise pending for ever.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenizeCard, TokenizerUnreachableError } from './tokenize.js';

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
