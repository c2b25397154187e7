/**
 * Money as the merchant reads it, in the page's language, from the companion's decimal amounts
 * (`100.5` or `"100.50"`): formatted from decimal text and added up in hundredths, never through
 * float arithmetic.
 */
import { preferences } from './preferences.js';

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

/** The companion's decimal (100.5 or "100.50") → "UAH 100.50". */
export function formatDecimal(amount: number | string, currency: string): string {
  return formatter(currency).format(String(amount) as `${number}`);
}

/** "10.5" → 1050: hundredths of a decimal as the companion writes it (numbers or text, ≤ 2 digits). */
export function hundredths(amount: number | string): number {
  const [whole = '0', fraction = ''] = String(amount).split('.');
  const sign = whole.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}

/** 1050 → "10.50". */
export function decimalText(hundredthsOf: number): string {
  const digits = String(Math.abs(hundredthsOf)).padStart(3, '0');
  return `${hundredthsOf < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
