// Amounts in the companion's JSON: integer minor units; every accepted amount is the one answered and charged.
import { describe, expect, it } from 'vitest';
import { stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();

describe('amounts', () => {
  it('are integer minor units, answered and charged as written: 24950 is 249.50 UAH at the gateway', async () => {
    const stack = await open();
    const session = await stack.openSession({ amount: 24950 });
    expect(session.amount).toBe(24950);
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).amount).toBe(24950);
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const order = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    expect(order.order.amount).toBe(24950);
    const [payment] = await stack.companion.companion.services.gateway.orders.get(session.order_id);
    expect(payment?.amount).toBe(24950); // the gateway was sent 249.5 and answers it back
  });

  it('with a fraction or as text are refused with the unit, in the currency of the request', async () => {
    const stack = await open();
    for (const [amount, currency, reason] of [
      [249.5, 'UAH', 'must be an integer number of minor units (24950 = 249.50 UAH)'],
      // Judged before the currency is read: examples of both kinds, not cents for a JPY shop.
      ['24950', 'UAH', 'must be a JSON number, not a string: an integer number of minor units of the currency (24950 = 249.50 UAH, 500 = 500 JPY)'],
      ['500', 'JPY', 'must be a JSON number, not a string: an integer number of minor units of the currency (24950 = 249.50 UAH, 500 = 500 JPY)'],
      [10.1, 'USD', 'must be an integer number of minor units (24950 = 249.50 USD)'],
      [0.5, 'JPY', 'must be an integer number of minor units (2495 = 2495 JPY)'],
    ] as const) {
      const refused = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount, currency, description: 'Tea' } });
      expect(refused.error.fields).toEqual({ amount: reason });
    }
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
  });

  // JSON.parse reads 24950.000000000001 as 24950: a decimal library's or a float's printing, not whole as sent.
  it('with a fraction that reading the JSON would round away are refused as written, nothing stored or refunded', async () => {
    const stack = await open();
    const json = (body: string) => ({ admin: true, body, headers: { 'Content-Type': 'application/json' } });
    const refused = 'must be a whole number of minor units: the JSON writes it with a fraction, which reading it as a number rounds away (a float printed with all its digits)';
    for (const written of ['24950.000000000001', '1.0000000000000001', '249500000000000001e-13']) {
      const opened = await stack.request('POST', '/api/checkout/sessions', json(`{"amount":${written},"currency":"UAH","description":"Tea"}`));
      expect(opened.status, written).toBe(400);
      expect((await opened.json()).error.fields, written).toEqual({ amount: refused });
    }
    const split = await stack.request('POST', '/api/checkout/sessions', json('{"amount":100,"currency":"UAH","description":"Tea","split":[{"sub_merchant_id":"8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60","amount":100.000000000000001}]}'));
    expect((await split.json()).error.fields).toEqual({ 'split[0].amount': refused });
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
    // Whole, but written as the currency's amount often is (10.00 meaning ten hryvnias): refused, not taken for minor units.
    const decimal = 'must be written as a whole number of minor units, without a decimal point or exponent (24950, not 249.50 or 24950.0): 10.00 would be 10 minor units, not 10.00 of the currency';
    for (const written of ['10.00', '24950.0', '2.495e4', '2495000e-2']) {
      const opened = await stack.request('POST', '/api/checkout/sessions', json(`{"amount":${written},"currency":"UAH","description":"Tea"}`));
      expect(opened.status, written).toBe(400);
      expect((await opened.json()).error.fields, written).toEqual({ amount: decimal });
    }
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
    const session = await stack.openSession({ amount: 1000 });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const refund = await stack.request('POST', `/api/orders/${session.order_id}/refund`, json('{"amount":1.0000000000000001}'));
    expect((await refund.json()).error.fields).toEqual({ amount: refused });
    const tenMeant = await stack.request('POST', `/api/orders/${session.order_id}/refund`, json('{"amount":10.00}'));
    expect((await tenMeant.json()).error.fields).toEqual({ amount: decimal });
    expect((await stack.ledger.getOrder(session.order_id))?.operations).toEqual([]);
  });

  it('not sent are required, where a wrong one keeps the unit', async () => {
    const stack = await open();
    const missing = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { currency: 'UAH', description: 'Tea' } });
    expect(missing.error.fields).toEqual({ amount: 'is required' });
    const share = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount: 100, currency: 'UAH', description: 'Tea', split: [{ sub_merchant_id: '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b' }] } });
    expect(share.error.fields).toMatchObject({ 'split[0].amount': 'is required' });
    const wrong = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount: null, currency: 'UAH', description: 'Tea' } });
    expect(wrong.error.fields).toEqual({ amount: 'must be an integer number of minor units of the currency (24950 = 249.50 UAH, 500 = 500 JPY)' });
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
  });

  it('are accepted up to what the gateway carries exactly, and refused beyond it naming the field', async () => {
    const stack = await open();
    const largest = await stack.openSession({ amount: 999_999_999_999_999 });
    expect(largest.amount).toBe(999_999_999_999_999);
    expect((await stack.ledger.getSession(largest.id))?.amount).toBe(999_999_999_999_999);
    for (const [amount, currency, reason] of [
      [1_000_000_000_000_000, 'UAH', 'must be at most 999999999999999 (9999999999999.99 UAH)'],
      [10_000_000_000_000, 'JPY', 'must be at most 9999999999999 (9999999999999 JPY)'],
      // The wire would carry more fils, but the ledger keeps fifteen digits: an answer must match.
      [9_007_199_254_740_990, 'KWD', 'must be at most 999999999999990 (999999999999.990 KWD)'],
      // Past the safe integers a number is still whole: too large, not a fraction.
      [Number.MAX_SAFE_INTEGER + 1, 'UAH', 'must be at most 999999999999999 (9999999999999.99 UAH)'],
      [1e20, 'UAH', 'must be at most 999999999999999 (9999999999999.99 UAH)'],
    ] as const) {
      const refused = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount, currency, description: 'Too much' } });
      expect(refused.error.fields).toEqual({ amount: reason });
    }
  });

  it('are in an ISO 4217 currency the gateway can carry', async () => {
    const stack = await open();
    for (const [currency, reason] of [['XXX', 'is not an ISO 4217 currency code'], ['CLF', 'has four decimal places; the gateway takes at most two']]) {
      const refused = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount: 1000, currency, description: 'Tea' } });
      expect(refused.error.fields).toEqual({ currency: reason });
    }
    expect((await stack.openSession({ amount: 150, currency: 'XTS' })).amount).toBe(150);
  });

  it('of an operation are minor units of the order\'s currency, refused with the unit named', async () => {
    const stack = await open();
    const session = await stack.openSession({ amount: 2500, currency: 'EUR', method: 'auth' });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const refused = await stack.json('POST', `/api/orders/${session.order_id}/capture`, 400, { admin: true, body: { amount: 12.5 } });
    expect(refused.error.fields).toEqual({ amount: 'must be an integer number of minor units (24950 = 249.50 EUR)' });
    const captured = await stack.json('POST', `/api/orders/${session.order_id}/capture`, 200, { admin: true, body: { amount: 1250 } });
    expect(captured.operation).toMatchObject({ amount: 1250, status: 'success' });
    expect(captured.totals).toMatchObject({ captured: 1250, refundable: 1250 });
  });
});
