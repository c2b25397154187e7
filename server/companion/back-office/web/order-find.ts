/**
 * What staff type into Find, read as what a customer says on the phone: an e-mail, the card's
 * last four digits, an amount as the page's language writes it (a decimal part or a currency
 * code says it is one: "249.50", "249,50", "1 249,50 UAH"), else an order id, as before. Four
 * digits are both: the card's last four, and a shop's short order id; so is a currency's code
 * alone ("EUR": every EUR order, for the accountant's file). A card number is refused
 * here and never sent: the companion's logs, the address bar and the list's query must not hold one.
 */
import { holdsCardNumber } from '@payform/card/card-numbers';
import { currencyExponent, moneyFormat } from '@payform/card/currencies';
import { displayLocale } from './locale.js';
import { typedAmount } from './money.js';

export type FindRequest =
  | { readonly kind: 'order'; readonly orderId: string }
  /**
   * `query`: the merchant API's parameters; `shown`: what the list says it matches; `orderId`:
   * an order id the text may be as well (four digits: a shop's short numeric id), offered beside
   * the list when such an order exists.
   */
  | { readonly kind: 'search'; readonly query: Readonly<Record<string, string>>; readonly shown: string; readonly orderId?: string }
  | { readonly kind: 'cardNumber' }
  /** An amount without a currency, where the shop's currencies have different decimals: 5.00 is no one sum. */
  | { readonly kind: 'whichCurrency'; readonly shown: string; readonly currencies: readonly string[] }
  | { readonly kind: 'nothing' };

/** A payment card's length, its digits grouped by spaces or dashes as printed on it. */
const CARD_LIKE = /^\d[\d -]{11,24}\d$/;
const EMAIL = /^[^@\s]+@[^@\s]+$/;
const LAST_FOUR = /^\d{4}$/;
const CURRENCY_CODE = /^[A-Za-z]{3}$/;
/**
 * Digits with group and decimal separators, and maybe an ISO 4217 code set apart by a space
 * (no order id holds one: "INV2024.1" stays an id).
 */
