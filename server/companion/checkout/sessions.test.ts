// Opening, reading and closing checkout sessions (in process, real sandbox and SQLite).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionView } from '../../../widget/checkout/session-view.js';
import { SessionView } from './session-view.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { createStack, payBody } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import { card, CUSTOMER } from '../test/cards.js';

let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
});
afterEach(async () => {
  await stack.close();
});

describe('POST /api/checkout/sessions', () => {
  it('opens a session with an unguessable id, its amount in minor units and an order id of at most 32 characters', async () => {
    const created = await stack.openSession({ amount: 1010, description: 'Tea' });
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.order_id.length).toBeLessThanOrEqual(32);
    expect(created).toMatchObject({ amount: 1010, currency: 'UAH', description: 'Tea', method: 'purchase', status: 'open', modes: ['direct', 'hosted'] });
    expect(Date.parse(created.expires_at)).toBeGreaterThan(Date.now() + 29 * 60_000);
    const session = await stack.ledger.getSession(created.id);
    expect(session?.amount).toBe(1010);
  });

  it('keeps the merchant order id, customer, return URL, modes, lifetime and split', async () => {
    const created = await stack.openSession({
      order_id: 'shop-1001',
      amount: 10000,
      split: [
        { sub_merchant_id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', amount: 7000 },
        { sub_merchant_id: 'c4e7b1d9-2a83-4f65-8b1c-9d0e6a2f4b71', amount: 3000 },
      ],
      customer: { email: 'olena@example.com', tax_id: '1234567890' },
      customer_id: 'customer-7',
      return_url: 'https://shop.example/thanks',
      modes: ['hosted'],
      ttl_seconds: 600,
    });
    expect(created).toMatchObject({ order_id: 'shop-1001', customer_id: 'customer-7', return_url: 'https://shop.example/thanks', modes: ['hosted'] });
    expect(created.split).toEqual([
      { sub_merchant_id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', amount: 7000 },
      { sub_merchant_id: 'c4e7b1d9-2a83-4f65-8b1c-9d0e6a2f4b71', amount: 3000 },
    ]);
    const session = await stack.ledger.getSession(created.id);
    expect(session?.customer).toEqual({ email: 'olena@example.com', taxId: '1234567890' });
    expect(session!.expiresAt - session!.createdAt).toBe(600_000);
  });

  it('refuses without the admin token, or with a wrong one', async () => {
    const body = { amount: 1, currency: 'UAH', description: 'x' };
    for (const headers of [{}, { Authorization: 'Bearer wrong-token-wrong-token' }, { Authorization: 'Basic abc' }] as Record<string, string>[]) {
      const response = await stack.request('POST', '/api/checkout/sessions', { body, headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      // Which token: the bin makes a new one at every start when none is set.
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized', message: expect.stringContaining('PAYFORM_ADMIN_TOKEN') } });
    }
  });

  it.each([
    [{ amount: 249.5 }, 'amount', 'must be an integer number of minor units (24950 = 249.50 UAH)'],
    [{ amount: 249.5, currency: 'EUR' }, 'amount', 'must be an integer number of minor units (24950 = 249.50 EUR)'],
    [{ amount: 2495.5, currency: 'JPY' }, 'amount', 'must be an integer number of minor units (2495 = 2495 JPY)'],
    [{ amount: '24950' }, 'amount', 'must be a JSON number, not a string: an integer number of minor units of the currency (24950 = 249.50 UAH, 500 = 500 JPY)'],
    [{ amount: '1e3' }, 'amount', 'must be a JSON number, not a string'],
    [{ amount: 1005, currency: 'KWD' }, 'amount', 'must be a multiple of 10 minor units: the gateway takes KWD with at most 2 decimal digits'],
    [{ amount: -5 }, 'amount', 'must be greater than 0'],
    [{ amount: -5, currency: 'KWD' }, 'amount', 'must be greater than 0'],
    [{ amount: 0 }, 'amount', 'must be greater than 0'],
    [{ split: [{ sub_merchant_id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', amount: 0.5 }, { sub_merchant_id: 'c4e7b1d9-2a83-4f65-8b1c-9d0e6a2f4b71', amount: 9.5 }] }, 'split[0].amount', 'must be an integer number of minor units (24950 = 249.50 UAH)'],
    [{ currency: 'uah' }, 'currency', 'must be a three-letter upper-case ISO 4217 code'],
    [{ description: '' }, 'description', 'must not be empty'],
    [{ description: '   ' }, 'description', 'must say what is sold: it holds only spaces or invisible characters'],
    [{ description: '\ufeff\u200b\n' }, 'description', 'must say what is sold'],
    [{ description: '\u3164\u2800\u034f\ufe0f\u0085' }, 'description', 'must say what is sold'],
    [{ method: 'credit' }, 'method', 'must be one of purchase, auth'],
    [{ order_id: 'x'.repeat(29) }, 'order_id', 'must be 1 to 28 letters'],
    [{ order_id: '../etc' }, 'order_id', 'must be 1 to 28 letters'],
    [{ order_id: 'shop:2' }, 'order_id', 'must be 1 to 28 letters, digits or . _ -'],
    // Logged and stored as written, so not a card number.
    [{ order_id: '4242424242424242' }, 'order_id', 'must not contain a card number'],
    [{ order_id: 'ord-4111111111111111' }, 'order_id', 'must not contain a card number'],
    [{ order_id: 'ord-41111111-11111111' }, 'order_id', 'must not contain a card number'],
    [{ customer_id: '4111 111111111111' }, 'customer_id', 'must not contain a card number'],
    [{ return_url: 'javascript:alert(1)' }, 'return_url', 'must be an http(s) URL'],
    [{ return_url: '/return.php' }, 'return_url', 'must be an absolute https: URL (https://shop.example/thanks), not a path'],
    [{ return_url: 'http://shop.example/thanks' }, 'return_url', 'must be an https: URL'],
    [{ return_url: 'https://shop:secret@shop.example/thanks' }, 'return_url', 'must not carry a user name or password'],
    [{ return_url: 'https://shop@shop.example/thanks' }, 'return_url', 'must not carry a user name or password'],
    [{ return_url: 'https://shop.example/thanks?pan=4111111111111111' }, 'return_url', 'must not contain a card number'],
    [{ return_url: 'https://shop.example/4111-1111-1111-1111/' }, 'return_url', 'must not contain a card number'],
    [{ return_url: 'https://shop.example/thanks?order=1402&cvv=737' }, 'return_url', 'must not contain a card’s security code (CVV)'],
    [{ return_url: 'https://shop.example/thanks#/done?card_cvc=%37%33%37%31' }, 'return_url', 'must not contain a card’s security code (CVV)'],
    [{ return_url: 'https://shop.example/thanks#securityCode=737' }, 'return_url', 'must not contain a card’s security code (CVV)'],
    // Its digits percent-escaped, as no encoder writes them: read as the digits they spell.
    [{ return_url: 'https://shop.example/t?c=%34%31%36%35%37%37%31%33%30%34%36%36%36%34%39%37' }, 'return_url', 'must not contain a card number'],
    [{ customer_id: '%34%31%36%35%37%37%31%33%30%34%36%36%36%34%39%37' }, 'customer_id', 'must not contain a card number'],
    [{ customer_id: 'cust-%2534%2531%2536%2535%2537%2537%2531%2533%2530%2534%2536%2536%2536%2534%2539%2537' }, 'customer_id', 'must not contain a card number'],
    [{ modes: [] }, 'modes', 'must have at least 1 item'],
    [{ ttl_seconds: 10 }, 'ttl_seconds', 'must be at least 60'],
    [{ extra: 1 }, 'extra', 'is not allowed'],
    [{ customer: { email: 'not-mail' } }, 'customer.email', 'must be an e-mail address'],
    [{ customer: { birthday: '2099-01-01' } }, 'customer.birthday', 'must be a past date from 1900-01-01 on'],
    [{ customer: { birthday: '0000-01-01' } }, 'customer.birthday', 'must be a past date from 1900-01-01 on'],
    [{ customer: { birthday: '1990-02-29' } }, 'customer.birthday', 'must be a date yyyy-MM-dd'],
    [{ split: [{ sub_merchant_id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', amount: 5 }] }, 'split', 'amounts must add up to amount, 10: they make 5'],
    [{ method: 'auth', amount: 5, split: [{ sub_merchant_id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', amount: 5 }] }, 'split', 'applies to purchase sessions'],
  ])('answers 400 naming the field for %j', async (change, field, reason) => {
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', ...change } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.fields[field]).toContain(reason);
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
  });

  it('keeps a return_url that names a security code without one, or has 3–4 digits under another name', async () => {
    for (const url of ['https://shop.example/help/cvv?order=1402', 'https://shop.example/thanks?step=cvv&order=737', 'https://shop.example/thanks?cvv_checked=1#cvc']) {
      expect((await stack.openSession({ return_url: url })).return_url, url).toBe(url);
    }
  });

  it('says a return_url past 2048 characters is too long, not that it is no URL', async () => {
    const return_url = `https://shop.example/thanks?${'a'.repeat(2048)}`;
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', return_url } });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual({ return_url: 'must be at most 2048 characters' });
  });

  it('names an amount in major units beside the other fields it refuses, not after they are mended', async () => {
    for (const [body, fields] of [
      [{ amount: 249.5, currency: 'UAH' }, { description: 'is required', amount: 'must be an integer number of minor units (24950 = 249.50 UAH)' }],
      [{ amount: 2495.5, currency: 'JPY', description: 'Tea', ttl_seconds: 10 }, { ttl_seconds: 'must be at least 60', amount: 'must be an integer number of minor units (2495 = 2495 JPY)' }],
      // A currency refused is said alone: the amount's unit depends on it.
      [{ amount: 249.5, currency: 'uah' }, { description: 'is required', currency: 'must be a three-letter upper-case ISO 4217 code' }],
    ] as const) {
      const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body });
      expect(response.status).toBe(400);
      const refused = (await response.json()).error.fields;
      expect(Object.keys(refused).sort(), JSON.stringify(body)).toEqual(Object.keys(fields).sort());
      for (const [field, reason] of Object.entries(fields)) expect(refused[field], field).toContain(reason);
    }
  });

  it('takes a plain-http return URL in development for the sandbox and this machine only', async ({ onTestFinished: onTestEnd }) => {
    for (const url of [`${stack.sandboxUrl}/done`, 'http://localhost:3000/result', 'http://shop.localhost:3000/result', 'http://127.0.0.1:3000/result', 'http://[::1]:3000/result']) {
      expect((await stack.openSession({ return_url: url })).return_url, url).toBe(url);
    }
    const production = await createStack({ companion: { sandboxOrigin: undefined } });
    onTestEnd(() => production.close());
    const refused = await production.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1, currency: 'UAH', description: 'x', return_url: 'http://localhost:3000/result' } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual({ return_url: 'must be an https: URL (the session id travels in it)' });
  });

  it('answers 409 when the order id is taken', async () => {
    await stack.openSession({ order_id: 'dup-1' });
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1, currency: 'UAH', description: 'x', order_id: 'dup-1' } });
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('order_id_taken');
  });

  it('answers 400 for a body that is not JSON, 415 for another media type', async () => {
    const broken = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: '{"amount":', headers: { 'Content-Type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('invalid_json');
    const form = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: 'amount=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
  });
});

describe('GET /api/checkout/sessions/:id', () => {
  it('gives the widget exactly the view it reads', async () => {
    const created = await stack.openSession({ amount: 10050, customer: { email: 'olena@example.com' } });
    const view = await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200);
    expect(SessionView.strict().parse(view)).toEqual(view);
    expect(readSessionView(view)).toEqual(view);
    expect(view).toEqual({
      version: '0.3',
      id: created.id,
      amount: 10050,
      currency: 'UAH',
      description: 'Green tea, 250 g',
      method: 'purchase',
      status: 'open',
      modes: ['direct', 'hosted'],
      customer_fields: ['fname', 'lname', 'phone'],
      test: true,
      sandbox_origin: stack.sandboxUrl,
      saved_cards: [],
      order_id: created.order_id,
      expires_in_seconds: expect.any(Number),
      extendable: true,
    });
    // The default ttl, 30 min, less what this test took.
    expect(view.expires_in_seconds).toBeGreaterThan(1790);
    expect(view.expires_in_seconds).toBeLessThanOrEqual(1800);
  });

  it("counts down the seconds a payable session has left, and gives none once it can't be paid", async () => {
    await stack.close();
    const clock = new TestClock(Date.now());
    stack = await createStack({ clock });
    const created = await stack.openSession({ ttl_seconds: 600 });
    const left = async () => (await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200)).expires_in_seconds;
    expect(await left()).toBe(600);
    clock.advance(479_500);
    expect(await left()).toBe(120);
    // Declined: it can be paid again until its time is up.
    await stack.pay(created.id, payBody({ card: card('insufficient_funds') }));
    expect(await left()).toBe(120);
    clock.advance(121_000);
    const ended = await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200);
    expect(ended.status).toBe('expired');
    expect(ended).not.toHaveProperty('expires_in_seconds');
    const paid = await stack.openSession();
    await stack.pay(paid.id);
    expect(await stack.json('GET', `/api/checkout/sessions/${paid.id}`, 200)).not.toHaveProperty('expires_in_seconds');
  });

  it('ends a session at its expiry instant: from then it reads as expired and takes no payment', async () => {
    await stack.close();
    const clock = new TestClock(Date.now());
    stack = await createStack({ clock });
    const created = await stack.openSession({ ttl_seconds: 600 });
    clock.advance(600_000);
    expect((await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200)).status).toBe('expired');
    const response = await stack.pay(created.id);
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('session_expired');
    expect((await stack.ledger.getSession(created.id))?.payment).toBeNull();
  });

  it('gives no more time to a session that already ends 20 hours after it opened', async () => {
    await stack.close();
    const clock = new TestClock(Date.now());
    stack = await createStack({ clock });
    const created = await stack.openSession({ ttl_seconds: 20 * 3600 });
    clock.advance(20 * 3_600_000 - 60_000);
    const refused = await stack.request('POST', `/api/checkout/sessions/${created.id}/extend`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'extension_limit' } });
    expect((await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200)).expires_in_seconds).toBe(60);
  });

  it('gives the customer ten more minutes when asked, up to 20 hours after it opened, unless its end is fixed', async () => {
    await stack.close();
    const clock = new TestClock(Date.now());
    stack = await createStack({ clock });
    const created = await stack.openSession({ ttl_seconds: 180 });
    const view = () => stack.json('GET', `/api/checkout/sessions/${created.id}`, 200);
    const extend = (id = created.id) => stack.request('POST', `/api/checkout/sessions/${id}/extend`);
    clock.advance(90_000);
    // No admin token: the session id is the customer's capability, as for paying.
    expect(await (await extend()).json()).toEqual({ expires_in_seconds: 600, extendable: true });
    expect(await view()).toMatchObject({ status: 'open', expires_in_seconds: 600, extendable: true });
    // Asked again at once, as a page asking again and again would: refused, the end kept.
    const again = await extend();
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'extension_too_early' } });
    expect(await view()).toMatchObject({ expires_in_seconds: 600 });
    expect(stack.logs.filter((line) => line.includes('checkout session extended') && line.includes(created.order_id))).toHaveLength(1);

    const fixed = await stack.openSession({ ttl_seconds: 180, extendable: false });
    expect(await stack.json('GET', `/api/checkout/sessions/${fixed.id}`, 200)).toMatchObject({ expires_in_seconds: 180, extendable: false });
    const refused = await extend(fixed.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'session_end_fixed', message: 'The shop set a fixed end to this checkout session: it cannot be extended' } });

    const paid = await stack.openSession();
    await stack.pay(paid.id);
    expect(await (await extend(paid.id)).json()).toMatchObject({ error: { code: 'already_paid' } });
    // Its payment waiting on the bank: the same code as a hosted page or a second pay is told.
    const challenged = await stack.openSession({ ttl_seconds: 180 });
    await stack.pay(challenged.id, payBody({ card: card('three_ds_challenge') }));
    clock.advance(90_000);
    expect(await (await extend(challenged.id)).json()).toMatchObject({ error: { code: 'payment_in_progress' } });
    clock.advance(11 * 60_000);
    const ended = await extend();
    expect(ended.status).toBe(409);
    expect(await ended.json()).toMatchObject({ error: { code: 'session_expired' } });
    expect((await extend('A'.repeat(43))).status).toBe(404);
    expect((await extend('not-a-session')).status).toBe(404);
    const badFlag = await stack.request('POST', '/api/checkout/sessions', { body: { amount: 100, currency: 'UAH', description: 'Tea', extendable: 'no' }, admin: true });
    expect(badFlag.status).toBe(400);
    expect(await badFlag.json()).toMatchObject({ error: { fields: { extendable: expect.any(String) } } });
  });

  it('asks a hosted-only session for the hosted page’s fields only', async () => {
    const created = await stack.openSession({ modes: ['hosted'], customer: { phone: '+380501234567' } });
    const view = await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200);
    expect(view.customer_fields).toEqual(['email']);
  });

  it('says failure with a customer-safe message after a decline, then success after a retry', async () => {
    const created = await stack.openSession();
    await stack.pay(created.id, payBody({ card: card('insufficient_funds') }));
    const failed = await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200);
    expect(failed).toMatchObject({ status: 'failure', message: 'Insufficient funds. Try another card.' });
    await stack.pay(created.id);
    const paid = await stack.json('GET', `/api/checkout/sessions/${created.id}`, 200);
    expect(paid).toMatchObject({ status: 'success', order_id: `${created.order_id}:2` });
    expect(paid).not.toHaveProperty('message');
  });

  it('retries under an order id no merchant id can take, and always within 32 characters', async () => {
    const longest = await stack.openSession({ order_id: 'x'.repeat(28) });
    await stack.pay(longest.id, payBody({ card: card('rejected') }));
    expect((await (await stack.pay(longest.id)).json()).order_id).toBe(`${'x'.repeat(28)}:2`);
    // A merchant's own order id that looks like another session's retry does not block it.
    const first = await stack.openSession({ order_id: 'shop-7' });
    await stack.openSession({ order_id: 'shop-7-2' });
    await stack.pay(first.id, payBody({ card: card('rejected') }));
    const retried = await (await stack.pay(first.id)).json();
    expect(retried).toMatchObject({ status: 'success', order_id: 'shop-7:2' });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['A'.repeat(43), 'short', '..%2F..%2Fetc']) {
      const response = await stack.request('GET', `/api/checkout/sessions/${id}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('session_not_found');
    }
  });

  it('offers the customer’s saved cards, by their ledger id, never the gateway token', async () => {
    const first = await stack.openSession({ customer_id: 'customer-42' });
    expect((await stack.pay(first.id)).status).toBe(200);
    const second = await stack.openSession({ customer_id: 'customer-42', customer: CUSTOMER });
    const view = await stack.json('GET', `/api/checkout/sessions/${second.id}`, 200);
    const [saved] = await stack.ledger.listCards('customer-42');
    expect(view.saved_cards).toEqual([{ token: saved!.id, mask: '424242******4242', brand: 'visa' }]);
    expect(JSON.stringify(view)).not.toContain(saved!.ccToken);
    expect(view.customer_fields).toEqual([]);
    // The paid session's link, kept in a return address or history, lists none: not even the card it saved.
    expect((await stack.json('GET', `/api/checkout/sessions/${first.id}`, 200)).saved_cards).toEqual([]);
  });
});

describe('DELETE /api/checkout/sessions/:id', () => {
  it('closes a session: it reads as expired and takes no payment', async () => {
    const created = await stack.openSession();
    // A body or query the route does not take is refused by name before it closes anything.
    expect((await stack.json('DELETE', `/api/checkout/sessions/${created.id}`, 400, { admin: true, body: { x: 1 } })).error.fields).toEqual({ x: 'is not allowed' });
    expect((await stack.json('DELETE', `/api/checkout/sessions/${created.id}?x=1`, 400, { admin: true })).error.fields).toEqual({ x: 'is not allowed' });
    expect((await stack.ledger.getSession(created.id))?.status).toBe('open');
    // No body under a JSON Content-Type, as many clients send on every request: nothing to refuse.
    const closed = await stack.json('DELETE', `/api/checkout/sessions/${created.id}`, 200, { admin: true, headers: { 'Content-Type': 'application/json' } });
    expect(closed.status).toBe('expired');
    const response = await stack.pay(created.id);
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('session_expired');
    expect((await stack.ledger.getSession(created.id))?.payment).toBeNull();
  });

  it('needs the admin token and a known session', async () => {
    const created = await stack.openSession();
    expect((await stack.request('DELETE', `/api/checkout/sessions/${created.id}`)).status).toBe(401);
    expect((await stack.request('DELETE', `/api/checkout/sessions/${'B'.repeat(43)}`, { admin: true })).status).toBe(404);
  });
});
