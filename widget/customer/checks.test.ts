import { describe, expect, it } from 'vitest';
import { checkEmail, checkName, checkPhone, phoneDigits } from './checks.js';

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
  ])('phone %j', (value, valid, potentiallyValid, code) => {
    expect(checkPhone(value)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it('sends phone numbers without the formatting people type', () => {
    expect(phoneDigits('+48 (600) 123-456')).toBe('+48600123456');
  });
});
