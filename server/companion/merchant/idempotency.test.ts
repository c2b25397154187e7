// Idempotency-Key on the merchant API, through the real sandbox over HTTP on a SQLite file: a
// request sent again answers the first answer and moves no money twice, another request under
// the same key is refused, and the key holds across instances, restarts and its 24 hours.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fileBackend, TestClock } from '../../ledger/testing/databases.js';
import { awayOnce } from '../test/ledger-faults.js';
import { idempotencyScope, requestFingerprint } from '../http/idempotency-keys.js';
import { keyedOrderId } from '../http/keyed-order-id.js';
import { eventually } from '../test/stack.js';
import type { Json } from '../test/stack.js';
import { API } from '../openapi/api-catalog.js';
import { takesIdempotencyKey } from '../openapi/openapi-document.js';
import { ADMIN_TOKEN, payBody, stacksPerTest } from '../test/stack.js';
import { card } from '../test/cards.js';
import type { Stack, StackOptions } from '../test/stack.js';

const HOUR = 3_600_000;
const openStack = stacksPerTest();
let stack: Stack;
const open = async (options: StackOptions = {}) => (stack = await openStack({ backend: fileBackend, served: true, ...options }));

/** A paid purchase of 10.10 UAH; its order id. */
async function paidOrder(): Promise<string> {
  const session = await stack.openSession({ amount: 1010 });
  expect((await (await stack.pay(session.id)).json()).status).toBe('success');
  return session.order_id;
}

/** Successful refunds as the gateway booked them (minor units). */
function gatewayRefunds(orderId: string): number[] {
  const { gateway } = stack.sandbox.sandbox;
  const order = gateway.store.order(gateway.defaultProject.posId, orderId);
  return (order?.operations ?? []).filter((operation) => operation.method === 'refund' && operation.status === 'success').map((operation) => operation.amount);
}

const refund = async (orderId: string, key: string, body: unknown = { amount: 200 }, send = stack.request) => {
  const response = await send('POST', `/api/orders/${orderId}/refund`, { admin: true, body, headers: { 'Idempotency-Key': key } });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
};

