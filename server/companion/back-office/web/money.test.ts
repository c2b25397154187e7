// The back office's one door to the merchant API's money unit: what it reads, adds and sends.
import { describe, expect, it } from 'vitest';
import { editableAmount, fromUnits, typedAmount, units } from './money.js';

describe('amounts in the back office', () => {
  it('adds in whole units, never floats: 0.1 + 0.2 of a currency is 0.30', () => {
    expect(fromUnits(units(0.1) + units('0.2'))).toBe('0.30');
    expect(units('249.5')).toBe(24950);
    expect(units(1490)).toBe(149000);
  });

  it('sends what the merchant typed, decimal comma or point', () => {
    expect(typedAmount(' 10,5 ', 'UAH')).toBe('10.5');
    expect(typedAmount('100', 'UAH')).toBe('100');
  });

  it('prefills a field with the amount as one would type it', () => {
    expect(editableAmount(fromUnits(65_000), 'UAH')).toBe('650.00');
    expect(editableAmount(12.5, 'UAH')).toBe('12.5');
  });
});
