/**
 * Payments and operations as the gateway puts them on the wire: which fields each endpoint,
 * webhook and order-state read carries, with the interface's quirks — `processing_time` for
 * `processed_at` in the two-step direct, split purchase and most secondary responses,
 * `order_currency` in the full-capture response, the reduced cancel object. The types are the
 * shared wire schemas', so a misspelt field does not compile.
 */
import { toWireAmount } from '@payform/gateway/wire';
import type { MinorUnits } from './state/amounts.js';
import type { OperationEvent, PaymentEvent, OperationResponse, OrderOperationResponse, PaymentResponse } from '@payform/gateway/wire';
import { formatTimestamp, statusCodeInfo } from '@payform/gateway/wire';
import type { Fees, Operation, Payment, RecurringCharge, Recurring, StatusState } from './state/records.js';
import { totalFee } from './state/fees.js';

/** Where the sandbox is reachable, for the links it hands out. */
export const links = {
  challenge: (payment: Payment) => `${payment.baseUrl}/3ds/${payment.challengeId ?? ''}`,
  checkout: (payment: Payment) => `${payment.baseUrl}/api/v1/checkout/${payment.checkoutId ?? ''}/form`,
  receipt: (baseUrl: string, receiptKey: string) => `${baseUrl}/receipts/${receiptKey}`,
};

const BANK_SHORT_NAME = 'Sandbox Bank';

/** Which response a payment object is for. */
export type PaymentShape =
  /** Direct purchase or auth create (and a charge's re-send). */
  | 'direct'
  /** Direct split purchase. */
  | 'split'
  | 'lookup'
  | 'cancel'
  /** An order-state read. */
  | 'entry';

// Each view is one object literal, its shape's fields assigned after it in wire order: on Node 20
// spreading a few small objects into one costs tens of microseconds a view (a literal, well
// under one), and a payment's answer and its webhook are built on every payment.

function statusDescription(state: StatusState): string | null {
  return state.statusDescription ?? (state.statusCode ? statusCodeInfo[state.statusCode].description : null);
}

function money(amount: MinorUnits, currency: string) {
  return { amount: toWireAmount(amount, currency), currency };
}

/** fee (the total), fixed_fee or percent_fee: null before the commission is known, and where none is charged (an auth: its capture is). */
function feePart(fees: Fees | null, part: 'total' | 'fixed' | 'percent', currency: string) {
  if (!fees) return null;
  return money(part === 'total' ? totalFee(fees) : fees[part], currency);
}

/** A receipt exists for successful purchases, auths and credits. */
function paymentReceiptUrl(payment: Payment): string | null {
  const receipted = payment.status === 'success' && payment.method !== 'lookup';
  return receipted ? links.receipt(payment.baseUrl, payment.receiptKey) : null;
}

/** Where the payer continues: a 3-D Secure challenge, or the card form of a direct lookup sent without card data. */
function userActionUrl(payment: Payment): string | null {
  if (payment.status !== 'pending') return null;
  if (payment.challengeId) return links.challenge(payment);
  if (payment.mode === 'direct' && payment.checkoutId) return links.checkout(payment);
  return null;
}

