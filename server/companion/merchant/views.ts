/**
 * How the merchant API shows the ledger's records: snake_case, amounts in integer minor units
 * of their currency, ISO timestamps. Gateway card tokens are never shown (they can charge the card);
 * the masked number and brand are.
 */
import * as z from 'zod';
import { readWebhookEvent } from '@payform/gateway';
import { discrepancyVersion, LATER_REPORTS_KEPT } from '../../ledger/index.js';
import type { CheckoutSession, CustomerDetails, DiscrepancyReport, DiscrepancySettlement, ListedEvent, Operation, OrderDetail, OrderTotals, Payment, PaymentDiscrepancy, SplitShare, StoredEvent } from '../../ledger/index.js';
import { AmountView as Amount } from '../http/amounts.js';
import { redactForStorage } from '../log/redact.js';

// The schemas are the contract (the OpenAPI document's components); the builders below are typed by them.

export const Timestamp = z.iso.datetime().describe('ISO 8601, UTC');
const SplitView = z.array(z.object({ sub_merchant_id: z.string(), amount: Amount })).nullable();
const PaymentStatus = z.enum(['init', 'pending', 'success', 'failure']);

/** One report of the gateway's that contradicts the order. */
const DiscrepancyReportView = z
  .object({
    status: PaymentStatus,
    amount: Amount.nullable(),
    currency: z.string().nullable(),
    paid_amount: Amount.nullable(),
    paid_currency: z.string().nullable(),
    payment_id: z.string().nullable(),
    refunded_amount: Amount.nullable().describe('Refunds the gateway reported past what was paid: what they add up to'),
    captured_amount: Amount.nullable().describe('Captures the gateway made unasked past the authorised amount: what the captures add up to (only the authorised amount can be refunded)'),
    late_operation: z
      .object({ never_sent_id: z.string(), made_id: z.string(), kind: z.enum(['capture', 'void', 'refund']), amount: Amount })
      .nullable()
      .describe('A capture or refund the companion had ended as never sent (`never_sent_id`) that the gateway made after all (`made_id`, recorded with origin gateway); both are operation `id`s of the order'),
    restated_operation: z
      .object({ id: z.string(), kind: z.enum(['capture', 'void', 'refund']), recorded_amount: Amount, reported_amount: Amount })
      .nullable()
      .describe('A settled capture or refund (operation `id`) the gateway reported again as a success of another amount: the books keep `recorded_amount`'),
    unreadable: z.boolean().describe('What the gateway sent could not be read (a signed webhook of no readable amount): its figures are unknown, and null'),
    transaction_id: z.string().nullable().describe('A further charge of a recurring payment: its transaction, not the payment’s'),
    noted_at: Timestamp,
  })
  .describe('One report of the gateway’s that contradicts the order');

const SettlementView = z
  .object({
    settled_at: Timestamp,
    note: z.string().describe('How the person settled it, in their words'),
    version: z.int().describe('The discrepancy’s version it settled'),
  })
  .describe('A person settled the held order, with the customer or at the gateway');

// The first report stays at the top, where it always was; later distinct ones are added beside
// it, so what merchants read of it today reads the same.
export const DiscrepancyView = DiscrepancyReportView.extend({
  later: z
    .array(DiscrepancyReportView)
    .describe(`Distinct reports the gateway made after the first (at most ${LATER_REPORTS_KEPT}), oldest first: e.g. a payment paid short, then refunded past what was paid. Each one is told the hook and the live feed again`),
  later_truncated: z.boolean().describe('More distinct reports came than `later` keeps: those a webhook brought stay among the order’s webhook events, unmatched'),
  version: z.int().describe('How many times the discrepancy changed: its reports, and the truncation. Settling names the version read (POST /api/orders/{order_id}/settle-discrepancy)'),
  settled: SettlementView.nullable().describe('A person’s settlement covering every report: the order is no longer held. Null while it is held'),
  settled_before: z.array(SettlementView).describe('Settlements a later report reopened, oldest first'),
}).describe(
  'What the gateway reported for a payment it says is paid with other figures, refunded past what was paid, captured past what was authorised, a capture or refund it made that the merchant was told never happened, or a settled one it restated with another amount: held, do not fulfil, until a person settles it (`settled`). The top level is the first report; `later` holds each distinct one after it',
);

/** Customer data as the payment carries it: the gateway's names without `customer_`, as sessions take them. */
export const CustomerView = z.object({
  fname: z.string().optional(),
  lname: z.string().optional(),
  patronym: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  ip: z.string().optional(),
  country: z.string().optional(),
  birthday: z.string().optional(),
  city: z.string().optional(),
  lang: z.string().optional(),
  tax_id: z.string().optional(),
});

