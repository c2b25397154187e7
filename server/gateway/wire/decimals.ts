/**
 * The gateway's decimal amounts, which exist only here, in the wire layer.
 *
 * Everywhere else in payform an amount is an integer number of minor units (kopiyky, cents,
 * yen). The gateway speaks decimal numbers with at most two fraction digits. Conversion goes
 * through decimal strings, never through float multiplication, so 1010 UAH minor units leave
 * as 10.1 and "10.10" comes back as exactly 1010.
 */
import { currencyExponent, describeMinorUnits, formatLimit } from '../money.js';
import type { MinorUnits } from '../money.js';

/** What the gateway sends or accepts as an amount: a JSON number or a numeric string. */
export type WireAmount = number | string;

/** The gateway accepts at most this many fraction digits, whatever the currency. */
export const WIRE_MAX_DECIMALS = 2;

/**
 * The largest amount payform takes or sends: 15 significant digits, as many as a JSON number
 * (an IEEE double) carries exactly — one more and 90071992547409.91 travels as 90071992547409.9.
 */
export const MAX_WIRE_AMOUNT = '9999999999999.99';
const MAX_WIRE_HUNDREDTHS = 999_999_999_999_999n;
const MAX_SIGNIFICANT_DIGITS = 15;

const PLAIN_DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Digits after the point of a plain decimal, or undefined when the text is not one. */
export function fractionDigits(value: WireAmount): number | undefined {
  const match = PLAIN_DECIMAL.exec(plainText(value));
  return match ? (match[3] ?? '').length : undefined;
}

/** True when the value is a finite plain decimal (number or numeric string). */
export function isDecimal(value: WireAmount): boolean {
  return fractionDigits(value) !== undefined;
}

/**
 * The number a plain decimal string writes, when a JSON number holds it exactly ("10.10" → 10.1,
 * "007" → 7), else undefined: "1e2" and " 12" are not plain decimals, and
 * "0.100000000000000000001" or 400 nines would lose digits (0.1, Infinity) on the way.
 */
export function exactNumber(text: string): number | undefined {
  const written = canonicalDecimal(text);
  if (written === undefined) return undefined;
  const number = Number(text);
  return canonicalDecimal(String(number)) === written ? number : undefined;
}

/** A plain decimal without leading zeros, trailing fraction zeros or the sign of zero. */
function canonicalDecimal(text: string): string | undefined {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  const digits = `${whole.replace(/^0+(?=\d)/, '')}${significant ? `.${significant}` : ''}`;
  return digits === '0' ? digits : `${sign}${digits}`;
}

/**
 * Formats minor units as the decimal the gateway expects: 1010 UAH → 10.1, 500 JPY → 500.
 * Throws RangeError for a non-integer or unsafe integer, and for an amount that a JSON number
 * cannot carry exactly (more than 15 significant digits). The result may carry three fraction
 * digits for a three-decimal currency; request validation rejects those with a clear reason.
 */
export function toWireAmount(minor: number, currency: string): number {
  if (!Number.isSafeInteger(minor)) {
    throw new RangeError(`amount must be ${describeMinorUnits(currency)}`);
  }
  const text = formatMinor(minor, currencyExponent(currency));
  if (text.replace(/[-.]/g, '').replace(/^0+/, '').length > MAX_SIGNIFICANT_DIGITS) {
    throw new RangeError(`amount ${text} has more digits than a JSON number carries exactly`);
  }
  return Number(text);
}

/** True when a plain decimal of at most two fraction digits is above MAX_WIRE_AMOUNT. */
export function exceedsWireRange(value: WireAmount): boolean {
  const hundredths = wireHundredths(value);
  return (hundredths < 0n ? -hundredths : hundredths) > MAX_WIRE_HUNDREDTHS;
}

/**
 * Reads a gateway amount (10.1, "10.10", 500) as minor units of the currency, exactly.
 * Throws RangeError when the text is not a plain decimal or has more precision than the
 * currency's minor unit (e.g. 100.5 JPY).
 */
