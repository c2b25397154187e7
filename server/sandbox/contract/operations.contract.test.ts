/**
 * Contract: every allowed and every refused transition of capture, split capture, void, refund
 * and split refund, through the client over real HTTP, with the webhooks each one sends.
 */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, NotFoundError } from '@payform/gateway';
import type { GatewayClient, Operation } from '@payform/gateway';
import { TEST_SUB_MERCHANTS } from '@payform/gateway/testing';
import { useServedSandbox } from '../testing/served.js';
import { direct, directSplit, hosted } from './params.js';

const sandbox = useServedSandbox();
const hook = () => sandbox.receiver.url();
const [A, B, C] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string, string];

async function order(client: GatewayClient, method: 'purchase' | 'auth', card = '4242424242424242', amount = 10000): Promise<string> {
  return (await client.payments.create(direct(hook(), { method, amount }, card))).order_id;
}

function declined(operation: Operation, code: string): void {
  expect(operation).toMatchObject({ status: 'failure', status_code: code, amount: 0 });
}

const target = (orderId: string) => ({ order_id: orderId, order_currency: 'UAH' });

describe('capture and void: only a successful auth', () => {
  it('full capture (order_currency quirk read as currency), then refunds of the capture', async () => {
    const client = sandbox.client();
    const orderId = await order(client, 'auth');
    const captured = await client.operations.capture({ ...target(orderId), comment: 'shipped', server_url: sandbox.receiver.url('/captures') });
    expect(captured).toMatchObject({ method: 'capture', status: 'success', status_code: '1000', amount: 10000, currency: 'UAH', comment: 'shipped' });
    const events = await sandbox.receiver.waitFor(orderId, 2);
    expect(events[1]).toMatchObject({ method: 'capture', operation_id: captured.operation_id, order_id: orderId });
    expect(sandbox.receiver.received.at(-1)?.path).toBe('/captures');
    expect(await client.operations.refund({ ...target(orderId), refund_amount: 2500 })).toMatchObject({ status: 'success', amount: 2500 });
  });

  it('partial capture and capture beyond the reserve within 15%', async () => {
    const client = sandbox.client();
    expect(await client.operations.capture({ ...target(await order(client, 'auth')), charge_amount: 4050 })).toMatchObject({ status: 'success', amount: 4050 });
    expect(await client.operations.capture({ ...target(await order(client, 'auth')), charge_amount: 11500 })).toMatchObject({ status: 'success', amount: 11500 });
    declined(await client.operations.capture({ ...target(await order(client, 'auth')), charge_amount: 11501 }), '4012');
  });

  it('refuses capture and void of a purchase, a declined auth, a pending auth, a captured or voided auth', async () => {
    const client = sandbox.client();
    const purchase = await order(client, 'purchase');
    const declinedAuth = await order(client, 'auth', '4000000000000069');
    const pendingAuth = await order(client, 'auth', '4000000000003220');
    const slowAuth = await order(client, 'auth', '4000000000000119');
    for (const orderId of [purchase, declinedAuth, pendingAuth, slowAuth]) {
      declined(await client.operations.capture(target(orderId)), '4150');
      declined(await client.operations.void(target(orderId)), '4150');
    }
    const captured = await order(client, 'auth');
    await client.operations.capture(target(captured));
    declined(await client.operations.capture(target(captured)), '4150');
    declined(await client.operations.void(target(captured)), '4150');
    const voided = await order(client, 'auth');
    expect(await client.operations.void({ ...target(voided), comment: 'cancelled by customer' })).toMatchObject({ status: 'success', status_code: '1009', amount: 10000 });
    declined(await client.operations.void(target(voided)), '4150');
    declined(await client.operations.capture(target(voided)), '4150');
    declined(await client.operations.refund(target(voided)), '4150');
    // The declines are reported too, each by its own webhook.
    const events = await sandbox.receiver.waitFor(voided, 5);
    expect(events.map((event) => [event.method, event.status_code])).toEqual([['auth', '1002'], ['void', '1009'], ['void', '4150'], ['capture', '4150'], ['refund', '4150']]);
  });

  it('declines the wrong currency (4124) and answers NotFoundError for an unknown order', async () => {
    const client = sandbox.client();
    declined(await client.operations.capture({ order_id: await order(client, 'auth'), order_currency: 'EUR' }), '4124');
    await expect(client.operations.capture(target('no-such-order'))).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.operations.void(target('no-such-order'))).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.operations.refund(target('no-such-order'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('allows a capture after a 3-D Secure auth has been completed', async () => {
    const client = sandbox.client();
    const pending = await client.payments.create(direct(hook(), { method: 'auth' }, '4000000000003220'));
    await sandbox.control('POST', `/_sandbox/3ds/${pending.payment_id}`, { result: 'success' });
    expect(await client.operations.capture(target(pending.order_id))).toMatchObject({ status: 'success' });
  });
});

describe('refund: only a successful purchase or capture, never above what was paid', () => {
  it('partial refunds add up to the amount; the omitted amount refunds the rest; then nothing is left', async () => {
    const client = sandbox.client();
    const orderId = await order(client, 'purchase');
    const first = await client.operations.refund({ ...target(orderId), refund_amount: 3333, f_receipt_delivery: 'none' });
    expect(first).toMatchObject({ status: 'success', status_code: '1004', amount: 3333, processed_at: '2026-03-02T10:00:00.000' });
    expect(first.receipt_url).toMatch(new RegExp(`^${sandbox.url}/receipts/`));
    declined(await client.operations.refund({ ...target(orderId), refund_amount: 6668 }), '4139');
    expect(await client.operations.refund(target(orderId))).toMatchObject({ status: 'success', amount: 6667 });
    declined(await client.operations.refund({ ...target(orderId), refund_amount: 1 }), '4150');
    const events = await sandbox.receiver.waitFor(orderId, 5);
    expect(events.map((event) => [event.method, event.status, event.amount])).toEqual([
      ['purchase', 'success', 100], ['refund', 'success', 33.33], ['refund', 'failure', 0], ['refund', 'success', 66.67], ['refund', 'failure', 0],
    ]);
  });

  it('refuses refunds of an auth without capture, a decline, a pending payment, a hosted init payment', async () => {
    const client = sandbox.client();
    declined(await client.operations.refund(target(await order(client, 'auth'))), '4150');
    declined(await client.operations.refund(target(await order(client, 'purchase', '4000000000000002'))), '4150');
    declined(await client.operations.refund(target(await order(client, 'purchase', '4000000000000119'))), '4150');
    const params = hosted(hook());
    await client.payments.create(params);
    declined(await client.operations.refund(target(params.order_id)), '4150');
  });

  it('client-side rules hold before the sandbox is asked (order_id over 32, negative amount)', async () => {
    await expect(sandbox.client().operations.refund({ order_id: 'x'.repeat(33), order_currency: 'UAH' })).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('split capture and split refund, per sub-merchant', () => {
  it('split-captures an auth and split-refunds within each captured share, with split_fee', async () => {
    const client = sandbox.client();
    const orderId = await order(client, 'auth');
    const captured = await client.operations.splitCapture({
      ...target(orderId),
      charge_amount: 9000,
      split: [{ amount: 6000, sub_merchant_id: A }, { amount: 3000, sub_merchant_id: C }],
    });
    expect(captured).toMatchObject({ method: 'capture', status: 'success', amount: 9000 });
    const refund = await client.operations.splitRefund({ order_id: orderId, currency: 'UAH', refund_amount: 1000, split: [{ amount: 1000, sub_merchant_id: C }] });
    expect(refund).toMatchObject({ status: 'success', amount: 1000, split_fee: { sub_merchants: [{ sub_merchant_id: C, amount: 15, currency: 'UAH' }] } });
    declined(await client.operations.splitRefund({ order_id: orderId, currency: 'UAH', refund_amount: 2001, split: [{ amount: 2001, sub_merchant_id: C }] }), '4139');
    declined(await client.operations.splitRefund({ order_id: orderId, currency: 'UAH', refund_amount: 100, split: [{ amount: 100, sub_merchant_id: B }] }), '4150');
  });

  it('split-refunds a split purchase share by share; a plain refund then takes the full rest only', async () => {
    const client = sandbox.client();
    const payment = await client.payments.createSplit(directSplit(hook(), [{ amount: 7000, sub_merchant_id: A }, { amount: 3000, sub_merchant_id: B }]));
    const orderId = payment.order_id;
    expect(
      await client.operations.splitRefund({
        order_id: orderId, currency: 'UAH', refund_amount: 5000,
        split: [{ amount: 2000, sub_merchant_id: A }, { amount: 3000, sub_merchant_id: B }],
      }),
    ).toMatchObject({ status: 'success', amount: 5000 });
    declined(await client.operations.splitRefund({ order_id: orderId, currency: 'UAH', refund_amount: 1, split: [{ amount: 1, sub_merchant_id: B }] }), '4139');
    declined(await client.operations.refund({ ...target(orderId), refund_amount: 100 }), '4150');
    expect(await client.operations.refund(target(orderId))).toMatchObject({ status: 'success', amount: 5000 });
  });

  it('refuses split operations on payments without shares, and unknown sub-merchants', async () => {
    const client = sandbox.client();
    const orderId = await order(client, 'purchase');
    declined(await client.operations.splitRefund({ order_id: orderId, currency: 'UAH', refund_amount: 100, split: [{ amount: 100, sub_merchant_id: A }] }), '4150');
    declined(await client.operations.splitCapture({ ...target(orderId), split: [{ amount: 10000, sub_merchant_id: A }] }), '4150');
    const unknown = await client.operations
      .splitCapture({ ...target(await order(client, 'auth')), split: [{ amount: 10000, sub_merchant_id: '0f0e0d0c-0b0a-4908-8706-050403020100' }] })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InvalidRequestError);
  });
});

describe('order state after operations', () => {
  it('lists the auth, its capture and refunds in order, with their own ids', async () => {
    const client = sandbox.client();
    const orderId = await order(client, 'auth');
    const capture = await client.operations.capture({ ...target(orderId), charge_amount: 8000 });
    const refund = await client.operations.refund({ ...target(orderId), refund_amount: 500 });
    const state = await client.orders.get(orderId);
    expect(state.map((entry) => [entry.method, entry.status, entry.amount])).toEqual([
      ['auth', 'success', 10000],
      ['capture', 'success', 8000],
      ['refund', 'success', 500],
    ]);
    expect(state[1]).toMatchObject({ operation_id: capture.operation_id, processed_at: expect.any(String) });
    expect(await client.orders.getOperation(orderId, 'refund')).toMatchObject({ operation_id: refund.operation_id });
  });
});
