/**
 * How the merchant API shows the ledger's records: snake_case, decimal amounts in the order's
 * currency, ISO timestamps. Gateway card tokens are never shown (they can charge the card);
 * the masked number and brand are.
 */
import type { ListedEvent, Operation, OrderDetail, OrderTotals, Payment, PaymentDiscrepancy, SplitShare, StoredEvent } from '../../ledger/index.js';
import { decimal } from '../http/amounts.js';
import { redactForStorage } from '../log/redact.js';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

function splitView(split: readonly SplitShare[] | null, currency: string) {
  return split?.map((share) => ({ sub_merchant_id: share.subMerchantId, amount: decimal(share.amount, currency) })) ?? null;
}

/** What the gateway reported, amounts in their own currency (the order's when it named none). */
function discrepancyView(reported: PaymentDiscrepancy | null, orderCurrency: string) {
  if (!reported) return null;
  const amount = (value: number | null, currency: string | null) => (value === null ? null : decimal(value, currency ?? orderCurrency));
  return {
    status: reported.status,
    amount: amount(reported.amount, reported.currency),
    currency: reported.currency,
    paid_amount: amount(reported.paidAmount, reported.paidCurrency ?? reported.currency),
    paid_currency: reported.paidCurrency,
    payment_id: reported.paymentId,
    /** Refunds the gateway reported past what was paid: what they add up to. */
    refunded_amount: reported.refunded === undefined ? null : decimal(reported.refunded, orderCurrency),
    noted_at: iso(reported.notedAt),
  };
}

export function paymentView(payment: Payment) {
  return {
    order_id: payment.orderId,
    session_id: payment.sessionId,
    attempt: payment.attempt,
    mode: payment.mode,
    method: payment.method,
    amount: decimal(payment.amount, payment.currency),
    currency: payment.currency,
    split: splitView(payment.split, payment.currency),
    status: payment.status,
    status_code: payment.statusCode,
    status_description: payment.statusDescription,
    payment_id: payment.paymentId,
    transaction_id: payment.transactionId,
    gateway_order_id: payment.gatewayOrderId,
    card: payment.ccMask ? { mask: payment.ccMask, brand: payment.cardBrand } : null,
    customer_id: payment.customerId,
    customer: payment.customer,
    checkout_url: payment.checkoutUrl,
    receipt_url: payment.receiptUrl,
    /** Set when the gateway reported the payment paid with other figures (held, do not fulfil), or refunds past what was paid. */
    discrepancy: discrepancyView(payment.discrepancy, payment.currency),
    created_at: iso(payment.createdAt),
    updated_at: iso(payment.updatedAt),
    finalized_at: iso(payment.finalizedAt),
  };
}

export function operationView(operation: Operation, currency: string) {
  return {
    id: operation.id,
    operation_id: operation.operationId,
    kind: operation.kind,
    amount: decimal(operation.amount, currency),
    status: operation.status,
    status_code: operation.statusCode,
    status_description: operation.statusDescription,
    comment: operation.comment,
    split: splitView(operation.split, currency),
    receipt_url: operation.receiptUrl,
    origin: operation.origin,
    created_at: iso(operation.createdAt),
    settled_at: iso(operation.settledAt),
  };
}

/**
 * A stored webhook, its event as the gateway sent it with tokens and the like replaced and card
 * data masked (stored so; redacted again here for events kept before it was).
 */
export function eventView(event: StoredEvent) {
  let body: unknown;
  try {
    body = JSON.parse(event.body) as unknown;
  } catch {
    body = null;
  }
  const shown = redactForStorage(body);
  return {
    id: event.id,
    method: event.method,
    status: event.status,
    operation_id: event.operationId,
    outcome: event.outcome,
    received_at: iso(event.receivedAt),
    applied_at: iso(event.appliedAt),
    event: shown,
  };
}

/** An event's amount as a decimal of its currency, when it names both and it can be written exactly. */
function eventAmount(event: ListedEvent): number | null {
  if (event.amount === null || event.currency === null) return null;
  try {
    return decimal(event.amount, event.currency);
  } catch {
    return null; // more digits than a JSON number carries: the event itself still shows it
  }
}

/**
 * A stored webhook listed on its own, outside any order: the event's view with what says whose
 * it is — its order and payment ids, the money it names — and when the ledger last tried it.
 */
export function waitingEventView(event: ListedEvent) {
  return {
    ...eventView(event),
    order_id: event.orderId,
    payment_id: event.paymentId,
    amount: eventAmount(event),
    currency: event.currency,
    tried_at: iso(event.triedAt),
  };
}

export function totalsView(totals: OrderTotals, currency: string) {
  return {
    captured: decimal(totals.captured, currency),
    capture_pending: decimal(totals.capturePending, currency),
    refunded: decimal(totals.refunded, currency),
    refund_pending: decimal(totals.refundPending, currency),
    voided: totals.voided,
    refundable: decimal(totals.refundable, currency),
    capturable: decimal(totals.capturable, currency),
  };
}

/** `capturable` here includes the project's over-capture allowance (the ledger's detail does not). */
export function orderView(detail: OrderDetail, capturable: number) {
  const currency = detail.payment.currency;
  return {
    order: paymentView(detail.payment),
    totals: totalsView({ ...detail.totals, capturable }, currency),
    operations: detail.operations.map((operation) => operationView(operation, currency)),
    events: detail.events.map(eventView),
  };
}
