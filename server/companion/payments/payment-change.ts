/**
 * What the merchant's `onPaymentEvent` hook is told: a payment's or an operation's status
 * change, or a discrepancy, with the ledger's record as it is then.
 */
import { discrepancyVersion, latestReport } from '../../ledger/index.js';
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
         * one restated: `payment.discrepancy` says what (its first report, and `later` ones).
         * The payment keeps its status — do not fulfil; settle it with the customer or at the
         * gateway. Told again for each distinct report after the first, under a new id.
         */
        readonly kind: 'discrepancy';
        /** The status the gateway reported, in its latest report. */
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

/** How the log names a hook the companion made (notifyHook, the bin's PAYFORM_NOTIFY_URL): a bin user never wrote an `onPaymentEvent`. */
const hookNames = new WeakMap<PaymentEventHook, string>();

export function namedHook<Hook extends PaymentEventHook>(hook: Hook, name: string): Hook {
  hookNames.set(hook, name);
  return hook;
}

/** What a log line calls `hook`. */
export function hookName(hook: PaymentEventHook): string {
  return hookNames.get(hook) ?? 'the onPaymentEvent hook';
}

export function paymentChange(payment: Payment, source: ChangeSource): PaymentChange {
  return { kind: 'payment', id: `payment:${payment.orderId}:${payment.status}`, orderId: payment.orderId, status: payment.status, payment, source };
}

/**
 * Undefined when the payment has no discrepancy noted. Its first report is told as
 * `discrepancy:<order_id>`, as always; each change after it (a later report, the note that
 * there were more) as `discrepancy:<order_id>#<n>`, n from 2, so a merchant deduplicating by id
 * does not take a new report for a repeat of the first. `#`, which no order id holds: a retry's
 * order id is `<order_id>:<attempt>`, and `:2` would make attempt 2's first report another's second.
 */
export function discrepancyChange(payment: Payment, source: ChangeSource): PaymentChange | undefined {
  const reported = payment.discrepancy;
  if (!reported) return undefined;
  const version = discrepancyVersion(reported);
  const id = version === 1 ? `discrepancy:${payment.orderId}` : `discrepancy:${payment.orderId}#${version}`;
  return { kind: 'discrepancy', id, orderId: payment.orderId, status: latestReport(reported).status, payment, source };
}

export function operationChange(operation: Operation, source: ChangeSource): PaymentChange {
  const id = `${operation.kind}:${operation.id}:${operation.status}`;
  return { kind: 'operation', id, orderId: operation.orderId, status: operation.status, operation, source };
}
