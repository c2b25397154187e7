/**
 * The shop's backend over HTTP on a whole stack (sandbox, companion, demo on free ports): the
 * amount is the catalog's, never the browser's; split shares follow the sellers; a card is
 * remembered only with consent; bad carts are refused with the field named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../stack.js';
import type { RunningStack } from '../stack.js';
import { SELLERS } from '../catalog.js';

const ADMIN_TOKEN = 'demo-test-admin-token-0123456789';
const CUSTOMER = { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' };
const FINGERPRINT = {
  browserColorDepth: '24', browserScreenHeight: '900', browserScreenWidth: '1280', browserJavaEnabled: 'false',
  browserLanguage: 'uk-UA', browserTimeZone: 'Europe/Kyiv', browserTimeZoneOffset: '-120',
};
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvv: '123' };

let stack: RunningStack;
let base: string;

beforeAll(async () => {
  stack = await startStack({
    // Behind one proxy: the rate limit test is a client of its own (X-Forwarded-For).
    // The shop's backend is the subject, so the card goes the short way: posted to the pay route
    // (relay mode). The demo's default tokenize mode has its own journey (card-data-path.spec.ts).
    env: { ...process.env, PORT: '0', SANDBOX_PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_PUBLIC_URL: '', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN, PAYFORM_LOG_LEVEL: 'error', PAYFORM_TRUST_PROXY: 'true', PAYFORM_DEMO_CARD_ENTRY: 'relay' },
    sandboxLog: () => {},
  });
  base = stack.shopUrl.replace(/\/$/, '');
});
afterAll(() => stack.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers under test, checked field by field
type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; headers: Headers }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Json, headers: response.headers };
}

const checkout = (extra: Json = {}, headers: Record<string, string> = {}) =>
  call('POST', '/shop/api/checkout', { lines: [{ product: 'house-espresso', quantity: 2 }, { product: 'kosiv-cup', quantity: 1 }], customer: CUSTOMER, ...extra }, headers);
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

describe('POST /shop/api/checkout', () => {
  it('opens a session for the cart at the catalog’s prices, the customer prefilled', async () => {
    const opened = await checkout();
    expect(opened.status).toBe(201);
    expect(opened.json).toMatchObject({ amount: 149_000, currency: 'UAH' });
    const view = await call('GET', `/api/checkout/sessions/${opened.json.session}`);
    expect(view.json).toMatchObject({ amount: 149_000, currency: 'UAH', status: 'open', customer_fields: [], test: true });
    expect(view.json.description).toBe('Kavarnia: 2 × House espresso blend, 1 × Kosiv hand-painted cup');
    expect(view.json.saved_cards).toEqual([]);
  });

  it('refuses an amount from the browser, unknown products, repeated lines and empty carts, naming the field', async () => {
    expect((await checkout({ amount: 1 })).json.error.fields).toHaveProperty('amount');
    const unknown = await call('POST', '/shop/api/checkout', { lines: [{ product: 'gold-bar', quantity: 1 }], customer: CUSTOMER });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.fields).toHaveProperty(['lines[0].product']);
    const twice = await call('POST', '/shop/api/checkout', { lines: [{ product: 'kosiv-cup', quantity: 1 }, { product: 'kosiv-cup', quantity: 1 }], customer: CUSTOMER });
    expect(twice.status).toBe(400);
    const empty = await call('POST', '/shop/api/checkout', { lines: [], customer: CUSTOMER });
    expect(empty.json.error.fields).toHaveProperty('lines');
    const tooMany = await call('POST', '/shop/api/checkout', { lines: [{ product: 'kosiv-cup', quantity: 21 }], customer: CUSTOMER });
    expect(tooMany.status).toBe(400);
  });

  it('passes the companion’s refusal of the customer’s details on, field by field', async () => {
    const refused = await checkout({ customer: { ...CUSTOMER, email: 'not an address' } });
    expect(refused.status).toBe(400);
    expect(refused.json.error.fields).toHaveProperty(['customer.email']);
  });

  it('splits a purchase by seller, and an authorisation not at all', async () => {
    const split = await checkout({ split: true });
    const paid = await call('POST', `/api/checkout/sessions/${split.json.session}/pay`, { card: CARD, fingerprint: FINGERPRINT });
    expect(paid.json.status).toBe('success');
    const order = await call('GET', `/api/orders/${split.json.order_id}`, undefined, admin);
    expect(order.json.order.split).toEqual([
      { sub_merchant_id: SELLERS[0]!.subMerchantId, amount: 84_000 },
      { sub_merchant_id: SELLERS[1]!.subMerchantId, amount: 65_000 },
    ]);

    const auth = await checkout({ split: true, method: 'auth' });
    await call('POST', `/api/checkout/sessions/${auth.json.session}/pay`, { card: CARD, fingerprint: FINGERPRINT });
    const reserved = await call('GET', `/api/orders/${auth.json.order_id}`, undefined, admin);
    expect(reserved.json.order).toMatchObject({ method: 'auth', split: null, status: 'success' });
  });

  it('remembers a card only when asked, in an HttpOnly cookie the next checkout sends back', async () => {
    const without = await checkout();
    expect(without.headers.get('set-cookie')).toBeNull();

    const first = await checkout({ remember_card: true });
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^kavarnia_customer=c_[A-Za-z0-9_-]{22};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    await call('POST', `/api/checkout/sessions/${first.json.session}/pay`, { card: CARD, fingerprint: FINGERPRINT });

    const again = await checkout({ remember_card: true }, { Cookie: cookie.split(';')[0]! });
    expect(again.headers.get('set-cookie')).toBeNull();
    const view = await call('GET', `/api/checkout/sessions/${again.json.session}`);
    expect(view.json.saved_cards).toEqual([expect.objectContaining({ mask: expect.stringMatching(/4242$/) })]);

    // Known, not asking this time: the card kept before is offered, the new one is not kept.
    const unasked = await checkout({}, { Cookie: cookie.split(';')[0]! });
    expect(unasked.headers.get('set-cookie')).toBeNull();
    expect((await call('GET', `/api/checkout/sessions/${unasked.json.session}`)).json.saved_cards).toHaveLength(1);
    const other = { ...CARD, number: '5454545454545454' };
    expect((await call('POST', `/api/checkout/sessions/${unasked.json.session}/pay`, { card: other, fingerprint: FINGERPRINT })).json.status).toBe('success');
    const customerId = cookie.split(';')[0]!.split('=')[1]!;
    expect((await call('GET', `/api/orders/${unasked.json.order_id}`, undefined, admin)).json.order.customer_id).toBe(customerId);
    expect((await call('GET', `/api/customers/${customerId}/cards`, undefined, admin)).json.cards).toEqual([expect.objectContaining({ mask: expect.stringMatching(/4242$/) })]);

    const stranger = await checkout({ remember_card: true }, { Cookie: 'kavarnia_customer=forged' });
    const strangers = await call('GET', `/api/checkout/sessions/${stranger.json.session}`);
    expect(strangers.json.saved_cards).toEqual([]);
  });

  it('is answered no-store: the answer carries the session id', async () => {
    expect((await checkout()).headers.get('cache-control')).toBe('no-store');
  });

  it('is rate limited per client like the pay route, before the body is read', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.77' };
    // The companion's default: 30 a minute per client.
    for (let i = 0; i < 30; i += 1) expect((await checkout({}, client)).status).toBe(201);
    const refused = await call('POST', '/shop/api/checkout', { not: 'even a cart' }, client);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await checkout({}, { 'X-Forwarded-For': '198.51.100.78' })).status, 'another client').toBe(201);
  });

  it('saves a card without a purchase, for this browser’s customer, and the back office can charge it', async () => {
    const saving = await checkout({ method: 'lookup', split: true });
    expect(saving.status).toBe(201);
    expect(saving.json).toMatchObject({ amount: 100, currency: 'UAH' });
    const cookie = saving.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^kavarnia_customer=c_/);
    const view = await call('GET', `/api/checkout/sessions/${saving.json.session}`);
    expect(view.json).toMatchObject({ method: 'lookup', amount: 100, description: 'Kavarnia: card saved for later orders' });
    expect((await call('POST', `/api/checkout/sessions/${saving.json.session}/pay`, { card: CARD, fingerprint: FINGERPRINT })).json.status).toBe('success');

    const customerId = /kavarnia_customer=([^;]+)/.exec(cookie)![1]!;
    const { json: saved } = await call('GET', `/api/customers/${customerId}/cards`, undefined, admin);
    expect(saved.cards).toHaveLength(1);
    const charged = await call('POST', `/api/customers/${customerId}/cards/${saved.cards[0].id}/charges`, { amount: 14_900, currency: 'UAH', description: 'Kavarnia: next delivery', method: 'purchase' }, admin);
    expect(charged.status).toBe(201);
    expect(charged.json).toMatchObject({ status: 'success', amount: 14_900 });
  });

  it('takes JSON only', async () => {
    const response = await fetch(`${base}/shop/api/checkout`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'lines=1' });
    expect(response.status).toBe(415);
  });
});