/** The payment response object in the shape of one endpoint. */
export function paymentView(payment: Payment, shape: PaymentShape): PaymentResponse {
  if (shape === 'cancel') return cancelledView(payment);
  const details = payment.details;
  const actionUrl = userActionUrl(payment);
  const view: PaymentResponse = {
    payment_id: payment.id,
    order_id: payment.orderId,
    gateway_order_id: payment.gatewayOrderId,
    billing_order_id: payment.billingOrderId,
    transaction_id: payment.transactionId,
    pos_id: payment.posId,
    mode: payment.mode,
    method: payment.method,
    amount: toWireAmount(payment.amount, payment.currency),
    currency: payment.currency,
    description: payment.description,
    status: payment.status,
    status_code: payment.statusCode,
    status_description: statusDescription(payment),
    user_action_required: actionUrl !== null,
    user_action_url: actionUrl,
    eci: payment.eci,
    cc_mask: payment.card?.mask ?? null,
    cc_token: payment.token?.value ?? null,
    cc_token_expiration: payment.token?.expiration ?? null,
    mcc: details.merchant_mcc ?? null,
    options_3ds: 'supported',
    customer_id: details.customer_id ?? null,
    customer_ip: details.customer_ip ?? null,
    customer_fname: details.customer_fname ?? null,
    customer_lname: details.customer_lname ?? null,
    customer_email: details.customer_email ?? null,
    customer_phone: details.customer_phone ?? null,
    customer_country: details.customer_country ?? null,
    customer_patronym: details.customer_patronym ?? null,
    customer_birthday: details.customer_birthday ?? null,
    result_url: details.result_url ?? null,
    created_at: formatTimestamp(payment.createdAt),
    payload: details.payload ?? null,
  };
  const updated = formatTimestamp(payment.processedAt);
  if (shape === 'lookup') {
    view.processed_at = updated;
    return view;
  }
  view.fee = feePart(payment.fees, 'total', payment.currency);
  view.fixed_fee = feePart(payment.fees, 'fixed', payment.currency);
  view.percent_fee = feePart(payment.fees, 'percent', payment.currency);
  view.bank_short_name = BANK_SHORT_NAME;
  view.receipt_url = paymentReceiptUrl(payment);
  // The two-step direct answer, the split purchase answer and order-state reads say processing_time.
  const renamed = shape === 'split' || shape === 'entry' || (shape === 'direct' && payment.method === 'auth');
  if (renamed) view.processing_time = updated;
  else view.processed_at = updated;
  return view;
}

/** The reduced payment object of a cancel answer. */
function cancelledView(payment: Payment): PaymentResponse {
  const details = payment.details;
  return {
    payment_id: payment.id,
    order_id: payment.orderId,
    transaction_id: payment.transactionId,
    pos_id: payment.posId,
    mode: payment.mode,
    method: payment.method,
    amount: toWireAmount(payment.amount, payment.currency),
    currency: payment.currency,
    description: payment.description,
    status: payment.status,
    status_code: payment.statusCode,
    status_description: statusDescription(payment),
    user_action_required: false,
    user_action_url: null,
    customer_id: details.customer_id ?? null,
    customer_ip: details.customer_ip ?? null,
    customer_fname: details.customer_fname ?? null,
    customer_lname: details.customer_lname ?? null,
    customer_email: details.customer_email ?? null,
    customer_phone: details.customer_phone ?? null,
    customer_country: details.customer_country ?? null,
    customer_patronym: details.customer_patronym ?? null,
    customer_birthday: details.customer_birthday ?? null,
    // The interface lists customer_city in cancel answers, but no request can set it.
    customer_city: null,
    result_url: details.result_url ?? null,
    created_at: formatTimestamp(payment.createdAt),
    processed_at: formatTimestamp(payment.processedAt),
    payload: details.payload ?? null,
  };
}

/** The create answer of a direct payment: which shape its endpoint uses. */
export function createdPaymentView(payment: Payment): PaymentResponse {
  if (payment.method === 'lookup') return paymentView(payment, 'lookup');
  return paymentView(payment, payment.endpoint === 'split' ? 'split' : 'direct');
}

/** A webhook's event for a primary payment (purchase, auth, lookup, credit). */
export function paymentEvent(payment: Payment, recurring?: Recurring): PaymentEvent {
  const event: PaymentEvent = {
    payment_id: payment.id,
    order_id: payment.orderId,
    gateway_order_id: payment.gatewayOrderId,
    billing_order_id: payment.billingOrderId,
    transaction_id: payment.transactionId,
    pos_id: payment.posId,
    mode: payment.mode,
    method: payment.method,
    amount: toWireAmount(payment.amount, payment.currency),
    currency: payment.currency,
    payway: payment.card?.payway ?? null,
    eci: payment.eci,
    status: payment.status,
    status_code: payment.statusCode,
    status_description: statusDescription(payment),
    cc_mask: payment.card?.mask ?? null,
    cc_token: payment.token?.value ?? null,
    cc_token_expiration: payment.token?.expiration ?? null,
    customer_id: payment.details.customer_id ?? null,
    customer_phone: payment.details.customer_phone ?? null,
    fee: feePart(payment.fees, 'total', payment.currency),
    fixed_fee: feePart(payment.fees, 'fixed', payment.currency),
    percent_fee: feePart(payment.fees, 'percent', payment.currency),
    created_at: formatTimestamp(payment.createdAt),
    processed_at: formatTimestamp(payment.processedAt),
    payload: payment.details.payload ?? null,
    receipt_url: paymentReceiptUrl(payment),
  };
  if (recurring) event.recurring = { id: recurring.id, status: recurring.status };
  return event;
}

