// The saved-card list through the companion's HTTP API: its times are RFC 3339 like every other
// time of the merchant API, although the gateway writes a token's expiry without a zone.
import { describe, expect, it } from 'vitest';
import { stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();

describe('GET /api/customers/:customer_id/cards', () => {
  it('gives the token’s expiry as UTC with its zone, null when it does not read as a time', async () => {
    const stack = await open();
    await stack.ledger.saveCard({ customerId: 'cust-times', ccToken: 'tok-a', ccMask: '424242******4242', tokenExpiration: '2030-12-31T23:59:59' });
    await stack.ledger.saveCard({ customerId: 'cust-times', ccToken: 'tok-b', ccMask: '545454******5454', tokenExpiration: 'soon' });
    // Date.parse alone reads "1" as 2001-01-01: not a time the gateway writes.
    await stack.ledger.saveCard({ customerId: 'cust-times', ccToken: 'tok-c', ccMask: '400000******0002', tokenExpiration: '1' });
    const { cards } = await stack.json('GET', '/api/customers/cust-times/cards', 200, { admin: true });
    const byMask = Object.fromEntries(cards.map((card: { mask: string; token_expiration: unknown }) => [card.mask, card.token_expiration]));
    // Zone-less, `new Date()` in a browser or Node reads it as local time: hours off.
    expect(byMask).toEqual({ '424242******4242': '2030-12-31T23:59:59.000Z', '545454******5454': null, '400000******0002': null });
  });
});
