import type { Brand } from './brands.js';
import { fail, VALID, type Check } from './check.js';

/** The security code: the brand's length (Amex 4, others 3); 3 or 4 while the brand is unknown. */
export function checkCvv(value: string, brand?: Brand): Check {
  if (!value) return fail('empty', true);
  if (/\D/.test(value)) return fail('invalid', false);
  if (value.length < (brand ? cvvLength(brand) : 3)) return fail('incomplete', true);
  return value.length > cvvLength(brand) ? fail('invalid', false) : VALID;
}

/** The most digits the security code field takes. */
export const cvvLength = (brand?: Brand): number => (brand ? (brand.cvv ?? 3) : 4);