/** One transaction of a recurring payment, seen as the payment it repeats. */
export function chargeAsPayment(payment: Payment, charge: RecurringCharge): Payment {
  return {
    ...payment,
    transactionId: charge.transactionId,
    amount: charge.amount,
    fees: charge.fees,
    createdAt: charge.createdAt,
    processedAt: charge.createdAt,
    receiptKey: charge.receiptKey,
    approvalCode: charge.approvalCode,
    rrn: charge.rrn,
    status: 'success',
    statusCode: '1000',
    statusDescription: undefined,
  };
}

export type OperationShape = 'response' | 'entry';

type OperationObject = OperationResponse & OrderOperationResponse;

function operationBase(operation: Operation): OperationObject {
  const payment = operation.payment;
  return {
    operation_id: operation.id,
    payment_id: payment.id,
    order_id: payment.orderId,
    transaction_id: operation.transactionId,
    pos_id: payment.posId,
    mode: 'direct',
    method: operation.method,
    amount: toWireAmount(operation.amount, operation.currency),
    status: operation.status,
    status_code: operation.statusCode,
    status_description: statusDescription(operation),
    created_at: formatTimestamp(operation.createdAt),
    fee: feePart(operation.fees, 'total', operation.currency),
  };
}

function operationReceiptUrl(operation: Operation): string | null {
  return operation.method === 'refund' && operation.status === 'success'
    ? links.receipt(operation.payment.baseUrl, operation.receiptKey)
    : null;
}

/** The secondary operation object of a capture, void or refund answer (or order-state read). */
export function operationView(operation: Operation, shape: OperationShape): OperationObject {
  const view = operationBase(operation);
  view.comment = operation.comment ?? null;
  const updated = formatTimestamp(operation.processedAt);
  if (shape === 'entry') {
    view.currency = operation.currency;
    view.processing_time = updated;
  } else {
    // The full-capture answer names the currency order_currency, through either endpoint.
    if ((operation.request === 'capture' || operation.request === 'split_capture') && operation.full) view.order_currency = operation.currency;
    else view.currency = operation.currency;
    // The full and partial refund answers name the update time processed_at.
    if (operation.request === 'refund') view.processed_at = updated;
    else view.processing_time = updated;
  }
  if (operation.method === 'refund') view.receipt_url = operationReceiptUrl(operation);
  if (shape === 'response' && operation.request === 'split_refund') view.split_fee = splitFeeView(operation);
  return view;
}

/** A webhook's event for a capture, void or refund. */
export function operationEvent(operation: Operation): OperationEvent {
  const event: OperationEvent = operationBase(operation);
  event.currency = operation.currency;
  event.processed_at = formatTimestamp(operation.processedAt);
  if (operation.method === 'refund') event.receipt_url = operationReceiptUrl(operation);
  return event;
}

/**
 * split_fee of a split refund (its shape is not shown): the marketplace's fixed part and each
 * sub-merchant's percentage part, adding up to `fee`.
 */
function splitFeeView(operation: Operation) {
  const currency = operation.currency;
  const fees = operation.fees ?? { fixed: 0, percent: 0 };
  return {
    marketplace: money(fees.fixed, currency),
    sub_merchants: (operation.split ?? []).map((share) => ({
      sub_merchant_id: share.subMerchantId,
      amount: toWireAmount(share.fee ?? 0, currency),
      currency,
    })),
  };
}
