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

/** Spaces that separate thousands in one language or another and are never a decimal mark: typed, or copied from the page (U+00A0, U+202F). */
const SPACES = '[ \\u00a0\\u202f\\u2009]';
const SPACE = /^[ \u00a0\u202f\u2009]$/u;
/**
 * What may stand around the figure and its sign and is no part of either: spaces (U+00A0 and
 * U+202F among them, as a French page writes "249,50 €") and the bidi marks and isolates an
 * amount copied from a right-to-left page or a message carries (U+200E, U+200F, U+061C,
 * U+2066–U+2069), which no one sees. In the pattern itself, which the field's `pattern` is too:
 * the field and the reading take one text and agree on it.
 */
const GAP = '[\\s\\u061c\\u200e\\u200f\\u2066-\\u2069]*';
/** Text matched as itself in a pattern (a sign, a separator), with only the escapes a `pattern` attribute's `v` flag takes. */
const escaped = (text: string): string => text.replace(/[$()*+.?[\\\]^{|}/]/gu, '\\$&');

/** How a locale writes amounts of one currency (which may differ from its plain numbers: en-DK writes "€1,234.50" but "1.234,50 UAH"). */
interface Writing {
  readonly decimal: string;
  /** Between the thousands; '' when the locale writes none. */
  readonly group: string;
  /** The digits above the thousands grouped by two, as India writes 1,00,000. */
  readonly byTwo: boolean;
  /** The currency as the page may show it: its sign in the locale, its narrow sign and its code. */
  readonly signs: readonly string[];
}

const writings = new Map<string, Writing>();

function writing(currency: string, locale: string): Writing {
  const key = `${locale}:${currency}`;
  let found = writings.get(key);
  if (found) return found;
  // A probe of the separators, not money: nothing is computed with it.
  const probe = '12345678.5' as Intl.StringNumericLiteral;
  const code = /^[A-Za-z]{3}$/u.test(currency) ? currency.toUpperCase() : undefined;
  const parts = (display: 'symbol' | 'narrowSymbol') =>
    new Intl.NumberFormat(locale, code ? { style: 'currency', currency: code, currencyDisplay: display, minimumFractionDigits: 1 } : { minimumFractionDigits: 1 }).formatToParts(probe);
  const shown = parts('symbol');
  const part = (list: Intl.NumberFormatPart[], type: Intl.NumberFormatPartTypes) => list.find((each) => each.type === type)?.value ?? '';
  const integers = shown.filter((each) => each.type === 'integer');
  found = {
    decimal: part(shown, 'decimal') || '.',
    group: part(shown, 'group'),
    byTwo: integers.length > 3 && integers[1]!.value.length === 2,
    signs: code ? [...new Set([part(shown, 'currency'), part(parts('narrowSymbol'), 'currency'), code])].filter(Boolean) : [],
  };
  writings.set(key, found);
  return found;
}

/**
 * Whole units with `separator` between the thousands (and by twos above them where the locale
 * groups so), in groups of three from the right, at most `most` digits, at least `fewest` separators.
 */
function grouped(separator: string, most: number, byTwo: boolean, fewest = 1): string[] {
  const ways: string[] = [];
  for (let groups = fewest; groups * 3 < most; groups++) ways.push(`\\d{1,${Math.min(3, most - groups * 3)}}(?:${separator}\\d{3}){${groups}}`);
  if (byTwo) for (let pairs = 1; 3 + pairs * 2 < most; pairs++) ways.push(`\\d{1,${Math.min(2, most - 3 - pairs * 2)}}(?:${separator}\\d{2}){${pairs}}${separator}\\d{3}`);
  return ways;
}

const patterns = new Map<string, RegExp>();

/**
 * An amount as the merchant may type it in `currency`, or copy it from the page, in `locale`
 * (the page's, locale.ts): whole units, maybe with thousands apart — by spaces, or by the
 * locale's own separator — in well-formed groups of three, then the locale's decimal mark and no
 * more digits than the currency has; maybe the currency's sign or code before or after; spaces
 * and invisible marks around them (GAP). The amount field's `pattern` and `typedAmount` both
 * test this one expression, so the field never calls invalid what is read and sent.
 * A thousands separator is never read as a decimal one, nor the other way round:
 * - the other of point and comma is a decimal mark too ("249.50" on a Ukrainian page), but where
 *   the locale separates thousands with it, only before fewer than three digits: "1,000" on an
 *   English page is a thousand, "249,50" is 249.50;
 * - in a currency of three decimals, "1,000" on an English page could be a thousand dinars or
 *   one, and is refused ("1,000.000" or "1.000" says which); "1,000" on a Ukrainian page, as it
 *   writes one dinar, is one.
 */
