// What a session's latest attempt means for the session.
import type { Payment } from './types.js';

/**
 * Whether an attempt holds its session (in flight or paid). A failure does not, nor an attempt
 * ended as never sent: the session's next attempt sends that one again.
 */
export function holdsSession(payment: Payment): boolean {
  return payment.status !== 'failure' && !isUnsent(payment);
}

/** An attempt ended as never sent (or lost by the gateway): its session may send it again, under its order id. */
export function isUnsent(payment: Payment): boolean {
  return (payment.status === 'init' || payment.status === 'pending') && payment.unsentAt !== null;
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
 * Whether the gateway holds no payment of an ended attempt: it refused the request outright, or
 * never received it. Sending it again cannot pay twice.
 */
export function madeNoPayment(payment: Payment): boolean {
  const reason = payment.statusDescription ?? '';
  return payment.status === 'failure' && payment.paymentId === null && payment.statusCode === null && (reason.startsWith(NOT_SENT_REASON) || reason.startsWith(REFUSED_REASON));
}

/** The order id of an attempt's session: a later attempt's order id is the session's, then `:<attempt>`. */
export function sessionOrderIdOf(orderId: string, attempt: number): string {
  const suffix = `:${attempt}`;
  return attempt > 1 && orderId.endsWith(suffix) ? orderId.slice(0, -suffix.length) : orderId;
}
