/**
 * Customer-safe words for a failed payment, by the gateway's status code. The gateway's own
 * `status_description` is for the merchant; what the payer reads says what to do next and
 * nothing about fraud rules or internals.
 */
const MESSAGES: Readonly<Record<string, string>> = {
  '4001': 'The card has expired. Try another card.',
  '4009': 'Insufficient funds. Try another card.',
  '4010': 'The card’s transaction limit was reached. Try another card or contact your bank.',
  '4012': 'The amount is above the card’s limit. Try another card or contact your bank.',
  '4144': 'The card details are not valid. Check them and try again.',
  '4147': '3-D Secure verification was not completed in time. Try again.',
  '4148': 'The payment timed out. Try again.',
  '4149': 'The payment session expired. Start again.',
  '6007': 'The payment was cancelled.',
};

const DECLINED = 'The payment was declined. Try another card or contact your bank.';
/** A 3-D Secure challenge that was refused ends as a plain decline at the gateway. */
const NOT_CONFIRMED = 'The payment was not confirmed. Try again or use another card.';
/** No code: the attempt never got a decision (the gateway could not be reached). */
const NOT_COMPLETED = 'The payment could not be completed. Try again.';

/**
 * The customer-safe reason of a failed attempt; a redirect it had means a 3-D Secure challenge.
 * One ended here as never sent (`unsentAt`) got no decision, whatever code it last had (a
 * pending one, `2122`): no card was declined, and the customer is not told one was.
 */
export function failureMessage(payment: { readonly statusCode: string | null; readonly userActionUrl: string | null; readonly unsentAt?: number | null }): string {
  if (payment.unsentAt != null) return NOT_COMPLETED;
  return declineMessage(payment.statusCode, payment.userActionUrl !== null);
}

function declineMessage(statusCode: string | null, afterChallenge: boolean): string {
  const known = statusCode ? MESSAGES[statusCode] : undefined;
  if (known) return known;
  if (afterChallenge) return NOT_CONFIRMED;
  return statusCode ? DECLINED : NOT_COMPLETED;
}
