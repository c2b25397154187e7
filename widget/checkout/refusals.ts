/**
 * What a refusal or an error leaves the customer to do: the fields to correct, or nothing (the
 * shop's to fix, said to the developer), the element closed rather than refused again.
 */
import type { CardRefused } from '../pay-form/tokenized.js';
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError, type PayErrorCode } from './companion.js';
import { refocus } from './announcements.js';
import type { Form } from './form.js';

/**
 * `<pay-button>` cannot ask for the customer details the hosted page needs: a page set up wrong,
 * told to the developer; the customer, that the shop cannot take the payment (`close`). A session
 * whose modes leave hosted payment out never shows the button (diagnose.ts, `hostedRefused`).
 */
export function unasked(error: unknown): CompanionError | undefined {
  if (!(error instanceof CompanionError)) return undefined;
  const customer = error.fields.filter((field) => field.startsWith('customer.'));
  if (!customer.length) return undefined;
  const reason = `the gateway's hosted page needs the customer's ${customer.map((field) => field.slice(9)).join(' and ')}: open the session with them (customer in POST /api/checkout/sessions), or use <pay-form>, which asks the customer for them`;
  console.error(`<pay-button>: ${reason}`);
  return new CompanionError('misconfigured', error.status, customer, reason);
}

/** What a payment's error says of it: anything but the companion's own error is as a server's. */
export const codeOf = (error: unknown): PayErrorCode => (error instanceof CompanionError ? error.code : 'server');

/** No answer, a server's error, or an answer not read: the payment may have gone through. */
export const mayBePaid = (code: PayErrorCode): boolean => code === 'network' || code === 'server' || code === 'malformed';

/** "card.exp_month", "customer.email", "cc_number", "card_cvv"… name the form's exp, email, number, cvv. */
const FORM_FIELD = /(number|exp|cvv|fname|lname|email|phone)[^.]*$/;

/**
 * A refusal of the session's own terms — its currency, an amount or split the gateway project
 * does not take — fails every payment of the session, and only the shop can change that: the
 * developer is told which (`misconfigured`, in the console and the event's `reason`), the
 * customer that the shop cannot take the payment (`close`), not to try again.
 */
export function shopSide(element: CheckoutElement, error: unknown): CompanionError | undefined {
  // The companion's `session_refused` (diagnose.ts): it knows which refused fields are the session's.
  if (!(error instanceof CompanionError) || error.code !== 'misconfigured' || error.reason !== undefined || !error.fields.length) return undefined;
  const terms = error.fields;
  const currency = terms.includes('currency') && element.view?.currency;
  const what = currency ? `the session's currency, ${currency}, which the gateway project does not take` : `the session's ${terms.join(', ')}`;
  const reason = `the gateway refused ${what}, so no payment of this session can succeed: open sessions the gateway project takes${currency ? `, or enable ${currency} for it at the gateway` : ''} (the companion's log says what it refused)`;
  console.error(`<${element.localName}>: ${reason}`);
  return new CompanionError('misconfigured', error.status, error.fields, reason);
}

/** No pay button for a payment that can only be refused again: the shop cannot take it, the element says. */
export function close(element: CheckoutElement, error: CompanionError, message = element.t.unavailable): Promise<void> {
  element.phase = 'closed';
  element.fail(error, message);
  return refocus(element);
}

/**
 * A refusal naming only what the form does not show (a card token, the browser's fingerprint)
 * and none of the session's terms: nothing the customer can correct, so the developer is told
 * which, in the console and the event's `reason`.
 */
export function unfixable(error: unknown): unknown {
  if (!(error instanceof CompanionError) || !error.fields.length) return error;
  const reason = `the companion refused ${error.fields.join(', ')}, which the customer cannot correct in the form: see the pay answer's error.fields`;
  console.error(`<pay-form>: ${reason}`);
  return new CompanionError(error.code, error.status, error.fields, reason);
}

/**
 * Marks the fields the companion or the tokenizer named as invalid: the first of them, if any. A
 * security code passed the form's own check, which judges only its length: it is `refused`, and
 * says so; the tokenizer says what it found wrong (tokenized.ts, `CardRefused`).
 */
export function markRefused(form: Form, error: unknown): HTMLInputElement | undefined {
  const fields = error instanceof CompanionError ? error.fields : [];
  const named = fields.map((path) => FORM_FIELD.exec(path)?.[1]);
  const invalid = form.inputs().filter((input) => named.includes(input.name));
  const { shows } = error as Partial<CardRefused>;
  form.show(Object.fromEntries(invalid.map(({ name }) => [name, shows ?? (name === 'cvv' ? 'refused' : 'invalid')])));
  return invalid[0];
}
