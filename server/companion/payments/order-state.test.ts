// Reading an order's state as the live gateway gives it: its entries promise only method,
// status, status_code, amount, created_at and processing_time — no currency, no operation_id.
// The sandbox says more, so its answers are cut down to that here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { createStack, payBody } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const LIVE_FIELDS = ['method', 'status', 'status_code', 'amount', 'created_at', 'processing_time'];

let stack: Stack;
let clock: TestClock;
let loseAnswers: RegExp | undefined;
/** Entries the gateway shows besides what the sandbox knows (e.g. made elsewhere). */
let extraEntries: Json[];
/** How the gateway's entries differ from the sandbox's. */
let alterEntries: (entry: Json) => Json;

const liveEntry = (entry: Json) => Object.fromEntries(Object.entries(entry).filter(([field]) => LIVE_FIELDS.includes(field)));

beforeEach(async () => {
  clock = new TestClock(Date.now());
  loseAnswers = undefined;
  extraEntries = [];
  alterEntries = (entry) => entry;
  stack = await createStack({
    clock,
    gateway: {
      retry: { maxRetries: 0 },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const response = await stack.sandbox.fetch(request.clone());
        if (loseAnswers?.test(request.url)) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        if (request.method !== 'GET' || !/\/orders\/[^/]+$/.test(new URL(request.url).pathname) || !response.ok) return response;
        const entries = [...((await response.json()) as Json[]), ...extraEntries];
        return Response.json(entries.map(alterEntries).map(liveEntry));
      },
    },
  });
  stack.dropWebhooks = true;
});
afterEach(async () => {
  await stack.close();
});

/** The webhooks the sandbox tried to send for an order, in order, as form bodies. */
async function heldWebhooks(orderId: string, method: string): Promise<string[]> {
  const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${orderId}`);
  return deliveries
    .filter((delivery: Json) => JSON.parse(Buffer.from(delivery.body.data, 'base64url').toString()).method === method)
    .map((delivery: Json) => new URLSearchParams(delivery.body).toString());
}

const deliver = async (form: string) =>
  (await stack.request('POST', '/webhooks/gateway', { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).json();

const refund = (orderId: string, amount: number, status = 200) => stack.json('POST', `/api/orders/${orderId}/refund`, status, { admin: true, body: { amount } });

describe('an order state without currency or operation ids', () => {
  it('recovers a lost pay answer', async () => {
    const session = await stack.openSession();
    loseAnswers = /\/api\/v1\/payment$/;
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success' });
  });

  it('never applies an entry of another amount: another payment under this order id', async () => {
    const session = await stack.openSession();
    alterEntries = (entry) => (entry.method === 'purchase' ? { ...entry, amount: 1 } : entry);
    loseAnswers = /\/api\/v1\/payment$/;
    expect((await (await stack.pay(session.id)).json()).status).toBe('pending');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'init' });
  });

  it('settles a stale payment in reconciliation', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    await stack.settleWebhooks();
    await new Promise((resolve) => setTimeout(resolve, 400));
    clock.advance(61 * SECOND);
    expect(await stack.companion.companion.reconciler.runOnce()).toMatchObject({ checkedPayments: 1, failures: 0 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success' });
  });

  it('settles a refund whose answer was lost by kind and amount; its webhook later counts it once', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    loseAnswers = /\/api\/v1\/refund$/;
    const answer = await refund(session.order_id, 400);
    expect(answer.operation).toMatchObject({ status: 'success', amount: 400, operation_id: null });
    loseAnswers = undefined;
    const [webhook] = await heldWebhooks(session.order_id, 'refund');
    expect(await deliver(webhook!)).toMatchObject({ outcome: expect.stringMatching(/^(applied|stale)$/) });
    const detail = await stack.ledger.getOrder(session.order_id);
    expect(detail?.operations).toMatchObject([{ kind: 'refund', status: 'success', amount: 400, operationId: expect.any(String), origin: 'merchant' }]);
    expect(detail?.totals).toMatchObject({ refunded: 400, refundable: 610 });
  });

  it('a webhook that came while the refund waited is its own once the order state settles it', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    loseAnswers = /\/api\/v1\/(refund|pos\/.*\/orders\/.*)$/;
    expect((await refund(session.order_id, 400, 202)).operation).toMatchObject({ status: 'pending' });
    const [webhook] = await heldWebhooks(session.order_id, 'refund');
    expect(await deliver(webhook!)).toMatchObject({ outcome: 'parked' });
    loseAnswers = undefined;
    clock.advance(31 * SECOND);
    expect(await stack.companion.companion.reconciler.runOnce()).toMatchObject({ checkedOperations: 1, settled: 1 });
    const detail = await stack.ledger.getOrder(session.order_id);
    expect(detail?.operations).toHaveLength(1);
    expect(detail?.totals).toMatchObject({ refunded: 400, refundable: 610 });
    expect(detail?.events.map((event) => event.outcome)).toEqual(['applied']);
  });

  it('says once, as a warning, when the gateway shows the refund dated before it was asked for: this clock runs ahead', async () => {
    clock.advance(20 * MINUTE);
    const session = await stack.openSession();
    await stack.pay(session.id);
    loseAnswers = /\/api\/v1\/(refund|pos\/.*\/orders\/.*)$/;
    expect((await refund(session.order_id, 300, 202)).operation).toMatchObject({ status: 'pending' });
    loseAnswers = undefined;
    const clockLines = () => stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => /this machine's clock runs/.test(entry.msg));
    for (let pass = 0; pass < 2; pass += 1) {
      clock.advance(31 * SECOND);
      await stack.companion.companion.reconciler.runOnce();
    }
    // Not taken for it (an operation made elsewhere before would look the same), but said.
    expect((await stack.ledger.getOrder(session.order_id))?.operations).toMatchObject([{ status: 'pending', amount: 300 }]);
    expect(clockLines().map((entry) => entry.level)).toEqual(['warn', 'debug']);
    expect(clockLines()[0]).toMatchObject({ order_id: session.order_id, msg: expect.stringContaining('runs 20 min ahead of the gateway') });
  });

  it('takes an entry a day and more before the reservation for one made elsewhere, not for a clock: no warning', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 300 });
    extraEntries = [{ method: 'refund', status: 'success', status_code: '1004', amount: 3, created_at: new Date(clock.now - 48 * 60 * MINUTE).toISOString().slice(0, 23) }];
    clock.advance(31 * SECOND);
    await stack.companion.companion.reconciler.runOnce();
    const clockLines = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => /this machine's clock runs/.test(entry.msg));
    expect(clockLines.map((entry) => entry.level)).toEqual(['debug']);
  });

  it('matches a reservation only to an operation of its amount, made after it', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    // Never sent (a crash right after reserving), and an older refund of the same amount made elsewhere.
    const unsent = await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 300 });
    clock.advance(SECOND);
    extraEntries = [{ method: 'refund', status: 'success', status_code: '1004', amount: 3, created_at: new Date(clock.now - 2 * 60 * MINUTE).toISOString().slice(0, 23) }];
    loseAnswers = /\/api\/v1\/refund$/;
    const lost = await refund(session.order_id, 200);
    expect(lost.operation).toMatchObject({ status: 'success', amount: 200 });
    expect(await stack.ledger.getOperation(unsent.id)).toMatchObject({ status: 'pending', amount: 300 });
  });
});
