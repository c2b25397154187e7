// The back office's one door to the merchant API's money unit (integer minor units): what it
// reads, adds, prefills and sends.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { editableAmount, fromUnits, typedAmount, typedAmountProblem, units } from './money.js';

describe('amounts in the back office', () => {
  it('sends what the merchant typed as minor units of the currency, decimal comma or point', () => {
    expect(typedAmount(' 249,5 ', 'UAH')).toBe(24950);
    expect(typedAmount('100', 'UAH')).toBe(10000);
    expect(typedAmount('1.50', 'UAH')).toBe(150);
    expect(typedAmount('500', 'JPY')).toBe(500);
    expect(typedAmount('1.234', 'KWD')).toBe(1234);
    expect(typedAmount('0.01', 'UAH')).toBe(1);
    expect(typedAmount('9999999999999.99', 'UAH')).toBe(999_999_999_999_999);
  });

  it('sends what is not an amount as typed, for the companion to refuse naming the field', () => {
    expect(typedAmount('1.005', 'UAH')).toBe('1.005');
    expect(typedAmount('5.5', 'JPY')).toBe('5.5');
    for (const text of ['ten', '-5', '1e3', '']) expect(typedAmount(text, 'UAH')).toBe(text);
  });

  it('never reads a thousands separator as the decimal one', () => {
    // The back office shows "UAH 1,000.00" and "¥1,000": a figure copied from it is refused, not 1.00 UAH or 1 JPY.
    for (const text of ['1,000', '1.000', '249.500', '1,000.00', '1 000']) expect(typedAmount(text, 'UAH')).toBe(text);
    for (const text of ['1,000', '1.000', '1.0']) expect(typedAmount(text, 'JPY')).toBe(text);
    // Three decimals: "1,000" could be a thousand dinars or one, and is refused; the point says one.
    expect(typedAmount('1,000', 'KWD')).toBe('1,000');
    expect(typedAmount('1.000', 'KWD')).toBe(1000);
    expect(typedAmount('1,25', 'KWD')).toBe(1250);
  });

  it('says what is wrong with a typed amount in the currency’s units, before the companion would in minor units', () => {
    // The page's language, as the back office's <html lang> says it.
    vi.stubGlobal('document', { documentElement: { lang: 'en', dir: 'ltr', dataset: {} } });
    onTestFinished(() => void vi.unstubAllGlobals());
    expect(typedAmountProblem(typedAmount('1,000', 'UAH'), 'UAH', 24950)).toBe('Write the amount in the currency’s units, as in 249.50.');
    expect(typedAmountProblem(typedAmount('1.005', 'KWD'), 'KWD', 6050)).toBe('The gateway takes KWD in steps of 0.010.');
    expect(typedAmountProblem(typedAmount('1.01', 'KWD'), 'KWD', 6050)).toBe('');
    expect(typedAmountProblem(typedAmount('249.5', 'UAH'), 'UAH', 24950)).toBe('');
    // Nothing to refund or charge: said so, not as a number written wrong.
    expect(typedAmountProblem(typedAmount('0', 'UAH'), 'UAH', 24950)).toBe('Write an amount above zero.');
    expect(typedAmountProblem(typedAmount('0,00', 'UAH'), 'UAH', 24950)).toBe('Write an amount above zero.');
  });

  it('prefills a field with the amount as one would type it', () => {
    expect(editableAmount(65_000, 'UAH')).toBe('650.00');
    expect(editableAmount(5, 'UAH')).toBe('0.05');
    expect(editableAmount(500, 'JPY')).toBe('500');
    expect(editableAmount(1230, 'KWD')).toBe('1.230');
    for (const minor of [1, 99, 100, 12345, 999_999_999_999_999]) expect(typedAmount(editableAmount(minor, 'UAH'), 'UAH')).toBe(minor);
  });

  it('adds whole minor units', () => {
    expect(fromUnits(units(10) + units(20))).toBe(30);
  });
});
