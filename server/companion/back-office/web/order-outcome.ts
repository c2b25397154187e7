// What a paid order came to, from its totals: what the list and the detail say in place of
// "Success", so a refunded purchase or a voided hold is not read as money kept.
import { ABANDONED_CODES } from '@payform/gateway/wire';
import { units } from './money.js';
import type { OrderSummary, Totals } from './admin-api.js';

export type OutcomeState = 'refunded' | 'partlyRefunded' | 'voided' | 'capturedLess' | 'capturedMore' | 'uncaptured' | 'pending';

export interface Outcome {
  readonly state: OutcomeState;
  /** What the merchant keeps, in minor units: a purchase's amount or an auth's capture, less refunds (below 0 past what was paid). */
  readonly cameTo: number;
}

/**
 * An attempt the gateway never decided: ended as never sent (and not decided since: a first send
 * that landed late may have been paid after all), or failed before the gateway gave it a status
 * code (unreachable, credentials refused, a field refused). The payment report counts these as
 * `not_sent` (server/ledger/reports.ts), apart from the customers' declines; the list says the
 * same of each.
 */
export function neverDecided(order: Pick<OrderSummary, 'status' | 'status_code' | 'unsent_at'>): boolean {
  const endedUnsent = order.unsent_at !== null && (order.status === 'init' || order.status === 'pending');
  const failedUnanswered = order.status === 'failure' && order.status_code === null;
  return endedUnsent || failedUnanswered;
}

/**
 * A payment page left unpaid and cancelled — by the merchant, or as its checkout ended — or
 * left to expire at the gateway: abandoned, not declined, as the payment report counts it
 * (`cancelled`).
 */
export function abandoned(order: Pick<OrderSummary, 'status' | 'status_code'>): boolean {
  return order.status === 'failure' && order.status_code !== null && ABANDONED_CODES.includes(order.status_code);
}

/**
 * One of those the gateway had answered (a payment id, a hosted page, a status code of its own)
 * before it no longer knew it — what a restarted sandbox does, which forgets its orders: not
 * "Not sent", whether ended as never sent or given up on at once (the gateway away longer than
 * the give-up time). The ledger's `gatewayAnswered`, read from the view, as the forgotten count is.
 */
export function gatewayForgot(order: Pick<OrderSummary, 'status' | 'status_code' | 'payment_id' | 'checkout_url' | 'unsent_at'>): boolean {
  const answered = order.payment_id !== null || order.checkout_url !== null || order.status_code !== null;
  return neverDecided(order) && answered;
}

/**
 * The paid order's outcome when it is more than a plain success (undefined for one, and for
 * anything not paid or a card verification). Pending operations say so before anything else
 * but a void; an auth not captured yet is no money yet.
 */
export function orderOutcome(order: Pick<OrderSummary, 'method' | 'status' | 'amount' | 'unsent_at'>, totals: Totals): Outcome | undefined {
  if (order.status !== 'success' || order.method === 'lookup' || order.unsent_at) return undefined;
  if (totals.voided) return { state: 'voided', cameTo: 0 };
  const amount = units(order.amount);
  const captured = units(totals.captured);
  const refunded = units(totals.refunded);
  const paid = order.method === 'auth' && captured > 0 ? captured : amount;
  // Below zero when the gateway refunded past what was paid (its portal; a held order): said as
  // the CSV and the period's money count it, not as 0.00 beside "Refunded".
  const cameTo = paid - refunded;
  const state = ((): OutcomeState | undefined => {
    if (units(totals.capture_pending) + units(totals.refund_pending) > 0) return 'pending';
    if (order.method === 'auth' && captured === 0) return 'uncaptured';
    if (refunded > 0) return cameTo <= 0 ? 'refunded' : 'partlyRefunded';
    if (order.method === 'auth' && captured !== amount) return captured < amount ? 'capturedLess' : 'capturedMore';
    return undefined;
  })();
  return state && { state, cameTo };
}
