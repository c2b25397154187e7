// An operator handed an X-Request-Id (a merchant's failed call, a proxy's log line) must find the
// order that request concerned, and from it the order's lines: the request line named only its
// route and request id, and a payment's lines only their order id, so with two instances behind
// a balancer only the time joined them (an operator's night, 2026-12-02: a 503 during a gateway
// outage could not be told from the next one's). The request line names its order now.
import { afterEach, describe, expect, it } from 'vitest';
import { card, CUSTOMER, FINGERPRINT } from '../test/cards.js';
import { createStack, eventually, payBody } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

type Line = Record<string, unknown>;
const lines = (): Line[] => stack!.logs.map((line) => JSON.parse(line) as Line);
/** The request line of the answer that carried `response`'s X-Request-Id. */
const requestLine = (response: Response): Line | undefined => lines().find((line) => line.msg === 'request' && line.request_id === response.headers.get('x-request-id'));

describe('a request’s line', () => {
  it('names the order it concerned: the session opened, the payment, the webhook after it, an operation on it', async () => {
    stack = await createStack({ served: true });
    const opened = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g', order_id: 'tea-1', method: 'auth' } });
    expect(opened.status).toBe(201);
    const session = (await opened.json()) as { id: string };
    expect(requestLine(opened)).toMatchObject({ route: '/api/checkout/sessions', order_id: 'tea-1' });
    const paid = await stack.pay(session.id, payBody());
    expect(paid.status).toBe(200);
    expect(requestLine(paid)).toMatchObject({ route: '/api/checkout/sessions/:id/pay', order_id: 'tea-1' });
    await stack.settleWebhooks();
    expect(lines().find((line) => line.msg === 'request' && line.route === '/webhooks/gateway' && line.status === 200)).toMatchObject({ order_id: 'tea-1' });
    const voided = await stack.request('POST', '/api/orders/tea-1/void', { admin: true });
    expect(voided.status).toBe(200);
    expect(requestLine(voided)).toMatchObject({ route: '/api/orders/:order_id/void', order_id: 'tea-1' });
  });

  it('names it when the gateway cannot be reached, so the 503 leads to the order’s lines', async () => {
    const unreachable = () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
    stack = await createStack({ gateway: { fetch: unreachable } });
    const session = await stack.openSession({ order_id: 'tea-2' });
    const paid = await stack.pay(session.id as string, payBody());
    expect(paid.status).toBe(503);
    expect(requestLine(paid)).toMatchObject({ order_id: 'tea-2' });
    expect(lines().filter((line) => line.msg !== 'request' && line.order_id === 'tea-2').length, 'the order’s own lines').toBeGreaterThan(0);
  });

  it('names it on the hosted page, the return from 3-D Secure and a saved card’s charge', async () => {
    stack = await createStack({ served: true });
    const hostedSession = await stack.openSession({ order_id: 'tea-3', customer: CUSTOMER });
    const hosted = await stack.request('POST', `/api/checkout/sessions/${hostedSession.id}/hosted`, { body: {} });
    expect(hosted.status).toBe(200);
    expect(requestLine(hosted)).toMatchObject({ route: '/api/checkout/sessions/:id/hosted', order_id: 'tea-3' });
    const returned = await stack.request('GET', `/checkout/return/${hostedSession.id}`);
    expect(requestLine(returned)).toMatchObject({ route: '/checkout/return/:id', order_id: 'tea-3' });
    // A card saved by a paid checkout, charged without an order id: the one its key gives is named.
    const saving = await stack.openSession({ customer_id: 'cust-log' });
    expect((await stack.pay(saving.id as string, { card: card('success'), customer: CUSTOMER, fingerprint: FINGERPRINT })).status).toBe(200);
    const [saved] = await eventually(async () => {
      const cards = (await stack!.json('GET', '/api/customers/cust-log/cards', 200, { admin: true })).cards as Json[];
      expect(cards).toHaveLength(1);
      return cards;
    });
    const charged = await stack.request('POST', `/api/customers/cust-log/cards/${saved!.id}/charges`, {
      admin: true,
      body: { amount: 19950, currency: 'UAH', description: 'Tea club, December' },
      headers: { 'Idempotency-Key': 'renewal-log-1' },
    });
    expect(charged.status).toBe(201);
    const { order_id: chargedOrder } = (await charged.json()) as { order_id: string };
    expect(requestLine(charged)).toMatchObject({ route: '/api/customers/:customer_id/cards/:card_id/charges', order_id: chargedOrder });
  });

  it('names none where the request concerned no order', async () => {
    stack = await createStack();
    const listed = await stack.request('GET', '/api/orders', { admin: true });
    expect(listed.status).toBe(200);
    expect(requestLine(listed)).not.toHaveProperty('order_id');
  });
});
