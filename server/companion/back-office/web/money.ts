/**
 * Amounts as the merchant API writes them — integer minor units of the currency (24950 for
 * UAH 249.50, 500 for JPY 500) — and as the merchant reads and types them. This is the one module
 * that knows the API's money unit: the rest of the back office reads and sends amounts only
 * through it. The decimal a person sees or types is converted through text with the currency's
 * ISO 4217 digits (@payform/card's table, the gateway's), never through floats.
 */
import { currencyExponent, moneyFormat } from '@payform/card/currencies';
import { wireStep } from '@payform/gateway/wire';
import { t } from './i18n.js';
import { displayLocale } from './locale.js';

/**
 * An amount as the merchant API writes it: integer minor units. A typed amount that is not one
 * stays the merchant's text, for the companion to refuse naming the field and the unit.
 */
export type ApiAmount = number | string;

const formats = new Map<string, (minor: ApiAmount) => string>();

/** 24950 UAH → "UAH 249.50" (in Ukrainian "249,50 грн"): as the page's language writes it in this browser (locale.ts), unless `locale` is given. */
export function formatAmount(amount: ApiAmount, currency: string, locale: string = displayLocale()): string {
  const key = `${locale}:${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = moneyFormat(currency, locale);
    formats.set(key, format);
  }
  return format(amount);
}

/** An amount as a whole number of minor units, to compare and add. */
export function units(amount: ApiAmount): number {
  return Number(amount);
}

/** The API's amount for a number of minor units. */
export function fromUnits(count: number): ApiAmount {
  return count;
}

/**
 * An amount as the merchant may type it in `currency`: whole units, then a decimal point or comma
 * and no more digits than the currency has. So a thousands separator is never read as a decimal
 * one: "1,000" UAH or "1,000" JPY is refused, not sent as 1.00 UAH or 1 JPY. In a currency of
 * three decimals "1,000" could be either, a thousand dinars or one: a comma there takes fewer
 * than three digits, and "1.000" says one dinar.
 */
export function amountPattern(currency: string): RegExp {
  const exponent = currencyExponent(currency);
  const fraction = exponent === 0 ? '' : exponent < 3 ? `(?:[.,](\\d{1,${exponent}}))?` : `(?:\\.(\\d{1,${exponent}})|,(\\d{1,${exponent - 1}}))?`;
  return new RegExp(`^(\\d{1,13})${fraction}$`);
}

/** What the merchant types ("249.5", "249,50") in `currency` → minor units (24950); anything else as typed. */
export function typedAmount(text: string, currency: string): ApiAmount {
  const typed = text.trim();
  const match = amountPattern(currency).exec(typed);
  if (!match) return typed;
  const [, whole = '', point = '', comma = ''] = match;
  return Number(`${whole}${(point || comma).padEnd(currencyExponent(currency), '0')}`);
}

/** An amount as the merchant would type it in `currency`, to prefill a field: 24950 UAH → "249.50". */
export function editableAmount(amount: ApiAmount, currency: string): string {
  const minor = Number(amount);
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const fraction = exponent ? `.${digits.slice(-exponent)}` : '';
  return `${minor < 0 ? '-' : ''}${digits.slice(0, digits.length - exponent)}${fraction}`;
}

/**
 * Why a typed amount cannot be sent, in the page's language and the currency's units ('' when it
 * can): not an amount (`example` shows one), nothing (0), or finer than the gateway carries (10 fils of KWD).
 * The companion would refuse both, in minor units.
 */
export function typedAmountProblem(amount: ApiAmount, currency: string, example: ApiAmount): string {
  if (typeof amount !== 'number') return t('dialog.amountFormat', { example: editableAmount(example, currency) });
  if (amount <= 0) return t('dialog.amountPositive');
  const step = wireStep(currency);
  return amount % step === 0 ? '' : t('dialog.amountStep', { currency, step: editableAmount(step, currency) });
}
