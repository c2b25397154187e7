// The back office's one door to the merchant API's money unit (integer minor units): what it
// reads, adds, prefills and sends.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { amountPattern, editableAmount, formatAmount, fromUnits, typedAmount, typedAmountProblem, units } from './money.js';

/** Amounts pasted with what cannot be seen in them: bidi marks (RLM, LRM, ALM), isolates, no-break and narrow spaces. */
const PASTED = ['\u200f1\u00a0000,00\u00a0\u200fUAH', '\u200e1\u202f234,50\u200e', ' 249,50\u00a0', '\u2068UAH\u00a0234,56\u2069 ', '\u061c1 000', '1\u200f000'];

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
    // An English page: a comma separates thousands, a point starts the fraction.
    for (const [text, minor] of [['1,000', 100000], ['1,000.00', 100000], ['12,345,678.9', 1234567890], ['1 000.5', 100050]] as const) expect(typedAmount(text, 'UAH', 'en')).toBe(minor);
    for (const text of ['1.000', '249.500', '1.000,00', '1,00,000.00']) expect(typedAmount(text, 'UAH', 'en')).toBe(text);
    expect(typedAmount('1,000', 'JPY', 'en')).toBe(1000);
    for (const text of ['1.000', '1.0', '1,000.00']) expect(typedAmount(text, 'JPY', 'en')).toBe(text);
    // Three decimals: "1,000" could be a thousand dinars or one, and is refused; the point says one, a second group a thousand.
    expect(typedAmount('1,000', 'KWD', 'en')).toBe('1,000');
    expect(typedAmount('1.000', 'KWD', 'en')).toBe(1000);
    expect(typedAmount('1,000.000', 'KWD', 'en')).toBe(1_000_000);
    expect(typedAmount('1,25', 'KWD', 'en')).toBe(1250);
  });

  it('reads amounts as a Ukrainian page writes them: a space between thousands, a comma before the fraction', () => {
    // Typed with a space, or copied from the page with the no-break space (narrow or not) Intl writes.
    for (const text of ['1 000,00', '1\u00a0000,00', '1\u202f000,00', '1 000', '1000,00', '1000']) expect(typedAmount(text, 'UAH', 'uk')).toBe(100000);
    expect(typedAmount('1 234 567,8', 'UAH', 'uk')).toBe(123456780);
    // A point is a decimal mark too (no Ukrainian number separates thousands with it).
    expect(typedAmount('249.50', 'UAH', 'uk')).toBe(24950);
    // Not how Ukrainian writes thousands: never read as a fraction, refused.
    for (const text of ['1,000', '1.000', '1,000.00', '1.000,00', '1 00', '10 0000', '1 000 00']) expect(typedAmount(text, 'UAH', 'uk')).toBe(text);
    expect(typedAmount('1 000', 'JPY', 'uk')).toBe(1000);
    for (const text of ['1,000', '1.000']) expect(typedAmount(text, 'JPY', 'uk')).toBe(text);
    // "1,000 KWD" is how the page writes one dinar.
    expect(typedAmount('1,000', 'KWD', 'uk')).toBe(1000);
    expect(typedAmount('1 000,000', 'KWD', 'uk')).toBe(1_000_000);
  });

  it('takes the separators an English page in the browser’s own locale writes, and no other', () => {
    // en-DK writes "1.234,50 UAH": a point between thousands.
    for (const text of ['1.000,00', '1.000', '1 000,00', '1000,5']) expect(typedAmount(text, 'UAH', 'en-DK')).toBe(text === '1000,5' ? 100050 : 100000);
    for (const text of ['1,000', '1,000.00', '1.00.000']) expect(typedAmount(text, 'UAH', 'en-DK')).toBe(text);
    expect(typedAmount('1.000', 'KWD', 'en-DK')).toBe('1.000');
    expect(typedAmount('1,000', 'KWD', 'en-DK')).toBe(1000);
    // en-CH: an apostrophe; en-IN: lakhs and crores, grouped by two above the thousands.
    expect(typedAmount("1'000.50", 'UAH', 'en-CH')).toBe(100050);
    expect(typedAmount("1'00.50", 'UAH', 'en-CH')).toBe("1'00.50");
    expect(typedAmount('1,00,000.00', 'UAH', 'en-IN')).toBe(10_000_000);
    expect(typedAmount('100,000.00', 'UAH', 'en-IN')).toBe(10_000_000);
    expect(typedAmount('1,0,000.00', 'UAH', 'en-IN')).toBe('1,0,000.00');
  });

  it('takes an amount copied as the page shows it, with the currency’s sign or code, and no other currency’s', () => {
    // Whatever this runtime's ICU writes (₴ or грн, the sign before or after): the page writes it so too.
    const locales = ['en', 'en-GB', 'en-US', 'en-150', 'en-DK', 'en-CH', 'en-IN', 'en-ZA', 'uk', 'uk-UA'];
    for (const locale of locales) {
      for (const currency of ['UAH', 'USD', 'EUR', 'JPY', 'KWD']) {
        for (const minor of [1, 99, 100_050, 123_456_789, 100_000_000]) {
          const shown = formatAmount(minor, currency, locale);
          expect(typedAmount(shown, currency, locale), `${shown} (${locale})`).toBe(minor);
        }
      }
    }
    expect(typedAmount('UAH 1,234.50', 'UAH', 'en')).toBe(123450);
    expect(typedAmount('1 234,50 UAH', 'UAH', 'uk')).toBe(123450);
    // Bidi isolates copied with it are invisible, not part of the figure.
    expect(typedAmount('\u20681 234,50\u2069', 'UAH', 'uk')).toBe(123450);
    // Marks and spaces around the figure and its sign, as a right-to-left or a French page copies
    // them: read; a mark inside the figure, which no one wrote there: not.
    expect(PASTED.map((text) => typedAmount(text, 'UAH', 'uk'))).toEqual([100_000, 123_450, 24950, 23456, 100_000, '1\u200f000']);
    for (const text of ['$1,234.50', 'EUR 1,234.50', 'UAH 1,234.50 UAH', 'UAH', '-UAH 5.00']) expect(typedAmount(text, 'UAH', 'en')).toBe(text);
  });

  it('keeps a typed amount within what minor units hold exactly', () => {
    expect(typedAmount('999 999 999 999.999', 'KWD', 'uk')).toBe(999_999_999_999_999);
    expect(typedAmount('9999999999999.999', 'KWD', 'en')).toBe('9999999999999.999');
  });

  it('says what is wrong with a typed amount in the currency’s units, before the companion would in minor units', () => {
    // The page's language, as the back office's <html lang> says it.
    vi.stubGlobal('document', { documentElement: { lang: 'en', dir: 'ltr', dataset: {} } });
    onTestFinished(() => void vi.unstubAllGlobals());
    expect(typedAmountProblem(typedAmount('ten', 'UAH'), 'UAH', 24950)).toBe('Write the amount in the currency’s units, as in 249.50.');
    expect(typedAmountProblem(typedAmount('1.005', 'KWD'), 'KWD', 6050)).toBe('The gateway takes KWD in steps of 0.010.');
    expect(typedAmountProblem(typedAmount('1.01', 'KWD'), 'KWD', 6050)).toBe('');
    expect(typedAmountProblem(typedAmount('249.5', 'UAH'), 'UAH', 24950)).toBe('');
    // Nothing to refund or charge: said so, not as a number written wrong.
    expect(typedAmountProblem(typedAmount('0', 'UAH'), 'UAH', 24950)).toBe('Write an amount above zero.');
    expect(typedAmountProblem(typedAmount('0,00', 'UAH'), 'UAH', 24950)).toBe('Write an amount above zero.');
    // A point or comma before three digits, read neither way: refused, naming the form to type.
    expect(typedAmountProblem(typedAmount('1.000', 'UAH'), 'UAH', 24950)).toBe('Write the amount in the currency’s units, as in 249.50.');
    expect(typedAmountProblem(typedAmount('KWD 1,000', 'KWD'), 'KWD', 6050)).toBe('Write the amount in the currency’s units, as in 6.050.');
  });

  it('says it in Ukrainian on a Ukrainian page, with the example as the page writes it', () => {
    vi.stubGlobal('document', { documentElement: { lang: 'uk', dir: 'ltr', dataset: {} } });
    onTestFinished(() => void vi.unstubAllGlobals());
    expect(typedAmountProblem(typedAmount('UAH 1,234.50', 'UAH'), 'UAH', 24950)).toBe('Напишіть суму в одиницях валюти, як-от 249,50.');
    expect(typedAmountProblem(typedAmount('1.000', 'UAH'), 'UAH', 24950)).toBe('Напишіть суму в одиницях валюти, як-от 249,50.');
    expect(typedAmountProblem(typedAmount('1,005', 'KWD'), 'KWD', 6050)).toBe('Шлюз приймає KWD кроками по 0,010.');
    expect(typedAmountProblem(typedAmount('1 000,00', 'UAH'), 'UAH', 24950)).toBe('');
  });

  it('prefills a field with the amount as one would type it, in the page’s decimal mark', () => {
    expect(editableAmount(65_000, 'UAH', 'en')).toBe('650.00');
    expect(editableAmount(5, 'UAH', 'en')).toBe('0.05');
    expect(editableAmount(500, 'JPY', 'en')).toBe('500');
    expect(editableAmount(1230, 'KWD', 'en')).toBe('1.230');
    // As every amount on a Ukrainian page reads: "123,45", not "123.45"; no thousands apart, so any digit can be changed.
    expect(editableAmount(12_345, 'UAH', 'uk')).toBe('123,45');
    expect(editableAmount(123_456_789, 'UAH', 'uk')).toBe('1234567,89');
    expect(editableAmount(1230, 'KWD', 'uk')).toBe('1,230');
    expect(editableAmount(12_345, 'UAH', 'en-DK')).toBe('123,45');
    // Whatever the prefill shows is taken back unchanged.
    for (const locale of ['en', 'uk', 'en-DK', 'en-CH', 'en-IN']) {
      for (const currency of ['UAH', 'JPY', 'KWD']) {
        for (const minor of [1, 99, 100, 1000, 12345, 100_000, 999_999_999_999_999]) expect(typedAmount(editableAmount(minor, currency, locale), currency, locale)).toBe(minor);
      }
    }
  });

  it('gives the amount field a pattern a browser takes, accepting what is read as an amount and nothing else', () => {
    const texts = ['1 000,00', '1\u00a0000', '1,000', '1.000', '1,000.00', '1.000,00', '249,5', '1 00', "1'000.50", '1,00,000.00', 'UAH 1,234.50', '1 234,50 грн', '$5', '-5', '5 UAH UAH', ...PASTED];
    for (const locale of ['en', 'uk', 'en-DK', 'en-CH', 'en-IN']) {
      for (const currency of ['UAH', 'JPY', 'KWD']) {
        // As <input pattern> compiles it.
        const attribute = new RegExp(`^(?:${amountPattern(currency, locale).source})$`, 'v');
        for (const text of texts) expect(attribute.test(text), `${text} ${currency} (${locale})`).toBe(typeof typedAmount(text, currency, locale) === 'number');
      }
    }
  });

  it('adds whole minor units', () => {
    expect(fromUnits(units(10) + units(20))).toBe(30);
  });
});
