// What the companion takes from the gateway client's objects: amounts in minor units, loose
// fields taken only when they fit, and never a raw wire answer.
import { describe, expect, it } from 'vitest';
import { toOperation, toPayment, toWebhookEvent } from '../../gateway/objects.js';
import { captureResponse, paymentResponse } from '../../gateway/test/samples.js';
import type { OperationResponse, PaymentResponse } from '@payform/gateway/wire';
import { gatewayEvent, operationResult, paymentUpdate } from './gateway-facts.js';

const wireRefund = { ...captureResponse, method: 'refund', amount: 100, status: 'success', status_code: '1004', receipt_url: 'https://gw.example/r/1' } as OperationResponse;

describe('gateway facts', () => {
  it('takes amounts from the client objects, in minor units', () => {
    expect(operationResult(toOperation(wireRefund))).toEqual({
      status: 'success',
      operationId: captureResponse.operation_id,
      // A refund's receipt is fetched by it.
      transactionId: captureResponse.transaction_id,
      amount: 10_000,
      statusCode: '1004',
      statusDescription: 'Transaction successful',
      receiptUrl: 'https://gw.example/r/1',
    });
  });

  it('refuses a raw wire answer at compile time: its 100 means 100.00, not 100 minor units', () => {
    // @ts-expect-error a wire object's amounts are decimals; only the client's objects are facts
    const raw = () => operationResult(wireRefund);
    expect(raw).toBeTypeOf('function');
    const wirePayment: PaymentResponse = paymentResponse as PaymentResponse;
    // @ts-expect-error the same for payments
    const rawPayment = () => paymentUpdate(wirePayment, undefined);
    expect(rawPayment).toBeTypeOf('function');
  });

  it('keeps what fits the ledger and drops the rest', () => {
    const payment = toPayment({ ...(paymentResponse as PaymentResponse), cc_mask: '4242424242424242', receipt_url: 'javascript:alert(1)', payment_id: 'x'.repeat(65) });
    const update = paymentUpdate(payment, 'https://gateway.example');
    expect(update).toMatchObject({ status: 'pending', statusCode: '2122', userActionUrl: 'https://gateway.example/3ds/a0e6c3f2' });
    expect(update).not.toHaveProperty('ccMask');
    expect(update).not.toHaveProperty('receiptUrl');
    expect(update).not.toHaveProperty('paymentId');
  });

  it('reads a secondary webhook event with its operation id and amount in minor units', () => {
    const event = toWebhookEvent(wireRefund);
    const data = Buffer.from(JSON.stringify(wireRefund)).toString('base64url');
    expect(gatewayEvent(data, event, undefined)).toMatchObject({ method: 'refund', status: 'success', operationId: captureResponse.operation_id, amount: 10_000, statusCode: '1004' });
  });
});
