/**
 * Money in payform: an amount is an integer number of the currency's minor unit (kopiyky,
 * cents, yen) on every public surface — 24950 UAH is 249.50 UAH — as Stripe and Adyen count
 * it. The gateway's decimals exist only in the wire layer (`wire/decimals.ts`).
 *
 * `MinorUnits` is branded so that TypeScript tells a checked amount from any number: the
 * client's methods take a `MinorUnits`, or a number literal that is visibly whole (`24950`,
 * never `249.5`); a computed number goes through `minorUnits()` first, which checks it.
 */
import { currencyExponent } from '@payform/card/currencies';

// The one table of ISO 4217 minor-unit digits, shared with the widget that shows the amounts.
export { currencyExponent };

declare const minorUnitsBrand: unique symbol;

/** An integer count of the currency's minor unit (1010 = 10.10 UAH, 500 = 500 JPY), checked. */
export type MinorUnits = number & { readonly [minorUnitsBrand]: 'MinorUnits' };

/** What TypeScript says of a literal with a fraction where minor units are expected. */
type FractionalMinorUnits = { readonly 'an integer number of minor units (24950 = 249.50 UAH)': never };

/**
 * The check of one amount written at a call: a `MinorUnits` or a whole number literal passes,
 * a fractional literal is refused with the unit named, and a computed `number` must become a
 * `MinorUnits` (through `minorUnits()`) first — TypeScript cannot know it is whole.
 */
export type WholeAmount<N> = N extends undefined
  ? N
  : N extends MinorUnits
    ? N
    : number extends N
      ? MinorUnits
      : N extends number
        ? `${N}` extends `${bigint}` ? N : FractionalMinorUnits
        : N;

/** Fields of the client's parameters that are amounts. */
type AmountField = 'amount' | 'charge_amount' | 'refund_amount';
type Keys<T> = T extends unknown ? keyof T : never;
type CheckedShares<S> = { [I in keyof S]: S[I] extends { amount: unknown } ? S[I] & { amount: WholeAmount<S[I]['amount']> } : S[I] };

/**
 * The parameters `P` of a client call whose declared type is `T`, with each amount checked as
 * `WholeAmount` (split shares' too), and no field `T` does not know. Used as
 * `method<const P extends LooseAmounts<T>>(params: CheckedAmounts<P, T>)`, so that literal
 * amounts keep their value for the check.
 */
export type CheckedAmounts<P, T> = P &
  { [K in Exclude<keyof P, Keys<T>>]: never } &
  // Keyed through `as`, so the map keeps each amount's `?`: a value typed with the declared
  // parameters (`RefundParams`, its refund_amount optional) is taken as it is.
  { [K in keyof P as K extends AmountField ? K : never]: WholeAmount<P[K]> } &
  (P extends { split: infer S } ? { split: CheckedShares<S> } : unknown);

/** `T` with its amounts as plain numbers: what a call may write before `CheckedAmounts` looks. */
export type LooseAmounts<T> = T extends unknown
  ? {
      [K in keyof T]: K extends AmountField
        ? number | Extract<T[K], undefined>
        : K extends 'split'
          ? readonly { readonly amount: number; readonly sub_merchant_id: string }[] | Extract<T[K], undefined>
          : T[K];
    }
  : never;

/**
 * Why `value` is not an amount in minor units of `currency`, or undefined when it is one. Digits
 * in a string (`'1250'`, as a form or a query gives them) are said to be a string: the number in
 * them may well be right.
 */
export function minorUnitsRefusal(value: unknown, currency?: string): string | undefined {
  if (isMinorUnits(value)) return undefined;
  const rule = describeMinorUnits(currency);
  return typeof value === 'string' ? `must be a number, not a string: ${rule}` : `must be ${rule}`;
}

/** "an integer number of minor units (24950 = 249.50 UAH)", with the example in `currency`. */
export function describeMinorUnits(currency = 'UAH'): string {
  const code = /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : 'UAH';
  const example = currencyExponent(code) === 0 ? 2495 : 24950;
  return `an integer number of minor units (${example} = ${formatMinorUnits(example, code)})`;
}

/**
 * Minor units as a decimal of the currency's digits, every fraction digit kept: 24950 UAH →
 * "249.50", 500 JPY → "500", -5 UAH → "-0.05" (a file's cells, formatMinorUnits' figure). What
 * is not minor units (1.5, NaN) throws a RangeError rather than read as an amount.
 */
export function decimalMinorUnits(minor: number, currency: string): string {
  if (!isMinorUnits(minor)) throw new RangeError(`amount ${String(minor)} is not ${describeMinorUnits(currency)}`);
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${minor < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Minor units as people write the amount: 24950 UAH → "249.50 UAH", 500 JPY → "500 JPY". For
 * messages and logs; the gateway's own decimals are the wire layer's.
 */
export function formatMinorUnits(minor: number, currency: string): string {
  return `${decimalMinorUnits(minor, currency)} ${currency}`;
}

/**
 * A limit as payform's refusals say it: the minor units an amount field takes, then the money
 * they are (`32000 (320.00 UAH)`), so neither reading is left to guess.
 */
export function formatLimit(minor: number, currency: string): string {
  return `${minor} (${formatMinorUnits(minor, currency)})`;
}

/**
 * Checks a number as minor units: `minorUnits(24950)` is 249.50 UAH. A literal with a fraction
 * does not compile; any other number that is not a safe integer throws a RangeError.
 */
export function minorUnits<const N extends number>(
  value: number extends N ? N : `${N}` extends `${bigint}` ? N : FractionalMinorUnits,
): MinorUnits {
  if (!isMinorUnits(value)) throw new RangeError(`amount ${String(value)} is not ${describeMinorUnits()}`);
  return value;
}

/** True when `value` is a safe integer: a count of minor units. */
export function isMinorUnits(value: unknown): value is MinorUnits {
  return Number.isSafeInteger(value);
}

// Three-decimal currencies keep ISO's minor unit (fils): an amount reaches the wire only when
// its last digit is 0, as the gateway takes two digits at most (wire/decimals.ts says so).
// ISO 4217 units of account with four: no rule fits them into the gateway's two, so refused.
const FOUR_DECIMAL = new Set(['CLF', 'UYW']);

// The currencies Node's ICU knows — ISO 4217's, without funds, metals and other units — plus
// XTS, ISO's code for testing, which ICU leaves out.
const PAYABLE_CURRENCIES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('currency'), 'XTS']);

/** Why `code` cannot be the currency of a payment, or undefined when it can. */
export function currencyRefusal(code: string): string | undefined {
  if (!/^[A-Z]{3}$/.test(code)) return 'must be a three-letter upper-case ISO 4217 code';
  if (FOUR_DECIMAL.has(code)) return 'has four decimal places; the gateway takes at most two';
  if (!PAYABLE_CURRENCIES.has(code)) return 'is not an ISO 4217 currency code';
  return undefined;
}
