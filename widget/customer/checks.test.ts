import { beforeAll, describe, expect, it, vi } from 'vitest';
import { checkEmail, checkName, checkPhone, phoneDigits } from './checks.js';
import type * as Checks from './checks.js';

describe('customer field checks', () => {
  it.each([
    ['', false, true, 'empty'], ['  ', false, true, 'empty'], ['Олена', true, true, undefined], [' Jo ', true, true, undefined],
  ])('name %j', (value, valid, potentiallyValid, code) => {
    expect(checkName(value)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it.each([
    ['', false, true, 'empty'],
    ['olena@example.com', true, true, undefined],
    [' olena.k+shop@mail.example.ua ', true, true, undefined],
    ['olena', false, true, 'invalid'],
    ['olena@example', false, true, 'invalid'],
    ['olena@', false, true, 'invalid'],
    ['ol ena@example.com', false, false, 'invalid'],
    ['a@b@example.com', false, false, 'invalid'],
    ['olena@example..com', false, true, 'invalid'],
  ])('email %j', (value, valid, potentiallyValid, code) => {
    expect(checkEmail(value)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it.each([
    ['', false, true, 'empty'],
    ['+380 67 123 4567', true, true, undefined],
    ['+48 (600) 123-456', true, true, undefined],
    ['0671234567', true, true, undefined],
    ['+380', false, true, 'invalid'],
    ['+3806712345678901', false, false, 'invalid'], // 16 digits
    ['+380 67 CALL ME', false, false, 'invalid'],
    // The companion's rule (@payform/card's isCardNumberAsPhone): a 14-digit Diners Club or 15-digit
    // Amex number without a + is a card number, never sent on; a digit more may still make a phone.
    ['4915 1234 567 04', true, true, undefined], // a German mobile: a 13-digit Visa's check, but none are issued
    ['3056-930902-5904', false, true, 'card_number'],
    ['378282246310005', false, true, 'card_number'],
    ['+30569309025904', true, true, undefined],
    ['30569309025905', true, true, undefined], // no valid check digit
  ])('phone %j', (value, valid, potentiallyValid, code) => {
    expect(checkPhone(value)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it('sends phone numbers without the formatting people type', () => {
    expect(phoneDigits('+48 (600) 123-456')).toBe('+48600123456');
  });
});

describe('card numbers in a name or the e-mail address, before the detector has loaded', () => {
  // It loads on demand, the first time a value has 14 digits: a fresh instance of the checks' module.
  it('judges fewer than 14 digits at once, and more once the detector is there', async () => {
    vi.resetModules();
    const fresh: typeof Checks = await import('./checks.js');
    expect(fresh.checkName('Koval 1234567890123')).toEqual({ valid: true, potentiallyValid: true });
    expect(fresh.checkEmail('olena@example')).toEqual({ valid: false, potentiallyValid: true, code: 'invalid' });
    const { pending, ...check } = fresh.checkName('Olena 4111 1111 1111 1111');
    expect(check, 'not valid yet, nor an error').toEqual({ valid: false, potentiallyValid: true });
    expect(pending).toBeInstanceOf(Promise);
    expect(fresh.checkEmail('4111 1111 1111 1111').pending, 'loaded once').toBe(pending);
    await pending;
    expect(fresh.checkName('Olena 4111 1111 1111 1111')).toEqual({ valid: false, potentiallyValid: false, code: 'card_number' });
    expect(fresh.checkEmail('4111 1111 1111 1111')).toEqual({ valid: false, potentiallyValid: false, code: 'card_number' });
    expect(fresh.checkName('Koval 4111 1111 1111 1112')).toEqual({ valid: true, potentiallyValid: true });
  });
});

describe('card numbers in a name or the e-mail address', () => {
  beforeAll(async () => {
    await checkName('4111 1111 1111 1111').pending;
  });

  // The rule is the companion's (card/card-numbers.ts): any separators, any decimal digits, Luhn and 14–19 digits.
  const CARD_NUMBER = { valid: false, potentiallyValid: false, code: 'card_number' };
  it.each([
    ['Olena 4111  1111  1111  1111', checkName],
    ['Olena 4111\u00a01111\u00a01111\u00a01111', checkName],
    ['4111\t1111\t1111\t1111', checkName],
    ['Koval 4111/1111/1111/1111', checkName],
    ['Koval 4111 - 1111 - 1111 - 1111', checkName],
    ['Koval ４１１１１１１１１１１１１１１１', checkName],
    // A name's digits alone, however grouped.
    ['Olena 411111 1111111111', checkName],
    ['41111111 11111111', checkName],
    ['378282|246310005@example.com', checkEmail],
    ['4111.1111.1111.1111@example.com', checkEmail],
    ['olena_4111_1111_1111_1111@example.com', checkEmail],
    ['4111 1111 1111 1111', checkEmail],
  ])('refuses the card number in %j at once', (value, check) => {
    expect(check(value)).toEqual(CARD_NUMBER);
  });

  it.each(['Apt 12', 'Koval 2026-11-22', 'Olena +380 44 123 4567', 'Koval 123456789012', 'Koval 4111 1111 1111 1112'])(
    'keeps the numbers of an ordinary name: %j',
    (value) => {
      expect(checkName(value)).toEqual({ valid: true, potentiallyValid: true });
    },
  );
});
