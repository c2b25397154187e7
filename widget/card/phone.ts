import { candidates, type BrandId } from './brands.js';
import { luhn } from './luhn.js';

/**
 * The card numbers short enough to pass for a phone (at most 15 digits): Diners Club's 14, Amex's
 * 15. Visa's 13 are no longer issued (MIN_DIGITS), and a German mobile without its `+` (49 1…, 13
 * digits) passes their check one time in ten. Maestro (12–15) and UnionPay (14–15) numbers that
 * short are allowed but rarely if ever issued, and their prefixes are country codes whose phones
 * have those lengths (57 Colombia, 63 the Philippines, 62 Indonesia).
 */
const SHORT_CARD_LENGTHS: Partial<Record<BrandId, number>> = { diners: 14, amex: 15 };

/**
 * Whether a phone number, as typed without its spaces, dots, dashes and brackets, is a card
 * number: a scheme's prefix, its length and a valid check digit. One written with `+` is a
 * phone, as no one types one before a card number. The companion refuses a phone field by it.
 */
export function isCardNumberAsPhone(phone: string): boolean {
  // The one brand its prefix leaves (detectBrand's rule), read from `candidates`: the widget's
  // bundle exports that to its chunks already, and this runs in one (its phone check).
  const [brand, other] = phone.startsWith('+') ? [] : candidates(phone);
  return brand !== undefined && other === undefined && SHORT_CARD_LENGTHS[brand.id] === phone.length && luhn(phone);
}