describe('a request sent again with its Idempotency-Key', () => {
  it('answers the first answer again, byte for byte, and the gateway refunds once', async () => {
    await open();
    const orderId = await paidOrder();
    const first = await refund(orderId, 'refund-1');
    expect(first).toMatchObject({ status: 200, replayed: null });
    expect(JSON.parse(first.text).operation).toMatchObject({ kind: 'refund', amount: 200, status: 'success' });
    const again = await refund(orderId, 'refund-1');
    expect(again).toEqual({ status: 200, replayed: 'true', text: first.text });
    // The same values serialised in another order and spacing are the same request.
    const reordered = await stack.request('POST', `/api/orders/${orderId}/refund`, { admin: true, body: '{ "amount" : 200 }', headers: { 'Idempotency-Key': 'refund-1' } });
    expect(reordered.status).toBe(200);
    expect(await reordered.text()).toBe(first.text);
    expect(gatewayRefunds(orderId)).toEqual([200]);
    expect((await stack.ledger.getOrder(orderId))!.totals.refunded).toBe(200);
    // Another key is another refund.
    expect((await refund(orderId, 'refund-2')).status).toBe(200);
    expect(gatewayRefunds(orderId)).toEqual([200, 200]);
  });

  it('opens one checkout session however often its creation is sent', async () => {
    await open();
    const create = () =>
      stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 5, currency: 'UAH', description: 'Sencha' }, headers: { 'Idempotency-Key': 'cart-77' } });
    const first = await create();
    const again = await create();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [a, b] = [await first.json(), await again.json()];
    expect(b.id).toBe(a.id);
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
    expect(await stack.ledger.getSession(a.id)).toBeDefined();
  });

  it('takes a retry’s order id sent percent-escaped (`%3A2`, as PHP’s rawurlencode writes `:2`) as the same request', async () => {
    await open();
    const session = await stack.openSession({ amount: 1010 });
    expect((await (await stack.pay(session.id, payBody({ card: card('rejected') }))).json()).status).toBe('failure');
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const retried = `${session.order_id}:2`;
    expect((await refund(retried, 'refund-escaped')).status).toBe(200);
    const escaped = await refund(retried.replace(':', '%3A'), 'refund-escaped');
    expect(escaped).toMatchObject({ status: 200, replayed: 'true' });
    expect(gatewayRefunds(retried)).toEqual([200]);
  });

  it('is refused with 422 idempotency_key_reused for another body or another operation', async () => {
    await open();
    const orderId = await paidOrder();
    expect((await refund(orderId, 'k-1')).status).toBe(200);
    const otherAmount = await refund(orderId, 'k-1', { amount: 300 });
    expect(otherAmount.status).toBe(422);
    expect(JSON.parse(otherAmount.text)).toMatchObject({ error: { code: 'idempotency_key_reused', fields: { 'Idempotency-Key': 'was used for another request' } } });
    const otherOperation = await stack.request('POST', `/api/orders/${orderId}/split-refund`, { admin: true, body: { amount: 200 }, headers: { 'Idempotency-Key': 'k-1' } });
    expect(otherOperation.status).toBe(422);
    expect((await otherOperation.json()).error.code).toBe('idempotency_key_reused');
    expect(gatewayRefunds(orderId)).toEqual([200]);
  });

  it('is refused with 409 idempotency_key_in_use while the first is still running', async () => {
    await open();
    const orderId = await paidOrder();
    await stack.control('PUT', '/_sandbox/faults', { latency_ms: 500, scope: { method: 'POST' } });
    const answers = await Promise.all([refund(orderId, 'slow'), refund(orderId, 'slow')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const busy = answers.find((answer) => answer.status === 409)!;
    expect(JSON.parse(busy.text).error.code).toBe('idempotency_key_in_use');
    // Nor does it claim more than the ledger knows: a crashed companion's claim reads the same.
    expect(JSON.parse(busy.text).error.message).toContain('still running, or the companion running it stopped');
    await stack.control('PUT', '/_sandbox/faults', {});
    expect(await refund(orderId, 'slow')).toMatchObject({ status: 200, replayed: 'true' });
    expect(gatewayRefunds(orderId)).toEqual([200]);
  });

  it('keeps no refusal: a 4xx frees the key for the corrected request', async () => {
    await open();
    const orderId = await paidOrder();
    const tooMuch = await refund(orderId, 'fix-me', { amount: 5000 });
    expect(tooMuch.status).toBe(422);
    expect(JSON.parse(tooMuch.text).error.code).toBe('exceeds_refundable');
    const malformed = await refund(orderId, 'fix-me', { amount: 'two' });
    expect(malformed.status).toBe(400);
    expect(await refund(orderId, 'fix-me', { amount: 500 })).toMatchObject({ status: 200, replayed: null });
    expect(await refund(orderId, 'fix-me', { amount: 500 })).toMatchObject({ status: 200, replayed: 'true' });
    expect(gatewayRefunds(orderId)).toEqual([500]);
  });

  it('replays a kept 5xx as the answer it was, logged as a request, not as the companion failing again', async () => {
    // The gateway answers the re-send with what no client can read: whether it sent a webhook is
    // unknown, so the 502 is kept.
    let garbled = false;
    await open({ gateway: { fetch: (input, init) => (garbled && String(input).includes('callback=true') ? Promise.resolve(new Response('{"status":', { status: 200, headers: { 'Content-Type': 'application/json' } })) : fetch(input, init)) } });
    const orderId = await paidOrder();
    garbled = true;
    const resend = async () => {
      const response = await stack.request('POST', `/api/orders/${orderId}/resend-webhook`, { admin: true, body: { operation: 'purchase' }, headers: { 'Idempotency-Key': 'resend-garbled' } });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
    };
    const failed = await resend();
    expect(failed).toMatchObject({ status: 502, replayed: null });
    expect(JSON.parse(failed.text).error.code).toBe('gateway_error');
    expect(await resend()).toEqual({ status: 502, replayed: 'true', text: failed.text });
    // Each retry a client makes of it would otherwise be an error line, and page someone.
    expect(stack.logs.filter((line) => line.includes('"msg":"request failed"'))).toEqual([]);
  });

  it('frees the key of an operation the gateway never took: the retry its Retry-After invites runs, once', async () => {
    await open();
    const orderId = await paidOrder();
    // Rate limited, then out of reach: each a 503 with Retry-After, the reservation released.
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 429, phase: 'before', scope: { method: 'POST', path: '/api/v1/refund' }, times: 1 });
    const busy = await refund(orderId, 'refund-later');
    expect(busy).toMatchObject({ status: 503, replayed: null });
    expect(JSON.parse(busy.text).error.code).toBe('gateway_busy');
    expect(gatewayRefunds(orderId)).toEqual([]);
    const done = await refund(orderId, 'refund-later');
    expect(done).toMatchObject({ status: 200, replayed: null });
    expect(JSON.parse(done.text).operation).toMatchObject({ kind: 'refund', amount: 200, status: 'success' });
    // From then on the key is the refund's: replayed, never run again.
    expect(await refund(orderId, 'refund-later')).toEqual({ status: 200, replayed: 'true', text: done.text });
    expect(gatewayRefunds(orderId)).toEqual([200]);
    const order = (await stack.ledger.getOrder(orderId))!;
    expect(order.totals.refunded).toBe(200);
    // The refusal stays on the order for the record.
    expect(order.operations.map(({ kind, status }) => `${kind} ${status}`).sort()).toEqual(['refund failure', 'refund success']);
  });

  it('keeps no card number at rest: one typed into a comment is masked in the stored answer', async () => {
    await open();
    const orderId = await paidOrder();
    const body = { amount: 200, comment: 'customer read out 4242 4242 4242 4242 on the phone; call 0501234567' };
    const first = await refund(orderId, 'chatty', body);
    expect(first.status).toBe(200);
    const again = await refund(orderId, 'chatty', body);
    expect(again.replayed).toBe('true');
    expect(JSON.parse(again.text).operation.comment).toBe('customer read out [card number] on the phone; call 0501234567');
    expect(again.text).toBe(first.text);
  });

  it('stores no card number typed into a comment or a description, however its digits are separated', async () => {
    await open();
    const session = await stack.openSession({ amount: 1010, description: 'Tea for card 4242.4242.4242.4242' });
    expect(session.description).toBe('Tea for card [card number]');
    expect((await stack.ledger.getSession(session.id))?.description).toBe('Tea for card [card number]');
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const answer = await refund(session.order_id, 'typed', { amount: 200, comment: 'as read out: 4242  4242  4242  4242' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).operation.comment).toBe('as read out: [card number]');
    const stored = (await stack.ledger.getOrder(session.order_id))!.operations.map((operation) => operation.comment);
    expect(stored).toEqual(['as read out: [card number]']);
    // Nor is it sent: the gateway prints a refund's comment on its receipt, a page the customer opens.
    const { gateway } = stack.sandbox.sandbox;
    expect(gateway.store.order(gateway.defaultProject.posId, session.order_id)?.operations.map((operation) => operation.comment)).toEqual(['as read out: [card number]']);
  });

  it('keeps no key that is or holds a card number: it is stored as a digest, and still replays', async () => {
    await open();
    const orderId = await paidOrder();
    for (const key of ['4111 1111 1111 1111', '4111111111111111']) {
      const first = await refund(orderId, key);
      expect(first.status).toBe(200);
      expect(await refund(orderId, key)).toEqual({ status: 200, replayed: 'true', text: first.text });
    }
    expect(gatewayRefunds(orderId)).toEqual([200, 200]);
    expect(await stack.testLedger.contents!()).not.toMatch(/4111 ?1111/);
    // A key that holds one among other text is kept as a digest too, and replays.
    for (const key of ['ref-4111111111111111', 'card:4242 4242 4242 4242;exp:12/30']) {
      const first = await refund(orderId, key);
      expect(first.status, key).toBe(200);
      expect(await refund(orderId, key)).toEqual({ status: 200, replayed: 'true', text: first.text });
    }
    expect(gatewayRefunds(orderId)).toEqual([200, 200, 200, 200]);
    expect(await stack.testLedger.contents!()).not.toMatch(/4111111111111111|4242 4242/);
    // A key of ordinary digits (a timestamp, an order number) is kept as sent.
    expect((await refund(orderId, 'order-1700000000001')).status).toBe(200);
    expect(await stack.testLedger.contents!()).toContain('"key":"order-1700000000001"');
  });

  it('gives ids back as they were, in free text too, and masks the card number beside them', async () => {
    await open();
    const create = () =>
      stack.request('POST', '/api/checkout/sessions', {
        admin: true,
        body: { amount: 5, currency: 'UAH', description: 'Order 1700000000001231, card 4242 4242 4242 4242', order_id: '1700000000001231' },
        headers: { 'Idempotency-Key': 'numeric-order' },
      });
    const first = await create();
    expect(first.status).toBe(201);
    const firstText = await first.text();
    const again = await create();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const replayed = JSON.parse(await again.text());
    expect(replayed).toEqual({ ...JSON.parse(firstText), description: 'Order 1700000000001231, card [card number]' });
    expect(replayed.order_id).toBe('1700000000001231');
  });

  it('holds across a second instance and a restart on the same ledger file', async () => {
    await open();
    const orderId = await paidOrder();
    const first = await refund(orderId, 'across');
    const restarted = await stack.instance();
    const again = await refund(orderId, 'across', { amount: 200 }, restarted.request);
    expect(again).toEqual({ status: 200, replayed: 'true', text: first.text });
    expect(gatewayRefunds(orderId)).toEqual([200]);
  });
});