export const PaymentView = z.object({
  order_id: z.string(),
  session_id: z.string(),
  attempt: z.int(),
  mode: z.enum(['direct', 'hosted']),
  method: z.enum(['purchase', 'auth', 'lookup']).describe('lookup: a card verification, nothing paid'),
  amount: Amount,
  currency: z.string(),
  split: SplitView,
  status: PaymentStatus,
  status_code: z.string().nullable(),
  status_description: z.string().nullable(),
  payment_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  gateway_order_id: z.string().nullable(),
  card: z.object({ mask: z.string(), brand: z.string().nullable() }).nullable(),
  customer_id: z.string().nullable(),
  customer: CustomerView,
  checkout_url: z.string().nullable(),
  receipt_url: z.string().nullable(),
  discrepancy: DiscrepancyView.nullable(),
  unsent_at: Timestamp.nullable().describe('When the attempt was ended as never sent (the gateway never showed it): it waits for the customer to pay again under the same order id, not for the gateway'),
  created_at: Timestamp,
  updated_at: Timestamp,
  finalized_at: Timestamp.nullable(),
});
export type PaymentView = z.output<typeof PaymentView>;

export const OperationView = z.object({
  id: z.string(),
  operation_id: z.string().nullable(),
  transaction_id: z
    .string()
    .nullable()
    .describe('The gateway\'s transaction for this operation, null until its answer or webhook names it'),
  kind: z.enum(['capture', 'void', 'refund']),
  amount: Amount,
  currency: z.string().describe('ISO 4217, its payment\'s: `amount` counts minor units of it'),
  status: z.enum(['pending', 'success', 'failure']),
  status_code: z.string().nullable(),
  status_description: z
    .string()
    .nullable()
    .describe('The words of the current status: the gateway\'s; or the companion\'s when it decided it (refused, not sent, "Never reached the gateway"); for one pending after its answer was lost, why it waits'),
  comment: z.string().nullable(),
  split: SplitView,
  receipt_url: z.string().nullable().describe('A successful refund\'s receipt page, as the gateway gave it in its answer or webhook'),
  origin: z.enum(['merchant', 'gateway']),
  created_at: Timestamp,
  settled_at: Timestamp.nullable(),
});
export type OperationView = z.output<typeof OperationView>;

export const EventView = z.object({
  id: z.string(),
  method: z.string(),
  status: z.string(),
  operation_id: z.string().nullable(),
  outcome: z.enum(['applied', 'stale', 'parked', 'unmatched']),
  received_at: Timestamp,
  applied_at: Timestamp.nullable(),
  reviewed_at: Timestamp.nullable().describe('When a person marked an unmatched event reviewed (settled elsewhere): it no longer waits'),
  event: z
    .unknown()
    .describe('The event the gateway sent as the gateway client reads it: amounts in integer minor units, tokens replaced and card data masked, its own times (created_at, processed_at…) as the gateway writes them, without a zone, in UTC; null when it cannot be read (see event_as_sent)'),
  event_as_sent: z
    .unknown()
    .optional()
    .describe('Only for an event that cannot be read: its body as the gateway sent it, tokens replaced and card data masked, its amounts in the gateway’s decimals (never to be added to the minor units of the rest)'),
});
export type EventView = z.output<typeof EventView>;

export const WaitingEventView = EventView.extend({
  order_id: z.string(),
  payment_id: z.string().nullable(),
  amount: Amount.nullable(),
  currency: z.string().nullable(),
  tried_at: Timestamp,
});
export type WaitingEventView = z.output<typeof WaitingEventView>;

export const TotalsView = z.object({
  captured: Amount,
  capture_pending: Amount,
  refunded: Amount,
  refund_pending: Amount,
  voided: z.boolean(),
  refundable: Amount,
  capturable: Amount,
});
export type TotalsView = z.output<typeof TotalsView>;

/**
 * An order as the list shows it: the payment, and what it came to — the detail's `totals`, so
 * a refunded purchase, a voided hold or a hold captured for another amount reads as such
 * without opening each order.
 */
export const ListedOrderView = PaymentView.extend({
  totals: TotalsView.describe('What the order came to, as its detail (GET /api/orders/{order_id}) has it: captured, refunded, voided, and what is still pending or left'),
});
export type ListedOrderView = z.output<typeof ListedOrderView>;

