// The back office shows and takes amounts as people write them, and sends minor units.
import { describe, expect, it } from 'vitest';
import { majorText, parseMajor } from './money.js';

describe('amounts typed and shown in the back office', () => {
  it('read what a person types as minor units of the currency', () => {
    expect(parseMajor('5.50', 'UAH')).toBe(550);
    expect(parseMajor('5,5', 'UAH')).toBe(550);
    expect(parseMajor(' 149 ', 'UAH')).toBe(14900);
    expect(parseMajor('0.01', 'UAH')).toBe(1);
    expect(parseMajor('500', 'JPY')).toBe(500);
    expect(parseMajor('1.230', 'KWD')).toBe(1230);
    expect(parseMajor('9999999999999.99', 'UAH')).toBe(999_999_999_999_999);
  });

  it('are not made up from what is no amount in the currency', () => {
    for (const [text, currency] of [['5.505', 'UAH'], ['5.5', 'JPY'], ['abc', 'UAH'], ['-5', 'UAH'], ['', 'UAH'], ['1e3', 'UAH']]) {
      expect(parseMajor(text!, currency!)).toBeUndefined();
    }
  });

  it('prefill inputs with the text a person would type', () => {
    expect(majorText(550, 'UAH')).toBe('5.50');
    expect(majorText(5, 'UAH')).toBe('0.05');
    expect(majorText(500, 'JPY')).toBe('500');
    expect(majorText(1230, 'KWD')).toBe('1.230');
    for (const minor of [1, 99, 100, 12345, 999_999_999_999_999]) expect(parseMajor(majorText(minor, 'UAH'), 'UAH')).toBe(minor);
  });
});