/** What an instance that crashed mid-request leaves behind: a claim of `key` and no answer. */
async function crashedClaim(key: string, path: string, body: unknown): Promise<void> {
  const fingerprint = requestFingerprint(ADMIN_TOKEN, 'POST', path, JSON.stringify(body));
  const claim = await stack.ledger.claimIdempotencyKey({ scope: idempotencyScope(ADMIN_TOKEN), key, method: 'POST', path, fingerprint, leaseMs: 5 * 60_000, lifetimeMs: 24 * HOUR });
  expect(claim.outcome).toBe('claimed');
}

/** A card saved by a paid checkout of the customer's; its id. */
async function savedCardOf(customerId: string): Promise<string> {
  const session = await stack.openSession({ customer_id: customerId });
  expect((await (await stack.pay(session.id)).json()).status).toBe('success');
  return eventually(async () => {
    const cards = (await stack.json('GET', `/api/customers/${customerId}/cards`, 200, { admin: true })).cards as Json[];
    expect(cards).toHaveLength(1);
    return cards[0]!.id as string;
  });
}

const renewal = { amount: 500, currency: 'UAH', description: 'Tea club, December', method: 'purchase' };

/** A renewal charge of a saved card under `key`, whose instance died after claiming the key. */
async function crashedCharge(customerId: string, key: string) {
  const clock = new TestClock(Date.now());
  await open({ clock });
  const cardId = await savedCardOf(customerId);
  const path = `/api/customers/${customerId}/cards/${cardId}/charges`;
  await crashedClaim(key, path, renewal);
  return { clock, cardId, path };
}

