// What a session's latest attempt means for the session.
import type { Payment } from './types.js';

/** Abandoned checkouts (a hosted page cancelled or expired unpaid), counted apart from declines: the wire's list. */
export { ABANDONED_CODES } from '@payform/gateway/wire';

/**
 * Whether an attempt holds its session (in flight or paid). A failure does not — unless the
 * gateway has since reported it paid (held) —, nor an attempt ended as never sent: the session's
 * next attempt sends that one again.
 */
export function holdsSession(payment: Payment): boolean {
  return (payment.status !== 'failure' || heldAsPaid(payment)) && !isUnsent(payment);
}

/**
 * A failed attempt the gateway has since reported otherwise (held for a person, not settled yet):
 * it may have taken the money, so its session takes no other attempt meanwhile — the customer
 * would pay twice.
 */
function heldAsPaid(payment: Payment): boolean {
  return payment.discrepancy !== null && payment.discrepancy.settled === undefined;
}

/** An attempt ended as never sent (or lost by the gateway): its session may send it again, under its order id. */
export function isUnsent(payment: Payment): boolean {
  return (payment.status === 'init' || payment.status === 'pending') && payment.unsentAt !== null;
}

/**
 * Whether the gateway answered the attempt — a payment id, a hosted page, a status of its own —
 * so saw it: one it then no longer shows, it lost (a sandbox restarted), rather than never got.
 */
export function gatewayAnswered(payment: Pick<Payment, 'paymentId' | 'checkoutUrl' | 'statusCode'>): boolean {
  return payment.paymentId !== null || payment.checkoutUrl !== null || payment.statusCode !== null;
}

/**
 * How the reason of an attempt the gateway never received begins (refused credentials, the
 * gateway away or rate limiting: its flows write it so): such an attempt tried no card, and does
 * not count toward the session's attempts.
 */
export const NOT_SENT_REASON = 'Not sent:';

/**
 * How the reason of an attempt begins whose request the gateway refused outright (a field it
 * does not take): it made no payment of it. Such an attempt counts toward the session's
 * attempts, its fields having been received.
 */
export const REFUSED_REASON = 'Refused by the gateway:';

/**
 * Why reconciliation ended for good an attempt or reservation the gateway still did not show long
 * after it was sent (`giveUpAfterMs`).
 */
export const NEVER_REACHED = 'Never reached the gateway';

/**
 * Why reconciliation ended for good an attempt the gateway had answered (a payment id, a page, a
 * status of its own) and then no longer showed: it saw it, so "never reached" would be untrue, and
 * the customer may have paid it at the gateway that took it.
 */
export const LOST_AT_GATEWAY = 'Acknowledged by the gateway, then unknown to it: check it at the gateway that took it';

/**
 * Whether the gateway holds no payment of an attempt that no longer holds its session: it refused
 * the request outright, never received it, or never showed it over the never-sent window (then
 * sent again under its own order id, or given up on). Sending its charge again cannot pay twice.
 * Not one the gateway answered with a payment id, which it did see.
 */
export function madeNoPayment(payment: Payment): boolean {
  if (payment.paymentId !== null || payment.statusCode !== null || heldAsPaid(payment)) return false;
  if (isUnsent(payment)) return true;
  const reason = payment.statusDescription ?? '';
  return payment.status === 'failure' && (reason.startsWith(NOT_SENT_REASON) || reason.startsWith(REFUSED_REASON) || reason === NEVER_REACHED);
}

/**
 * Whether the gateway holds no payment of a charge with these attempts (in attempt order): none
 * was answered with a payment id — an earlier one that was is a decline — and the latest, if
 * any, made none. Its charge may then be sent again.
 */
export function noPaymentAmong(attempts: readonly Payment[]): boolean {
  const latest = attempts.at(-1);
  return attempts.every((attempt) => attempt.paymentId === null) && (latest === undefined || madeNoPayment(latest));
}

/** The order id of an attempt's session: a later attempt's order id is the session's, then `:<attempt>`. */
export function sessionOrderIdOf(orderId: string, attempt: number): string {
  const suffix = `:${attempt}`;
  return attempt > 1 && orderId.endsWith(suffix) ? orderId.slice(0, -suffix.length) : orderId;
}