const AMOUNT = /^(?:([A-Za-z]{3})\s+)?(\d[\d\s.,\u00a0\u202f']*)(?:\s+([A-Za-z]{3}))?$/;

/**
 * 13 to 19 digits grouped by spaces, as printed on a card (no order id is written so),
 * or a card number as the companion's own recogniser finds one (a known brand's length passing
 * the card check, however written, within other text too).
 */
function looksLikeCardNumber(text: string): boolean {
  const digits = text.replace(/[ -]/g, '').length;
  return (CARD_LIKE.test(text) && text.includes(' ') && digits >= 13 && digits <= 19) || holdsCardNumber(text);
}

/**
 * An amount typed with a decimal part, a group separator or a currency: its figure with a point
 * before the decimals (as English writes it, whatever the page's language) and the currency it
 * names; undefined when the text is not one. Group separators (spaces, and the one of
 * "1,249.50" or "1.249,50") are dropped. Of two marks the last is the decimal one, either way
 * round; a mark given more than once groups; one mark alone before three digits groups where the
 * page's language groups with it ("1,000" in English, "1.000" in German, as the page writes
 * "¥12,345" and "KWD 1,000.000"), but after a lone 0 ("0,500"); else it is the decimal one
 * ("249,50" on an English page too).
 */
function typedFigure(text: string, locale: string): { readonly figure: string; readonly currency: string | undefined } | undefined {
  const match = AMOUNT.exec(text);
  if (!match) return undefined;
  const [, before, figure = '', after] = match;
  if (before && after) return undefined;
  const code = (before ?? after)?.toUpperCase();
  // Three letters that name no currency are an id's ("INV 2024"), not money.
  if (code !== undefined && !isCurrency(code)) return undefined;
  const compact = figure.replace(/[\s\u00a0\u202f']/g, '');
  const marks = compact.match(/[.,]/g) ?? [];
  const last = Math.max(compact.lastIndexOf('.'), compact.lastIndexOf(','));
  // Groups of three after a first of one to three digits, not a lone 0 ("0,500" is half a dinar).
  const grouping = new Set(marks).size === 1 && THOUSANDS.test(compact) && (marks.length > 1 || marks[0] === groupMark(locale));
  const decimal = grouping ? -1 : last;
  // A whole number is an order id unless a currency or a group separator says it is money.
  if (marks.length === 0 && code === undefined) return undefined;
  const normalised = decimal < 0 ? compact.replace(/[.,]/g, '') : `${compact.slice(0, decimal).replace(/[.,]/g, '')}.${compact.slice(decimal + 1)}`;
  return { figure: normalised, currency: code };
}

/** `figure` (a point before its decimals) in minor units of `currency`; undefined when that currency cannot hold it (12.345 in euros). */
function minorUnitsOf(figure: string, currency: string): number | undefined {
  const amount = typedAmount(figure, currency, 'en');
  return typeof amount === 'number' && amount > 0 ? amount : undefined;
}

/**
 * Find for a typed amount. With its currency, that currency's orders of it. Without, read in
 * the shop's currencies (`known`) that can hold it: where they all share their decimals it is
 * one sum in each, matched in all; else one that alone holds it is meant (5.670 is dinars
 * where the others have two decimals or none), and of several Find asks which. Undefined
 * when none can: an order id, then.
 */
function findAmount(typed: { readonly figure: string; readonly currency: string | undefined }, known: readonly string[], shown: string): FindRequest | undefined {
  if (typed.currency !== undefined) {
    const amount = minorUnitsOf(typed.figure, typed.currency);
    return amount === undefined ? undefined : { kind: 'search', query: { amount: String(amount), currency: typed.currency }, shown };
  }
  const holding = known.flatMap((currency) => {
    const amount = minorUnitsOf(typed.figure, currency);
    return amount === undefined ? [] : [{ currency, amount: String(amount) }];
  });
  const [first] = holding;
  if (first === undefined) return undefined;
  if (new Set(known.map(currencyExponent)).size === 1) return { kind: 'search', query: { amount: first.amount }, shown };
  if (holding.length === 1) return { kind: 'search', query: { amount: first.amount, currency: first.currency }, shown };
  return { kind: 'whichCurrency', shown, currencies: holding.map(({ currency }) => currency) };
}

/** A figure grouped in thousands by one mark: `1,000`, `12.345.678`; not `0,500`. */
const THOUSANDS = /^(?!0[.,])\d{1,3}(?:[.,]\d{3})+$/;

/** The mark `locale` groups thousands with: `,` in English, `.` in German, a space in Ukrainian. */
const groupMark = (locale: string): string | undefined => new Intl.NumberFormat(locale).formatToParts(10_000).find((part) => part.type === 'group')?.value;

/** ISO 4217 codes as the browser knows them; all three-letter words where it lists none. */
const CURRENCIES = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : []);
const isCurrency = (code: string): boolean => CURRENCIES.size === 0 || CURRENCIES.has(code);

/** What of a written amount is not its figure: digits, separators and spaces. */
const FIGURE = /[\d\s.,'\u00a0\u202f\u2019-]/g;
const signs = new Map<string, ReadonlyMap<string, string>>();

/**
 * The signs the page writes currencies with in `locale` (€, грн, zł) → their codes, then the
 * narrow signs people write where the page writes a code (€ on a Ukrainian page, which shows
 * "70,00 EUR"). A sign two currencies share there ($ in en-US is only USD, but `kr` is
 * several; narrow, $ is many dollars') says no currency.
 */
function currencySigns(locale: string): ReadonlyMap<string, string> {
  let found = signs.get(locale);
  if (found) return found;
  // The formats of every currency once, not kept: formatAmount's cache is for those the page shows.
  const written = signsOf((code) => moneyFormat(code, locale)(0));
  const narrow = signsOf((code) => new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' }).format(0));
  found = new Map([...narrow, ...written]);
  signs.set(locale, found);
  return found;
}

/** Each sign `format` writes a currency with (not its code) → that currency, where no other shares it. */
function signsOf(format: (code: string) => string): Map<string, string> {
  const codes = new Map<string, string | undefined>();
  for (const code of CURRENCIES) {
    const sign = format(code).replace(FIGURE, '');
    if (sign && sign !== code) codes.set(sign, codes.has(sign) ? undefined : code);
  }
  return new Map([...codes].filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** `text` with a currency's sign, as the page writes it, put as its code ("€70.00" → "EUR 70.00"). */
function withCurrencyCode(text: string, locale: string | undefined): string {
  if (!/[^\w\s.,'\u00a0\u202f\u2019-]/.test(text)) return text;
  for (const [sign, code] of currencySigns(locale ?? displayLocale())) {
    if (text.includes(sign)) return text.replace(sign, ` ${code} `).replace(/\s+/g, ' ').trim();
  }
  return text;
}

/**
 * What Find is asked for. `known`: the currencies the shop's orders are in, which an amount
 * typed without a currency is read in (findAmount). `locale`: the one the page writes amounts
 * in, its own unless given (an amount may be typed as the page shows it).
 */
export function readFind(typed: string, known: readonly string[], locale?: string): FindRequest {
  const text = typed.trim();
  if (!text) return { kind: 'nothing' };
  if (looksLikeCardNumber(text)) return { kind: 'cardNumber' };
  if (EMAIL.test(text)) return { kind: 'search', query: { email: text }, shown: text };
  if (LAST_FOUR.test(text)) return { kind: 'search', query: { card_last4: text }, shown: `•••• ${text}`, orderId: text };
  if (CURRENCY_CODE.test(text) && isCurrency(text.toUpperCase())) {
    const currency = text.toUpperCase();
    return { kind: 'search', query: { currency }, shown: currency, orderId: text };
  }
  const typedMoney = typedFigure(withCurrencyCode(text, locale), locale ?? displayLocale());
  return (typedMoney && findAmount(typedMoney, known.length > 0 ? known : ['UAH'], text)) ?? { kind: 'order', orderId: text };
}
