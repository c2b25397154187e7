/**
 * From what the gateway says (a create answer, an order-state entry, a webhook event, an
 * operation answer) to what the ledger stores. The input is always one of the gateway client's
 * objects, never a wire object: the client has turned every amount into integer minor units of
 * the object's currency, and the types keep a raw wire answer (decimal amounts) out of here.
 * The gateway's shapes are loose — fields may be null, missing or longer than expected — so each
 * value is taken only when it fits the ledger; one odd field never costs the whole update.
 */
import type {
  OperationEvent, Operation as GatewayOperation, OrderOperation, Payment as GatewayPayment, PaymentEvent, WebhookEvent,
} from '@payform/gateway';
import type { GatewayEvent, OperationResult, PaymentStatus, PaymentUpdate, ReportedPayment } from '../../ledger/index.js';
import { brandOfMask } from './card-brand.js';
import { isAllowedRedirect } from './redirects.js';
import { holdsCardNumberOfItsLength } from '@payform/card';
import { maskStoredText, redactForStorage } from '../log/redact.js';
import { MAX_MINOR_UNITS } from '../http/amounts.js';
import { definedFields } from '../optional-fields.js';

/** The client's word on a payment: a create or cancel answer, a primary event, an order entry. */
export type PaymentFacts = GatewayPayment | PaymentEvent | OrderOperation;

/** The client's word on a capture, void or refund: an operation answer or event, an order entry. */
export type OperationFacts = GatewayOperation | OperationEvent | OrderOperation;

/**
 * The fields read here, as every client object has them (`amount` in minor units). Each of the
 * facts types must fit this shape, which the compiler checks where they are read.
 */
interface ReadableFields {
  readonly status: PaymentStatus;
  readonly amount: number;
  readonly currency?: string | null | undefined;
  /** Alternative methods where the payer can change the amount: what was paid, in minor units. */
  readonly processed_amount?: number | null | undefined;
  readonly processed_currency?: string | null | undefined;
  /** What was paid, as the gateway wrote it, when the client could not count it in minor units. */
  readonly processed_amount_as_sent?: unknown;
  readonly status_code?: string | null | undefined;
  readonly status_description?: string | null | undefined;
  readonly payment_id?: string | null | undefined;
  readonly operation_id?: string | null | undefined;
  readonly gateway_order_id?: string | null | undefined;
  readonly billing_order_id?: string | null | undefined;
  readonly transaction_id?: string | null | undefined;
  readonly cc_mask?: string | null | undefined;
  readonly cc_token?: string | null | undefined;
  readonly cc_token_expiration?: string | null | undefined;
  readonly user_action_url?: string | null | undefined;
  readonly receipt_url?: string | null | undefined;
}