const paidCharges = async (customerId: string) =>
  ((await stack.json('GET', '/api/orders', 200, { admin: true })).orders as Json[]).filter((order) => order.customer_id === customerId && order.amount === 500 && order.status === 'success');

describe('a keyed request whose instance died before answering', () => {
  it('a charge is answered as the ledger has it as soon as it knows, under an order id derived from its key, and found by that key', async () => {
    const { cardId, path } = await crashedCharge('cust-k', 'renew-1');
    // The dead instance charged before it died: under the order id the key gives a charge without one.
    const orderId = keyedOrderId(ADMIN_TOKEN, 'renew-1');
    expect((await stack.request('POST', path, { admin: true, body: { ...renewal, order_id: orderId } })).status).toBe(201);
    // Within the claim's lease, the retry is answered with the charge, not 409.
    const retry = await stack.request('POST', path, { admin: true, body: renewal, headers: { 'Idempotency-Key': 'renew-1' } });
    expect(retry.status).toBe(201);
    expect(await retry.json()).toMatchObject({ order_id: orderId, status: 'success', card_id: cardId });
    expect(await paidCharges('cust-k')).toHaveLength(1);
    // The merchant finds it by its key.
    const found = await stack.json('GET', '/api/orders?idempotency_key=renew-1', 200, { admin: true });
    expect(found.orders).toMatchObject([{ order_id: orderId, status: 'success' }]);
    expect((await stack.json('GET', '/api/orders?idempotency_key=no-such-key', 200, { admin: true })).orders).toEqual([]);
  });

  it('a charge that never got as far as the ledger is held for the lease, naming its order, then runs once', async () => {
    const { clock, path } = await crashedCharge('cust-n', 'renew-2');
    const held = await stack.request('POST', path, { admin: true, body: renewal, headers: { 'Idempotency-Key': 'renew-2' } });
    expect(held.status).toBe(409);
    expect((await held.json()).error.message).toContain(keyedOrderId(ADMIN_TOKEN, 'renew-2'));
    clock.advance(5 * 60_000);
    const ran = await stack.request('POST', path, { admin: true, body: renewal, headers: { 'Idempotency-Key': 'renew-2' } });
    expect(ran.status).toBe(201);
    expect(await ran.json()).toMatchObject({ order_id: keyedOrderId(ADMIN_TOKEN, 'renew-2'), status: 'success' });
    expect((await stack.request('POST', path, { admin: true, body: renewal, headers: { 'Idempotency-Key': 'renew-2' } })).status).toBe(201);
    expect(await paidCharges('cust-n')).toHaveLength(1);
  });

  it('a charge the gateway never received before its instance died runs again after the lease, as its next attempt', async () => {
    const { clock, path } = await crashedCharge('cust-d', 'renew-3');
    // The dead instance's charge: the gateway rate limited it, so it never took it.
    const orderId = keyedOrderId(ADMIN_TOKEN, 'renew-3');
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 429, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
    expect((await stack.request('POST', path, { admin: true, body: { ...renewal, order_id: orderId } })).status).toBe(503);
    // Not a charge made, whose answer a retry would get: one that runs once the lease is over.
    const held = await stack.request('POST', path, { admin: true, body: renewal, headers: { 'Idempotency-Key': 'renew-3' } });
    expect(held.status).toBe(409);
    expect((await held.json()).error.code).toBe('idempotency_key_in_use');
    clock.advance(5 * 60_000);
    const ran = await stack.request('POST', path, { admin: true, body: renewal, headers: { 'Idempotency-Key': 'renew-3' } });
    expect(ran.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await ran.json()).toMatchObject({ order_id: `${orderId}:2`, status: 'success' });
    expect(await paidCharges('cust-d')).toHaveLength(1);
  });

  it('a session creation is answered with the session once made, and one never made runs after the lease', async () => {
    const clock = new TestClock(Date.now());
    await open({ clock });
    const body = { amount: 500, currency: 'UAH', description: 'Sencha' };
    await crashedClaim('cart-made', '/api/checkout/sessions', body);
    await crashedClaim('cart-lost', '/api/checkout/sessions', body);
    const made = await stack.ledger.createSession({ amount: 500, currency: 'UAH', description: 'Sencha', method: 'purchase', orderId: keyedOrderId(ADMIN_TOKEN, 'cart-made') });
    const create = (key: string) => stack.request('POST', '/api/checkout/sessions', { admin: true, body, headers: { 'Idempotency-Key': key } });
    const answer = await create('cart-made');
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({ id: made.id, order_id: made.orderId });
    expect((await create('cart-lost')).status).toBe(409);
    clock.advance(5 * 60_000);
    const ran = await create('cart-lost');
    expect(ran.status).toBe(201);
    expect(await ran.json()).toMatchObject({ order_id: keyedOrderId(ADMIN_TOKEN, 'cart-lost') });
  });
});

