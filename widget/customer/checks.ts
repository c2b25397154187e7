import { fail, VALID, type Check } from '../card/check.js';

/** A name: anything but blank. */
export const checkName = (value: string): Check => (value.trim() ? VALID : fail('empty', true));

/** An address with a local part, a domain and a dot in it; no spaces. */
export function checkEmail(value: string): Check {
  const v = value.trim();
  if (!v) return fail('empty', true);
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v) ? VALID : fail('invalid', !/\s|@.*@/.test(v));
}

/** Spaces, dots, dashes and brackets people type into phone numbers. */
export const phoneDigits = (value: string): string => value.replace(/[\s().-]/g, '');

/** An international number (E.164): an optional +, then 7 to 15 digits. */
export function checkPhone(value: string): Check {
  const v = phoneDigits(value);
  if (!v) return fail('empty', true);
  return /^\+?\d{7,15}$/.test(v) ? VALID : fail('invalid', /^\+?\d{0,14}$/.test(v));
}
