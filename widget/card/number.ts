import { candidates, maxLength, type BrandId } from './brands.js';
import { fail, VALID, type Check } from './check.js';
import { luhn } from './luhn.js';

/**
 * Checks a card number given as digits. `accepted` limits the brands the merchant takes;
 * a number no known scheme can issue is `unsupported` from its first digit.
 */
export function checkNumber(digits: string, accepted?: readonly BrandId[]): Check {
  if (!digits) return fail('empty', true);
  if (/\D/.test(digits)) return fail('invalid', false);
  const found = candidates(digits);
  if (!found.length) return fail('unsupported', false);
  const brand = found.length === 1 ? found[0] : undefined;
  if (brand && accepted && !accepted.includes(brand.id)) return fail('unsupported', false);
  const length = digits.length;
  const max = maxLength(brand);
  if (length > max) return fail('invalid', false);
  const growing = length < max;
  if (!brand || !brand.lengths.includes(length)) return fail('incomplete', growing);
  if (!brand.noLuhn && !luhn(digits)) return fail('invalid', growing);
  return VALID;
}
