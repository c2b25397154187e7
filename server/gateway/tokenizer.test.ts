import { describe, expect, it } from 'vitest';
import { hmacSha256Hex, signingMessage, tokenizeCard, TokenizeRefusedError, TokenizerUnreachableError } from '@payform/gateway/tokenizer';
import { readRichAnswer, RichAnswerError, sealRichAnswer } from './index.js';

const SECRET_32 = 'sandbox-test-api-secret-32-bytes';
const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvv: '123' };
const settings = (answer: () => Promise<Response>) => ({ url: 'https://widget.example/api/v1/sdk/tokenize', widgetKey: 'key', fetch: answer });

describe('the browser-safe tokenizer', () => {
  it('signs with the SDK’s HMAC-SHA256 test vector', async () => {
    expect(await hmacSha256Hex('secret', '123')).toBe('77de38e4b50e618a0ebb95db61e2f42697391659d82c064a5f81b9f48d85ccd5');
  });

  it('signs the values concatenated in the order of their sorted keys', () => {
    expect(signingMessage({ card_number: '4242', b: true, a: 7, card_cvv: '123' })).toBe('7true123' + '4242');
  });

  it('turns refusals and failures into typed errors', async () => {
    const refused = tokenizeCard(settings(async () => Response.json({ id: 'invalid_card_number', errorMessage: 'no', hint: 'Luhn' }, { status: 422 })), card);
    await expect(refused).rejects.toBeInstanceOf(TokenizeRefusedError);
    await expect(refused).rejects.toMatchObject({ status: 422, id: 'invalid_card_number', hint: 'Luhn' });
    await expect(tokenizeCard(settings(() => Promise.reject(new TypeError('fetch failed'))), card)).rejects.toBeInstanceOf(TokenizerUnreachableError);
    await expect(tokenizeCard(settings(async () => new Response('<html>', { status: 502 })), card)).rejects.toBeInstanceOf(TokenizerUnreachableError);
    await expect(tokenizeCard(settings(async () => Response.json({})), card)).rejects.toBeInstanceOf(TokenizerUnreachableError);
  });

  it('names the card fields it takes when given the pay API\'s, before anything is sent, and never the card', async () => {
    let sent = 0;
    const counting = settings(async () => (sent++, Response.json({ token: 'tok' })));
    const snakeCase = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvv: '123' } as never;
    const refusal = tokenizeCard(counting, snakeCase);
    await expect(refusal).rejects.toBeInstanceOf(TypeError);
    await expect(refusal).rejects.toThrow('The card to tokenize must be { number, expMonth, expYear, cvv }: expMonth (1 to 12), expYear (2 or 4 digits) is missing or not that');
    await expect(tokenizeCard(counting, { ...card, number: '4242 4242 4242 4242' })).rejects.toThrow(/^The card to tokenize must be .*: number \(12 to 19 digits, as a string\) is missing/);
    await expect(tokenizeCard(counting, { ...card, number: '4242 4242 4242 4242' })).rejects.not.toThrow(/4242/);
    expect(sent).toBe(0);
    expect(await tokenizeCard(counting, card)).toBe('tok');
  });
});

describe('rich answers', () => {
  const answer = { token: 'tok', expires_at: '2030-01-01T00:00:00', card_mask: '424242******4242' };

  it('open with the merchant’s secret key', () => {
    const data = sealRichAnswer(answer, SECRET_32);
    expect(data).toMatch(/^[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/=]+$/);
    expect(readRichAnswer(data, SECRET_32)).toEqual(answer);
  });

  it('refuse another key, another shape and a key that is not 32 bytes', () => {
    const data = sealRichAnswer(answer, SECRET_32);
    expect(() => readRichAnswer(data, 'another-secret-of-exactly-32-byt')).toThrow(RichAnswerError);
    expect(() => readRichAnswer('not-rich', SECRET_32)).toThrow(RichAnswerError);
    expect(() => readRichAnswer(data, 'short')).toThrow(/32 bytes/);
  });
});
