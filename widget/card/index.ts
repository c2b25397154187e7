/**
 * @payform/widget/card: the widget's card logic that needs no DOM, for servers as well as pages —
 * the card-number detector behind the customer-field checks (any decimal digits, any separators,
 * 13–19 digits with a valid check digit) and the Luhn check.
 */
export { findCardNumbers, foldDigits, holdsCardNumber, maskCardNumbers } from './card-numbers.js';
export type { CardNumberSpan } from './card-numbers.js';
export { luhn } from './luhn.js';
