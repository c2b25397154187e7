/**
 * Contract: the card tokenizer (POST /api/v1/sdk/tokenize) over real HTTP with the browser-safe
 * tokenizer of @payform/gateway — signatures, the error shape, CORS, single-use expiring tokens,
 * rich answers, paying with the token (every test card), and the inspector's masking.
 */
import { describe, expect, it } from 'vitest';
import { readRichAnswer } from '@payform/gateway';
import { postToTokenizer, signTokenizeBody, tokenizeBody, tokenizeCard, TokenizeRefusedError } from '@payform/gateway/tokenizer';
import type { TokenizeBody } from '@payform/gateway/tokenizer';
import { TEST_CARDS, TEST_WIDGET_KEY } from '@payform/gateway/testing';
import { expectedOutcome } from '../testing/in-process.js';
import { useServedSandbox } from '../testing/served.js';
import { TOKENIZE_PATH } from '../tokenizer/tokenize-routes.js';
import { byToken } from './params.js';

const SHOP = 'https://shop.example';
/** Allowed by another project of the sandbox, not by the test project. */
const OTHER_SHOP = 'https://other-shop.example';
const logged: string[] = [];
const sandbox = useServedSandbox({
  projects: [
    { strict: true, widgetOrigins: [SHOP] },
    { posId: '7d3a9e5c-1f84-4b26-a0c9-6e2b8d4f1a75', apiKey: 'other-project-api-key', widgetOrigins: [OTHER_SHOP] },
  ],
  log: (line) => logged.push(line),
});
const hook = () => sandbox.receiver.url();
const tokenizer = () => ({ url: sandbox.url + TOKENIZE_PATH, widgetKey: TEST_WIDGET_KEY });
const card = (number = '4242424242424242', cvv = number.startsWith('37') ? '1234' : '123') => ({ number, expMonth: 12, expYear: 2030, cvv });

async function post(body: TokenizeBody, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(sandbox.url + TOKENIZE_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Widget-Id': TEST_WIDGET_KEY, 'X-Sign': await signTokenizeBody(TEST_WIDGET_KEY, body), ...headers },
    body: JSON.stringify(body),
  });
}

describe('tokens pay through cc_token with every test card’s behaviour', () => {
  for (const testCard of TEST_CARDS) {
    it(`${testCard.number}: ${testCard.label}`, async () => {
      const token = await tokenizeCard(tokenizer(), card(testCard.number));
      const client = sandbox.client();
      const payment = await client.payments.create(byToken(hook(), token));
      expect(payment).toMatchObject({ ...expectedOutcome(testCard, 'purchase'), cc_mask: `${testCard.number.slice(0, 6)}${'*'.repeat(testCard.number.length - 10)}${testCard.number.slice(-4)}` });
      if (testCard.outcome === 'three_ds_challenge') {
        expect(payment.user_action_url).toMatch(new RegExp(`^${sandbox.url}/3ds/`));
        await sandbox.control('POST', `/_sandbox/3ds/${payment.payment_id}`, { result: 'success' });
        expect((await client.orders.get(payment.order_id))[0]).toMatchObject({ status: 'success', status_code: '1000' });
      }
      if (testCard.outcome === 'slow_pending') {
        await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 5_000 });
        expect((await client.orders.get(payment.order_id))[0]).toMatchObject({ status: 'success' });
      }
    });
  }

  it('answers a successful payment with the card’s lasting token, not the spent one', async () => {
    const token = await tokenizeCard(tokenizer(), card());
    const first = await sandbox.client().payments.create(byToken(hook(), token));
    expect(first.cc_token).toBeTruthy();
    expect(first.cc_token).not.toBe(token);
    expect(await sandbox.client().payments.create(byToken(hook(), first.cc_token!))).toMatchObject({ status: 'success' });
  });
});

