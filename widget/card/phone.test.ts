// A card number typed into a phone field, by the rule the companion refuses it with.
import { describe, expect, it } from 'vitest';
import { isCardNumberAsPhone } from './phone.js';

describe('isCardNumberAsPhone', () => {
  it('takes the card numbers a phone field can hold for what they are', () => {
    for (const card of ['30569309025904', '378282246310005']) expect(isCardNumberAsPhone(card), card).toBe(true);
  });

  it('keeps a German mobile written without its +, which passes a 13-digit Visa\'s check, as Visa no longer issues those', () => {
    expect(isCardNumberAsPhone('4915123456704')).toBe(false);
  });

  it('keeps phones: one written with +, one failing the check digit, and country codes that are short cards\' prefixes', () => {
    for (const phone of ['+30569309025904', '30569309025905', '0671234567', '6281234567890', '573001234567']) expect(isCardNumberAsPhone(phone), phone).toBe(false);
  });
});
