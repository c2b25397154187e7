/**
 * From what the gateway says (a create answer, an order-state entry, a webhook event, an
 * operation answer) to what the ledger stores. The gateway's shapes are loose — fields may be
 * null, missing or longer than expected — so each value is taken only when it fits the ledger;
 * one odd field never costs the whole update.
 */
import type { GatewayEvent, OperationResult, PaymentStatus, PaymentUpdate } from '../../ledger/index.js';
import { brandOfMask } from './card-brand.js';
import { isAllowedRedirect } from './redirects.js';
import { definedFields } from '../optional-fields.js';

/** Any gateway object about a payment or operation: fields by their wire names. */
export type GatewayFacts = Readonly<Record<string, unknown>> & { readonly status: string };

const PAYMENT_STATUSES: readonly string[] = ['init', 'pending', 'success', 'failure'];

function text(facts: GatewayFacts, field: string, max: number): string | undefined {
  const value = facts[field];
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

function webUrl(facts: GatewayFacts, field: string): string | undefined {
  const value = text(facts, field, 2048);
  if (value === undefined) return undefined;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A mask keeps at most the first six and last four digits; anything else is not stored. */
function cardMask(facts: GatewayFacts): string | undefined {
  const mask = text(facts, 'cc_mask', 32);
  return mask !== undefined && (mask.match(/\d/g)?.length ?? 0) <= 10 ? mask : undefined;
}


export function isPaymentStatus(status: string): status is PaymentStatus {
  return PAYMENT_STATUSES.includes(status);
}

/** The ledger update for a payment the gateway describes. `status` must be a payment status. */
export function paymentUpdate(facts: GatewayFacts & { readonly status: PaymentStatus }, sandboxOrigin: string | undefined): PaymentUpdate {
  const mask = cardMask(facts);
  const actionUrl = text(facts, 'user_action_url', 2048);
  return definedFields({
    status: facts.status,
    statusCode: text(facts, 'status_code', 16),
    statusDescription: text(facts, 'status_description', 2048),
    paymentId: text(facts, 'payment_id', 64),
    gatewayOrderId: text(facts, 'gateway_order_id', 256),
    billingOrderId: text(facts, 'billing_order_id', 256),
    transactionId: text(facts, 'transaction_id', 64),
    ccMask: mask,
    cardBrand: mask === undefined ? undefined : brandOfMask(mask),
    ccToken: text(facts, 'cc_token', 512),
    ccTokenExpiration: text(facts, 'cc_token_expiration', 64),
    // Only an address the browser may be sent to is kept: the widget follows it.
    userActionUrl: facts.status === 'pending' && isAllowedRedirect(actionUrl, sandboxOrigin) ? actionUrl : undefined,
    receiptUrl: webUrl(facts, 'receipt_url'),
  });
}

/** The ledger settlement of a capture, void or refund the gateway describes. */
export function operationResult(facts: GatewayFacts): OperationResult {
  const amount = facts.amount;
  return definedFields({
    // A secondary operation has no `init`: not final yet is pending.
    status: facts.status === 'success' || facts.status === 'failure' ? facts.status : 'pending',
    operationId: text(facts, 'operation_id', 64),
    amount: typeof amount === 'number' && Number.isSafeInteger(amount) && amount > 0 ? amount : undefined,
    statusCode: text(facts, 'status_code', 16),
    statusDescription: text(facts, 'status_description', 2048),
    receiptUrl: webUrl(facts, 'receipt_url'),
  });
}

/** A verified, decoded webhook as the ledger ingests it. `data` is the form field as received. */
export function gatewayEvent(data: string, event: GatewayFacts, sandboxOrigin: string | undefined): GatewayEvent {
  const body = Buffer.from(data, 'base64url').toString('utf8');
  const method = String(event.method);
  const orderId = String(event.order_id);
  const secondary = method === 'capture' || method === 'void' || method === 'refund';
  const details = secondary
    ? definedFields({
        statusCode: text(event, 'status_code', 16),
        statusDescription: text(event, 'status_description', 2048),
        paymentId: text(event, 'payment_id', 64),
        transactionId: text(event, 'transaction_id', 64),
        receiptUrl: webUrl(event, 'receipt_url'),
      })
    : isPaymentStatus(event.status)
      ? (({ status: _, ...rest }) => rest)(paymentUpdate({ ...event, status: event.status }, sandboxOrigin))
      : {};
  const { amount, operationId } = secondary ? operationResult(event) : { amount: undefined, operationId: undefined };
  return definedFields({
    data,
    body,
    method: method.slice(0, 32),
    status: String(event.status).slice(0, 32),
    orderId: orderId.slice(0, 256),
    operationId,
    amount,
    ...details,
  });
}
