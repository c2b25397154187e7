/**
 * The card fields as the customer types them: brand detection, grouping, Luhn, expiry and CVV
 * checks. `<pay-form>` takes this entry alone, so the recogniser (`./card-numbers`) stays out of
 * its bundle until a name field needs it.
 */
export { BRANDS, candidates, detectBrand, gapsOf, maxLength } from './brands.js';
export type { Brand, BrandId } from './brands.js';
export { digitsOf, fail, VALID } from './check.js';
export type { Check, CheckCode } from './check.js';
export { checkCvv, cvvLength } from './cvv.js';
export { ANY_DIGIT, hasEnoughDigits, MIN_DIGITS } from './enough-digits.js';
export { checkExpiry, hasExpired, readExpiry, splitExpiry } from './expiry.js';
export { formatCvv, formatExpiry, formatNumber, group } from './format.js';
export type { Edit, Keystroke } from './format.js';
export { luhn } from './luhn.js';
export { isCardNumberAsPhone } from './phone.js';
export { checkNumber } from './number.js';
