// Correctly signed events the ledger must not take as they are: a success of no readable amount,
// another method or point of sale than the payment's, refunds past what was paid, a settled
// refund told with another amount, NUL characters.
// Through the real route, the sandbox over HTTP (its own webhooks held back: the test posts the
// events) and both databases.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testProjectCredentials } from '../../gateway/test-project.js';
import { signWebhook, webhookForm } from '../../gateway/webhook.js';
import { memoryBackend, postgresBackend, withTestDatabase } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const { apiSecret, posId } = testProjectCredentials({});
const open = stacksPerTest();

async function openStack(backend: LedgerBackend): Promise<Stack> {
  const stack = await open({ backend, served: true });
  await stack.control('PUT', '/_sandbox/faults', { webhook_delay_ms: 3_600_000 });
  return stack;
}

async function post(stack: Stack, event: Json): Promise<Response> {
  return stack.request('POST', '/webhooks/gateway', {
    body: new URLSearchParams({ ...webhookForm(event, apiSecret) }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

async function postOk(stack: Stack, event: Json): Promise<Json> {
  const response = await post(stack, event);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** The event the sandbox made for an order's latest step (held back, not delivered), decoded. */
async function sandboxEvent(stack: Stack, orderId: string): Promise<Json> {
  const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${orderId}`);
  const data = new URLSearchParams(deliveries.at(-1).body).get('data')!;
  return JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
}

/** A purchase waiting for its 3-D Secure challenge: pending in the ledger, its event the sandbox's. */
async function pendingPurchase(stack: Stack, session: Json = {}): Promise<{ orderId: string; event: Json }> {
  const opened = await stack.openSession(session);
  const answer = await (await stack.pay(opened.id, payBody({ card: card('three_ds_challenge') }))).json();
  expect(answer.status).toBe('redirect');
  expect((await stack.ledger.getPayment(opened.order_id))?.status).toBe('pending');
  return { orderId: opened.order_id, event: await sandboxEvent(stack, opened.order_id) };
}

const orderOf = (stack: Stack, orderId: string) => stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });

/**
 * A purchase of 10.00 UAH and a refund of 3.00 UAH the gateway told of first (a refund made in its
 * portal), applied: the refund's event, to tell again otherwise, and the operation recorded for it.
 */
async function refundToldByGateway(stack: Stack): Promise<{ orderId: string; paid: Json; refund: Json; recorded: Json }> {
  const session = await stack.openSession({ amount: 1000 });
  expect((await (await stack.pay(session.id)).json()).status).toBe('success');
  const paid = await sandboxEvent(stack, session.order_id);
  const refund = { ...operationEvent(paid, 'refund', 3), status_code: '1004' };
  expect(await postOk(stack, refund)).toMatchObject({ outcome: 'applied' });
  const [recorded] = (await orderOf(stack, session.order_id)).operations;
  return { orderId: session.order_id, paid, refund, recorded };
}

function describeEventChecks(backend: LedgerBackend): void {
  describe(`signed events the ledger does not take as they are (${backend.name})`, () => {
    it.each([
      ['0', 0],
      ['negative', -10.1],
      ['unreadable', '12345678901234.56'],
    ])('a success whose amount is %s is held as a discrepancy, never a plain success', async (_name, amount) => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack);
      const answer = await postOk(stack, { ...event, status: 'success', status_code: '1000', amount });
      expect(answer).toMatchObject({ received: true, outcome: 'unmatched' });
      const { order } = await orderOf(stack, orderId);
      expect(order).toMatchObject({ status: 'pending', discrepancy: { status: 'success', currency: 'UAH', noted_at: expect.any(String) } });
      expect(order.discrepancy.amount).not.toBe(order.amount);
      expect(stack.changes.filter((change) => change.kind === 'payment' && change.status === 'success')).toEqual([]);
      expect(stack.changes.filter((change) => change.kind === 'discrepancy')).toMatchObject([{ orderId, status: 'success', source: 'webhook' }]);
    });

    it('an auth event for a purchase is kept unmatched and not applied; the purchase event is', async () => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack);
      const success = { ...event, status: 'success', status_code: '1000' };
      expect(await postOk(stack, { ...success, method: 'auth' })).toMatchObject({ outcome: 'unmatched' });
      expect((await orderOf(stack, orderId)).order).toMatchObject({ status: 'pending', discrepancy: null });
      expect(stack.changes.filter((change) => change.kind === 'discrepancy' || change.status === 'success')).toEqual([]);
      expect(await postOk(stack, success)).toMatchObject({ outcome: 'applied' });
      expect((await orderOf(stack, orderId)).order.status).toBe('success');
    });

    it('a capture event for a purchase is kept unmatched, not recorded', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession();
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const paid = await sandboxEvent(stack, session.order_id);
      const capture = { ...operationEvent(paid, 'capture', 10.1), status_code: '1000' };
      expect(await postOk(stack, capture)).toMatchObject({ outcome: 'unmatched' });
      expect((await orderOf(stack, session.order_id)).operations).toEqual([]);
    });

    it('an event about an order this ledger does not hold is kept unmatched, and said once a start as a ledger that may be the wrong one', async () => {
      const stack = await openStack(backend);
      const { event } = await pendingPurchase(stack);
      const strangers = [randomUUID().replaceAll('-', '').slice(0, 20), randomUUID().replaceAll('-', '').slice(0, 20)];
      for (const orderId of strangers) expect(await postOk(stack, { ...event, order_id: orderId, status: 'success', status_code: '1000' })).toMatchObject({ outcome: 'unmatched' });
      const said = stack.logs.filter((line) => line.includes('an order this ledger does not hold'));
      expect(said).toHaveLength(1);
      expect(JSON.parse(said[0]!)).toMatchObject({ level: 'warn', order_id: strangers[0], msg: expect.stringContaining('check PAYFORM_DATABASE_URL') });
      // One the ledger holds, kept unmatched for another reason, is not said so.
      expect(stack.logs.filter((line) => line.includes('does not hold') && line.includes(event.order_id as string))).toEqual([]);
    });

    it('an event naming another point of sale is kept unmatched, listed and logged, and never applied', async () => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack);
      const otherPos = randomUUID();
      const foreign = await postOk(stack, { ...event, pos_id: otherPos, status: 'success', status_code: '1000' });
      expect(foreign).toMatchObject({ received: true, duplicate: false, outcome: 'unmatched' });
      expect((await orderOf(stack, orderId)).order.status).toBe('pending');
      const listed = await stack.json('GET', '/api/webhook-events?outcome=unmatched', 200, { admin: true });
      expect(listed.events).toMatchObject([{ order_id: orderId, status: 'success' }]);
      expect(stack.logs.some((line) => line.includes('another point of sale') && line.includes(otherPos))).toBe(true);
      // Tried again (a re-delivery, reconciliation's retry): still not applied.
      expect(await postOk(stack, { ...event, pos_id: otherPos, status: 'success', status_code: '1000' })).toMatchObject({ duplicate: true, outcome: 'unmatched' });
      expect(await stack.ledger.retryEvent(listed.events[0].id)).toMatchObject({ advanced: false, event: { outcome: 'unmatched' } });
      expect((await stack.ledger.getPayment(orderId))?.status).toBe('pending');
      // Its own point of sale, or none named (the gateway may send null), is applied.
      expect(await postOk(stack, { ...event, pos_id: null, status: 'success', status_code: '1000' })).toMatchObject({ outcome: 'applied' });
    });

    it('a refund the ledger never asked for, past what was paid, is recorded and flags the order', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000 });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const paid = await sandboxEvent(stack, session.order_id);
      const refund = { ...operationEvent(paid, 'refund', 103), status_code: '1004' };
      expect(await postOk(stack, refund)).toMatchObject({ outcome: 'applied' });
      const detail = await orderOf(stack, session.order_id);
      expect(detail.operations).toMatchObject([{ kind: 'refund', amount: 10300, status: 'success', origin: 'gateway' }]);
      expect(detail.order).toMatchObject({ status: 'success', discrepancy: { status: 'success', refunded_amount: 10300, noted_at: expect.any(String) } });
      expect(stack.changes.filter((change) => change.kind === 'discrepancy')).toMatchObject([{ orderId: session.order_id, source: 'webhook' }]);
      expect(stack.changes.filter((change) => change.kind === 'operation')).toHaveLength(1);
      expect(stack.changes.filter((change) => change.kind === 'payment')).toHaveLength(1); // the pay answer's success, not told again
      expect((await stack.ledger.getOrder(session.order_id))?.totals.refundable).toBe(0);
    });

    it('a refund the ledger never asked for, within what was paid, is recorded without a flag', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000 });
      await stack.pay(session.id);
      const paid = await sandboxEvent(stack, session.order_id);
      expect(await postOk(stack, { ...operationEvent(paid, 'refund', 10), status_code: '1004' })).toMatchObject({ outcome: 'applied' });
      expect((await orderOf(stack, session.order_id)).order.discrepancy).toBeNull();
    });

    it('a settled refund told again with another amount changes no books, is kept unmatched and flags the order', async () => {
      const stack = await openStack(backend);
      const { orderId, refund, recorded } = await refundToldByGateway(stack);
      expect(await postOk(stack, { ...refund, amount: 7 })).toMatchObject({ outcome: 'unmatched' });
      const detail = await orderOf(stack, orderId);
      expect(detail.operations).toMatchObject([{ id: recorded.id, kind: 'refund', amount: 300, status: 'success' }]);
      expect(detail.totals).toMatchObject({ refunded: 300, refundable: 700 });
      expect(detail.order.discrepancy).toMatchObject({ status: 'success', restated_operation: { id: recorded.id, kind: 'refund', recorded_amount: 300, reported_amount: 700 } });
      expect(stack.changes.filter((change) => change.kind === 'discrepancy')).toMatchObject([{ orderId, source: 'webhook' }]);
    });

    it('a later contradiction is kept beside the first and told under its own id; a redelivery of it tells nothing', async () => {
      const stack = await openStack(backend);
      const { orderId, paid, refund, recorded } = await refundToldByGateway(stack);
      expect(await postOk(stack, { ...refund, amount: 7 })).toMatchObject({ outcome: 'unmatched' });
      // Later, a refund made in the gateway's portal takes the refunds past what was paid.
      const portal = { ...operationEvent(paid, 'refund', 8), status_code: '1004' };
      expect(await postOk(stack, portal)).toMatchObject({ outcome: 'applied' });
      expect(await postOk(stack, portal)).toMatchObject({ duplicate: true });
      expect(await postOk(stack, { ...refund, amount: 7 })).toMatchObject({ duplicate: true, outcome: 'unmatched' });

      const { order } = await orderOf(stack, orderId);
      expect(order.discrepancy).toMatchObject({
        restated_operation: { id: recorded.id, recorded_amount: 300, reported_amount: 700 },
        refunded_amount: null,
        later: [{ status: 'success', refunded_amount: 1100, restated_operation: null, noted_at: expect.any(String) }],
        later_truncated: false,
      });
      expect((await stack.json('GET', '/api/orders?held=true', 200, { admin: true })).orders).toMatchObject([{ order_id: orderId, discrepancy: { later: [{ refunded_amount: 1100 }] } }]);
      const told = stack.changes.filter((change) => change.kind === 'discrepancy');
      expect(told.map((change) => change.id)).toEqual([`discrepancy:${orderId}`, `discrepancy:${orderId}#2`]);
      const { changes } = await stack.json('GET', '/api/changes', 200, { admin: true });
      expect(changes.filter((change: Json) => change.kind === 'discrepancy')).toMatchObject([
        { order_id: orderId, status: 'success', source: 'webhook' },
        { order_id: orderId, status: 'success', source: 'webhook' },
      ]);
    });

    it('keeps twenty contradictions after the first, then says there were more, told once under its own id; settled, the order leaves the held list', async () => {
      const stack = await openStack(backend);
      const { orderId, refund } = await refundToldByGateway(stack);
      // 23 distinct restatements of the refund: 3.01 UAH, 3.02 UAH, …
      for (let n = 1; n <= 23; n += 1) expect(await postOk(stack, { ...refund, amount: (300 + n) / 100 })).toMatchObject({ outcome: 'unmatched' });
      const { order } = await orderOf(stack, orderId);
      expect(order.discrepancy.restated_operation).toMatchObject({ reported_amount: 301 });
      expect(order.discrepancy.later.map((report: Json) => report.restated_operation.reported_amount)).toEqual(Array.from({ length: 20 }, (_, index) => 302 + index));
      expect(order.discrepancy.later_truncated).toBe(true);
      // The first report, the 20 kept after it, the truncation: 22 changes, each told once; the 23rd report changes nothing.
      const told = stack.changes.filter((change) => change.kind === 'discrepancy').map((change) => change.id);
      expect(told).toEqual([`discrepancy:${orderId}`, ...Array.from({ length: 21 }, (_, index) => `discrepancy:${orderId}#${index + 2}`)]);
      const settle = (version: number, status: number) =>
        stack.json('POST', `/api/orders/${orderId}/settle-discrepancy`, status, { admin: true, body: { note: 'Refunded 3.00 UAH; checked with the gateway', version } });
      expect((await settle(21, 409)).error.code).toBe('discrepancy_changed');
      await settle(22, 200);
      expect((await stack.json('GET', '/api/orders?held=true', 200, { admin: true })).orders).toEqual([]);
    });

    it('settling a held order marks its unmatched events reviewed, not a refund parked for its reservation, which still applies', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000 });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const paid = await sandboxEvent(stack, session.order_id);
      // A refund the companion reserved, its answer not back yet: the gateway's event waits for it.
      const reservation = await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 300 });
      const refund: Json = { ...operationEvent(paid, 'refund', 3), status_code: '1004' };
      expect(await postOk(stack, refund)).toMatchObject({ outcome: 'parked' });
      // Meanwhile a post about the payment that cannot be read holds the order.
      expect(await postOk(stack, { ...paid, amount: 1e-9 })).toMatchObject({ outcome: 'unmatched' });
      const waiting = async (outcome: string) => (await stack.json('GET', `/api/webhook-events?outcome=${outcome}`, 200, { admin: true })).events.map((event: Json) => event.method);
      expect([await waiting('unmatched'), await waiting('parked')]).toEqual([['purchase'], ['refund']]);

      await stack.json('POST', `/api/orders/${session.order_id}/settle-discrepancy`, 200, { admin: true, body: { note: 'Checked with the gateway: paid in full', version: 1 } });
      // The held order's own event is settled with it; the refund still waits, listed and counted.
      expect([await waiting('unmatched'), await waiting('parked')]).toEqual([[], ['refund']]);
      expect(await stack.ledger.backlog()).toMatchObject({ unmatchedEvents: 0, parkedEvents: 1 });
      expect((await orderOf(stack, session.order_id)).events).toContainEqual(expect.objectContaining({ method: 'refund', outcome: 'parked', reviewed_at: null }));
      await stack.ledger.settleOperation(reservation.id, { status: 'pending', operationId: refund.operation_id });
      expect(await waiting('parked')).toEqual([]);
      expect((await orderOf(stack, session.order_id)).operations).toMatchObject([{ kind: 'refund', amount: 300, status: 'success' }]);
    });

    it('a capture the ledger never asked for, past what was authorised, is recorded, flags the order and widens no refund', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000, method: 'auth' });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const authorised = await sandboxEvent(stack, session.order_id);
      expect(await postOk(stack, operationEvent(authorised, 'capture', 500))).toMatchObject({ outcome: 'applied' });
      const detail = await orderOf(stack, session.order_id);
      expect(detail.operations).toMatchObject([{ kind: 'capture', amount: 50000, status: 'success', origin: 'gateway' }]);
      expect(detail.order.discrepancy).toMatchObject({ status: 'success', captured_amount: 50000, noted_at: expect.any(String) });
      expect(stack.changes.filter((change) => change.kind === 'discrepancy')).toMatchObject([{ orderId: session.order_id, source: 'webhook' }]);
      // What was authorised can be given back, never what the gateway says it took beyond it.
      expect((await stack.ledger.getOrder(session.order_id))?.totals.refundable).toBe(1000);
    });

    it('a capture the ledger never asked for, within what was authorised, is recorded without a flag', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000, method: 'auth' });
      await stack.pay(session.id);
      const authorised = await sandboxEvent(stack, session.order_id);
      expect(await postOk(stack, operationEvent(authorised, 'capture', 10))).toMatchObject({ outcome: 'applied' });
      expect((await orderOf(stack, session.order_id)).order.discrepancy).toBeNull();
      expect((await stack.ledger.getOrder(session.order_id))?.totals.refundable).toBe(1000);
    });

    it.each(['success', 'failure'])('a signed %s event the companion cannot read (amount 1e-9) is stored unmatched, flags its order, and is answered 200', async (status) => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack);
      const unreadable = { ...event, status, status_code: status === 'success' ? '1000' : '4153', amount: 1e-9 };
      // Any other answer and the gateway resends it for ever.
      expect(await postOk(stack, unreadable)).toMatchObject({ received: true, duplicate: false, outcome: 'unmatched' });
      expect(await postOk(stack, unreadable)).toMatchObject({ received: true, duplicate: true, outcome: 'unmatched' });
      const { order } = await orderOf(stack, orderId);
      // Its figures are unknown, and said so: not an amount of 0 the gateway never reported.
      expect(order).toMatchObject({ status: 'pending', discrepancy: { status, amount: null, unreadable: true, noted_at: expect.any(String) } });
      const listed = await stack.json('GET', '/api/webhook-events?outcome=unmatched', 200, { admin: true });
      expect(listed.events).toMatchObject([{ order_id: orderId, status, method: 'purchase' }]);
      // Its body apart from the readable events: its decimals never stand where minor units do.
      expect(listed.events[0]).toMatchObject({ event: null, event_as_sent: { order_id: orderId, amount: 1e-9 } });
      expect((await orderOf(stack, orderId)).events).toContainEqual(expect.objectContaining({ event: null, event_as_sent: expect.objectContaining({ amount: 1e-9 }) }));
      expect(stack.changes.filter((change) => change.kind === 'discrepancy')).toMatchObject([{ orderId, status, source: 'webhook' }]);
      expect(stack.changes.filter((change) => change.kind === 'payment' && change.status !== 'pending')).toEqual([]);
    });

    it.each([
      ['data that is not base64url', '!!!!'],
      ['an empty order id', Buffer.from(JSON.stringify({ order_id: '', method: 'purchase', status: 'success' })).toString('base64url')],
    ])('a signed post of %s is stored unmatched and answered 200, not refused for the gateway to send for ever', async (_what, data) => {
      const stack = await openStack(backend);
      const response = await stack.request('POST', '/webhooks/gateway', {
        body: new URLSearchParams({ data, signature: signWebhook(data, apiSecret) }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await response.json()).toMatchObject({ received: true, outcome: 'unmatched' });
      const listed = await stack.json('GET', '/api/webhook-events?outcome=unmatched', 200, { admin: true });
      expect(listed.events).toMatchObject([{ order_id: '?', event: null, event_as_sent: expect.anything() }]);
    });

    it('a recurring charge the gateway made on a paid order is kept unmatched and flags it, the first payment untouched', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000 });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const paid = await stack.ledger.getPayment(session.order_id);
      await stack.control('POST', '/_sandbox/recurring', { order_id: session.order_id });
      const charge = await sandboxEvent(stack, session.order_id);
      expect(charge.recurring).toBeTruthy();
      expect(await postOk(stack, charge)).toMatchObject({ outcome: 'unmatched' });
      expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success', transactionId: paid!.transactionId });
      // Flagged with the charge's own figures, not as something unreadable.
      expect((await orderOf(stack, session.order_id)).order.discrepancy).toMatchObject({ status: 'success', amount: 1000 });
      expect(stack.logs.filter((line) => line.includes('recurring charge'))).toHaveLength(1);
    });

    it('a re-send of a recurring payment\'s own transaction applies as any event, flagging nothing', async () => {
      const stack = await openStack(backend);
      const session = await stack.openSession({ amount: 1000 });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const paid = await stack.ledger.getPayment(session.order_id);
      const first = await sandboxEvent(stack, session.order_id);
      expect(first.transaction_id).toBe(paid!.transactionId);
      expect(await postOk(stack, { ...first, recurring: { id: 'sub-1', status: 'active' } })).toMatchObject({ outcome: expect.stringMatching(/^(applied|stale)$/) });
      expect((await orderOf(stack, session.order_id)).order.discrepancy).toBeNull();
      expect(stack.logs.filter((line) => line.includes('recurring charge'))).toEqual([]);
    });

    it('a payment held for a further charge of another sum still takes its own success, which says nothing of what was paid', async () => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack, { amount: 1010 });
      expect((await stack.ledger.getPayment(orderId))?.transactionId).toBe(event.transaction_id);
      // The subscription's next charge, of 12.00 and saying so, comes before the first payment's
      // success (its webhook delayed): another transaction, held for a person, not this payment.
      const charge = { ...event, status: 'success', status_code: '1000', transaction_id: randomUUID(), amount: 12, processed_amount: 12, processed_currency: 'UAH', recurring: { id: 'sub-1', status: 'active' } };
      expect(await postOk(stack, charge)).toMatchObject({ outcome: 'unmatched' });
      expect((await orderOf(stack, orderId)).order).toMatchObject({ status: 'pending', discrepancy: { amount: 1200, paid_amount: 1200 } });
      // The payment's own success names no amount paid, as a card payment's does not: the
      // charge's figures are not this payment's, so it is paid, and stays held for the charge.
      expect(await postOk(stack, { ...event, status: 'success', status_code: '1000' })).toMatchObject({ outcome: 'applied' });
      expect((await orderOf(stack, orderId)).order).toMatchObject({ status: 'success', discrepancy: { paid_amount: 1200, settled: null } });
      expect(stack.changes.filter((change) => change.kind === 'payment').map((change) => change.status)).toContain('success');
    });

    it('a signed event whose status or method is a card number is kept unmatched, the card number masked', async () => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack);
      const wide = '４２４２４２４２４２４２４２４２';
      expect(await postOk(stack, { ...event, status: wide, method: '4242 4242 4242 4242' })).toMatchObject({ outcome: 'unmatched' });
      const listed = await stack.json('GET', '/api/webhook-events?outcome=unmatched', 200, { admin: true });
      expect(listed.events).toMatchObject([{ order_id: orderId, status: '[card number]', method: '[card number]' }]);
      expect(JSON.stringify(listed)).not.toMatch(/4242|４２４２/);
    });

    it('a signed event with NUL characters is stored with them replaced, answered 200, never a 500', async () => {
      const stack = await openStack(backend);
      const { orderId, event } = await pendingPurchase(stack);
      const response = await post(stack, { ...event, status: 'failure', status_code: '4153', status_description: 'Declined\u0000 by issuer', gateway_order_id: 'g\u0000' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ outcome: 'applied' });
      const detail = await orderOf(stack, orderId);
      expect(detail.order).toMatchObject({ status: 'failure', status_description: 'Declined\uFFFD by issuer', gateway_order_id: 'g\uFFFD' });
      // The body is kept as received, alike on both databases: the NUL stays the escape it was sent as.
      expect(detail.events.at(-1).event).toMatchObject({ status_description: 'Declined\u0000 by issuer', gateway_order_id: 'g\u0000' });
      // One naming an order id with a NUL is kept, applying to nothing.
      const stray = await post(stack, { ...event, order_id: `${orderId}\u0000`, status: 'success' });
      expect(stray.status).toBe(200);
      expect(await stray.json()).toMatchObject({ outcome: 'unmatched' });
      const listed = await stack.json('GET', '/api/webhook-events?outcome=unmatched', 200, { admin: true });
      expect(listed.events).toMatchObject([{ order_id: `${orderId}\uFFFD` }]);
    });
  });
}

/** A secondary event as the gateway posts it, on the payment `primary` describes. */
function operationEvent(primary: Json, method: 'capture' | 'refund', amount: number): Json {
  return {
    operation_id: randomUUID(),
    payment_id: primary.payment_id,
    order_id: primary.order_id,
    pos_id: posId,
    mode: 'direct',
    method,
    amount,
    currency: primary.currency,
    status: 'success',
    created_at: primary.created_at,
  };
}

describeEventChecks(memoryBackend);
withTestDatabase((url) => describeEventChecks(postgresBackend(url)));
