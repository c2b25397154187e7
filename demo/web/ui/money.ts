/**
 * Money as people read and type it, in the page's language. Everything the pages get and send
 * is integer minor units (the catalog, the companion's JSON); the decimal a person sees or types
 * exists only here, converted through text with the currency's ISO 4217 digits — never floats.
 */
import { currencyExponent } from '@payform/card/currencies';
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

/** 42000 UAH → "UAH 420.00" / "420,00 грн". */
export function formatMinor(minor: number, currency: string): string {
  return formatter(currency).format(`${minor}E-${currencyExponent(currency)}` as Intl.StringNumericLiteral);
}

/** 550 UAH → "5.50": what a person would type for the amount (prefilled inputs). */
export function majorText(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const fraction = exponent ? `.${digits.slice(-exponent)}` : '';
  return `${minor < 0 ? '-' : ''}${digits.slice(0, digits.length - exponent)}${fraction}`;
}

/**
 * What a person typed ("5.50", "5,5", "5") as minor units of `currency` (550 UAH), or undefined
 * when it is not an amount in that currency (letters, more digits than its minor unit has).
 */
export function parseMajor(text: string, currency: string): number | undefined {
  const exponent = currencyExponent(currency);
  const match = /^(\d{1,13})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > exponent) return undefined;
  return Number(`${whole}${fraction.padEnd(exponent, '0').slice(0, exponent)}`);
}