describe('keys of two merchants on one database', () => {
  it('are each merchant’s own: the same key from another admin token is another request', async () => {
    await open();
    const orderId = await paidOrder();
    const OTHER_TOKEN = 'another-merchants-admin-token-0123';
    const other = await stack.instance({ adminToken: OTHER_TOKEN });
    const mine = await refund(orderId, 'shared-key');
    expect(mine.status).toBe(200);
    const theirs = await other.request('POST', '/api/checkout/sessions', {
      body: { amount: 5, currency: 'UAH', description: 'Sencha' },
      headers: { Authorization: `Bearer ${OTHER_TOKEN}`, 'Idempotency-Key': 'shared-key' },
    });
    expect(theirs.status, await theirs.clone().text()).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    // And each still replays its own.
    expect(await refund(orderId, 'shared-key')).toEqual({ status: 200, replayed: 'true', text: mine.text });
  });
});

describe('the Idempotency-Key header', () => {
  it('must be 1 to 255 printable characters: else 400 naming the header, and nothing runs', async () => {
    await open();
    const orderId = await paidOrder();
    for (const [key, reason] of [['', 'must not be empty'], ['k'.repeat(256), 'must be at most 255 characters'], ['clé', 'must be printable ASCII characters']] as const) {
      const answer = await refund(orderId, key);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'invalid_request', fields: { 'Idempotency-Key': reason } } });
      expect(JSON.parse(answer.text).error.message).toContain('Idempotency-Key');
    }
    expect(gatewayRefunds(orderId)).toEqual([]);
    expect((await refund(orderId, 'k'.repeat(255))).status).toBe(200);
  });

  it('must be sent once: two headers are 400 naming it, not a key made of both', async () => {
    await open();
    const orderId = await paidOrder();
    const twice = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const body = JSON.stringify({ amount: 200 });
      const request = httpRequest(`${stack.companionUrl}/api/orders/${orderId}/refund`, { method: 'POST' }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, text }));
      });
      request.on('error', reject);
      request.setHeader('Authorization', `Bearer ${ADMIN_TOKEN}`).setHeader('Content-Type', 'application/json');
      request.setHeader('Idempotency-Key', ['refund-a', 'refund-b']);
      request.end(body);
    });
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.text)).toMatchObject({ error: { code: 'invalid_request', fields: { 'Idempotency-Key': 'must be sent once' } } });
    expect(gatewayRefunds(orderId)).toEqual([]);
    // A key holding a comma and a space, sent once, is a key like any other.
    expect((await refund(orderId, 'refund-a, refund-b')).status).toBe(200);
  });

  it('is the merchant’s alone: without the admin token there is no answer to replay', async () => {
    await open();
    const orderId = await paidOrder();
    const mine = await refund(orderId, 'mine');
    expect(mine.status).toBe(200);
    const stranger = await stack.request('POST', `/api/orders/${orderId}/refund`, { body: { amount: 200 }, headers: { 'Idempotency-Key': 'mine' } });
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toContain('operation');
    const session = () => stack.request('POST', '/api/checkout/sessions', { body: { amount: 5, currency: 'UAH', description: 'Sencha' }, headers: { 'Idempotency-Key': 'mine-too' } });
    expect((await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 5, currency: 'UAH', description: 'Sencha' }, headers: { 'Idempotency-Key': 'mine-too' } })).status).toBe(201);
    expect((await session()).status).toBe(401);
  });
});

