import { fail, VALID, type Check } from './check.js';

/** How far ahead an expiry may lie; issuers print at most about 19 years out. */
const MAX_YEARS_AHEAD = 19;

/**
 * Splits an expiry as typed or pasted — `M/YY`, `MM/YY`, `MM/YYYY`, `MMYY` (outer spaces ignored) —
 * into its month and year digits; `undefined` when it is none of these.
 */
export function splitExpiry(value: string): { month: string; year: string } | undefined {
  const v = value.trim();
  const [, month = '', year = ''] = /^(\d{1,2})\s*[/.-]\s*(\d*)$/.exec(v) ?? /^(\d{0,2})(\d*)$/.exec(v) ?? [];
  return month || !v ? { month, year } : undefined;
}

/** The expiry as the gateway wants it (`exp_year` with four digits), once the value is complete. */
export function readExpiry(value: string): { exp_month: number; exp_year: number } | undefined {
  const parts = splitExpiry(value);
  const year = parts?.year ?? '';
  if (!parts || (year.length !== 2 && year.length !== 4)) return undefined;
  return { exp_month: +parts.month, exp_year: year.length === 2 ? 2000 + +year : +year };
}

/**
 * A card is valid through the last day of its expiry month, in UTC: as the companion and the
 * gateway judge it, so a customer whose calendar has turned (or not yet) is told what they will.
 */
export const hasExpired = (month: number, year: number, now: Date | number): boolean => Date.UTC(year, month) <= +now;

/** Month 1–12, this month or later (hasExpired), at most 19 years ahead. `now` is the customer's clock. */
export function checkExpiry(value: string, now = new Date()): Check {
  if (!value.trim()) return fail('empty', true);
  const parts = splitExpiry(value);
  if (!parts) return fail('invalid', false);
  const month = +parts.month;
  if ((parts.month.length === 2 || parts.year) && (month < 1 || month > 12)) return fail('invalid', false);
  const expiry = readExpiry(value);
  if (!expiry) return parts.year.length > 4 ? fail('invalid', false) : fail('incomplete', true);
  if (hasExpired(month, expiry.exp_year, now)) {
    // "MM/20" may still be the start of "MM/2031".
    return fail('expired', parts.year === '20');
  }
  return expiry.exp_year - now.getUTCFullYear() > MAX_YEARS_AHEAD ? fail('too_far', false) : VALID;
}