/** One attempt of a checkout session: a session paid after a decline is paid under a later attempt's order id. */
export const AttemptView = z.object({ order_id: z.string(), attempt: z.int().positive(), status: PaymentView.shape.status });
export type AttemptView = z.output<typeof AttemptView>;

export const OrderView = z.object({
  order: PaymentView,
  description: z.string().nullable().describe('What was sold: the checkout session’s description (null for a session no longer kept)'),
  source: z
    .enum(['checkout', 'saved_card_charge'])
    .nullable()
    .describe('Who started the payment: the customer at checkout (the card form or the hosted page), or the merchant charging a saved card (POST /api/customers/{customer_id}/cards/{card_id}/charges); null for a session no longer kept'),
  totals: TotalsView,
  operations: z.array(OperationView),
  events: z.array(EventView),
  customer_erased_at: Timestamp.nullable().describe('When the customer’s details were erased from the order (POST /api/customers/erasures, or by age past personalDataDays): it keeps its money, card mask and ids, and keeps none of the person’s details from what comes about it later; null when never'),
  attempts: z
    .array(AttemptView)
    .describe('Every attempt of the order’s checkout session, first to last, this one included: where a declined attempt’s session was paid in the end'),
});
export type OrderView = z.output<typeof OrderView>;

function iso(time: number): string;
function iso(time: number | null): string | null;
function iso(time: number | null) {
  return time === null ? null : new Date(time).toISOString();
}

function splitView(split: readonly SplitShare[] | null): z.output<typeof SplitView> {
  return split?.map((share) => ({ sub_merchant_id: share.subMerchantId, amount: share.amount })) ?? null;
}

// The ledger's one camel-cased name, in the snake case of the rest of the API and of sessions.
function customerView({ taxId, ...rest }: CustomerDetails): z.output<typeof CustomerView> {
  return taxId === undefined ? rest : { ...rest, tax_id: taxId };
}

/** What the gateway reported, amounts in minor units of their own currency. */
function discrepancyView(noted: PaymentDiscrepancy | null): z.output<typeof DiscrepancyView> | null {
  if (!noted) return null;
  return {
    ...reportView(noted),
    later: (noted.later ?? []).map(reportView),
    later_truncated: noted.laterTruncated === true,
    version: discrepancyVersion(noted),
    settled: noted.settled ? settlementView(noted.settled) : null,
    settled_before: (noted.settledBefore ?? []).map(settlementView),
  };
}

function settlementView(settlement: DiscrepancySettlement): z.output<typeof SettlementView> {
  return { settled_at: iso(settlement.settledAt), note: settlement.note, version: settlement.version };
}

function reportView(reported: DiscrepancyReport): z.output<typeof DiscrepancyReportView> {
  return {
    status: reported.status,
    amount: reported.amount,
    currency: reported.currency,
    paid_amount: reported.paidAmount,
    paid_currency: reported.paidCurrency,
    payment_id: reported.paymentId,
    refunded_amount: reported.refunded === undefined ? null : reported.refunded,
    captured_amount: reported.captured === undefined ? null : reported.captured,
    late_operation: reported.lateOperation
      ? { never_sent_id: reported.lateOperation.reservation, made_id: reported.lateOperation.operation, kind: reported.lateOperation.kind, amount: reported.lateOperation.amount }
      : null,
    restated_operation: reported.restatedOperation
      ? { id: reported.restatedOperation.operation, kind: reported.restatedOperation.kind, recorded_amount: reported.restatedOperation.recorded, reported_amount: reported.restatedOperation.reported }
      : null,
    unreadable: reported.unreadable === true,
    transaction_id: reported.transactionId ?? null,
    noted_at: iso(reported.notedAt),
  };
}

export function paymentView(payment: Payment): PaymentView {
  return {
    order_id: payment.orderId,
    session_id: payment.sessionId,
    attempt: payment.attempt,
    mode: payment.mode,
    method: payment.method,
    amount: payment.amount,
    currency: payment.currency,
    split: splitView(payment.split),
    status: payment.status,
    status_code: payment.statusCode,
    status_description: payment.statusDescription,
    payment_id: payment.paymentId,
    transaction_id: payment.transactionId,
    gateway_order_id: payment.gatewayOrderId,
    card: payment.ccMask ? { mask: payment.ccMask, brand: payment.cardBrand } : null,
    customer_id: payment.customerId,
    customer: customerView(payment.customer),
    checkout_url: payment.checkoutUrl,
    receipt_url: payment.receiptUrl,
    /** Set when the gateway reported what contradicts the order (held, do not fulfil, until `discrepancy.settled`): its first report, and each distinct one after it. */
    discrepancy: discrepancyView(payment.discrepancy),
    unsent_at: iso(payment.unsentAt),
    created_at: iso(payment.createdAt),
    updated_at: iso(payment.updatedAt),
    finalized_at: iso(payment.finalizedAt),
  };
}