describe('every merchant POST', () => {
  it('checks the key on each one the catalog lists, and the document says so', async () => {
    stack = await openStack();
    const merchantPosts = API.filter(takesIdempotencyKey);
    expect(merchantPosts.map((operation) => operation.path)).toEqual(expect.arrayContaining(['/api/checkout/sessions', '/api/orders/:order_id/refund', '/api/orders/:order_id/resend-webhook']));
    const document = await stack.json('GET', '/api/openapi.json', 200);
    for (const operation of merchantPosts) {
      const path = operation.path.replace(/:(\w+)/g, 'x1');
      const answer = await stack.request('POST', path, { admin: true, body: {}, headers: { 'Idempotency-Key': '' } });
      expect(answer.status, path).toBe(400);
      expect((await answer.json()).error.fields, path).toEqual({ 'Idempotency-Key': 'must not be empty' });
      const documented = document.paths[operation.path.replace(/:(\w+)/g, '{$1}')].post;
      expect(documented.parameters, path).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
      expect(documented.responses['409'].description, path).toContain('idempotency_key_in_use');
      expect(documented.responses['422'].description, path).toContain('idempotency_key_reused');
    }
    const pay = document.paths['/api/checkout/sessions/{id}/pay'].post;
    expect(pay.parameters.map((parameter: { name: string }) => parameter.name)).not.toContain('Idempotency-Key');
  });
});

