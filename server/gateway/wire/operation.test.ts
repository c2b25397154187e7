import { describe, expect, it } from 'vitest';
import * as samples from '../test/samples.js';
import { parseWire } from './issues.js';
import type { FieldIssue } from './issues.js';
import {
  CaptureRequest, OperationResponse, RefundRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from './operation.js';

function issues(schema: Parameters<typeof parseWire>[0], input: unknown): FieldIssue[] {
  const result = parseWire(schema, input);
  return result.success ? [] : result.issues;
}
const target = { pos_id: samples.POS_ID, order_id: 'order-1001', order_currency: 'UAH' };

describe('secondary operation requests', () => {
  it('accept full and partial forms', () => {
    expect(issues(CaptureRequest, target)).toEqual([]);
    expect(issues(CaptureRequest, { ...target, charge_amount: 7.5, comment: 'part', server_url: 'https://shop.example/wh' })).toEqual([]);
    expect(issues(VoidRequest, target)).toEqual([]);
    expect(issues(RefundRequest, { ...target, refund_amount: 2.5, f_receipt_delivery: 'email' })).toEqual([]);
    expect(issues(SplitCaptureRequest, { ...target, charge_amount: 100, split: samples.split })).toEqual([]);
    expect(issues(SplitCaptureRequest, { ...target, split: samples.split })).toEqual([]);
    const splitRefund = { pos_id: samples.POS_ID, order_id: 'order-1001', currency: 'UAH', refund_amount: 100, split: samples.split };
    expect(issues(SplitRefundRequest, splitRefund)).toEqual([]);
  });

  it('limit order_id to 32 characters and comment to 2048', () => {
    expect(issues(VoidRequest, { ...target, order_id: 'x'.repeat(33), comment: 'c'.repeat(2049) })).toEqual([
      { field: 'order_id', reason: 'must be at most 32 characters' },
      { field: 'comment', reason: 'must be at most 2048 characters' },
    ]);
    expect(issues(VoidRequest, { ...target, order_id: '' })).toEqual([{ field: 'order_id', reason: 'must not be empty' }]);
  });

  it('want amounts as JSON numbers, as payform’s client sends them: a numeric string is refused', () => {
    expect(issues(RefundRequest, { ...target, refund_amount: '2.50' })).toEqual([{ field: 'refund_amount', reason: 'must be a number' }]);
    expect(issues(CaptureRequest, { ...target, charge_amount: '7.50' })).toEqual([{ field: 'charge_amount', reason: 'must be a number' }]);
    expect(issues(CaptureRequest, { ...target, charge_amount: '7.505' })).toEqual([{ field: 'charge_amount', reason: 'must have at most 2 decimal digits' }]);
    expect(issues(RefundRequest, { ...target, refund_amount: null })).toEqual([{ field: 'refund_amount', reason: 'must be a decimal number' }]);
  });

  it('want positive amounts with at most two decimals, within the currency', () => {
    expect(issues(CaptureRequest, { ...target, charge_amount: 0 })).toEqual([{ field: 'charge_amount', reason: 'must be greater than 0' }]);
    expect(issues(RefundRequest, { ...target, refund_amount: 1.999 })).toEqual([
      { field: 'refund_amount', reason: 'must have at most 2 decimal digits' },
    ]);
    expect(issues(RefundRequest, { ...target, order_currency: 'JPY', refund_amount: 1.5 })).toEqual([
      { field: 'refund_amount', reason: 'must be a whole number in JPY' },
    ]);
  });

  it('check the receipt delivery enum and reject unknown fields', () => {
    expect(issues(RefundRequest, { ...target, f_receipt_delivery: 'pigeon' })).toEqual([
      { field: 'f_receipt_delivery', reason: 'must be one of email, sms, viber, none' },
    ]);
    // `amount` instead of refund_amount would turn a partial refund into a full one.
    expect(issues(RefundRequest, { ...target, amount: 5 })).toEqual([{ field: 'amount', reason: 'is not allowed' }]);
  });

  it('name the currency fields each endpoint uses', () => {
    expect(issues(CaptureRequest, { ...target, order_currency: undefined, currency: 'UAH' })).toEqual([
      { field: 'order_currency', reason: 'is required' },
      { field: 'currency', reason: 'is not allowed' },
    ]);
    expect(issues(SplitRefundRequest, { ...target, refund_amount: 100, split: samples.split })).toEqual([
      { field: 'currency', reason: 'is required' },
      { field: 'order_currency', reason: 'is not allowed' },
    ]);
  });

  it('make split shares add up to the operation amount', () => {
    expect(issues(SplitCaptureRequest, { ...target, charge_amount: 90, split: samples.split })).toEqual([
      { field: 'split', reason: 'amounts must add up to charge_amount' },
    ]);
    const splitRefund = { pos_id: samples.POS_ID, order_id: 'o', currency: 'UAH', refund_amount: 50, split: samples.split };
    expect(issues(SplitRefundRequest, splitRefund)).toEqual([{ field: 'split', reason: 'amounts must add up to refund_amount' }]);
    expect(issues(SplitRefundRequest, { ...splitRefund, refund_amount: undefined, split: undefined })).toEqual([
      { field: 'refund_amount', reason: 'is required' },
      { field: 'split', reason: 'is required' },
    ]);
    expect(issues(SplitCaptureRequest, target)).toEqual([{ field: 'split', reason: 'is required' }]);
  });
});

describe('OperationResponse', () => {
  it('reads processing_time, processed_at and the full capture\'s order_currency', () => {
    expect(OperationResponse.parse(samples.captureResponse).processing_time).toBe('2025-03-01T10:05:00.5');
    const { currency: _, ...fullCapture } = samples.captureResponse;
    expect(OperationResponse.parse({ ...fullCapture, order_currency: 'UAH' }).order_currency).toBe('UAH');
    const refund = { ...samples.captureResponse, method: 'refund', processing_time: undefined, processed_at: '2025-03-01T11:00:00', receipt_url: 'https://gw.example/r/1' };
    expect(OperationResponse.parse(refund).processed_at).toBe('2025-03-01T11:00:00');
  });

  it('takes nullables, numeric status codes, split_fee and unknown fields', () => {
    const quirky = { ...samples.captureResponse, pos_id: null, transaction_id: null, status_code: 1000, processing_time: null, fee: null, split_fee: { marketplace: { amount: 1, currency: 'UAH' } }, extra: true };
    const parsed = OperationResponse.parse(quirky);
    expect(parsed.extra).toBe(true);
    expect(parsed.split_fee).toEqual({ marketplace: { amount: 1, currency: 'UAH' } });
  });

  it('needs a currency under one of its names', () => {
    const { currency: _, ...noCurrency } = samples.captureResponse;
    expect(issues(OperationResponse, noCurrency)).toEqual([{ field: 'currency', reason: 'is required (or order_currency)' }]);
  });

  it('accepts a business decline as a normal object', () => {
    const declined = { ...samples.captureResponse, status: 'failure', status_code: '4150', status_description: 'Invalid operation' };
    expect(OperationResponse.safeParse(declined).success).toBe(true);
  });
});
