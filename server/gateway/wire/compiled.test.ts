// A compiled parser is only a faster road to the same answer: what it accepts, refuses and
// reports must be what the schema's own parser does, reasons and paths included.
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import * as samples from '../test/samples.js';
import { compiled } from './compiled.js';
import { WebhookEvent } from './event.js';
import { wireErrorMap } from './issues.js';
import { CreatePaymentRequest, PaymentResponse, SplitPurchaseRequest } from './payment.js';

const both = (schema: z.ZodType, input: unknown) => {
  const fresh = z.strictObject({ value: schema }); // parsed here for the first time: the runtime parser
  const runtime = fresh.safeParse({ value: input }, { error: wireErrorMap });
  compiled(fresh);
  expect(compiled(fresh)).not.toBe(fresh);
  const fast = compiled(fresh).safeParse({ value: input }, { error: wireErrorMap });
  return { runtime, fast };
};

describe('compiled', () => {
  it('parses with the schema itself the first time, then with its compiled clone', () => {
    const Schema = z.strictObject({ amount: z.number().int().positive() });
    expect(compiled(Schema)).toBe(Schema);
    const fast = compiled(Schema);
    expect(fast).not.toBe(Schema);
    expect(compiled(Schema)).toBe(fast);
  });

  const { cc_number: _number, ...withoutNumber } = samples.directPurchase;
  const cases: [string, z.ZodType, unknown][] = [
    ['a direct purchase', CreatePaymentRequest, samples.directPurchase],
    ['a hosted lookup', CreatePaymentRequest, samples.hostedLookup],
    ['a split purchase', SplitPurchaseRequest, { ...samples.directPurchase, amount: 100, split: samples.split }],
    ['a payment answer with fields payform does not know', PaymentResponse, { ...samples.paymentResponse, novelty: [1] }],
    ['a webhook event', WebhookEvent, { ...samples.paymentResponse, payway: 'card' }],
    // refused from here on
    ['an amount as a string', SplitPurchaseRequest, { ...samples.directPurchase, amount: '100.00', split: samples.split }],
    ['a number failing Luhn', CreatePaymentRequest, { ...samples.directPurchase, cc_number: '4242424242424241' }],
    ['card data without its number', CreatePaymentRequest, withoutNumber],
    ['card data in hosted mode', CreatePaymentRequest, { ...samples.hostedPurchase, ...samples.card }],
    ['an unknown field named like a card number', CreatePaymentRequest, { ...samples.directPurchase, '4242424242424242': 1 }],
    ['a float artefact amount', CreatePaymentRequest, { ...samples.directPurchase, amount: 0.30000000000000004 }],
    ['yen with decimals', CreatePaymentRequest, { ...samples.directPurchase, currency: 'JPY', amount: 100.5 }],
    ['shares not adding up', SplitPurchaseRequest, { ...samples.directPurchase, split: samples.split }],
    ['a ftp result_url', CreatePaymentRequest, { ...samples.directPurchase, result_url: 'ftp://shop.example/back' }],
    ['an unknown mode', CreatePaymentRequest, { ...samples.directPurchase, mode: 'offline' }],
    ['an answer without its status', PaymentResponse, { ...samples.paymentResponse, status: undefined }],
    ['an answer with a malformed amount', PaymentResponse, { ...samples.paymentResponse, amount: '1e3' }],
    ['an event of an unknown method', WebhookEvent, { ...samples.paymentResponse, method: 'teleport' }],
    ['not an object', PaymentResponse, 'payment'],
  ];

  const ACCEPTED = 5;

  it.each(cases)('accepts or refuses %s as the schema itself does', (name, schema, input) => {
    const { runtime, fast } = both(schema, input);
    expect(runtime.success).toBe(cases.indexOf(cases.find(([other]) => other === name)!) < ACCEPTED);
    expect(fast.success).toBe(runtime.success);
    if (runtime.success) expect(fast.data).toEqual(runtime.data);
    else expect(fast.error?.issues).toEqual(runtime.error.issues);
  });
});
