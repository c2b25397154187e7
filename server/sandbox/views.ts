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

function statusFields(state: StatusState) {
  return {
    status: state.status,
    status_code: state.statusCode,
    status_description: state.statusDescription ?? (state.statusCode ? statusCodeInfo[state.statusCode].description : null),
  };
}

function money(amount: MinorUnits, currency: string) {
  return { amount: toWireAmount(amount, currency), currency };
}

function feeFields(fees: Fees | null, currency: string) {
  return fees
    ? {
        fee: money(totalFee(fees), currency),
        fixed_fee: money(fees.fixed, currency),
        percent_fee: money(fees.percent, currency),
      }
    : { fee: null, fixed_fee: null, percent_fee: null };
}

/** A receipt exists for successful purchases, auths and credits. */
function paymentReceiptUrl(payment: Payment): string | null {
  const receipted = payment.status === 'success' && payment.method !== 'lookup';
  return receipted ? links.receipt(payment.baseUrl, payment.receiptKey) : null;
}

function userAction(payment: Payment) {
  const waiting = payment.status === 'pending';
  if (waiting && payment.challengeId) return { user_action_required: true, user_action_url: links.challenge(payment) };
  // A direct lookup sent without card data continues on the gateway's card form.
  if (waiting && payment.mode === 'direct' && payment.checkoutId) return { user_action_required: true, user_action_url: links.checkout(payment) };
  return { user_action_required: false, user_action_url: null };
}

function identity(payment: Payment) {
  return {
    payment_id: payment.id,
    order_id: payment.orderId,
    gateway_order_id: payment.gatewayOrderId,
    billing_order_id: payment.billingOrderId,
    transaction_id: payment.transactionId,
    pos_id: payment.posId,
    mode: payment.mode,
    method: payment.method,
  };
}

function cardFields(payment: Payment) {
  return {
    eci: payment.eci,
    cc_mask: payment.card?.mask ?? null,
    cc_token: payment.token?.value ?? null,
    cc_token_expiration: payment.token?.expiration ?? null,
  };
}

function customer(payment: Payment) {
  const details = payment.details;
  return {
    customer_id: details.customer_id ?? null,
    customer_ip: details.customer_ip ?? null,
    customer_fname: details.customer_fname ?? null,
    customer_lname: details.customer_lname ?? null,
    customer_email: details.customer_email ?? null,
    customer_phone: details.customer_phone ?? null,
    customer_country: details.customer_country ?? null,
  };
}

/** The payment response object in the shape of one endpoint. */
export function paymentView(payment: Payment, shape: PaymentShape): PaymentResponse {
  const details = payment.details;
  const updated = formatTimestamp(payment.processedAt);
  const created = formatTimestamp(payment.createdAt);
  if (shape === 'cancel') {
    const { gateway_order_id: _g, billing_order_id: _b, ...ids } = identity(payment);
    return {
      ...ids,
      ...money(payment.amount, payment.currency),
      description: payment.description,
      ...statusFields(payment),
      user_action_required: false,
      user_action_url: null,
      ...customer(payment),
      customer_patronym: details.customer_patronym ?? null,
      customer_birthday: details.customer_birthday ?? null,
      // The interface lists customer_city in cancel answers, but no request can set it.
      customer_city: null,
      result_url: details.result_url ?? null,
      created_at: created,
      processed_at: updated,
      payload: details.payload ?? null,
    };
  }
  const common = {
    ...identity(payment),
    ...money(payment.amount, payment.currency),
    description: payment.description,
    ...statusFields(payment),
    ...userAction(payment),
    ...cardFields(payment),
    mcc: details.merchant_mcc ?? null,
    options_3ds: 'supported',
    ...customer(payment),
    customer_patronym: details.customer_patronym ?? null,
    customer_birthday: details.customer_birthday ?? null,
    result_url: details.result_url ?? null,
    created_at: created,
    payload: details.payload ?? null,
  };
  if (shape === 'lookup') return { ...common, processed_at: updated };
  const charged = {
    ...common,
    ...feeFields(payment.fees, payment.currency),
    bank_short_name: BANK_SHORT_NAME,
    receipt_url: paymentReceiptUrl(payment),
  };
  // The two-step direct answer, the split purchase answer and order-state reads say processing_time.
  const renamed = shape === 'split' || shape === 'entry' || (shape === 'direct' && payment.method === 'auth');
  return renamed ? { ...charged, processing_time: updated } : { ...charged, processed_at: updated };
}