describe('tokens are single-use and expire', () => {
  it('refuses a token that has paid once', async () => {
    const token = await tokenizeCard(tokenizer(), card());
    expect(await sandbox.client().payments.create(byToken(hook(), token))).toMatchObject({ status: 'success' });
    const again = await sandbox.client().payments.create(byToken(hook(), token));
    expect(again).toMatchObject({ status: 'failure', status_code: '4144', status_description: expect.stringMatching(/used up/) });
  });

  it('refuses a token past its expiry on the sandbox clock, and takes one just before', async () => {
    const early = await tokenizeCard(tokenizer(), card());
    const late = await tokenizeCard(tokenizer(), card());
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 15 * 60_000 });
    expect(await sandbox.client().payments.create(byToken(hook(), early))).toMatchObject({ status: 'success' });
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 1_000 });
    expect(await sandbox.client().payments.create(byToken(hook(), late))).toMatchObject({ status: 'failure', status_code: '4144', status_description: expect.stringMatching(/expired/) });
  });

  // Tokens are let go 15 minutes past their expiry, so a sandbox under load does not grow.
  it('still refuses a spent token long after, as expired once it is let go', async () => {
    const token = await tokenizeCard(tokenizer(), card());
    expect(await sandbox.client().payments.create(byToken(hook(), token))).toMatchObject({ status: 'success' });
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 29 * 60_000 });
    expect(await sandbox.client().payments.create(byToken(hook(), token))).toMatchObject({ status: 'failure', status_code: '4144', status_description: expect.stringMatching(/used up/) });
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 2 * 60_000 });
    await tokenizeCard(tokenizer(), card());
    expect(sandbox.app.sandbox.gateway.widgetTokens.size).toBe(1);
    expect(await sandbox.client().payments.create(byToken(hook(), token))).toMatchObject({ status: 'failure', status_code: '4144', status_description: expect.stringMatching(/expired/) });
  });
});