export function operationView(operation: Operation): OperationView {
  return {
    id: operation.id,
    operation_id: operation.operationId,
    transaction_id: operation.transactionId,
    kind: operation.kind,
    amount: operation.amount,
    currency: operation.currency,
    status: operation.status,
    status_code: operation.statusCode,
    status_description: operation.statusDescription,
    comment: operation.comment,
    split: splitView(operation.split),
    receipt_url: operation.receiptUrl,
    origin: operation.origin,
    created_at: iso(operation.createdAt),
    settled_at: iso(operation.settledAt),
  };
}

/**
 * A stored webhook, its event as the gateway client reads it — amounts in minor units, like
 * every amount the merchant API shows — with tokens and the like replaced and card data masked
 * (stored so; redacted again here for events kept before it was). One the client cannot read has
 * no such event: its body is shown apart, as it came, so that its decimals are never taken for
 * minor units.
 */
export function eventView(event: StoredEvent): EventView {
  let body: unknown;
  try {
    body = JSON.parse(event.body) as unknown;
  } catch {
    // Data that was not JSON at all, kept as text.
    body = event.body;
  }
  const read = inMinorUnits(body);
  return {
    id: event.id,
    method: event.method,
    status: event.status,
    operation_id: event.operationId,
    outcome: event.outcome,
    received_at: iso(event.receivedAt),
    applied_at: iso(event.appliedAt),
    reviewed_at: iso(event.reviewedAt),
    event: read === undefined ? null : redactForStorage(read),
    ...(read === undefined ? { event_as_sent: redactForStorage(body) } : {}),
  };
}

/** An event's amount in minor units, when it names both the amount and its currency. */
function eventAmount(event: ListedEvent): number | null {
  return event.currency === null ? null : event.amount;
}

/**
 * A stored webhook listed on its own, outside any order: the event's view with what says whose
 * it is — its order and payment ids, the money it names — and when the ledger last tried it.
 */
export function waitingEventView(event: ListedEvent): WaitingEventView {
  return {
    ...eventView(event),
    order_id: event.orderId,
    payment_id: event.paymentId,
    amount: eventAmount(event),
    currency: event.currency,
    tried_at: iso(event.triedAt),
  };
}

export function totalsView(totals: OrderTotals): TotalsView {
  return {
    captured: totals.captured,
    capture_pending: totals.capturePending,
    refunded: totals.refunded,
    refund_pending: totals.refundPending,
    voided: totals.voided,
    refundable: totals.refundable,
    capturable: totals.capturable,
  };
}

/** `totals.capturable` includes the project's over-capture allowance, as the detail's does. */
export function listedOrderView(payment: Payment, totals: OrderTotals): ListedOrderView {
  return { ...paymentView(payment), totals: totalsView(totals) };
}

/**
 * `capturable` here includes the project's over-capture allowance (the ledger's detail does not);
 * `attempts`: the payments of the order's checkout session, in any order; `session`: that
 * session, undefined once it is no longer kept.
 */
export function orderView(detail: OrderDetail, capturable: number, attempts: readonly Payment[], session: Pick<CheckoutSession, 'description' | 'cardId'> | undefined): OrderView {
  return {
    order: paymentView(detail.payment),
    description: session?.description ?? null,
    // A saved-card charge's session is made for that card alone (its 3-D Secure link pays with nothing else).
    source: session ? (session.cardId === null ? 'checkout' : 'saved_card_charge') : null,
    totals: totalsView({ ...detail.totals, capturable }),
    operations: detail.operations.map((operation) => operationView(operation)),
    events: detail.events.map(eventView),
    customer_erased_at: iso(detail.customerErasedAt),
    attempts: attempts
      .map((payment) => ({ order_id: payment.orderId, attempt: payment.attempt, status: payment.status }))
      .sort((a, b) => a.attempt - b.attempt),
  };
}

/** The event as the gateway client reads it, amounts in minor units; undefined when it cannot. */
function inMinorUnits(body: unknown): unknown {
  try {
    return readWebhookEvent(body);
  } catch {
    return undefined;
  }
}
