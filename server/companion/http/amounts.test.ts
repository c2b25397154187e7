// Amounts in the companion's JSON: every accepted amount is the one answered and charged.
import { describe, expect, it } from 'vitest';
import { stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();

describe('amounts', () => {
  it('are accepted up to 9999999999999.99 and answered exactly', async () => {
    const stack = await open();
    const session = await stack.openSession({ amount: '9999999999999.99' });
    expect(session.amount).toBe(9999999999999.99);
    expect((await stack.ledger.getSession(session.id))?.amount).toBe(999_999_999_999_999);
  });

  it('beyond that are refused naming the field, not rounded to another amount', async () => {
    const stack = await open();
    for (const amount of ['90071992547409.91', 90071992547409.91, '10000000000000']) {
      const refused = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount, currency: 'UAH', description: 'Too much' } });
      expect(refused.error.fields).toEqual({ amount: 'must be at most 9999999999999.99' });
    }
  });

  it('are in an ISO 4217 currency the gateway can carry', async () => {
    const stack = await open();
    for (const [currency, reason] of [['XXX', 'is not an ISO 4217 currency code'], ['CLF', 'has four decimal places; the gateway takes at most two']]) {
      const refused = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount: 10, currency, description: 'Tea' } });
      expect(refused.error.fields).toEqual({ currency: reason });
    }
    expect((await stack.openSession({ amount: 1.5, currency: 'XTS' })).amount).toBe(1.5);
  });
});
