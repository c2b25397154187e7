import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { exactNumber, fractionDigits, fromWireAmount, toWireAmount, wireHundredths } from './decimals.js';
import { parseWire } from './issues.js';
import { Currency, RequestAmount } from './primitives.js';

describe('toWireAmount', () => {
  it.each([
    [1010, 'UAH', 10.1, '10.1'],
    [1000, 'UAH', 10, '10'],
    [1, 'UAH', 0.01, '0.01'],
    [12345678901, 'UAH', 123456789.01, '123456789.01'],
    [500, 'JPY', 500, '500'],
    [150, 'XTS', 1.5, '1.5'],
    [1230, 'KWD', 1.23, '1.23'],
    [-250, 'EUR', -2.5, '-2.5'],
  ])('%i minor %s → %s', (minor, currency, wire, json) => {
    expect(toWireAmount(minor, currency)).toBe(wire);
    expect(JSON.stringify(toWireAmount(minor, currency))).toBe(json);
  });

  it('never produces float artefacts, for every cent up to 1000.00', () => {
    const wrong: number[] = [];
    for (let minor = 1; minor <= 100_000; minor += 1) {
      const text = JSON.stringify(toWireAmount(minor, 'UAH'));
      if ((fractionDigits(text) ?? 99) > 2 || fromWireAmount(text, 'UAH') !== minor) wrong.push(minor);
    }
    expect(wrong).toEqual([]);
  });

  it('leaves three digits for a three-decimal amount that the wire cannot carry', () => {
    expect(toWireAmount(1005, 'BHD')).toBe(1.005);
  });

  it('refuses an amount a JSON number cannot carry exactly, rather than send another one', () => {
    expect(toWireAmount(999_999_999_999_999, 'UAH')).toBe(9999999999999.99);
    expect(toWireAmount(999_999_999_999_999, 'JPY')).toBe(999999999999999);
    // 16 significant digits: as a number this would leave as 90071992547409.9.
    expect(() => toWireAmount(Number.MAX_SAFE_INTEGER, 'UAH')).toThrow(RangeError);
    expect(() => toWireAmount(1_000_000_000_000_001, 'UAH')).toThrow(RangeError);
  });

  it('rejects non-integers and unsafe integers', () => {
    expect(() => toWireAmount(10.5, 'UAH')).toThrow(RangeError);
    expect(() => toWireAmount(Number.MAX_SAFE_INTEGER + 2, 'UAH')).toThrow(RangeError);
    expect(() => toWireAmount(Number.NaN, 'UAH')).toThrow(RangeError);
  });
});

describe('fromWireAmount', () => {
  it.each([
    [10.1, 'UAH', 1010],
    ['10.10', 'UAH', 1010],
    ['10.1', 'UAH', 1010],
    [0.29, 'UAH', 29],
    [1.15, 'UAH', 115],
    [4.35, 'UAH', 435],
    [100, 'UAH', 10000],
    ['100', 'JPY', 100],
    ['100.00', 'JPY', 100],
    [1.234, 'KWD', 1234],
    ['-5.5', 'UAH', -550],
    ['0.00', 'UAH', 0],
  ])('%s %s → %i', (wire, currency, minor) => {
    expect(fromWireAmount(wire, currency)).toBe(minor);
  });

  it('reads a negative zero as 0, never as -0', () => {
    for (const wire of ['-0', '-0.00', -0]) expect(fromWireAmount(wire, 'UAH'), String(wire)).toBe(0);
    expect(fromWireAmount('-0', 'JPY')).toBe(0);
  });

  it('rejects more precision than the minor unit, and non-decimals', () => {
    expect(() => fromWireAmount(100.5, 'JPY')).toThrow(/finer than the JPY minor unit/);
    expect(() => fromWireAmount('10.001', 'UAH')).toThrow(RangeError);
    expect(() => fromWireAmount(0.1 + 0.2, 'UAH')).toThrow(RangeError);
    expect(() => fromWireAmount('1e3', 'UAH')).toThrow(/not a plain decimal/);
    expect(() => fromWireAmount(' 10', 'UAH')).toThrow(RangeError);
    expect(() => fromWireAmount('', 'UAH')).toThrow(RangeError);
    expect(() => fromWireAmount('99999999999999999', 'UAH')).toThrow(/too large/);
  });
});

