/** The requests of a payment to the companion (`POST …/pay`, `POST …/hosted`) and what a form sends in them. */
import { digitsOf, readExpiry } from '@payform/card/fields';
import type { FieldName } from '../events.js';
import type { CheckoutElement } from './checkout-element.js';
import { call, type PayAnswer, type PayRequest } from './companion.js';
import { collectFingerprint } from './fingerprint.js';
import { isForm, type Form } from './form.js';

const ANSWERS: readonly string[] = ['success', 'failure', 'pending', 'redirect'];

/**
 * A POST of `body` as JSON, with the page paid from: without the merchant's return_url, the
 * customer comes back to it. Not its fragment, which a browser never sends a server (a hash
 * route's state, an OAuth implicit flow's token), and which the way back leaves out anyway.
 */
const post = (body: object): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ ...body, page_url: location.href.split('#')[0] }),
});

/** `POST …/pay`: the payment's outcome, or where 3-D Secure goes on. */
export const payment = (element: CheckoutElement, request: PayRequest): Promise<PayAnswer> =>
  call(element, '/pay', post(request), 60_000, (body: PayAnswer | undefined) =>
    ANSWERS.includes(body?.status as string) && (body!.status !== 'redirect' || typeof body!.redirect_url === 'string') ? body : undefined,
  );

/**
 * `POST …/hosted`: the gateway's payment page for the session, with the customer details `<pay-form>`
 * asked for, and why the form sends its customer there (`fallback`: the operator hears of it).
 */
export const hostedPage = async (element: CheckoutElement, fallback?: 'tokenizer_unreachable'): Promise<string> =>
  (
    await call(element, '/hosted', post({ customer: isForm(element) ? customerOf(element) : undefined, fallback }), 15_000, (body: { redirect_url?: unknown } | undefined) =>
      typeof body?.redirect_url === 'string' ? body : undefined,
    )
  ).redirect_url as string;

/** A field's value as typed, trimmed. */
const valueOf = (form: Form, name: FieldName): string => form.field(name)?.value.trim() ?? '';

/** The customer fields the session asks for, from a valid form; undefined when it asks for none. */
export function customerOf(form: Form): PayRequest['customer'] {
  const fields = form.view?.customer_fields ?? [];
  if (!fields.length) return undefined;
  // A phone goes as typed: the companion drops the spaces, dots, dashes and brackets, as the field's check does.
  return Object.fromEntries(fields.map((name) => [name, valueOf(form, name)]));
}

/** The pay request of a valid form. */
export function request(form: Form): PayRequest {
  const customer = customerOf(form);
  return {
    card: form.token ? { token: form.token } : { number: digitsOf(valueOf(form, 'number')), ...readExpiry(valueOf(form, 'exp'))!, cvv: valueOf(form, 'cvv') },
    ...(customer && { customer }),
    fingerprint: collectFingerprint(),
  };
}