export function fromWireAmount(value: WireAmount, currency: string): MinorUnits {
  const match = PLAIN_DECIMAL.exec(plainText(value));
  if (!match) throw new RangeError(`amount ${JSON.stringify(value)} is not a plain decimal`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const exponent = currencyExponent(currency);
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) {
    throw new RangeError(`amount ${JSON.stringify(value)} is finer than the ${currency} minor unit`);
  }
  const minor = Number(`${sign}${whole}${significant.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${JSON.stringify(value)} is too large`);
  return (minor === 0 ? 0 : minor) as MinorUnits; // no negative zero
}

/** A wire decimal scaled to hundredths, for exact sums such as split amounts. */
export function wireHundredths(value: WireAmount): bigint {
  const match = PLAIN_DECIMAL.exec(plainText(value));
  if (!match) throw new RangeError(`amount ${JSON.stringify(value)} is not a plain decimal`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const digits = fraction.padEnd(WIRE_MAX_DECIMALS, '0');
  if (digits.length > WIRE_MAX_DECIMALS) throw new RangeError('more than two decimal digits');
  return BigInt(`${sign}${whole}${digits}`);
}

function formatMinor(minor: number, exponent: number): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent).replace(/0+$/, '');
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

// String(number) is the shortest text that round-trips, so 10.1 reads as "10.1" and a float
// artefact such as 0.30000000000000004 keeps its extra digits and fails the precision checks.
function plainText(value: WireAmount): string {
  return typeof value === 'number' ? String(value) : value;
}

/**
 * Why an amount in minor units cannot travel to the gateway in `currency`, or undefined when
 * it can: it must be whole, and a three-decimal currency's last digit must be 0 because the
 * wire takes two decimals. Range and sign are the wire schema's to say.
 */
export function wireAmountRefusal(minor: unknown, currency: string): string | undefined {
  if (typeof minor !== 'number' || !Number.isSafeInteger(minor)) return `must be ${describeMinorUnits(currency)}`;
  const step = wireStep(currency);
  if (minor % step !== 0) {
    return `must be a multiple of ${step} minor units: the gateway takes ${currency} with at most ${WIRE_MAX_DECIMALS} decimal digits`;
  }
  return undefined;
}

/**
 * Why `minor` cannot travel to the gateway in `currency`, its range included, in the terms of the
 * one who wrote it in minor units; undefined when it can. The sign is the caller's rule.
 */
export function wireRangeRefusal(minor: unknown, currency: string): string | undefined {
  const max = maxWireMinorUnits(currency);
  // A whole number past the safe integers (1e20) is too large, not a fraction: said so.
  if (typeof minor === 'number' && Number.isInteger(minor) && Math.abs(minor) > max) return `must be at most ${formatLimit(max, currency)}`;
  return wireAmountRefusal(minor, currency);
}

/** The fewest minor units of `currency` the wire can tell apart: 1, or 10 for a three-decimal currency (KWD). */
export function wireStep(currency: string): number {
  return 10 ** Math.max(0, currencyExponent(currency) - WIRE_MAX_DECIMALS);
}

const MAX_BY_EXPONENT = new Map<number, number>();

/**
 * The largest amount in minor units of `currency` that reaches the wire exactly: MAX_WIRE_AMOUNT
 * (999999999999999 UAH, 9999999999999 JPY), or for a three-decimal currency the largest that a
 * JSON number still carries exactly, 15 digits (999999999999990 KWD).
 */
export function maxWireMinorUnits(currency: string): number {
  // Asked of every amount the client sends: by exponent, there are four at most.
  const exponent = currencyExponent(currency);
  let max = MAX_BY_EXPONENT.get(exponent);
  if (max === undefined) {
    const wireMax = (MAX_WIRE_HUNDREDTHS * 10n ** BigInt(exponent)) / 100n;
    const step = 10n ** BigInt(Math.max(0, exponent - WIRE_MAX_DECIMALS));
    const exactMax = ((10n ** BigInt(MAX_SIGNIFICANT_DIGITS) - 1n) / step) * step;
    MAX_BY_EXPONENT.set(exponent, (max = Number(wireMax < exactMax ? wireMax : exactMax)));
  }
  return max;
}
