/**
 * English's specific error messages, a chunk loaded with the catalog (catalogs.ts): a field's
 * falls back on `invalid`, the companion's on `server` (en.ts) when it is not there.
 */
const enMessages = {
  network: 'Could not reach the payment service. Please try again.',
  rejected: 'The payment could not be started. Please try again.',
  rate_limited: 'Too many attempts. Please wait a moment.',
  number_incomplete: 'The card number is incomplete.',
  number_invalid: 'The card number is invalid.',
  number_unsupported: 'This card type is not accepted.',
  exp_incomplete: 'The expiry date is incomplete.',
  exp_invalid: 'The expiry date is invalid.',
  exp_expired: 'This card has expired.',
  exp_too_far: 'The expiry date is too far ahead.',
  cvv_incomplete: 'Enter the 3 digits on the back of the card.',
  cvv_amex: 'Enter the 4 digits on the front of the card.',
  card_number: 'This looks like a card number: enter it only in the card number field.',
  email_invalid: 'Enter a valid email address.',
  phone_invalid: 'Enter a phone number with its country code.',
};
export default enMessages;
