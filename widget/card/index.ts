/**
 * @payform/card: card logic without a DOM, the same in the browser and on the server.
 * - The card fields (`./fields`): brand, grouping, Luhn, expiry and CVV checks as the customer types.
 * - The recogniser (`./card-numbers`): where a text holds a card number, however its digits are
 *   written, and nothing else — the one implementation behind `<pay-form>`'s name checks, the
 *   companion's refusals and log masks, the gateway client's redaction and the sandbox inspector.
 */
export * from './fields.js';
export { findCardNumbers, foldDigits, holdsCardNumber, holdsCardNumberOfItsLength, isCardWithCode, isLongDigitRun, maskCardNumbers, nameHoldsCardNumber } from './card-numbers.js';
export type { CardNumberSpan } from './card-numbers.js';
