/**
 * What the merchant's `onPaymentEvent` hook is told: a payment's or an operation's status
 * change, or a discrepancy, with the ledger's record as it is then.
 */
import type { Operation, OperationStatus, Payment, PaymentStatus } from '../../ledger/index.js';

/**
 * Who told the companion. `not_sent`: no one — the companion ended an attempt the gateway never
 * took (no connection, refused credentials, rate limited). `redelivery`: the ledger's record,
 * told again by reconciliation because the first call threw or never happened (the process
 * stopped before it).
 */
export type ChangeSource = 'gateway_answer' | 'not_sent' | 'webhook' | 'order_state' | 'reconciliation' | 'redelivery';

interface ChangeBase {
  /**
   * The same for every delivery of this change, whichever instance or path makes it — derived
   * from the order, the kind and the status (and the operation) — so a repeat can be recognised.
   */
  readonly id: string;
  readonly orderId: string;
  readonly source: ChangeSource;
}

/**
 * Delivered at least once: a change is told again (same `id`) until the hook returns without
 * throwing — after a throw, or when the process stopped before the hook was called or returned.
 * A later step may be told instead of an earlier one not yet delivered (`pending` then
 * `success` delivers at least `success`); the record is always the current one.
 */
export type PaymentChange = ChangeBase &
  (
    | { readonly kind: 'payment'; readonly status: PaymentStatus; readonly payment: Payment }
    | { readonly kind: 'operation'; readonly status: OperationStatus; readonly operation: Operation }
    | {
        /**
         * The gateway reported what contradicts the order: the payment a success with other
         * figures (paid short, another amount or currency), refunds or captures past what was
         * paid or authorised, an operation made after it was ended as never sent, or a settled
         * one restated: `payment.discrepancy` says what. The payment keeps its status — do not
         * fulfil; settle it with the customer or at the gateway.
         */
        readonly kind: 'discrepancy';
        /** The status the gateway reported. */
        readonly status: PaymentStatus;
        readonly payment: Payment;
      }
  );

/**
 * The merchant's subscription to status changes: fulfil an order when its payment succeeds.
 * Called at least once per change (see PaymentChange): make it idempotent by `change.id`. A
 * throw is logged and the change is told again later; it never undoes the change.
 */
export type PaymentEventHook = (change: PaymentChange) => void | Promise<void>;

export function paymentChange(payment: Payment, source: ChangeSource): PaymentChange {
  return { kind: 'payment', id: `payment:${payment.orderId}:${payment.status}`, orderId: payment.orderId, status: payment.status, payment, source };
}

/** Undefined when the payment has no discrepancy noted. */
export function discrepancyChange(payment: Payment, source: ChangeSource): PaymentChange | undefined {
  const reported = payment.discrepancy;
  return reported ? { kind: 'discrepancy', id: `discrepancy:${payment.orderId}`, orderId: payment.orderId, status: reported.status, payment, source } : undefined;
}

export function operationChange(operation: Operation, source: ChangeSource): PaymentChange {
  const id = `${operation.kind}:${operation.id}:${operation.status}`;
  return { kind: 'operation', id, orderId: operation.orderId, status: operation.status, operation, source };
}
