/**
 * The amount field against every locale this runtime knows (fast-check): an amount as the page
 * shows it, or as the field is prefilled with it, is read back as that amount or refused, never
 * as another one. A refusal is an operator's retyping; another number is money sent wrongly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyExponent } from '@payform/card/currencies';
import { editableAmount, formatAmount, typedAmount } from './money.js';

const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 2_000) };

/** Languages as a browser may give them, with the region that changes how they write numbers. */
const LOCALES = Intl.DateTimeFormat.supportedLocalesOf([
  'en', 'en-US', 'en-GB', 'en-IN', 'en-CH', 'en-DK', 'en-ZA', 'en-DE', 'en-SE', 'uk', 'uk-UA', 'de', 'de-CH', 'de-AT', 'fr', 'fr-CH',
  'fr-CA', 'es', 'es-MX', 'it', 'it-CH', 'pl', 'pt-BR', 'nl', 'sv', 'nb', 'fi', 'cs', 'ru', 'tr', 'ja', 'zh', 'ko', 'hi', 'ar', 'ar-EG', 'fa', 'he', 'th',
]);
const CURRENCIES = ['UAH', 'USD', 'EUR', 'JPY', 'KWD', 'CHF', 'INR', 'GBP'];

/** Minor units up to what the field takes: fifteen digits. */
const minor = fc.oneof(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 999_999_999_999_999 }));
/** Whole amounts, which an operator types without a fraction: "1,000" or "1 000" must not be ten. */
const whole = fc.oneof(fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: 1, max: 999_999_999 })).map((units) => units * 1_000);
const setting = fc.record({ locale: fc.constantFrom(...LOCALES), currency: fc.constantFrom(...CURRENCIES), amount: minor });

describe('an amount read back in any locale', () => {
  it('as the field is prefilled: the same amount', () => {
    fc.assert(
      fc.property(setting, ({ locale, currency, amount }) => {
        expect(typedAmount(editableAmount(amount, currency, locale), currency, locale)).toBe(amount);
      }),
      RUNS,
    );
  });

  it('as the page shows it: the same amount, or refused as typed', () => {
    fc.assert(
      fc.property(setting, ({ locale, currency, amount }) => {
        const shown = formatAmount(amount, currency, locale);
        const read = typedAmount(shown, currency, locale);
        expect(read === amount || read === shown.trim(), `${shown} (${locale}) read as ${read}`).toBe(true);
      }),
      RUNS,
    );
  });

  it('as the page writes it without the zeros of its fraction: the same amount, or refused as typed', () => {
    fc.assert(
      fc.property(fc.record({ locale: fc.constantFrom(...LOCALES), currency: fc.constantFrom(...CURRENCIES), amount: fc.oneof(minor, whole) }), ({ locale, currency, amount }) => {
        // The decimal as text, so Intl writes it exactly: a float could not.
        const exact = editableAmount(amount, currency, 'en') as Intl.StringNumericLiteral;
        // As the page writes the currency (en-DK writes "1.234,50 UAH" but "€1,234.50"), without its sign.
        const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: currencyExponent(currency) });
        const written = format.formatToParts(exact).filter(({ type }) => type !== 'currency' && type !== 'literal').map(({ value }) => value).join('');
        const read = typedAmount(written, currency, locale);
        expect(read === amount || read === written.trim(), `${written} (${locale}, ${currency}) read as ${read}`).toBe(true);
      }),
      RUNS,
    );
  });
});
