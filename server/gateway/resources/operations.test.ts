import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors.js';
import { minorUnits } from '../money.js';
import { useGatewayDouble } from '../test/client-setup.js';
import * as samples from '../test/samples.js';

const double = useGatewayDouble();
const target = { order_id: 'order-1001', order_currency: 'UAH' };

function sent(): { url: string; body: Record<string, unknown>; raw: string; headers: Record<string, unknown> } {
  const request = double.gateway.onlyRequest;
  return { url: request.url, body: JSON.parse(request.body) as Record<string, unknown>, raw: request.body, headers: request.headers };
}

describe('operations.capture', () => {
  it('sends a partial capture with charge_amount as an exact decimal', async () => {
    double.gateway.answer({ body: samples.captureResponse });
    const capture = await double.client().operations.capture({ ...target, charge_amount: 750, comment: 'partial' });
    const request = sent();
    expect(request.url).toBe('/api/v1/capture');
    expect(request.headers['x-api-key']).toBe('test-endpoints-key');
    expect(request.raw).toContain('"charge_amount":7.5');
    expect(request.body).toEqual({ pos_id: samples.POS_ID, ...target, charge_amount: 7.5, comment: 'partial' });
    expect(capture).toMatchObject({
      operation_id: samples.OPERATION_ID,
      method: 'capture',
      amount: 750,
      currency: 'UAH',
      status_code: '1000',
      processed_at: '2025-03-01T10:05:00.5',
      fee: null,
    });
    expect(capture).not.toHaveProperty('processing_time');
  });

  it('sends a full capture without charge_amount and reads order_currency as currency', async () => {
    const { currency: _, ...fullCapture } = samples.captureResponse;
    double.gateway.answer({ body: { ...fullCapture, amount: 10.1, order_currency: 'UAH' } });
    const capture = await double.client().operations.capture(target);
    expect(sent().body).toEqual({ pos_id: samples.POS_ID, ...target });
    expect(capture).toMatchObject({ amount: 1010, currency: 'UAH' });
    expect(capture).not.toHaveProperty('order_currency');
  });

  it('returns a declined capture as a result', async () => {
    double.gateway.answer({ body: { ...samples.captureResponse, status: 'failure', status_code: '4150', status_description: 'Invalid operation' } });
    const capture = await double.client().operations.capture(target);
    expect(capture).toMatchObject({ status: 'failure', status_code: '4150', status_description: 'Invalid operation' });
  });
});

describe('operations.splitCapture', () => {
  it('sends the shares as decimals', async () => {
    double.gateway.answer({ body: { ...samples.captureResponse, amount: 100 } });
    await double.client().operations.splitCapture({
      ...target,
      charge_amount: 10000,
      split: [
        { amount: 7000, sub_merchant_id: samples.SUB_MERCHANT_A },
        { amount: 3000, sub_merchant_id: samples.SUB_MERCHANT_B },
      ],
    });
    expect(sent().url).toBe('/api/v1/split/capture');
    expect(sent().body).toMatchObject({ charge_amount: 100, split: samples.split });
  });
});

describe('operations.void', () => {
  it('sends the order and currency only', async () => {
    double.gateway.answer({ body: { ...samples.captureResponse, method: 'void', status_code: '1009', amount: 10.1 } });
    const voided = await double.client().operations.void(target);
    expect(sent()).toMatchObject({ url: '/api/v1/void', body: { pos_id: samples.POS_ID, ...target } });
    expect(voided).toMatchObject({ method: 'void', status_code: '1009', amount: 1010 });
  });
});

describe('operations.refund', () => {
  it('sends refund_amount and receipt delivery; reads processed_at and receipt_url', async () => {
    double.gateway.answer({
      body: {
        ...samples.captureResponse,
        method: 'refund',
        amount: 0.01,
        status_code: '1004',
        processing_time: undefined,
        processed_at: '2025-03-01T12:00:00',
        receipt_url: 'https://gateway.example/receipt/r1',
      },
    });
    const refund = await double.client().operations.refund({ ...target, refund_amount: 1, f_receipt_delivery: 'sms' });
    expect(sent().raw).toContain('"refund_amount":0.01');
    expect(sent().body).toMatchObject({ refund_amount: 0.01, f_receipt_delivery: 'sms' });
    expect(refund).toMatchObject({ amount: 1, processed_at: '2025-03-01T12:00:00', receipt_url: 'https://gateway.example/receipt/r1' });
  });

  it('sends a full refund without refund_amount', async () => {
    double.gateway.answer({ body: { ...samples.captureResponse, method: 'refund' } });
    await double.client().operations.refund(target);
    expect(sent().body).toEqual({ pos_id: samples.POS_ID, ...target });
  });

  it('rejects a refund of a long order_id or negative amount before sending', async () => {
    const error = await double.client().operations.refund({ order_id: 'x'.repeat(33), order_currency: 'UAH', refund_amount: -100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).fields).toEqual([
      { field: 'order_id', reason: 'must be at most 32 characters' },
      { field: 'refund_amount', reason: 'must be greater than 0' },
    ]);
    expect(double.gateway.requests).toHaveLength(0);
  });
});