describe('refusals have the documented shape { id, errorMessage, hint? }', () => {
  const refusal = async (answer: Response) => ({ status: answer.status, body: (await answer.json()) as Record<string, unknown> });

  it('refuses a wrong signature, an unknown widget key and a number failing Luhn', async () => {
    const body = tokenizeBody(card());
    const badSign = await refusal(await post(body, { 'X-Sign': 'ab'.repeat(32) }));
    expect(badSign).toMatchObject({ status: 401, body: { id: 'invalid_signature', errorMessage: expect.any(String), hint: expect.any(String) } });
    const tampered = await refusal(await post(body, { 'X-Sign': await signTokenizeBody(TEST_WIDGET_KEY, { ...body, card_cvv: '999' }) }));
    expect(tampered.body.id).toBe('invalid_signature');
    // Left out, or not a signature at all: said as such, not as one that does not match.
    const unsigned = await fetch(sandbox.url + TOKENIZE_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Widget-Id': TEST_WIDGET_KEY }, body: JSON.stringify(body) });
    expect((await refusal(unsigned)).body.errorMessage).toBe('X-Sign is missing: every request is signed with the widget key');
    expect((await refusal(await post(body, { 'X-Sign': 'not-hex' }))).body.errorMessage).toBe('X-Sign must be 64 hex digits (an HMAC-SHA256)');
    expect(badSign.body.errorMessage).toBe('X-Sign does not match the request');
    expect((await refusal(await post(body, { 'X-Widget-Id': 'someone-else' }))).body.id).toBe('unknown_widget');
    const luhn = await refusal(await post(tokenizeBody(card('4242424242424241'))));
    expect(luhn).toEqual({ status: 422, body: { id: 'invalid_card_number', errorMessage: 'card_number fails the Luhn check' } });
    await expect(tokenizeCard(tokenizer(), card('4242424242424241'))).rejects.toBeInstanceOf(TokenizeRefusedError);
  });

  it('names the field that is wrong, never echoing card data', async () => {
    const answer = await refusal(await post({ ...tokenizeBody(card()), card_exp_month: 13 }));
    expect(answer).toMatchObject({ status: 400, body: { id: 'invalid_request', errorMessage: expect.stringContaining('card_exp_month') } });
    // A card number left out is the request's fault, as any field's; only one sent is the card's (422).
    const { card_number: _left, ...noNumber } = tokenizeBody(card());
    expect(await refusal(await post(noNumber as TokenizeBody))).toEqual({ status: 400, body: { id: 'invalid_request', errorMessage: 'card_number: is required' } });
    const cvv = await refusal(await post(tokenizeBody(card('378282246310005', '123'))));
    expect(cvv).toMatchObject({ status: 422, body: { id: 'invalid_cvv' } });
    const nested = await fetch(sandbox.url + TOKENIZE_PATH, { method: 'POST', headers: { 'X-Widget-Id': TEST_WIDGET_KEY }, body: '{"card_number":{"x":1}}' });
    expect(await refusal(nested)).toMatchObject({ status: 400, body: { id: 'invalid_request', errorMessage: expect.stringContaining('card_number') } });
    // A key the sender chose is named only when it cannot hold card data.
    const keyed = await fetch(sandbox.url + TOKENIZE_PATH, { method: 'POST', headers: { 'X-Widget-Id': TEST_WIDGET_KEY }, body: '{"cvv 123 / 4242 4242 4242 4242":[]}' });
    const keyedAnswer = await refusal(keyed);
    expect(keyedAnswer).toMatchObject({ status: 400, body: { id: 'invalid_request', errorMessage: 'A field must be a string (at most 256 characters), a number or a boolean' } });
    const notJson = await fetch(sandbox.url + TOKENIZE_PATH, { method: 'POST', body: '4242424242424242' });
    expect(await refusal(notJson)).toMatchObject({ status: 400, body: { id: 'invalid_request' } });
    for (const text of [JSON.stringify(answer), JSON.stringify(cvv)]) expect(text).not.toMatch(/4242424242424242|378282246310005/);
  });
});

describe('CORS for the project’s allowed origins', () => {
  const preflight = (origin: string) =>
    fetch(sandbox.url + TOKENIZE_PATH, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-widget-id,x-sign' } });

  it('lets an allowed origin’s page call and read the tokenizer', async () => {
    const answer = await preflight(SHOP);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(answer.headers.get('access-control-allow-headers')).toMatch(/x-sign/i);
    const tokenized = await post(tokenizeBody(card()), { Origin: SHOP });
    expect(tokenized.status).toBe(200);
    expect(tokenized.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('gives other origins no CORS header and refuses their requests', async () => {
    expect((await preflight('https://elsewhere.example')).headers.get('access-control-allow-origin')).toBeNull();
    const refused = await post(tokenizeBody(card()), { Origin: 'https://elsewhere.example' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refused.json()).toMatchObject({ id: 'origin_not_allowed' });
    // The page cannot read why; the sandbox's console says it, once for the origin.
    expect(logged.filter((line) => line.includes('https://elsewhere.example'))).toEqual([expect.stringContaining("add the origin to the project's widget_origins")]);
  });

  // As the gateway does: a page of another project's shop cannot read why this project refused it.
  it('gives an origin another project allows no CORS header on this project’s refusal', async () => {
    expect((await preflight(OTHER_SHOP)).headers.get('access-control-allow-origin')).toBe(OTHER_SHOP);
    const refused = await post(tokenizeBody(card()), { Origin: OTHER_SHOP });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refused.json()).toMatchObject({ id: 'origin_not_allowed' });
    expect(logged.filter((line) => line.includes(OTHER_SHOP))).toEqual([expect.stringContaining("add the origin to the project's widget_origins")]);
  });
});

describe('rich answers', () => {
  it('are encrypted with the project’s secret key as documented, and their token pays', async () => {
    const answer = await postToTokenizer(tokenizer(), tokenizeBody(card(), true));
    expect(Object.keys(answer)).toEqual(['data']);
    const rich = readRichAnswer(answer.data as string, sandbox.project.apiSecret);
    expect(rich).toEqual({ token: expect.stringMatching(/^[\da-f]{48}$/), expires_at: '2026-03-02T10:15:00.000', card_mask: '424242******4242' });
    expect(await sandbox.client().payments.create(byToken(hook(), rich.token))).toMatchObject({ status: 'success' });
  });
});

describe('the inspector', () => {
  it('shows tokenize calls with the card, signature and token masked', async () => {
    await tokenizeCard(tokenizer(), card('5454545454545454', '987'));
    const { requests } = await sandbox.control<{ requests: Record<string, unknown>[] }>('GET', '/_sandbox/requests');
    const call = requests.find((request) => request.path === TOKENIZE_PATH);
    expect(call).toMatchObject({
      method: 'POST',
      status: 200,
      headers: expect.objectContaining({ 'x-sign': '[redacted]', 'x-widget-id': TEST_WIDGET_KEY }),
      body: expect.objectContaining({ card_number: '[redacted]', card_cvv: '[redacted]', card_exp_month: '[redacted]', platform: 'web' }),
      response: expect.objectContaining({ body: { token: '[redacted]' } }),
    });
    // The CVV as a number of its own: the Host header's port (127.0.0.1:34987) is not it.
    expect(JSON.stringify(requests)).not.toMatch(/5454545454545454|(?<!\d)987(?!\d)/);
  });
});
