import { describe, expect, it } from 'vitest';
import { checkExpiry, hasExpired, readExpiry, splitExpiry } from './expiry.js';

const NOW = new Date(Date.UTC(2026, 10, 21)); // 21 November 2026

describe('checkExpiry', () => {
  it.each([
    // value, valid, potentiallyValid, code
    ['', false, true, 'empty'],
    ['   ', false, true, 'empty'],
    ['0', false, true, 'incomplete'],
    ['1', false, true, 'incomplete'],
    ['12', false, true, 'incomplete'],
    ['12/', false, true, 'incomplete'],
    ['12/3', false, true, 'incomplete'],
    ['00', false, false, 'invalid'], // month 0
    ['00/30', false, false, 'invalid'],
    ['0/30', false, false, 'invalid'],
    ['13', false, false, 'invalid'], // month 13
    ['13/30', false, false, 'invalid'],
    ['11/26', true, true, undefined], // this month is still valid
    ['10/26', false, false, 'expired'], // last month
    ['12/25', false, false, 'expired'],
    ['11/2026', true, true, undefined],
    ['10/2026', false, false, 'expired'],
    ['12/20', false, true, 'expired'], // may still become 12/20xx
    ['12/2020', false, false, 'expired'],
    ['1/30', true, true, undefined], // M/YY
    ['01/30', true, true, undefined],
    ['0130', true, true, undefined], // MMYY
    ['01/2030', true, true, undefined], // MM/YYYY
    ['  01/30  ', true, true, undefined], // padded
    ['01 / 30', true, true, undefined],
    ['01-30', true, true, undefined],
    ['12/45', true, true, undefined], // 19 years ahead
    ['12/2045', true, true, undefined],
    ['01/46', false, false, 'too_far'], // 20 years ahead
    ['12/2046', false, false, 'too_far'],
    ['12/203', false, true, 'incomplete'], // half a four-digit year
    ['12/20300', false, false, 'invalid'],
    ['ab/cd', false, false, 'invalid'],
    ['12/3a', false, false, 'invalid'],
  ])('%j → valid %s, potentially %s, %s', (value, valid, potentiallyValid, code) => {
    expect(checkExpiry(value, NOW)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it('follows the calendar year change', () => {
    expect(checkExpiry('12/26', new Date(Date.UTC(2026, 11, 31))).valid).toBe(true);
    expect(checkExpiry('12/26', new Date(Date.UTC(2027, 0, 1))).code).toBe('expired');
  });

  it('judges by UTC, as the companion and the gateway do, whatever the customer’s zone', () => {
    // 05:00 on 1 January at UTC+14 (Kiritimati) is still 31 December in UTC: the card is taken.
    expect(checkExpiry('12/26', new Date('2026-12-31T15:00:00Z')).valid).toBe(true);
    // 20:00 on 31 December at UTC−11 (Pago Pago) is already January in UTC: the gateway would refuse it.
    expect(checkExpiry('12/26', new Date('2027-01-01T07:00:00Z')).code).toBe('expired');
  });
});

describe('hasExpired', () => {
  it('keeps a card valid through its expiry month and expired from the next one', () => {
    expect(hasExpired(2, 2030, Date.UTC(2030, 1, 28, 23, 59, 59))).toBe(false);
    expect(hasExpired(2, 2030, Date.UTC(2030, 2, 1))).toBe(true);
    expect(hasExpired(12, 2030, new Date(Date.UTC(2030, 11, 31, 12)))).toBe(false);
    expect(hasExpired(12, 2030, Date.UTC(2031, 0, 1))).toBe(true);
  });
});

describe('splitExpiry and readExpiry', () => {
  it.each([
    ['1/30', { month: '1', year: '30' }, { exp_month: 1, exp_year: 2030 }],
    ['01/30', { month: '01', year: '30' }, { exp_month: 1, exp_year: 2030 }],
    ['1230', { month: '12', year: '30' }, { exp_month: 12, exp_year: 2030 }],
    ['12/2031', { month: '12', year: '2031' }, { exp_month: 12, exp_year: 2031 }],
    [' 7 / 29 ', { month: '7', year: '29' }, { exp_month: 7, exp_year: 2029 }],
    ['12', { month: '12', year: '' }, undefined],
    ['12/203', { month: '12', year: '203' }, undefined],
    ['x', undefined, undefined],
  ])('%j', (value, parts, wire) => {
    expect(splitExpiry(value)).toEqual(parts);
    expect(readExpiry(value)).toEqual(wire);
  });
});