describe('the lifetime of a key', () => {
  it('lives 24 hours: replayed until then, swept and free after', async () => {
    const clock = new TestClock(Date.now());
    await open({ clock });
    const orderId = await paidOrder();
    expect((await refund(orderId, 'daily')).status).toBe(200);
    clock.advance(24 * HOUR - 1);
    expect(await refund(orderId, 'daily')).toMatchObject({ status: 200, replayed: 'true' });
    expect((await stack.companion.companion.reconciler.runOnce()).expiredKeys).toBe(0);
    clock.advance(1);
    expect((await stack.companion.companion.reconciler.runOnce()).expiredKeys).toBe(1);
    expect(await refund(orderId, 'daily')).toMatchObject({ status: 200, replayed: null });
    expect(gatewayRefunds(orderId)).toEqual([200, 200]);
  });

  it('a refund whose instance died is held while its reservation is unsettled, then answered as the ledger settled it, never run again', async () => {
    const clock = new TestClock(Date.now());
    await open({ clock });
    const orderId = await paidOrder();
    const path = `/api/orders/${orderId}/refund`;
    // The instance that crashed mid-request had reserved the refund under its key.
    await crashedClaim('orphan', path, { amount: 200 });
    const reserved = await stack.ledger.reserveOperation(orderId, { kind: 'refund', amount: 200, requestKey: keyedOrderId(ADMIN_TOKEN, 'orphan') });
    const held = await refund(orderId, 'orphan');
    expect(held.status).toBe(409);
    expect(JSON.parse(held.text).error.message).toContain(orderId);
    // Another body never takes over someone else's key, even a dead one's.
    clock.advance(5 * 60_000);
    expect((await refund(orderId, 'orphan', { amount: 300 })).status).toBe(422);
    // Past the lease and still unsettled: held, not run again (it may have reached the gateway).
    expect((await refund(orderId, 'orphan')).status).toBe(409);
    expect(gatewayRefunds(orderId)).toEqual([]);
    // Reconciliation settles it (here: the gateway never had it); the retry is told so at once.
    await stack.ledger.settleOperation(reserved.id, { status: 'failure', statusDescription: 'Never reached the gateway' });
    const told = await refund(orderId, 'orphan');
    expect(told).toMatchObject({ status: 200, replayed: 'true' });
    expect(JSON.parse(told.text).operation).toMatchObject({ id: reserved.id, kind: 'refund', status: 'failure' });
    expect(await refund(orderId, 'orphan')).toEqual(told);
    expect(gatewayRefunds(orderId)).toEqual([]);
    // A new key is a new refund.
    expect((await refund(orderId, 'after-orphan')).status).toBe(200);
    expect(gatewayRefunds(orderId)).toEqual([200]);
  });

  it('a refund whose instance died before reserving it runs once the lease is over; a cancel is answered as interrupted', async () => {
    const clock = new TestClock(Date.now());
    await open({ clock });
    const orderId = await paidOrder();
    await crashedClaim('never-reserved', `/api/orders/${orderId}/refund`, { amount: 200 });
    await crashedClaim('cancel-1', `/api/orders/${orderId}/cancel`, {});
    expect((await refund(orderId, 'never-reserved')).status).toBe(409);
    clock.advance(5 * 60_000);
    expect(await refund(orderId, 'never-reserved')).toMatchObject({ status: 200, replayed: null });
    expect(await refund(orderId, 'never-reserved')).toMatchObject({ status: 200, replayed: 'true' });
    expect(gatewayRefunds(orderId)).toEqual([200]);
    const cancel = await stack.request('POST', `/api/orders/${orderId}/cancel`, { admin: true, body: {}, headers: { 'Idempotency-Key': 'cancel-1' } });
    expect(cancel.status).toBe(500);
    expect(await cancel.json()).toMatchObject({ error: { code: 'request_interrupted', message: expect.stringContaining(orderId) } });
  });
});

