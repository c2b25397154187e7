/**
 * English's specific messages, a chunk loaded with the catalog (catalogs.ts). When it is not
 * there each falls back on a general one of en.ts: a field's error on `invalid`; the companion's
 * errors on `server`; a payment still being confirmed after a minute on `confirming`.
 */
const enMessages = {
  check_again: 'Check again',
  fix: 'Check the highlighted fields.',
  test: 'Test mode: no real money moves.',
  waiting: 'Your payment is still being confirmed. Check again in a moment, and do not pay again.',
  // Empty: an English page shows the companion's own words for a decline, which say why (checkout-element.ts)...
  declined: '',
  // ...and these when it gave none. English's alone: the other catalogs always say their `declined`.
  declined_en: 'The payment was declined. Check the details or use another card.',
  network: 'Could not reach the payment service. Please try again.',
  rejected: 'The payment could not be started. Please try again.',
  unavailable: 'This shop cannot accept this payment. Please contact the shop.',
  rate_limited: 'Too many attempts. Please try again later.',
  redirect_3ds: 'Taking you to your bank to confirm the payment…',
  challenge_waiting: 'Your bank is waiting for you to confirm the payment.',
  challenge_continue: 'Continue with your bank',
  offline: 'You are offline. The outcome of your payment will show here once you are back online.',
  // A session read that found no connection: read again by itself once the connection is back.
  offline_read: 'You are offline. This checkout will load once you are back online.',
  // A session read the companion did not answer, online: read again by itself for a while.
  retrying: 'Could not reach the payment service. Trying again…',
  not_taken: 'No payment was taken. You can pay now.',
  // Two minutes before a session's time to pay is up (time-to-pay.ts, `keepTime`).
  expiring: 'This payment expires in less than 2 minutes.',
  // Beside that warning when the session may be extended (time-to-pay.ts, `offerTime`): the button, what
  // it gave (`{}`: the minutes, worded by Intl: "10 minutes"), and a refusal.
  more_time: 'I need more time',
  more_time_given: 'You now have {} to pay.',
  more_time_refused: 'The time to pay cannot be extended.',
  tries_used: 'The card was declined, and this checkout takes no more attempts. Please start again.',
  redirect_hosted: 'Taking you to the secure payment page…',
  // In a frame whose sandbox lets it take the tab only at a click, once the click that paid is over.
  hosted_at_click: 'Press the button again to go to the secure payment page.',
  number_incomplete: 'The card number is incomplete.',
  number_invalid: 'The card number is invalid.',
  number_unsupported: 'This card type is not accepted.',
  exp_incomplete: 'The expiry date is incomplete.',
  exp_invalid: 'The expiry date is invalid.',
  exp_expired: 'This card has expired.',
  exp_too_far: 'The expiry date is too far ahead.',
  cvv_incomplete: 'Enter the 3 digits on the back of the card.',
  cvv_amex: 'Enter the 4 digits on the front of the card.',
  // The card's own checks passed, but the companion or the gateway refused the code.
  cvv_refused: 'The security code is invalid.',
  card_number: 'This looks like a card number: enter it only in the card number field.',
  email_invalid: 'Enter a valid email address.',
  phone_invalid: 'Enter a phone number with its country code.',
};
export default enMessages;

let said = false;

/**
 * For a `lang` the widget has no words for: English, and the console says so once, naming the
 * `element` that asked. Here, not in the module every page loads, and in the chunk such a page
 * loads anyway.
 */
export function unknownLanguage(tag: string, element: Element): { default: Partial<typeof enMessages> } {
  if (!said) console.warn(`<${element.localName}>: no words for lang="${tag}", so English is shown; the widget speaks en, uk, pl, de, fr and es`);
  said = true;
  return { default: enMessages };
}
