import { beforeEach, describe, expect, it } from 'vitest';
import { OperationResponse } from '@payform/gateway/wire';
import { SUB_A, SUB_B, SUB_C, directPayment, hostedPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox();
});

async function paid(method: 'purchase' | 'auth', overrides: Json = {}, card?: string): Promise<string> {
  const payment = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { method, amount: 100, ...overrides }, card));
  return String(payment.order_id);
}

const target = (orderId: string, extra: Json = {}) => ({ pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', ...extra });
const capture = (orderId: string, extra: Json = {}) => sandbox.postJson('/api/v1/capture', target(orderId, extra));
const voidAuth = (orderId: string, extra: Json = {}) => sandbox.postJson('/api/v1/void', target(orderId, extra));
const refund = (orderId: string, extra: Json = {}) => sandbox.postJson('/api/v1/refund', target(orderId, extra));
const state = (orderId: string) => sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`);

function expectDeclined(operation: Json, code: string): void {
  expect(operation).toMatchObject({ status: 'failure', status_code: code, amount: 0, fee: null });
  expect(String(operation.status_description)).not.toBe('');
}

describe('capture', () => {
  it('captures a successful auth in full: 1000, order_currency instead of currency, processing_time', async () => {
    const orderId = await paid('auth');
    const captured = await capture(orderId, { comment: 'shipped' });
    expect(OperationResponse.safeParse(captured).success).toBe(true);
    expect(captured).toMatchObject({
      method: 'capture', mode: 'direct', order_id: orderId, amount: 100, order_currency: 'UAH', status: 'success',
      status_code: '1000', comment: 'shipped', fee: { amount: 1.55, currency: 'UAH' }, processing_time: '2026-03-02T10:00:00.000',
    });
    expect(captured).not.toHaveProperty('currency');
    expect(captured).not.toHaveProperty('receipt_url');
    await sandbox.deliver();
    const events = sandbox.inbox.events(orderId);
    expect(events.at(-1)).toMatchObject({ method: 'capture', operation_id: captured.operation_id, order_id: orderId, currency: 'UAH', amount: 100, status: 'success' });
  });

  it('captures part of the reserve with charge_amount and names the currency currency', async () => {
    const captured = await capture(await paid('auth'), { charge_amount: '60.5' });
    expect(captured).toMatchObject({ amount: 60.5, currency: 'UAH', status: 'success' });
    expect(captured).not.toHaveProperty('order_currency');
  });

  it('captures beyond the reserve up to the project percentage (15%), and declines beyond it with 4012', async () => {
    expect(await capture(await paid('auth'), { charge_amount: 115 })).toMatchObject({ status: 'success', amount: 115 });
    const orderId = await paid('auth');
    const declined = await capture(orderId, { charge_amount: 115.01 });
    expectDeclined(declined, '4012');
    // A partial capture names its currency `currency`, declined or not; only a full one says `order_currency`.
    expect(declined).toMatchObject({ currency: 'UAH' });
    expect(declined).not.toHaveProperty('order_currency');
    expect(await capture(orderId, { charge_amount: 100 })).toMatchObject({ status: 'success' });
  });

  it('follows the per-project percentage', async () => {
    sandbox = testSandbox({ projects: [{ captureOverReservePercent: 0 }] });
    expectDeclined(await capture(await paid('auth'), { charge_amount: 100.01 }), '4012');
  });

  it('captures exactly up to a fractional percentage: 28.2% over 5.00 is 6.41, not one unit less', async () => {
    // 500 × 1.282 is 640.99999… in floating point; the limit is 641 minor units.
    sandbox = testSandbox({ projects: [{ captureOverReservePercent: 28.2 }] });
    expect(await capture(await paid('auth', { amount: 5 }), { charge_amount: 6.41 })).toMatchObject({ status: 'success', amount: 6.41 });
    expectDeclined(await capture(await paid('auth', { amount: 5 }), { charge_amount: 6.42 }), '4012');
  });

  it('declines a capture of a purchase, a failed or pending auth, a second capture and a voided auth (4150)', async () => {
    expectDeclined(await capture(await paid('purchase')), '4150');
    expectDeclined(await capture(await paid('auth', {}, '4000000000009995')), '4150');
    expectDeclined(await capture(await paid('auth', {}, '4000000000003220')), '4150');
    const once = await paid('auth');
    await capture(once, { charge_amount: 10 });
    expectDeclined(await capture(once), '4150');
    const voided = await paid('auth');
    await voidAuth(voided);
    expectDeclined(await capture(voided), '4150');
  });

  it('declines an order currency that is not the order’s (4124), records the failed operation and reports it by webhook', async () => {
    const orderId = await paid('auth');
    await sandbox.deliver();
    const before = sandbox.inbox.received.length;
    const declined = await capture(orderId, { order_currency: 'USD' });
    expectDeclined(declined, '4124');
    await sandbox.deliver();
    expect(sandbox.inbox.received.slice(before).map((delivery) => delivery.event)).toEqual([
      expect.objectContaining({
        method: 'capture', operation_id: declined.operation_id, order_id: orderId, status: 'failure', status_code: '4124',
        status_description: declined.status_description, amount: 0, currency: 'UAH',
      }),
    ]);
    const entries = await state(orderId);
    expect(entries.map((entry) => [entry.method, entry.status])).toEqual([['auth', 'success'], ['capture', 'failure']]);
    expect(await capture(orderId)).toMatchObject({ status: 'success' });
  });

  it('answers 404 for an unknown order and 400 for an order_id over 32 characters', async () => {
    const missing = await sandbox.post('/api/v1/capture', target('no-such-order'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Order no-such-order not found', args: { code: 'P-404' } });
    // A path is quoted back with any card number in it masked.
    expect(await (await sandbox.get('/api/v1/order/4111%201111%201111%201111/state')).json()).toMatchObject({ message: expect.stringMatching(/^GET \/api\/v1\/order\/\[card number\]\/state not found$/) });
    const long = await sandbox.post('/api/v1/capture', target('x'.repeat(33)));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ args: [{ field_name: 'order_id', violation: 'must be at most 32 characters' }] });
  });
});

describe('void', () => {
  it('voids a successful auth: 1009 for the reserved amount, once', async () => {
    const orderId = await paid('auth');
    const voided = await voidAuth(orderId, { comment: 'customer changed mind' });
    expect(voided).toMatchObject({ method: 'void', status: 'success', status_code: '1009', amount: 100, currency: 'UAH', fee: null });
    expect(voided).toHaveProperty('processing_time');
    const again = await voidAuth(orderId);
    expectDeclined(again, '4150');
    await sandbox.deliver();
    // The second void is reported too: as its own operation, failed.
    expect(sandbox.inbox.events(orderId).map((event) => [event.method, event.operation_id ?? null, event.status])).toEqual([
      ['auth', null, 'success'],
      ['void', voided.operation_id, 'success'],
      ['void', again.operation_id, 'failure'],
    ]);
  });

  it('declines voiding a purchase or a captured auth', async () => {
    expectDeclined(await voidAuth(await paid('purchase')), '4150');
    const captured = await paid('auth');
    await capture(captured);
    expectDeclined(await voidAuth(captured), '4150');
  });
});

describe('refund', () => {
  it('refunds a purchase in part: 1004, processed_at, receipt_url', async () => {
    const orderId = await paid('purchase');
    const refunded = await refund(orderId, { refund_amount: 30.25, comment: 'one item back', f_receipt_delivery: 'email' });
    expect(refunded).toMatchObject({ method: 'refund', status: 'success', status_code: '1004', amount: 30.25, currency: 'UAH', processed_at: '2026-03-02T10:00:00.000' });
    expect(refunded).not.toHaveProperty('processing_time');
    expect(refunded.receipt_url).toMatch(/^http:\/\/localhost\/receipts\/[0-9a-f]{32}$/);
    await sandbox.deliver();
    expect(sandbox.inbox.events(orderId).at(-1)).toMatchObject({ method: 'refund', receipt_url: refunded.receipt_url, amount: 30.25 });
  });

  it('never refunds more than was paid in total; an omitted amount refunds what is left', async () => {
    const orderId = await paid('purchase');
    await refund(orderId, { refund_amount: 60 });
    expectDeclined(await refund(orderId, { refund_amount: 40.01 }), '4139');
    expect(await refund(orderId)).toMatchObject({ status: 'success', amount: 40 });
    expectDeclined(await refund(orderId, { refund_amount: 0.01 }), '4150');
    expectDeclined(await refund(orderId), '4150');
  });

  it('refunds an order charged again as a recurring payment up to its first payment, and says why no further', async () => {
    const orderId = await paid('purchase');
    expect((await sandbox.control('POST', '/_sandbox/recurring', { order_id: orderId, amount_minor: 25_000 })).status).toBe(200);
    const over = await refund(orderId, { refund_amount: 100.01 });
    expectDeclined(over, '4139');
    expect(over.status_description).toBe("Invalid amount: at most 100.00 UAH is left to refund (refunds return the order's first payment: a refund names no transaction, so its recurring charge is not refunded here)");
    expect(await refund(orderId)).toMatchObject({ status: 'success', amount: 100 });
    expect((await refund(orderId, { refund_amount: 1 })).status_description).toMatch(/^Invalid operation: the payment is already refunded in full \(refunds return the order's first payment/);
  });

  it('refunds the capture of an auth, up to the captured amount (also beyond the reserve)', async () => {
    const orderId = await paid('auth');
    expectDeclined(await refund(orderId), '4150'); // nothing captured yet
    await capture(orderId, { charge_amount: 110 });
    expectDeclined(await refund(orderId, { refund_amount: 110.01 }), '4139');
    expect(await refund(orderId)).toMatchObject({ status: 'success', amount: 110 });
  });

  it('declines refunds of failed, pending, voided and lookup payments', async () => {
    expectDeclined(await refund(await paid('purchase', {}, '4000000000000002')), '4150');
    expectDeclined(await refund(await paid('purchase', {}, '4000000000000119')), '4150');
    const voided = await paid('auth');
    await voidAuth(voided);
    const refusedAfterVoid = await refund(voided);
    expectDeclined(refusedAfterVoid, '4150');
    expect(refusedAfterVoid.status_description).toMatch(/this is an auth in status success, voided$/);
    const hosted = hostedPayment(sandbox.project);
    await sandbox.post('/api/v1/payment', hosted);
    expectDeclined(await refund(hosted.order_id), '4150');
  });

  it('refunds a purchase finished after its 3-D Secure challenge', async () => {
    const payment = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { amount: 20 }, '4000000000003220'));
    await sandbox.postJson(`/_sandbox/3ds/${String(payment.payment_id)}`, { result: 'success' });
    expect(await refund(String(payment.order_id))).toMatchObject({ status: 'success', amount: 20 });
  });
});

describe('split payments', () => {
  const splitPurchase = (extra: Json = {}) =>
    directPayment(sandbox.project, {
      amount: 100,
      split: [
        { amount: 70, sub_merchant_id: SUB_A },
        { amount: 30, sub_merchant_id: SUB_B },
      ],
      ...extra,
    });

  it('creates a direct split purchase answered with processing_time', async () => {
    const payment = await sandbox.postJson('/api/v1/split/purchase', splitPurchase());
    expect(payment).toMatchObject({ method: 'purchase', status: 'success', status_code: '1000', amount: 100 });
    expect(payment).toHaveProperty('processing_time');
    expect(payment).not.toHaveProperty('processed_at');
  });

  it('creates a hosted split purchase answered 303', async () => {
    const request = hostedPayment(sandbox.project, { customer_ip: '203.0.113.7', products: [], amount: 100, split: [{ amount: 100, sub_merchant_id: SUB_C }] });
    const response = await sandbox.post('/api/v1/split/purchase', request);
    expect(response.status).toBe(303);
  });

  it('refuses a share finer than the currency’s minor unit, saying so, even when the shares add up', async () => {
    sandbox = testSandbox({ projects: [{ currencies: ['UAH', 'JPY'] }] });
    const shares = [{ amount: 50.5, sub_merchant_id: SUB_A }, { amount: 49.5, sub_merchant_id: SUB_B }];
    const response = await sandbox.post('/api/v1/split/purchase', splitPurchase({ currency: 'JPY', split: shares }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { args: unknown[] }).args).toEqual([
      { field_name: 'split[0].amount', violation: 'must be a whole number in JPY' },
      { field_name: 'split[1].amount', violation: 'must be a whole number in JPY' },
    ]);
  });

  it('refuses shares that do not add up, unknown or repeated sub-merchants, and bad amounts', async () => {
    const cases: [Json, string, string][] = [
      [{ split: [{ amount: 70, sub_merchant_id: SUB_A }, { amount: 20, sub_merchant_id: SUB_B }] }, 'split', 'amounts must add up to amount'],
      [{ split: [{ amount: 100, sub_merchant_id: '0f0e0d0c-0b0a-4908-8706-050403020100' }] }, 'split[0].sub_merchant_id', 'is not a sub-merchant of this project'],
      [{ split: [{ amount: 50, sub_merchant_id: SUB_A }, { amount: 50, sub_merchant_id: SUB_A }] }, 'split[1].sub_merchant_id', 'appears twice'],
      [{ split: [{ amount: -100, sub_merchant_id: SUB_A }] }, 'split[0].amount', 'must be greater than 0'],
      [{ split: [{ amount: 99.999, sub_merchant_id: SUB_A }] }, 'split[0].amount', 'must have at most 2 decimal digits'],
      [{ split: [{ amount: 100, sub_merchant_id: 'not-a-uuid' }] }, 'split[0].sub_merchant_id', 'must be a UUID'],
      [{ split: [] }, 'split', 'must have at least 1 item'],
    ];
    for (const [change, field, violation] of cases) {
      const response = await sandbox.post('/api/v1/split/purchase', splitPurchase(change));
      expect(response.status, field).toBe(400);
      const body = (await response.json()) as { args: { field_name: string; violation: string }[] };
      expect(body.args).toContainEqual({ field_name: field, violation });
    }
  });

  it('split-refunds per sub-merchant within each share, with split_fee', async () => {
    const payment = await sandbox.postJson('/api/v1/split/purchase', splitPurchase());
    const orderId = String(payment.order_id);
    const body = (split: Json[], amount: number) => ({ pos_id: sandbox.project.posId, order_id: orderId, currency: 'UAH', refund_amount: amount, split });
    const refunded = await sandbox.postJson('/api/v1/split/refund', body([{ amount: 20, sub_merchant_id: SUB_A }, { amount: 10, sub_merchant_id: SUB_B }], 30));
    expect(refunded).toMatchObject({
      method: 'refund', status: 'success', status_code: '1004', amount: 30, currency: 'UAH',
      fee: { amount: 0.45, currency: 'UAH' },
      split_fee: {
        marketplace: { amount: 0, currency: 'UAH' },
        sub_merchants: [
          { sub_merchant_id: SUB_A, amount: 0.3, currency: 'UAH' },
          { sub_merchant_id: SUB_B, amount: 0.15, currency: 'UAH' },
        ],
      },
    });
    expect(refunded.receipt_url).toEqual(expect.any(String));
    expectDeclined(await sandbox.postJson('/api/v1/split/refund', body([{ amount: 20.01, sub_merchant_id: SUB_B }], 20.01)), '4139');
    expectDeclined(await sandbox.postJson('/api/v1/split/refund', body([{ amount: 5, sub_merchant_id: SUB_C }], 5)), '4150');
    expect(await sandbox.postJson('/api/v1/split/refund', body([{ amount: 50, sub_merchant_id: SUB_A }], 50))).toMatchObject({ status: 'success' });
    // Whatever is left (B's 20) goes back through a plain full refund; a partial plain refund is refused.
    expectDeclined(await refund(orderId, { refund_amount: 5 }), '4150');
    expect(await refund(orderId)).toMatchObject({ status: 'success', amount: 20 });
  });

  it('split-refund of a payment without shares is declined; split-refund shares must add up to refund_amount', async () => {
    const orderId = await paid('purchase');
    const body = { pos_id: sandbox.project.posId, order_id: orderId, currency: 'UAH', refund_amount: 10, split: [{ amount: 10, sub_merchant_id: SUB_A }] };
    expectDeclined(await sandbox.postJson('/api/v1/split/refund', body), '4150');
    const mismatch = await sandbox.post('/api/v1/split/refund', { ...body, refund_amount: 11 });
    expect(mismatch.status).toBe(400);
  });

  it('split-captures an auth per sub-merchant; the capture’s shares bound later split refunds', async () => {
    const orderId = await paid('auth');
    const body = (split: Json[], extra: Json = {}) => ({ ...target(orderId), split, ...extra });
    const short = await sandbox.post('/api/v1/split/capture', body([{ amount: 60, sub_merchant_id: SUB_A }]));
    expect(short.status).toBe(400); // without charge_amount the shares must cover the whole reserve
    const captured = await sandbox.postJson('/api/v1/split/capture', body([{ amount: 60, sub_merchant_id: SUB_A }, { amount: 20, sub_merchant_id: SUB_C }], { charge_amount: 80 }));
    expect(captured).toMatchObject({ method: 'capture', status: 'success', amount: 80, currency: 'UAH' });
    const splitRefund = (amount: number, sub: string) =>
      sandbox.postJson('/api/v1/split/refund', { pos_id: sandbox.project.posId, order_id: orderId, currency: 'UAH', refund_amount: amount, split: [{ amount, sub_merchant_id: sub }] });
    expectDeclined(await splitRefund(20.01, SUB_C), '4139');
    expect(await splitRefund(20, SUB_C)).toMatchObject({ status: 'success' });
  });

  it('split-captures the whole reserve without charge_amount, and names the currency order_currency as a full capture does', async () => {
    const captured = await sandbox.postJson('/api/v1/split/capture', { ...target(await paid('auth')), split: [{ amount: 70, sub_merchant_id: SUB_A }, { amount: 30, sub_merchant_id: SUB_C }] });
    expect(captured).toMatchObject({ method: 'capture', status: 'success', amount: 100, order_currency: 'UAH' });
    expect(captured).not.toHaveProperty('currency');
  });

  it('split-capture follows the capture rules (purchase → 4150)', async () => {
    const orderId = await paid('purchase');
    expectDeclined(await sandbox.postJson('/api/v1/split/capture', { ...target(orderId), split: [{ amount: 100, sub_merchant_id: SUB_A }] }), '4150');
  });
});
