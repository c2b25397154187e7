/**
 * The answer to a pay request (design.md, "The pay request and its answer"), from the ledger's
 * view of the attempt: success, failure with a customer-safe message, redirect to the 3-D
 * Secure page, or pending while the gateway decides.
 */
import * as z from 'zod';
import { figuresDiffer } from '../../ledger/index.js';
import type { Payment, PaymentUpdate } from '../../ledger/index.js';
import { failureMessage } from './decline-messages.js';

export const PayAnswer = z.object({
  status: z.enum(['success', 'failure', 'pending', 'redirect']),
  redirect_url: z.string().optional(),
  message: z.string().optional(),
  order_id: z.string(),
  payment_id: z.string().optional(),
  /** With `failure`: whether the session takes another attempt; false once its attempts are used up (open a new session). */
  retryable: z.boolean().optional(),
  /**
   * This request sent nothing: an attempt of the session was already under way (another window's,
   * or an earlier request of this client's), and the answer is that attempt's. A decline of it is
   * no decline of the card this request carried.
   */
  joined: z.literal(true).optional(),
});
export type PayAnswer = z.infer<typeof PayAnswer>;

export function payAnswer(payment: Payment): PayAnswer {
  const ids = { order_id: payment.orderId, ...(payment.paymentId ? { payment_id: payment.paymentId } : {}) };
  switch (payment.status) {
    case 'success':
      return { status: 'success', ...ids };
    case 'failure':
      return { status: 'failure', message: failureMessage(payment), ...ids };
    default:
      return payment.userActionUrl ? { status: 'redirect', redirect_url: payment.userActionUrl, ...ids } : { status: 'pending', ...ids };
  }
}

/** The answer to a request that found another attempt of its session under way: that attempt's, so marked. */
export const joinedAnswer = (payment: Payment): PayAnswer => ({ ...payAnswer(payment), joined: true });

/**
 * The answer from a gateway answer the ledger could not record yet (the database away, the
 * answer held): on to the challenge when it asks for one for this payment's amount, else
 * `pending`. Success or decline is not told before it is recorded: the widget polls the
 * session, which says it once the database is back and the answer written.
 */
export function heldAnswer(payment: Payment, update: PaymentUpdate): PayAnswer {
  const ids = { order_id: payment.orderId, ...(update.paymentId ? { payment_id: update.paymentId } : {}) };
  const challenge = update.status === 'pending' && !figuresDiffer(payment, update) ? update.userActionUrl : undefined;
  return challenge ? { status: 'redirect', redirect_url: challenge, ...ids } : { status: 'pending', ...ids };
}
