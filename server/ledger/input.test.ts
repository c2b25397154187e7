// The ledger parses its inputs through compiled parsers (parseInput): what they accept, refuse
// and produce must be what the schemas themselves do — NUL replacement and cross-field rules too.
import type * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { compiled } from '@payform/gateway/wire';
import { gatewayEventInput, newSessionInput, operationRequestInput, paymentUpdateInput } from './input.js';

const session = { amount: 1010, currency: 'UAH', description: 'Green tea', method: 'purchase', orderId: 'order-1' };
const update = {
  status: 'success', statusCode: '1000', paymentId: 'f753326a-fa18-460c-9ef5-3b8c4dcb4ca2', ccMask: '424242******4242',
  receiptUrl: 'https://sandbox.test/receipts/1', amount: 1010, currency: 'UAH',
};
const event = { data: 'eyJ9', body: 'data=eyJ9&signature=x', method: 'purchase', status: 'success', orderId: 'order-1', amount: 1010, currency: 'UAH' };

const cases: [string, z.ZodType, unknown, boolean][] = [
  ['a session', newSessionInput, session, true],
  ['a split session', newSessionInput, { ...session, split: [{ subMerchantId: 'a', amount: 1000 }, { subMerchantId: 'b', amount: 10 }] }, true],
  ['a payment update', paymentUpdateInput, update, true],
  ['a payment update holding NUL', paymentUpdateInput, { ...update, statusDescription: 'Declined\0 by issuer' }, true],
  ['a gateway event', gatewayEventInput, event, true],
  ['a partial refund', operationRequestInput, { kind: 'refund', amount: 500 }, true],
  ['shares not adding up', newSessionInput, { ...session, split: [{ subMerchantId: 'a', amount: 1000 }] }, false],
  ['a split verification', newSessionInput, { ...session, amount: 1000, method: 'lookup', split: [{ subMerchantId: 'a', amount: 1000 }] }, false],
  ['an unmasked ccMask', paymentUpdateInput, { ...update, ccMask: '4242424242424242' }, false],
  ['an ftp receipt', paymentUpdateInput, { ...update, receiptUrl: 'ftp://sandbox.test/r' }, false],
  ['an unknown field', gatewayEventInput, { ...event, extra: 1 }, false],
  ['a void with an amount', operationRequestInput, { kind: 'void', amount: 1 }, false],
  ['a fractional amount', newSessionInput, { ...session, amount: 10.1 }, false],
  ['a KWD amount in single fils', newSessionInput, { ...session, amount: 1235, currency: 'KWD' }, false],
  ['a JPY amount past the gateway', newSessionInput, { ...session, amount: 10_000_000_000_000, currency: 'JPY' }, false],
  ['a KWD amount in tens of fils', newSessionInput, { ...session, amount: 1230, currency: 'KWD' }, true],
];

describe('ledger inputs, compiled', () => {
  it.each(cases)('accept or refuse %s as the schema itself does', (_name, schema, input, accepted) => {
    const runtime = schema.safeParse(input);
    compiled(schema);
    expect(compiled(schema)).not.toBe(schema);
    const fast = compiled(schema).safeParse(input);
    expect(runtime.success).toBe(accepted);
    expect(fast.success).toBe(accepted);
    if (runtime.success) expect(fast.data).toEqual(runtime.data);
    else expect(fast.error?.issues).toEqual(runtime.error.issues);
  });
});