describe('wireHundredths', () => {
  it('scales decimals exactly for sums', () => {
    expect(wireHundredths(70) + wireHundredths('30.00')).toBe(wireHundredths(100));
    expect(wireHundredths(0.1) + wireHundredths(0.2)).toBe(wireHundredths(0.3));
    expect(() => wireHundredths(1.005)).toThrow(RangeError);
  });
});

/** The reason a schema gives for `value`, or undefined when it takes it. */
function reasonOf(schema: z.ZodType, value: unknown): string | undefined {
  const parsed = parseWire(schema, value);
  return parsed.success ? undefined : parsed.issues[0]?.reason;
}

describe('RequestAmount', () => {
  const reasonFor = (amount: unknown) => reasonOf(RequestAmount, amount);

  it('takes every amount up to 9999999999999.99, each one exact on the wire', () => {
    for (const amount of [0.01, 10.1, 9999999999999.99, 999999999999]) expect(reasonFor(amount)).toBeUndefined();
  });

  it('refuses larger amounts, whose digits a JSON number would lose, with a clear reason', () => {
    for (const amount of [90071992547409.91, 10000000000000, 1e15, '90071992547409.91', '99999999999999999999']) {
      expect(reasonFor(amount)).toBe('must be at most 9999999999999.99');
    }
  });

  it('takes a JSON number only, as payform’s client sends it: a string a number holds is refused for being one', () => {
    for (const amount of ['0.01', '10.10', '9999999999999.99', '10000000000000']) expect(reasonFor(amount), amount).toBe('must be a number');
    expect(reasonFor('1e2')).toBe('must be a plain decimal number');
    // A JSON number JavaScript writes with an exponent is said for what is wrong with it, not for its spelling.
    for (const amount of [1e-7, -1e-9]) expect(reasonFor(amount), String(amount)).toBe('must have at most 2 decimal digits');
    expect(reasonFor(1e21)).toBe('must be at most 9999999999999.99');
    // More fraction digits than the wire takes, as written, whatever number it holds.
    for (const amount of ['0.100000000000000000001', '10.105', '10.100']) expect(reasonFor(amount), amount).toBe('must have at most 2 decimal digits');
    for (const amount of [null, true, {}]) expect(reasonFor(amount)).toBe('must be a decimal number');
    expect(reasonFor(undefined)).toBe('is required');
  });
});

describe('exactNumber', () => {
  it('reads a plain decimal a JSON number holds exactly', () => {
    expect(exactNumber('10.10')).toBe(10.1);
    expect(exactNumber('007')).toBe(7);
    expect(exactNumber('-1.50')).toBe(-1.5);
    expect(exactNumber('9999999999999.99')).toBe(9999999999999.99);
    expect(Object.is(exactNumber('-0'), -0)).toBe(true);
  });

  it('reads nothing else: no exponent, no spaces, no digits a number would lose', () => {
    for (const text of ['1e2', ' 12', '12 ', '1.', '.5', '+1', 'twelve', '', '0.100000000000000000001', '9'.repeat(400), '90071992547409.91']) {
      expect(exactNumber(text), text).toBeUndefined();
    }
  });
});

describe('Currency', () => {
  const reasonFor = (code: unknown) => reasonOf(Currency, code);

  it('takes ISO 4217 currencies, the test code XTS included', () => {
    for (const code of ['UAH', 'EUR', 'USD', 'PLN', 'JPY', 'KRW', 'KWD', 'BHD', 'XTS']) expect(reasonFor(code), code).toBeUndefined();
  });

  it('refuses codes that are no currency, and ones finer than the gateway can carry', () => {
    expect(reasonFor('XXX')).toBe('is not an ISO 4217 currency code');
    expect(reasonFor('ABC')).toBe('is not an ISO 4217 currency code');
    expect(reasonFor('XAU')).toBe('is not an ISO 4217 currency code');
    expect(reasonFor('CLF')).toBe('has four decimal places; the gateway takes at most two');
    expect(reasonFor('UYW')).toBe('has four decimal places; the gateway takes at most two');
    expect(reasonFor('uah')).toBe('must be a three-letter upper-case ISO 4217 code');
    expect(reasonFor(undefined)).toBe('is required');
  });
});