export function amountPattern(currency: string, locale: string = displayLocale()): RegExp {
  const key = `${locale}:${currency}`;
  const known = patterns.get(key);
  if (known) return known;
  const { decimal, group, byTwo, signs } = writing(currency, locale);
  const exponent = currencyExponent(currency);
  // At most 15 digits of minor units, whatever the fraction: a safe integer (KWD 12 whole digits, UAH 13, JPY 15).
  const most = 15 - exponent;
  const own = group && !SPACE.test(group) ? escaped(group) : undefined;
  const ambiguous = exponent === 3 && (group === '.' || group === ',');
  const whole = (withOwn: boolean, fewest = 1) =>
    `(?:${[`\\d{1,${most}}`, ...grouped(SPACES, most, byTwo), ...(own && withOwn ? grouped(own, most, byTwo, fewest) : [])].join('|')})`;
  const figures = [whole(true, ambiguous ? 2 : 1)];
  if (exponent > 0) {
    figures.push(`${whole(true)}${escaped(decimal)}\\d{1,${exponent}}`);
    for (const mark of ['.', ','].filter((each) => each !== decimal)) {
      figures.push(`${whole(mark !== group)}${escaped(mark)}\\d{1,${mark === group ? Math.min(exponent, 2) : exponent}}`);
    }
  }
  const figure = `(?:${figures.join('|')})`;
  let source = `^${GAP}${figure}${GAP}$`;
  if (signs.length) {
    const sign = `(?:${signs.map(escaped).join('|')})`;
    // The sign before or after the figure, not both.
    source = `^(?!${GAP}${sign}.*${sign}${GAP}$)${GAP}(?:${sign}${GAP})?${figure}(?:${GAP}${sign})?${GAP}$`;
  }
  const pattern = new RegExp(source, 'u');
  patterns.set(key, pattern);
  return pattern;
}

/** What the merchant types or copies ("249,50", "1 000,00 грн", "UAH 1,234.50") in `currency` → minor units (24950); anything else as typed. */
export function typedAmount(text: string, currency: string, locale: string = displayLocale()): ApiAmount {
  // Tested as the field's `pattern` tests it: what it accepts is read, what it refuses is not.
  if (!amountPattern(currency, locale).test(text)) return text.trim();
  const figure = /\d(?:.*\d)?/u.exec(text)![0];
  const exponent = currencyExponent(currency);
  const last = figure.search(/\D\d*$/u);
  const mark = figure[last] ?? '';
  const tail = figure.length - last - 1;
  // The pattern let it through: the last mark is a decimal one unless it separates thousands.
  const isDecimal = last >= 0 && !SPACE.test(mark) && !(mark === writing(currency, locale).group && tail === 3);
  const whole = (isDecimal ? figure.slice(0, last) : figure).replace(/\D/gu, '');
  const fraction = isDecimal ? figure.slice(last + 1) : '';
  return Number(`${whole}${fraction.padEnd(exponent, '0')}`);
}

/**
 * An amount as the merchant would type it in `currency`, to prefill a field, with the decimal
 * mark of the page's language (locale.ts) and no thousands apart, so that any digit can be
 * changed: 24950 UAH → "249.50" in English, "249,50" in Ukrainian.
 */
export function editableAmount(amount: ApiAmount, currency: string, locale: string = displayLocale()): string {
  const minor = Number(amount);
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const fraction = exponent ? `${writing(currency, locale).decimal}${digits.slice(-exponent)}` : '';
  return `${minor < 0 ? '-' : ''}${digits.slice(0, digits.length - exponent)}${fraction}`;
}

/**
 * Why a typed amount cannot be sent, in the page's language and the currency's units ('' when it
 * can): not an amount, or one that could be read either way ("1.000": `example` shows one as the
 * field would be prefilled), nothing (0), or finer than the gateway carries (10 fils of KWD).
 * The companion would refuse these, in minor units.
 */
export function typedAmountProblem(amount: ApiAmount, currency: string, example: ApiAmount, locale: string = displayLocale()): string {
  if (typeof amount !== 'number') return t('dialog.amountFormat', { example: editableAmount(example, currency, locale) });
  if (amount <= 0) return t('dialog.amountPositive');
  const step = wireStep(currency);
  return amount % step === 0 ? '' : t('dialog.amountStep', { currency, step: editableAmount(step, currency, locale) });
}