function text(value: string | null | undefined, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/** A gateway's status text, which may echo the card number it was given however written. */
function description(value: string | null | undefined): string | undefined {
  const kept = text(value, 2048);
  return kept === undefined ? undefined : maskStoredText(kept);
}

function webUrl(value: string | null | undefined): string | undefined {
  const url = text(value, 2048);
  if (url === undefined) return undefined;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A mask keeps at most the first six and last four digits; anything else is not stored. */
function cardMask(value: string | null | undefined): string | undefined {
  const mask = text(value, 32);
  return mask !== undefined && (mask.match(/\d/g)?.length ?? 0) <= 10 ? mask : undefined;
}

/** Sets `key` on `into` when `value` is defined: optional fields stay absent rather than `undefined`. */
function put<T extends object, K extends keyof T>(into: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) into[key] = value;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The payment's details the gateway reports, without the status, written onto `into` (one
 * object per update: this runs for every webhook and pay answer, and copies cost more than it).
 */
function putPaymentDetails(into: Writable<Omit<PaymentUpdate, 'status' | 'method'>>, facts: ReadableFields, status: PaymentStatus, sandboxOrigin: string | undefined): void {
  const mask = cardMask(facts.cc_mask);
  const actionUrl = text(facts.user_action_url, 2048);
  put(into, 'statusCode', text(facts.status_code, 16));
  put(into, 'statusDescription', description(facts.status_description));
  put(into, 'paymentId', text(facts.payment_id, 64));
  put(into, 'gatewayOrderId', text(facts.gateway_order_id, 256));
  put(into, 'billingOrderId', text(facts.billing_order_id, 256));
  put(into, 'transactionId', text(facts.transaction_id, 64));
  put(into, 'ccMask', mask);
  put(into, 'cardBrand', mask === undefined ? undefined : brandOfMask(mask));
  put(into, 'ccToken', text(facts.cc_token, 512));
  put(into, 'ccTokenExpiration', text(facts.cc_token_expiration, 64));
  // Only an address the browser may be sent to is kept: the widget follows it.
  put(into, 'userActionUrl', status === 'pending' && isAllowedRedirect(actionUrl, sandboxOrigin) ? actionUrl : undefined);
  put(into, 'receiptUrl', webUrl(facts.receipt_url));
}

/**
 * What the gateway says the payment is — its amount and currency — so that the ledger applies
 * the facts only to the payment they describe, never to another one under the same order id;
 * written onto `into`.
 */
function putReported(into: Writable<Omit<ReportedPayment, 'method'>>, facts: ReadableFields): void {
  const paid = facts.processed_amount;
  // An amount that cannot be read (zero, negative, too long) is a figure too: never the order's.
  into.amount = minorUnits(facts.amount) ?? 0;
  put(into, 'currency', text(facts.currency, 3));
  // Nothing (or nothing readable) paid is a figure too: never the order's amount. So is a sum the
  // client kept as sent (finer than minor units, or in a unit no currency code names).
  if (paid != null || facts.processed_amount_as_sent != null) {
    into.paidAmount = (paid == null ? undefined : minorUnits(paid)) ?? 0;
    put(into, 'paidCurrency', currencyCode(facts.processed_currency) ?? text(facts.currency, 3));
  }
}

/** A currency code as the ledger takes it; another unit (`USDT`, `xbt`) is left to the payment's. */
const currencyCode = (value: string | null | undefined): string | undefined => (value && /^[A-Z]{3}$/.test(value) ? value : undefined);

/** The ledger update for a payment the gateway describes. */
export function paymentUpdate(payment: PaymentFacts, sandboxOrigin: string | undefined): PaymentUpdate {
  const facts: ReadableFields = payment;
  const update: Writable<PaymentUpdate> = { status: facts.status };
  putPaymentDetails(update, facts, facts.status, sandboxOrigin);
  putReported(update, facts);
  return update;
}

/** The ledger settlement of a capture, void or refund the gateway describes. */
export function operationResult(operation: OperationFacts): OperationResult {
  const facts: ReadableFields = operation;
  return definedFields({
    // A secondary operation has no `init`: not final yet is pending.
    status: facts.status === 'success' || facts.status === 'failure' ? facts.status : 'pending',
    operationId: text(facts.operation_id, 64),
    // A refund's receipt is fetched by its transaction.
    transactionId: text(facts.transaction_id, 64),
    amount: minorUnits(facts.amount),
    statusCode: text(facts.status_code, 16),
    statusDescription: description(facts.status_description),
    receiptUrl: webUrl(facts.receipt_url),
  });
}

/**
 * An amount the ledger can hold and show again: a positive whole number of minor units of at
 * most fifteen digits. A larger one the client could still read would break every view of it.
 */
function minorUnits(amount: number): number | undefined {
  return Number.isSafeInteger(amount) && amount > 0 && amount <= MAX_MINOR_UNITS ? amount : undefined;
}

function isOperationEvent(event: WebhookEvent): event is OperationEvent {
  return event.method === 'capture' || event.method === 'void' || event.method === 'refund';
}

/**
 * A verified, decoded webhook as the ledger ingests it. `data` is the form field as received;
 * `body`, its stored form (storedBody of the JSON it carries), when the caller has it already.
 */
export function gatewayEvent(data: string, event: WebhookEvent, sandboxOrigin: string | undefined, body = storableBody(data)): GatewayEvent {
  const common = { data, body, method: event.method, status: event.status, orderId: storedOrderId(event.order_id) };
  if (isOperationEvent(event)) {
    const { status: _, ...result } = operationResult(event);
    const currency = text(event.currency, 3);
    // An event names its amount: one that cannot be read is kept as 0, which the ledger never records.
    return definedFields({ ...common, ...result, amount: result.amount ?? 0, currency, paymentId: text(event.payment_id, 64) });
  }
  const facts: ReadableFields = event;
  const payment: Writable<GatewayEvent> = common;
  putPaymentDetails(payment, facts, facts.status, sandboxOrigin);
  putReported(payment, facts);
  return payment;
}

/**
 * An event's order id as the ledger keeps, lists and matches it. One holding a card number, by
 * the rule a session's order id is refused by, names no order of this companion's: it would be
 * stored and shown whole, so it is kept masked, and stays unmatched as it would anyway.
 */
function storedOrderId(orderId: string): string {
  const kept = orderId.slice(0, 256);
  return holdsCardNumberOfItsLength(kept) ? maskStoredText(kept) : kept;
}

/**
 * A signed post the gateway client could not read as an event (an amount of 1e-9, a field of
 * the wrong type, no JSON at all), as the ledger keeps it: whatever names the order, the method
 * and the status read loosely, the rest only in the stored body. Never applied; it flags its
 * order's payment (GatewayEvent.unreadable).
 */
export function unreadableEvent(data: string): GatewayEvent {
  // Data that decodes to nothing (not base64url) is kept as it was sent: the ledger keeps no empty body.
  const body = storableBody(data) || (maskStoredText(data.slice(0, MAX_UNDECODED)) as string) || UNNAMED;
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: nothing names an order.
  }
  // Empty names nothing, as absent does.
  const loose = (value: unknown, max: number) => (typeof value === 'string' && value !== '' ? text(value.replaceAll('\0', '\uFFFD').slice(0, max), max) : undefined);
  // A method or status that is not one may be anything the sender put there: stored masked.
  const named = (value: unknown) => {
    const kept = loose(value, 32);
    return kept === undefined ? undefined : maskStoredText(kept);
  };
  return {
    data,
    body,
    method: named(fields.method) ?? UNNAMED,
    status: named(fields.status) ?? UNNAMED,
    orderId: storedOrderId(loose(fields.order_id, 256) ?? UNNAMED),
    unreadable: true,
  };
}

/** What an unreadable post's order id, method or status is stored as when it names none: no order id can be it. */
const UNNAMED = '?';
/** How much of data that is not base64url is kept: enough to see what came, bounded as a body is. */
const MAX_UNDECODED = 64 * 1024;

/**
 * The event as the gateway sent it, as the ledger keeps and the merchant API shows it: tokens and
 * the like under their keys replaced, card numbers in keys and values masked — a gateway may echo
 * what it was given, in a description as anywhere — and its ids and phones kept for the audit.
 * What the ledger acts on is read from the event itself.
 */
function storableBody(data: string): string {
  const text = Buffer.from(data, 'base64url').toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return redactForStorage(text) as string;
  }
  return storedBody(json);
}

/** The stored form of an event's JSON, as parsed from its `data` (storableBody); the JSON is not changed. */
export function storedBody(json: unknown): string {
  return JSON.stringify(redactForStorage(json));
}