describe('a keyed request the database went away during', () => {
  const create = (key: string) =>
    stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' }, headers: { 'Idempotency-Key': key } });

  it('a session made before its answer was lost: the retry gets the session, not the 503 again', async () => {
    await open({ backend: awayOnce('createSession', true) });
    const first = await create('session-away');
    expect(first.status).toBe(503);
    expect((await first.json()).error.code).toBe('ledger_unavailable');
    const retry = await create('session-away');
    expect(retry.status).toBe(201);
    const session = (await retry.json()) as Json;
    expect(session.order_id).toBe(keyedOrderId(ADMIN_TOKEN, 'session-away'));
    expect((await stack.ledger.findSessionOfOrder(session.order_id as string))?.id).toBe(session.id);
    expect(await (await create('session-away')).json()).toEqual(session);
  });

  it('a session never made: the retry makes it, once', async () => {
    await open({ backend: awayOnce('createSession', false) });
    expect((await create('session-never')).status).toBe(503);
    const retry = await create('session-never');
    expect(retry.status).toBe(201);
    const session = (await retry.json()) as Json;
    const again = await create('session-never');
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await again.json()).toEqual(session);
  });

  it('a refund the gateway made, its record lost: pending, recorded once the database is back, never run again', async () => {
    await open({ backend: awayOnce('settleOperation', false) });
    const orderId = await paidOrder();
    const first = await refund(orderId, 'refund-away');
    expect(first.status).toBe(202);
    expect(JSON.parse(first.text).operation).toMatchObject({ kind: 'refund', status: 'pending', amount: 200 });
    expect(await refund(orderId, 'refund-away')).toMatchObject({ status: 202, replayed: 'true', text: first.text });
    expect(gatewayRefunds(orderId)).toEqual([200]);
    await eventually(async () => expect((await stack.ledger.getOrder(orderId))?.operations).toMatchObject([{ kind: 'refund', status: 'success', amount: 200 }]));
  });

  it('a refund whose answer was lost, the database away as its wait is written: pending, never "try again"', async () => {
    let armed = false;
    await open({ backend: awayOnce('settleOperation', false, () => armed) });
    const orderId = await paidOrder();
    // The gateway's 500 before it did anything: the order state does not show the refund.
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 500, phase: 'before', scope: { method: 'POST', path: '/api/v1/refund' }, times: 1 });
    armed = true;
    const first = await refund(orderId, 'refund-lost-away');
    expect(first.status).toBe(202);
    expect(JSON.parse(first.text).operation).toMatchObject({ kind: 'refund', status: 'pending', amount: 200 });
    expect(await stack.ledger.getOrder(orderId)).toMatchObject({ operations: [{ kind: 'refund', status: 'pending', statusDescription: null }] });
  });

  it('a saved-card charge whose session was made but no payment claimed: the retry charges it, once', async () => {
    let armed = false;
    await open({ backend: awayOnce('claimPayAttempt', false, () => armed) });
    const cardId = await savedCardOf('cust-away');
    armed = true;
    const charge = () => stack.request('POST', `/api/customers/cust-away/cards/${cardId}/charges`, { admin: true, body: { amount: 4990, currency: 'UAH', description: 'Renewal' }, headers: { 'Idempotency-Key': 'renewal-away' } });
    expect((await charge()).status).toBe(503);
    const retry = await charge();
    expect(retry.status).toBe(201);
    const answer = (await retry.json()) as Json;
    expect(answer).toMatchObject({ order_id: keyedOrderId(ADMIN_TOKEN, 'renewal-away'), status: 'success', amount: 4990 });
    const again = await charge();
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    const { gateway } = stack.sandbox.sandbox;
    expect(gateway.store.order(gateway.defaultProject.posId, answer.order_id as string)?.payment.status).toBe('success');
  });

  it('a cancel the gateway took, its session left open: the retry is answered as interrupted, naming the order, and the line says why', async () => {
    await open({ backend: awayOnce('closeSession', false) });
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    expect((await stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { body: {} })).status).toBe(200);
    const cancel = () => stack.request('POST', `/api/orders/${session.order_id}/cancel`, { admin: true, body: {}, headers: { 'Idempotency-Key': 'cancel-away' } });
    expect((await cancel()).status).toBe(503);
    const retry = await cancel();
    expect(retry.status).toBe(500);
    expect(await retry.json()).toMatchObject({ error: { code: 'request_interrupted', message: expect.stringContaining(session.order_id) } });
    // Said as what happened: no lease ran out, the database went away.
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('answered as interrupted'));
    expect(said).toMatchObject([{ level: 'warn', msg: expect.stringContaining('or the database went away during it') }]);
    expect((await cancel()).status).toBe(500);
  });

  it('a session answered, its answer not kept: the outage is said though only that statement met it, and the retry gets the session', async () => {
    await open({ backend: awayOnce('storeIdempotentAnswer', false) });
    const first = await create('session-unkept');
    expect(first.status).toBe(201);
    const session = (await first.json()) as Json;
    // No request was answered 503: the tracker hears of it from the middleware, or from no one.
    const lines = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.filter(({ level }) => level === 'error')).toMatchObject([{ msg: expect.stringContaining('the database answers but the ledger’s statements cannot finish in time') }]);
    const retry = await create('session-unkept');
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(session);
  });
});
