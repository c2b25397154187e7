// Tokenize mode: the companion is given the gateway's card tokenizer, the widget sends the card
// there, and the companion pays the session with the token — refusing card numbers on the pay
// route. 3-D Secure, declines, saved cards, card verification and the hosted fallback still work.
import { describe, expect, it } from 'vitest';
import { sealedCardToken, tokenizeCard } from '@payform/gateway/tokenizer';
import { TEST_WIDGET_KEY } from '@payform/gateway/testing';
import type { TestCardOutcome } from '@payform/gateway/testing';
import { card, cardNumber, CUSTOMER, EXPIRY, FINGERPRINT, TEST_CVV } from '../test/cards.js';
import { resolveConfig } from '../config.js';
import type { CompanionConfig } from '../config.js';
import { eventually, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const open = stacksPerTest();
const SANDBOX = 'http://sandbox.test';
const tokenizing = () => open({ companion: { tokenizer: { widgetUrl: SANDBOX, widgetKey: TEST_WIDGET_KEY } } });

const tokenizer = (stack: Stack) => ({
  url: `${SANDBOX}/api/v1/sdk/tokenize`,
  widgetKey: TEST_WIDGET_KEY,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(stack.sandbox.fetch(new Request(input, init))),
});
const testCard = (outcome: TestCardOutcome) => ({ number: cardNumber(outcome), expMonth: EXPIRY.exp_month, expYear: EXPIRY.exp_year, cvv: TEST_CVV });

/** What `<pay-form>` does in the browser: the card to the sandbox's tokenizer, its token back sealed for this shop. */
function tokenize(stack: Stack, outcome: TestCardOutcome = 'success'): Promise<string> {
  return sealedCardToken(tokenizer(stack), testCard(outcome));
}

const payWithToken = (stack: Stack, sessionId: string, token: string, extra: Json = {}) =>
  stack.json('POST', `/api/checkout/sessions/${sessionId}/pay`, 200, { body: { card: { token }, customer: CUSTOMER, fingerprint: FINGERPRINT, ...extra } });

describe('a companion whose widget tokenizes', () => {
  it('tells the widget where the tokenizer is, and nothing changes without one', async () => {
    const stack = await tokenizing();
    const session = await stack.openSession();
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({
      modes: ['direct', 'hosted'],
      tokenizer: { url: `${SANDBOX}/api/v1/sdk/tokenize`, widget_key: TEST_WIDGET_KEY },
    });
    const relay = await open();
    const view = await relay.json('GET', `/api/checkout/sessions/${(await relay.openSession()).id}`, 200);
    expect(view).not.toHaveProperty('tokenizer');
    expect(await relay.json('POST', `/api/checkout/sessions/${view.id}/pay`, 200, { body: { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT } })).toMatchObject({ status: 'success' });
  });

  it('pays only with a token the tokenizer sealed for this shop: a plain card token, got anywhere, is refused before the gateway', async () => {
    const stack = await tokenizing();
    // The card's long-lived token, as a leaked webhook or another system might hold it.
    const plain = await tokenizeCard(tokenizer(stack), testCard('success'));
    const sealedForAnother = await tokenize(stack);
    const session = await stack.openSession();
    for (const token of [plain, `${sealedForAnother.split(':')[0]}:${Buffer.from('{"token":"x"}').toString('base64')}`, 'not-even-a-token']) {
      const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 422, { body: { card: { token }, customer: CUSTOMER, fingerprint: FINGERPRINT } });
      expect(refused.error).toMatchObject({ code: 'unknown_card', fields: { 'card.token': 'is not a token the tokenizer sealed for this shop, nor a saved card of this customer' } });
    }
    const { requests } = await stack.control('GET', '/_sandbox/requests');
    expect(requests.filter((request: Json) => request.path === '/api/v1/payment')).toEqual([]);
    // A token in the sealed form that does not open (another key sealed it) is said once, for the operator.
    expect(stack.logs.filter((line) => line.includes('is sealed, but not with PAYFORM_GATEWAY_API_SECRET'))).toEqual([expect.stringContaining('"level":"error"')]);
    expect((await payWithToken(stack, session.id, sealedForAnother)).status).toBe('success');
  });

  it('names no page origin in that line that is not one: a host holding a comma would name two widget origins', async () => {
    const stack = await tokenizing();
    const session = await stack.openSession();
    // URL reads `https://shop.example,evil.example` as one origin; a list of widget origins, as two.
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: { customer: CUSTOMER, fallback: 'tokenizer_unreachable', page_url: 'https://shop.example,evil.example/checkout' } });
    const said = stack.logs.filter((line) => line.includes("could not reach the gateway's tokenizer"));
    expect(said).toHaveLength(1);
    expect(said[0]).not.toContain('evil.example');
    expect(said[0]).toContain('does not list the shop’s page among its widget origins');
  });

  it('says once, for the operator, that a browser could not reach the tokenizer and went to the hosted page', async () => {
    const stack = await tokenizing();
    const fellBack = async () => {
      const session = await stack.openSession();
      return stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: { customer: CUSTOMER, fallback: 'tokenizer_unreachable', page_url: `${stack.companionUrl}/shop/checkout?cart=7` } });
    };
    expect((await fellBack()).redirect_url).toMatch(/^http/);
    await fellBack();
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes("could not reach the gateway's tokenizer"));
    expect(said).toEqual([expect.objectContaining({ level: 'warn', tokenizer: SANDBOX, page: stack.companionUrl })]);
    // Both causes a browser's console would name: the page's origin not among the project's, or the page's CSP.
    expect(said[0]!.msg).toContain(`the gateway project does not list ${stack.companionUrl} among its widget origins`);
    expect(said[0]!.msg).toContain(`allow ${SANDBOX} in its Content-Security-Policy connect-src`);
    // A reason the widget never sends is refused by name, and the page is not opened.
    const session = await stack.openSession();
    const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 400, { body: { customer: CUSTOMER, fallback: 'bored' } });
    expect(Object.keys(refused.error.fields)).toEqual(['fallback']);
  });

  it('refuses a config whose API secret cannot open the sealed tokens (not 32 bytes)', () => {
    const config = { gatewayApiSecret: 'too-short', publicUrl: 'https://shop.example', adminToken: 'a-long-enough-admin-token', gateway: { timeoutMs: 30_000 } } as CompanionConfig;
    expect(() => resolveConfig({ ...config, tokenizer: { widgetUrl: 'https://widget.gateway.example', widgetKey: TEST_WIDGET_KEY } })).toThrow(
      /the tokens the gateway seals for this shop are opened with the API secret as an AES-256 key, but gatewayApiSecret \(PAYFORM_GATEWAY_API_SECRET\) is not 32 bytes/,
    );
    // Relay mode needs no such key.
    expect(resolveConfig(config).tokenizer).toBeUndefined();
  });

  it('refuses a plain-http tokenizer that is not the sandbox, saying the sandbox origin it was held to', () => {
    const config = { gatewayApiSecret: 'x'.repeat(32), publicUrl: 'http://localhost:3000', adminToken: 'a-long-enough-admin-token', gateway: { timeoutMs: 30_000 } } as CompanionConfig;
    const tokenizer = { widgetUrl: 'http://127.0.0.1:47299', widgetKey: TEST_WIDGET_KEY };
    expect(() => resolveConfig({ ...config, tokenizer, sandboxOrigin: 'http://127.0.0.1:47201' })).toThrow(
      "must be https, or the sandbox's origin in development, now http://127.0.0.1:47201 (PAYFORM_SANDBOX_ORIGIN or the sandboxOrigin option, else the gateway URL's own origin), not http://127.0.0.1:47299",
    );
    expect(() => resolveConfig({ ...config, tokenizer })).toThrow("the sandbox's origin in development, now none (PAYFORM_SANDBOX_ORIGIN");
  });

  it('refuses card numbers on the pay route, naming the field, before anything reaches the gateway', async () => {
    const stack = await tokenizing();
    const session = await stack.openSession();
    const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 400, { body: { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT } });
    expect(refused.error).toMatchObject({ code: 'card_data_refused', fields: { 'card.number': expect.stringContaining('token') } });
    // The body's 400 before the payment's 422s: a client missing the customer too learns of the card first.
    const unnamed = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 400, { body: { card: card(), fingerprint: FINGERPRINT } });
    expect(unnamed.error).toMatchObject({ code: 'card_data_refused' });
    const { requests } = await stack.control('GET', '/_sandbox/requests');
    expect(requests.filter((request: Json) => request.path === '/api/v1/payment')).toEqual([]);
    expect(stack.logs.join('\n')).not.toContain(cardNumber('success'));
    // Every such payment fails, and only the operator can find why: said once.
    await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 400, { body: { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT } });
    expect(stack.logs.filter((line) => line.includes('a client sent card data to pay with'))).toEqual([expect.stringContaining('"level":"warn"')]);
  });

  it('pays with the token: success, decline and 3-D Secure as the test cards say', async () => {
    const stack = await tokenizing();
    const paid = await stack.openSession();
    expect(await payWithToken(stack, paid.id, await tokenize(stack))).toMatchObject({ status: 'success', order_id: paid.order_id });
    const declined = await stack.openSession();
    expect(await payWithToken(stack, declined.id, await tokenize(stack, 'insufficient_funds'))).toMatchObject({ status: 'failure', message: expect.any(String) });
    const challenged = await stack.openSession();
    const redirect = await payWithToken(stack, challenged.id, await tokenize(stack, 'three_ds_challenge'));
    expect(redirect).toMatchObject({ status: 'redirect', redirect_url: expect.stringMatching(/^http:\/\/sandbox\.test\/3ds\//) });
    await stack.control('POST', `/_sandbox/3ds/${redirect.payment_id}`, { result: 'success' });
    await eventually(async () => expect(await stack.json('GET', `/api/checkout/sessions/${challenged.id}`, 200)).toMatchObject({ status: 'success' }));
  });

  it('holds a tokenized card to acceptedBrands by its mask: the widget key is public, any client may tokenize', async () => {
    const stack = await open({ companion: { tokenizer: { widgetUrl: SANDBOX, widgetKey: TEST_WIDGET_KEY }, acceptedBrands: ['visa'] } });
    const session = await stack.openSession();
    const mastercard = await sealedCardToken(tokenizer(stack), { ...testCard('success'), number: cardNumber('success', 'mastercard') });
    const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 422, { body: { card: { token: mastercard }, customer: CUSTOMER, fingerprint: FINGERPRINT } });
    expect(refused.error).toMatchObject({ code: 'card_brand_not_accepted', fields: { 'card.token': 'is a Mastercard card; this shop takes Visa' } });
    expect(await payWithToken(stack, session.id, await tokenize(stack))).toMatchObject({ status: 'success' });
  });

  it('saves the tokenized card for the customer and pays with it later', async () => {
    const stack = await tokenizing();
    const first = await stack.openSession({ customer_id: 'cust-token' });
    expect(await payWithToken(stack, first.id, await tokenize(stack))).toMatchObject({ status: 'success' });
    const cards = await eventually(async () => {
      const list = (await stack.json('GET', '/api/customers/cust-token/cards', 200, { admin: true })).cards as Json[];
      expect(list).toHaveLength(1);
      return list;
    });
    const second = await stack.openSession({ customer_id: 'cust-token' });
    expect((await stack.json('GET', `/api/checkout/sessions/${second.id}`, 200)).saved_cards).toEqual([expect.objectContaining({ token: cards[0]!.id })]);
    expect(await payWithToken(stack, second.id, cards[0]!.id)).toMatchObject({ status: 'success' });
  });

  it('verifies a card on the gateway’s page, where the gateway takes the card itself', async () => {
    const stack = await tokenizing();
    const session = await stack.openSession({ amount: 1, method: 'lookup', customer_id: 'cust-verify' });
    // The merchant's server is told the modes its customer will be offered.
    expect(session.modes).toEqual(['hosted']);
    const view = await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200);
    expect(view).toMatchObject({ method: 'lookup', modes: ['hosted'] });
    expect(view).not.toHaveProperty('tokenizer');
    // Paid by card anyway, it is the mode refused, not the token the customer's browser got.
    for (const token of [await tokenize(stack), 'not-a-token']) {
      const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 409, { body: { card: { token }, customer: CUSTOMER, fingerprint: FINGERPRINT } });
      expect(refused.error).toMatchObject({ code: 'mode_not_allowed', message: expect.stringMatching(/hosted page/) });
    }
    const page = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect(page.redirect_url).toMatch(/^http:\/\/sandbox\.test\//);
  });

  it('refuses a direct-only verification, which no widget could take a card in: the gateway takes no token there, this companion no card', async () => {
    const stack = await tokenizing();
    const refused = await stack.json('POST', '/api/checkout/sessions', 400, {
      admin: true,
      body: { amount: 1, currency: 'UAH', description: 'Card check', method: 'lookup', customer_id: 'cust-direct-only', modes: ['direct'] },
    });
    expect(refused.error.fields).toEqual({ modes: expect.stringMatching(/^must include hosted for a card verification while the widget tokenizes \(PAYFORM_GATEWAY_WIDGET_KEY\)/) });
  });
});
