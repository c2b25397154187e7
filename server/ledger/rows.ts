// Stored rows ↔ the ledger's domain objects. Spelled out field by field: this runs for every
// row on the hot paths, and it is the one place where SQL names meet domain names.
import { holdsSession, sessionOrderIdOf } from './attempts.js';
import type { CheckoutSessionRow, OperationRow, PaymentRow, SavedCardRow, WebhookEventRow } from './schema.js';
import type {
  CheckoutSession,
  CustomerDetails,
  ListedEvent,
  Operation,
  OperationResult,
  Payment,
  PaymentDiscrepancy,
  PaymentMode,
  SavedCard,
  SessionStatus,
  SplitShare,
  StoredEvent,
} from './types.js';

export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parseSplit(text: string | null): readonly SplitShare[] | null {
  return text === null ? null : (JSON.parse(text) as SplitShare[]);
}

export function operationResultColumns(result: Omit<OperationResult, 'status' | 'amount'>): Partial<OperationRow> {
  return {
    operation_id: result.operationId,
    transaction_id: result.transactionId,
    status_code: result.statusCode,
    status_description: result.statusDescription,
    receipt_url: result.receiptUrl,
  };
}

export function toPayment(row: PaymentRow): Payment {
  return {
    orderId: row.order_id,
    sessionId: row.session_id,
    attempt: row.attempt,
    sessionOrderId: sessionOrderIdOf(row.order_id, row.attempt),
    mode: row.mode,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    split: parseSplit(row.split),
    status: row.status,
    statusCode: row.status_code,
    statusDescription: row.status_description,
    paymentId: row.payment_id,
    gatewayOrderId: row.gateway_order_id,
    billingOrderId: row.billing_order_id,
    transactionId: row.transaction_id,
    ccMask: row.cc_mask,
    cardBrand: row.card_brand,
    ccToken: row.cc_token,
    ccTokenExpiration: row.cc_token_expiration,
    userActionUrl: row.user_action_url,
    checkoutUrl: row.checkout_url,
    receiptUrl: row.receipt_url,
    customer: JSON.parse(row.customer) as CustomerDetails,
    customerId: row.customer_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSeenAt: row.last_seen_at,
    finalizedAt: row.finalized_at,
    discrepancy: row.mismatch_report === null ? null : (JSON.parse(row.mismatch_report) as PaymentDiscrepancy),
    unsentAt: row.unsent_at,
    absentReads: row.absent_reads,
  };
}

/** `currency`: the row's, or its payment's where the row has none (operations.ts, `toOperations`). */
export function toOperation(row: OperationRow, currency: string): Operation {
  return {
    id: row.id,
    orderId: row.order_id,
    kind: row.kind,
    amount: row.amount,
    currency,
    status: row.status,
    operationId: row.operation_id,
    transactionId: row.transaction_id,
    statusCode: row.status_code,
    statusDescription: row.status_description,
    comment: row.comment,
    split: parseSplit(row.split),
    receiptUrl: row.receipt_url,
    origin: row.origin,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSeenAt: row.last_seen_at,
    settledAt: row.settled_at,
  };
}

export function toStoredEvent(row: WebhookEventRow): StoredEvent {
  return {
    id: row.id,
    method: row.method,
    status: row.status,
    orderId: row.order_id,
    operationId: row.operation_id,
    paymentId: row.payment_id,
    body: row.body,
    receivedAt: row.received_at,
    appliedAt: row.applied_at,
    triedAt: row.tried_at,
    outcome: row.outcome,
    reviewedAt: row.reviewed_at,
  };
}

/** The event with the amount it names, read from the facts kept with it (only when listed). */
export function toListedEvent(row: WebhookEventRow): ListedEvent {
  const facts = JSON.parse(row.facts) as { amount?: number; currency?: string };
  const currency = facts.currency ?? null;
  // 0: the event named an amount that could not be read — no amount to show.
  return { ...toStoredEvent(row), amount: currency === null || !facts.amount ? null : facts.amount, currency };
}

export function toSavedCard(row: SavedCardRow): SavedCard {
  return {
    id: row.id,
    customerId: row.customer_id,
    ccToken: row.cc_token,
    ccMask: row.cc_mask,
    brand: row.brand,
    tokenExpiration: row.token_expiration,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

function sessionStatus(row: CheckoutSessionRow, payment: Payment | null, now: number): SessionStatus {
  if (payment?.status === 'success') return 'paid';
  if (payment && holdsSession(payment)) return 'processing';
  if (row.closed_at !== null) return 'closed';
  return row.expires_at <= now ? 'expired' : 'open';
}

/** `payment` is the session's latest attempt (the one in flight, if any is). */
export function toSession(row: CheckoutSessionRow, payment: Payment | null, now: number): CheckoutSession {
  return {
    id: row.id,
    orderId: row.order_id,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    method: row.method,
    split: parseSplit(row.split),
    customer: JSON.parse(row.customer) as CustomerDetails,
    customerId: row.customer_id,
    cardId: row.card_id,
    returnUrl: row.return_url,
    allowedModes: JSON.parse(row.allowed_modes) as PaymentMode[],
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    closedAt: row.closed_at,
    status: sessionStatus(row, payment, now),
    payment,
  };
}
