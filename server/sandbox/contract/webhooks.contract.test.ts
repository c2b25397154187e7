/**
 * Contract: webhooks as an independent receiver sees them — form posts to server_url, signatures
 * checked with the receiver's own code, retries with backoff when it fails, and the webhook
 * faults: duplicates, delay, reordering.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GatewayClient, minorUnits, readWebhook } from '@payform/gateway';
import { serveSandbox, useServedSandbox } from '../testing/served.js';
import { direct } from './params.js';

const sandbox = useServedSandbox();
const hook = () => sandbox.receiver.url('/webhooks/gateway');

interface Delivery {
  status: string;
  attempts: { http_status?: number }[];
  duplicate_of?: string;
  next_attempt_at?: string;
}
const deliveries = async (orderId: string) => (await sandbox.control<{ deliveries: Delivery[] }>('GET', `/_sandbox/webhooks?order_id=${orderId}`)).deliveries;

describe('webhook delivery', () => {
  it('posts application/x-www-form-urlencoded data + signature that the receiver verifies and the companion can read', async () => {
    const payment = await sandbox.client().payments.create(direct(hook()));
    await sandbox.receiver.waitFor(payment.order_id, 1);
    const [webhook] = sandbox.receiver.received;
    expect(webhook).toMatchObject({ path: '/webhooks/gateway', contentType: 'application/x-www-form-urlencoded', signatureValid: true });
    expect(webhook?.signature).toMatch(/^[A-Za-z0-9_-]{27}=$/);
    expect(webhook?.event).toMatchObject({ payment_id: payment.payment_id, order_id: payment.order_id, amount: 10.1, status: 'success' });
    // The shared reader accepts what the sandbox sent (one wire format on both ends).
    const event = readWebhook({ data: webhook?.data ?? '', signature: webhook?.signature ?? '' }, sandbox.project.apiSecret);
    expect(event).toMatchObject({ amount: 1010, status_code: '1000' });
  });

  it('retries with backoff until the receiver accepts, recording every attempt', async () => {
    sandbox.receiver.answer(500, 503);
    const payment = await sandbox.client().payments.create(direct(hook()));
    await sandbox.receiver.waitFor(payment.order_id, 1);
    await waitUntil(async () => (await deliveries(payment.order_id))[0]?.status === 'retrying');
    expect((await deliveries(payment.order_id))[0]?.next_attempt_at).toBe('2026-03-02T10:00:01.000');
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 1_000 });
    await sandbox.receiver.waitFor(payment.order_id, 2);
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 5_000 });
    const received = await sandbox.receiver.waitFor(payment.order_id, 3);
    expect(sandbox.receiver.received.map((webhook) => webhook.answered)).toEqual([500, 503, 200]);
    expect(new Set(received.map((event) => JSON.stringify(event))).size).toBe(1);
    await waitUntil(async () => (await deliveries(payment.order_id))[0]?.status === 'delivered');
    expect((await deliveries(payment.order_id))[0]?.attempts.map((attempt) => attempt.http_status)).toEqual([500, 503, 200]);
  });

  it('delivers duplicates when asked: the same signed data, each copy logged', async () => {
    await sandbox.control('PUT', '/_sandbox/faults', { webhook_duplicates: 1 });
    const payment = await sandbox.client().payments.create(direct(hook()));
    const events = await sandbox.receiver.waitFor(payment.order_id, 2);
    expect(events[0]).toEqual(events[1]);
    expect(sandbox.receiver.received.every((webhook) => webhook.signatureValid)).toBe(true);
    expect((await deliveries(payment.order_id)).filter((delivery) => delivery.duplicate_of)).toHaveLength(1);
  });

  it('delays and reorders when asked: the final status can arrive before the pending one', async () => {
    await sandbox.control('PUT', '/_sandbox/faults', { webhook_reorder: true });
    const client = sandbox.client();
    const payment = await client.payments.create(direct(hook(), {}, '4000000000003220'));
    await sandbox.control('POST', `/_sandbox/3ds/${payment.payment_id}`, { result: 'success' });
    const events = await sandbox.receiver.waitFor(payment.order_id, 2);
    expect(events.map((event) => event.status)).toEqual(['success', 'pending']);

    await sandbox.control('PUT', '/_sandbox/faults', { webhook_delay_ms: 60_000 });
    const delayed = await client.payments.create(direct(hook()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sandbox.receiver.events(delayed.order_id)).toEqual([]);
    await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 60_000 });
    await sandbox.receiver.waitFor(delayed.order_id, 1);
  });
});

describe('the delivery log, GET /_sandbox/webhooks', () => {
  it('narrows by the delivery’s progress (status) or the event’s own status (event_status), and refuses a filter that matches nothing by its spelling', async () => {
    const client = sandbox.client();
    const paid = await client.payments.create(direct(hook()));
    const declined = await client.payments.create(direct(hook(), {}, '4000000000000002'));
    await sandbox.receiver.waitFor(declined.order_id, 1);
    await waitUntil(async () => (await listed('')).every((delivery) => delivery.status === 'delivered'));
    expect((await listed('?event_status=success')).map((delivery) => delivery.order_id)).toEqual([paid.order_id]);
    expect((await listed('?event_status=failure&method=purchase')).map((delivery) => delivery.order_id)).toEqual([declined.order_id]);
    expect(await listed('?status=delivered')).toHaveLength(2);
    // `success` is an event's status, not a delivery's: an empty list would read as "no webhook sent".
    const refused = await fetch(`${sandbox.url}/_sandbox/webhooks?status=success`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      args: [{ field_name: 'status', violation: 'must be one of scheduled, held, delivering, retrying, delivered, failed, dropped: a delivery\'s progress (the event\'s own status is event_status)' }],
    });
    expect((await fetch(`${sandbox.url}/_sandbox/webhooks?method=payment`)).status).toBe(400);
  });

  it('answers a page at a time, oldest first, 100 by default: following the cursor lists each delivery once', async () => {
    await sandbox.control('PUT', '/_sandbox/faults', { webhook_duplicates: 10 });
    const client = sandbox.client();
    const orders: string[] = [];
    for (let i = 0; i < 10; i += 1) orders.push((await client.payments.create(direct(hook()))).order_id);
    const first = await page('');
    expect(first.deliveries).toHaveLength(100);
    expect(first.more).toBe(true);
    const rest = await page(`?after=${first.cursor}`);
    expect(rest.deliveries).toHaveLength(10);
    expect(rest.more).toBe(false);
    const all = [...first.deliveries, ...rest.deliveries];
    expect(new Set(all.map((delivery) => delivery.id)).size).toBe(110);
    expect(all.map((delivery) => delivery.order_id)).toEqual(orders.flatMap((orderId) => Array.from({ length: 11 }, () => orderId)));
    // Nothing new past the last page's cursor, until something is sent.
    expect(await page(`?after=${rest.cursor}`)).toEqual({ deliveries: [], cursor: rest.cursor, more: false });
    const later = (await client.payments.create(direct(hook()))).order_id;
    expect((await page(`?after=${rest.cursor}&limit=1000`)).deliveries.map((delivery) => delivery.order_id)).toEqual(Array.from({ length: 11 }, () => later));
  });

  it('pages within the filters: a page holds only matching deliveries, and says when none are left', async () => {
    const client = sandbox.client();
    const paid: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      paid.push((await client.payments.create(direct(hook()))).order_id);
      await client.payments.create(direct(hook(), {}, '4000000000000002'));
    }
    const seen: string[] = [];
    let cursor = 0;
    for (let more = true; more; ) {
      const next = await page(`?event_status=success&limit=2&after=${cursor}`);
      expect(next.deliveries.length).toBeLessThanOrEqual(2);
      seen.push(...next.deliveries.map((delivery) => delivery.order_id));
      ({ cursor, more } = next);
    }
    expect(seen).toEqual(paid);
    const [firstOrder] = paid;
    expect(await page(`?order_id=${firstOrder}&limit=1`)).toMatchObject({ deliveries: [{ order_id: firstOrder }], more: false });
  });

  it('refuses a limit or cursor it cannot use with 400 naming the parameter', async () => {
    for (const [query, field, violation] of [
      ['limit=0', 'limit', 'must be a whole number from 1 to 1000'],
      ['limit=1001', 'limit', 'must be a whole number from 1 to 1000'],
      ['limit=ten', 'limit', 'must be a whole number from 1 to 1000'],
      ['limit=', 'limit', 'must be a whole number from 1 to 1000'],
      ['after=-1', 'after', 'must be a cursor: the whole number a page answered as its cursor'],
      ['after=1.5', 'after', 'must be a cursor: the whole number a page answered as its cursor'],
    ]) {
      const refused = await fetch(`${sandbox.url}/_sandbox/webhooks?${query}`);
      expect(refused.status, query).toBe(400);
      expect(await refused.json(), query).toMatchObject({ args: [{ field_name: field, violation }] });
    }
  });
});

const page = (query: string) =>
  sandbox.control<{ deliveries: { id: string; order_id: string }[]; cursor: number; more: boolean }>('GET', `/_sandbox/webhooks${query}`);

const listed = async (query: string) =>
  (await sandbox.control<{ deliveries: { order_id: string; status: string }[] }>('GET', `/_sandbox/webhooks${query}`)).deliveries;

describe('a declined capture, void or refund', () => {
  it('is reported by its own signed webhook: its method, operation id and status failure with the code', async () => {
    const client = sandbox.client();
    const auth = (await client.payments.create(direct(hook(), { method: 'auth' }))).order_id;
    await sandbox.receiver.waitFor(auth, 1);
    const overCaptured = await client.operations.capture({ order_id: auth, order_currency: 'UAH', charge_amount: minorUnits(1162), server_url: sandbox.receiver.url('/captures') });
    expect(overCaptured).toMatchObject({ status: 'failure', status_code: '4012' });
    const voidOfNothing = await client.operations.void({ order_id: (await client.payments.create(direct(hook()))).order_id, order_currency: 'UAH' });
    expect(voidOfNothing).toMatchObject({ status: 'failure', status_code: '4150' });
    const refunded = await client.payments.create(direct(hook()));
    const overRefunded = await client.operations.refund({ order_id: refunded.order_id, order_currency: 'UAH', refund_amount: minorUnits(1011) });
    expect(overRefunded).toMatchObject({ status: 'failure', status_code: '4139' });

    for (const [orderId, operation, count, path] of [
      [auth, overCaptured, 2, '/captures'],
      [voidOfNothing.order_id, voidOfNothing, 2, '/webhooks/gateway'],
      [refunded.order_id, overRefunded, 2, '/webhooks/gateway'],
    ] as const) {
      const events = await sandbox.receiver.waitFor(orderId, count);
      expect(events.at(-1)).toEqual(expect.objectContaining({
        method: operation.method,
        operation_id: operation.operation_id,
        order_id: orderId,
        status: 'failure',
        status_code: operation.status_code,
        status_description: operation.status_description,
        amount: 0,
      }));
      const webhook = sandbox.receiver.received.findLast((received) => received.event.order_id === orderId);
      expect(webhook).toMatchObject({ path, signatureValid: true });
      // The shared reader takes it as payform's companion reads it.
      expect(readWebhook({ data: webhook?.data ?? '', signature: webhook?.signature ?? '' }, sandbox.project.apiSecret)).toMatchObject({ status: 'failure', amount: 0 });
    }
    const log = await sandbox.control<{ deliveries: { method: string; event_status: string; reason: string }[] }>('GET', `/_sandbox/webhooks?order_id=${refunded.order_id}`);
    expect(log.deliveries.map((delivery) => [delivery.method, delivery.event_status, delivery.reason])).toEqual([['purchase', 'success', 'status_change'], ['refund', 'failure', 'status_change']]);
  });

  it('is sent again on ?callback=true as the latest of its kind, or by its transactionId', async () => {
    const client = sandbox.client();
    const orderId = (await client.payments.create(direct(hook()))).order_id;
    const refund = await client.operations.refund({ order_id: orderId, order_currency: 'UAH', refund_amount: minorUnits(500) });
    const declined = await client.operations.refund({ order_id: orderId, order_currency: 'UAH', refund_amount: minorUnits(600) });
    expect([refund.status, declined.status]).toEqual(['success', 'failure']);
    await sandbox.receiver.waitFor(orderId, 3);
    expect(await client.orders.resendWebhook(orderId, 'refund')).toMatchObject({ operation_id: declined.operation_id, status: 'failure' });
    await client.orders.resendWebhook(orderId, 'refund', { transactionId: refund.transaction_id ?? '' });
    // A UUID written in upper case (RFC 4122 allows it) names the same transaction.
    await client.orders.resendWebhook(orderId, 'refund', { transactionId: (refund.transaction_id ?? '').toUpperCase() });
    const events = await sandbox.receiver.waitFor(orderId, 6);
    expect(events.slice(3).map((event) => [event.operation_id, event.status])).toEqual([[declined.operation_id, 'failure'], [refund.operation_id, 'success'], [refund.operation_id, 'success']]);
  });
});

describe('a receiver that does not answer', () => {
  it('has each attempt given up as a timeout after the configured time, then the delivery failed', async () => {
    const silent = createServer(() => {}); // reads the post and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const served = await serveSandbox({ webhooks: { timeoutMs: 100, retryDelaysMs: [10] } });
    try {
      const project = served.app.sandbox.gateway.defaultProject;
      const client = new GatewayClient({ baseUrl: served.url, posId: project.posId, apiKey: project.apiKey, apiSecret: project.apiSecret, endpointsKey: project.endpointsKey });
      const payment = await client.payments.create(direct(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/webhooks`));
      const delivery = () => served.app.sandbox.gateway.webhooks.list().find((entry) => entry.order_id === payment.order_id);
      await waitUntil(async () => delivery()?.status === 'failed');
      expect(delivery()?.attempts.map((attempt) => attempt.error)).toEqual(['timeout', 'timeout']);
    } finally {
      await served.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
