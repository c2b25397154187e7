// Minor units as the client's callers meet them: the brand, its constructor and guard, and the
// compile-time check of amounts written at a call. The `@ts-expect-error` lines are the type
// test: `npm run typecheck` fails if any of them compiles.
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from './errors.js';
import { currencyExponent, describeMinorUnits, formatMinorUnits, isMinorUnits, minorUnits, minorUnitsRefusal } from './money.js';
import type { MinorUnits } from './money.js';
import type { CaptureParams, RefundParams } from './resources/operations.js';
import type { DirectPaymentParams } from './resources/payments.js';
import { useGatewayDouble } from './test/client-setup.js';
import * as samples from './test/samples.js';

const double = useGatewayDouble();

describe('currencyExponent', () => {
  it('follows ISO 4217, with XTS and unknown codes at two digits', () => {
    expect(currencyExponent('UAH')).toBe(2);
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('krw')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('XTS')).toBe(2);
    expect(currencyExponent('ZZZ')).toBe(2);
  });
});

describe('minorUnits and isMinorUnits', () => {
  it('take safe integers, whatever their sign', () => {
    for (const value of [24950, 1, 0, -250, Number.MAX_SAFE_INTEGER]) {
      expect(isMinorUnits(value)).toBe(true);
      expect(minorUnits(value)).toBe(value);
    }
  });

  it('refuse a fraction, a string and an unsafe integer, naming the unit', () => {
    for (const value of [249.5, 0.1 + 0.2, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity]) {
      expect(isMinorUnits(value)).toBe(false);
      const computed: number = value;
      expect(() => minorUnits(computed)).toThrow(new RangeError(`amount ${String(value)} is not an integer number of minor units (24950 = 249.50 UAH)`));
    }
    expect(isMinorUnits('24950')).toBe(false);
    expect(minorUnitsRefusal(24950)).toBeUndefined();
    expect(minorUnitsRefusal('24950', 'EUR')).toBe('must be a number, not a string: an integer number of minor units (24950 = 249.50 EUR)');
    expect(minorUnitsRefusal(249.5, 'EUR')).toBe('must be an integer number of minor units (24950 = 249.50 EUR)');
  });

  it('describe the unit with an example in the currency', () => {
    expect(describeMinorUnits('UAH')).toBe('an integer number of minor units (24950 = 249.50 UAH)');
    expect(describeMinorUnits('eur')).toBe('an integer number of minor units (24950 = 249.50 EUR)');
    expect(describeMinorUnits('JPY')).toBe('an integer number of minor units (2495 = 2495 JPY)');
    expect(describeMinorUnits('KWD')).toBe('an integer number of minor units (24950 = 24.950 KWD)');
    expect(describeMinorUnits('not a code')).toBe('an integer number of minor units (24950 = 249.50 UAH)');
  });
});

describe('formatMinorUnits', () => {
  it('writes minor units as people read the amount', () => {
    expect(formatMinorUnits(24950, 'UAH')).toBe('249.50 UAH');
    expect(formatMinorUnits(-5, 'UAH')).toBe('-0.05 UAH');
    expect(formatMinorUnits(500, 'JPY')).toBe('500 JPY');
    expect(formatMinorUnits(1230, 'KWD')).toBe('1.230 KWD');
  });

  it('refuses what is not minor units rather than write it as an amount', () => {
    for (const value of [1.5, Number.NaN, 1e21]) expect(() => formatMinorUnits(value, 'UAH')).toThrow(RangeError);
  });
});

