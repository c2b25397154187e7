/**
 * Amounts as the merchant API writes them, and as the merchant reads and types them. This is the
 * one module that knows the API's money unit — decimals in the currency (`100.5` or `"100.50"`)
 * — so the rest of the back office reads and sends amounts only through it. Formatting goes from
 * decimal text and sums go in hundredths: never float arithmetic.
 */
import { preferences } from './preferences.js';

/** An amount as the merchant API writes it. */
export type ApiAmount = number | string;

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string): Intl.NumberFormat {
  const key = `${preferences().lang}:${currency}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(preferences().lang, { style: 'currency', currency });
    formatters.set(key, format);
  }
  return format;
}

/** 100.5 UAH → "UAH 100.50" (in Ukrainian "100,50 грн"). */
export function formatAmount(amount: ApiAmount, currency: string): string {
  return formatter(currency).format(String(amount) as `${number}`);
}

/** An amount as a whole number of the currency's smallest unit, to compare and add: 10.5 → 1050. */
export function units(amount: ApiAmount): number {
  const [whole = '0', fraction = ''] = String(amount).split('.');
  const sign = whole.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}

/** The API's amount for a number of smallest units: 1050 → "10.50" (text, so no float is added). */
export function fromUnits(count: number): ApiAmount {
  const digits = String(Math.abs(count)).padStart(3, '0');
  return `${count < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** What the merchant types for an amount ("10.5", "10,50") in `currency` → the API's amount; the API checks it. */
export function typedAmount(text: string, _currency: string): ApiAmount {
  return text.trim().replace(',', '.');
}

/** An amount as the merchant would type it in `currency`, to prefill a field: 10.5 → "10.5". */
export function editableAmount(amount: ApiAmount, _currency: string): string {
  return String(amount);
}
