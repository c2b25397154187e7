// A card is valid through the last day of its expiry month.
import { describe, expect, it } from 'vitest';
import { hasExpired } from './card-expiry.js';

describe('hasExpired', () => {
  it('keeps a card valid through its expiry month and expired from the next one', () => {
    const card = { expMonth: 2, expYear: 2030 };
    expect(hasExpired(card, Date.UTC(2030, 1, 28, 23, 59, 59))).toBe(false);
    expect(hasExpired(card, Date.UTC(2030, 2, 1))).toBe(true);
    expect(hasExpired({ expMonth: 12, expYear: 2030 }, Date.UTC(2030, 11, 31, 12))).toBe(false);
    expect(hasExpired({ expMonth: 12, expYear: 2030 }, Date.UTC(2031, 0, 1))).toBe(true);
  });
});
