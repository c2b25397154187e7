import { holdsCardNumber } from '../card/card-numbers.js';
import { fail, VALID, type Check } from '../card/check.js';

// A card number typed or pasted into a name or the e-mail address is refused at once, by the
// rule the companion applies: it would be stored, shown to the merchant and sent on.
const CARD_NUMBER = fail('card_number', false);

/** A name: anything but blank, and no card number. */
export function checkName(value: string): Check {
  if (!value.trim()) return fail('empty', true);
  return holdsCardNumber(value) ? CARD_NUMBER : VALID;
}

/** An address with a local part, a domain and a dot in it; no spaces, and no card number. */
export function checkEmail(value: string): Check {
  const v = value.trim();
  if (!v) return fail('empty', true);
  if (holdsCardNumber(v)) return CARD_NUMBER;
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