describe('amounts written at a client call', () => {
  const payment = {
    mode: 'direct', method: 'purchase', currency: 'UAH', description: 'Order 1001', order_id: 'order-1001', ...samples.card,
    customer_fname: 'Olena', customer_lname: 'Koval', customer_email: 'olena@example.com', customer_phone: '+380501234567',
    customer_ip: '203.0.113.7', browser_fingerprint: samples.fingerprint, server_url: 'https://shop.example/webhooks/gateway',
  } as const;
  const target = { order_id: 'order-1001', order_currency: 'UAH' } as const;
  const sub = samples.SUB_MERCHANT_A;

  it('compile as whole literals and MinorUnits, and go out as the gateway\'s decimals', async () => {
    const client = double.client();
    double.gateway.answer({ body: samples.paymentResponse });
    await client.payments.create({ ...payment, amount: 24950 });
    double.gateway.answer({ body: samples.paymentResponse });
    const basket: MinorUnits = minorUnits(2 * 12475);
    await client.payments.create({ ...payment, amount: basket });
    double.gateway.answer({ body: samples.paymentResponse });
    const declared: DirectPaymentParams = { ...payment, amount: minorUnits(24950) };
    await client.payments.create(declared);
    expect(double.gateway.requests.map((request) => JSON.parse(request.body).amount)).toEqual([249.5, 249.5, 249.5]);
  });

  it('with a fraction do not compile, and are refused before sending when forced through', async () => {
    const client = double.client();
    const refusals = [
      // @ts-expect-error 249.5 is not minor units: it does not compile.
      client.payments.create({ ...payment, amount: 249.5 }),
      // @ts-expect-error a split share's fraction is caught as well.
      client.payments.createSplit({ ...payment, amount: 300, split: [{ amount: 100.5, sub_merchant_id: sub }] }),
      // @ts-expect-error charge_amount is minor units.
      client.operations.capture({ ...target, charge_amount: 0.5 }),
      // @ts-expect-error refund_amount is minor units.
      client.operations.refund({ ...target, refund_amount: 0.01 }),
      // @ts-expect-error split refunds' amounts too.
      client.operations.splitRefund({ order_id: 'order-1001', currency: 'UAH', refund_amount: 1.5, split: [{ amount: 1.5, sub_merchant_id: sub }] }),
    ];
    const errors = await Promise.all(refusals.map((refusal) => refusal.catch((error: unknown) => error)));
    for (const error of errors) expect(error).toBeInstanceOf(InvalidRequestError);
    expect(errors.map((error) => (error as InvalidRequestError).fields[0])).toEqual([
      { field: 'amount', reason: 'must be an integer number of minor units (24950 = 249.50 UAH)' },
      { field: 'split[0].amount', reason: 'must be an integer number of minor units (24950 = 249.50 UAH)' },
      { field: 'charge_amount', reason: 'must be an integer number of minor units (24950 = 249.50 UAH)' },
      { field: 'refund_amount', reason: 'must be an integer number of minor units (24950 = 249.50 UAH)' },
      { field: 'refund_amount', reason: 'must be an integer number of minor units (24950 = 249.50 UAH)' },
    ]);
    expect(double.gateway.requests).toHaveLength(0);
  });

  it('past the wire\'s range are refused with the limit in minor units and in money', async () => {
    const client = double.client();
    const refused = (call: Promise<unknown>) => call.then(() => undefined, (error: unknown) => (error as InvalidRequestError).fields[0]);
    expect(await refused(client.operations.refund({ ...target, refund_amount: 1_000_000_000_000_000 }))).toEqual({
      field: 'refund_amount',
      reason: 'must be at most 999999999999999 (9999999999999.99 UAH)',
    });
    // Sixteen digits of fils: past what a JSON number carries exactly, said so and not thrown.
    expect(await refused(client.payments.create({ ...payment, currency: 'KWD', amount: 1_234_567_890_123_450 }))).toEqual({
      field: 'amount',
      reason: 'must be at most 999999999999990 (999999999999.990 KWD)',
    });
    expect(double.gateway.requests).toHaveLength(0);
  });

  it('held in a value of the declared parameter type compile, an optional amount left optional', async () => {
    const client = double.client();
    // The whole payment refunded: no refund_amount, as RefundParams allows.
    const whole: RefundParams = target;
    const part: MinorUnits | undefined = minorUnits(500);
    const capture: CaptureParams = { ...target, charge_amount: minorUnits(1000) };
    const calls = [
      client.operations.refund(whole),
      client.operations.refund({ ...target, ...(part === undefined ? {} : { refund_amount: part }) }),
      client.operations.capture(capture),
    ];
    for (const method of ['refund', 'refund', 'capture']) double.gateway.answer({ body: { ...samples.captureResponse, method } });
    await Promise.all(calls);
    const sent = double.gateway.requests.map((request) => JSON.parse(request.body) as Record<string, unknown>);
    expect(sent.map(({ refund_amount, charge_amount }) => [refund_amount, charge_amount])).toEqual([
      [undefined, undefined],
      [5, undefined],
      [undefined, 10],
    ]);
  });

  it('computed as plain numbers must be checked into MinorUnits first', async () => {
    const client = double.client();
    const price: number = 12475;
    // @ts-expect-error TypeScript cannot know a computed number is whole: minorUnits(2 * price) says so.
    const unchecked = client.payments.create({ ...payment, amount: 2 * price });
    double.gateway.answer({ body: samples.paymentResponse });
    await unchecked;
    // @ts-expect-error a literal is still checked: no field the parameters do not have.
    await client.payments.create({ ...payment, amount: 24950, ammount: 24950 }).catch(() => undefined);
    expect(() => minorUnits(price / 2)).toThrow(RangeError);
  });
});