/** The create answer of a direct payment: which shape its endpoint uses. */
export function createdPaymentView(payment: Payment): PaymentResponse {
  if (payment.method === 'lookup') return paymentView(payment, 'lookup');
  return paymentView(payment, payment.endpoint === 'split' ? 'split' : 'direct');
}

/** A webhook's event for a primary payment (purchase, auth, lookup, credit). */
export function paymentEvent(payment: Payment, recurring?: Recurring): PaymentEvent {
  return {
    ...identity(payment),
    ...money(payment.amount, payment.currency),
    payway: payment.card?.payway ?? null,
    eci: payment.eci,
    ...statusFields(payment),
    cc_mask: payment.card?.mask ?? null,
    cc_token: payment.token?.value ?? null,
    cc_token_expiration: payment.token?.expiration ?? null,
    customer_id: payment.details.customer_id ?? null,
    customer_phone: payment.details.customer_phone ?? null,
    ...feeFields(payment.fees, payment.currency),
    created_at: formatTimestamp(payment.createdAt),
    processed_at: formatTimestamp(payment.processedAt),
    payload: payment.details.payload ?? null,
    receipt_url: paymentReceiptUrl(payment),
    ...(recurring ? { recurring: { id: recurring.id, status: recurring.status } } : {}),
  };
}

/** One transaction of a recurring payment, seen as the payment it repeats. */
export function chargeAsPayment(payment: Payment, charge: RecurringCharge): Payment {
  return {
    ...payment,
    transactionId: charge.transactionId,
    amount: charge.amount,
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

function operationBase(operation: Operation) {
  const payment = operation.payment;
  return {
    operation_id: operation.id,
    payment_id: payment.id,
    order_id: payment.orderId,
    transaction_id: operation.transactionId,
    pos_id: payment.posId,
    mode: 'direct' as const,
    method: operation.method,
    amount: toWireAmount(operation.amount, operation.currency),
    ...statusFields(operation),
    created_at: formatTimestamp(operation.createdAt),
    fee: operation.fees ? money(totalFee(operation.fees), operation.currency) : null,
  };
}

function operationReceiptUrl(operation: Operation): string | null {
  return operation.method === 'refund' && operation.status === 'success'
    ? links.receipt(operation.payment.baseUrl, operation.receiptKey)
    : null;
}

/** The secondary operation object of a capture, void or refund answer (or order-state read). */
export function operationView(operation: Operation, shape: OperationShape): OperationResponse & OrderOperationResponse {
  const updated = formatTimestamp(operation.processedAt);
  const base = { ...operationBase(operation), comment: operation.comment ?? null };
  const isRefund = operation.method === 'refund';
  const refundExtras = isRefund ? { receipt_url: operationReceiptUrl(operation) } : {};
  if (shape === 'entry') {
    return { ...base, currency: operation.currency, processing_time: updated, ...refundExtras };
  }
  // The full-capture answer names the currency order_currency.
  const currency =
    operation.request === 'capture' && operation.full ? { order_currency: operation.currency } : { currency: operation.currency };
  // The full and partial refund answers name the update time processed_at.
  const time = operation.request === 'refund' ? { processed_at: updated } : { processing_time: updated };
  const splitFee = operation.request === 'split_refund' ? { split_fee: splitFeeView(operation) } : {};
  return { ...base, ...currency, ...time, ...refundExtras, ...splitFee };
}

/** A webhook's event for a capture, void or refund. */
export function operationEvent(operation: Operation): OperationEvent {
  return {
    ...operationBase(operation),
    currency: operation.currency,
    processed_at: formatTimestamp(operation.processedAt),
    ...(operation.method === 'refund' ? { receipt_url: operationReceiptUrl(operation) } : {}),
  };
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
      ...money(share.fee ?? 0, currency),
    })),
  };
}