describe('operations.splitRefund', () => {
  /** A refund of order-1001 in `currency`, split between sellers A and B, of their shares' sum. */
  const splitRefund = (currency: string, [a, b]: [number, number]) =>
    double.client().operations.splitRefund({
      order_id: 'order-1001',
      currency,
      refund_amount: minorUnits(a + b),
      split: [
        { amount: minorUnits(a), sub_merchant_id: samples.SUB_MERCHANT_A },
        { amount: minorUnits(b), sub_merchant_id: samples.SUB_MERCHANT_B },
      ],
    });

  it('sends currency (not order_currency) and reads split_fee in minor units', async () => {
    const splitFee = {
      marketplace: { amount: 0.5, currency: 'UAH' },
      sub_merchants: [
        { sub_merchant_id: samples.SUB_MERCHANT_A, amount: 1.05, currency: 'UAH' },
        { sub_merchant_id: samples.SUB_MERCHANT_B, amount: '0.45' },
      ],
      note: 'kept as sent',
    };
    double.gateway.answer({ body: { ...samples.captureResponse, method: 'refund', amount: 100, split_fee: splitFee } });
    const refund = await splitRefund('UAH', [7000, 3000]);
    expect(sent()).toMatchObject({ url: '/api/v1/split/refund', body: { currency: 'UAH', refund_amount: 100, split: samples.split } });
    expect(sent().body).not.toHaveProperty('order_currency');
    // Its shape is not shown: every fee in it ({ amount, currency }) is converted like `fee`.
    expect(refund).toMatchObject({ amount: 10000 });
    expect(refund.split_fee).toEqual({
      marketplace: { amount: 50, currency: 'UAH' },
      sub_merchants: [
        { sub_merchant_id: samples.SUB_MERCHANT_A, amount: 105, currency: 'UAH' },
        { sub_merchant_id: samples.SUB_MERCHANT_B, amount: 45, currency: 'UAH' },
      ],
      note: 'kept as sent',
    });
  });

  it('refuses shares the wire cannot carry by themselves, without claiming that shares adding up do not', async () => {
    // 5 + 5 fils is the 10 refunded; what is wrong is each share (KWD goes out with two decimals).
    const error = await splitRefund('KWD', [5, 5]).catch((e: unknown) => e);
    const reason = 'must be a multiple of 10 minor units: the gateway takes KWD with at most 2 decimal digits';
    expect((error as InvalidRequestError).fields).toEqual([
      { field: 'split[0].amount', reason },
      { field: 'split[1].amount', reason },
    ]);
    expect(double.gateway.requests).toHaveLength(0);
  });

  it('counts each split_fee in the minor units of the currency it names', async () => {
    const splitFee = { marketplace: { amount: 50, currency: 'JPY' }, sub_merchants: [{ sub_merchant_id: samples.SUB_MERCHANT_A, amount: 0.05 }] };
    double.gateway.answer({ body: { ...samples.captureResponse, method: 'refund', amount: 100, split_fee: splitFee } });
    const refund = await splitRefund('UAH', [7000, 3000]);
    expect(refund.split_fee).toEqual({
      marketplace: { amount: 50, currency: 'JPY' },
      sub_merchants: [{ sub_merchant_id: samples.SUB_MERCHANT_A, amount: 5, currency: 'UAH' }],
    });
  });

  it('keeps a split_fee it cannot read in minor units as sent, apart, and the refund readable', async () => {
    const splitFee = { marketplace: { amount: '0.155', currency: 'UAH' } };
    double.gateway.answer({ body: { ...samples.captureResponse, method: 'refund', amount: 100, split_fee: splitFee } });
    const refund = await double.client().operations.splitRefund({ order_id: 'order-1001', currency: 'UAH', refund_amount: 10000, split: [{ amount: 10000, sub_merchant_id: samples.SUB_MERCHANT_A }] });
    expect(refund).toMatchObject({ amount: 10000, split_fee_as_sent: splitFee });
    expect(refund).not.toHaveProperty('split_fee');
  });
});
