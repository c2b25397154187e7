/**
 * The objects the client hands out: wire objects with every amount in integer minor units and
 * the interface's naming quirks resolved — `processed_at` whichever way the gateway spelt it
 * (`processing_time`), `currency` even where the full capture said `order_currency`,
 * `rolling_reserve` for `rollingReserve`, `status_code` always a string or null, card data
 * masked in `status_description`. Fields the client does not know are kept as they came.
 */
import { maskCardData } from './errors.js';
import { currencyRefusal } from './money.js';
import type { MinorUnits } from './money.js';
import { fromWireAmount } from './wire/decimals.js';
import type { WireAmount } from './wire/decimals.js';
import type * as wire from './wire/index.js';

export interface Fee {
  readonly amount: MinorUnits;
  readonly currency: string;
  readonly [field: string]: unknown;
}

/** The fields normalised on every payment, operation and event. */
interface Normalised {
  amount: MinorUnits;
  currency: string;
  processed_amount?: MinorUnits | null;
  /** Upper case when `processed_amount` is read in minor units of it ('uah' is UAH); else as sent. */
  processed_currency?: string | null;
  fee?: Fee | null;
  fixed_fee?: Fee | null;
  percent_fee?: Fee | null;
  /**
   * Instead of `processed_amount`, when it is in no ISO 4217 currency payform knows (the interface
   * types `processed_currency` a String, not a CURRENCY: an alternative method may pay in another
   * unit) or is finer than that currency's minor unit: as the gateway sent it.
   */
  processed_amount_as_sent?: WireAmount;
  /**
   * Instead of a fee, when its amount is finer than its currency's minor unit (the interface
   * states no precision for fees: a percentage of 10.10 UAH may be 0.1515): as the gateway sent it.
   */
  fee_as_sent?: wire.WireFee;
  fixed_fee_as_sent?: wire.WireFee;
  percent_fee_as_sent?: wire.WireFee;
  /** Digit string, e.g. "1000"; null when the gateway sent none. */
  status_code: string | null;
  /** Last update time, from `processed_at` or `processing_time`. */
  processed_at: string | null;
  /** The gateway's words, kept and shown to the merchant: card data masked in case it quotes any. */
  status_description?: string | null;
  /** Split refunds: its shape is not shown; each fee in it (`{ amount, currency }`) in minor units. */
  split_fee?: unknown;
  /** Instead of `split_fee`, when an amount in it is not one of its currency: as the gateway sent it. */
  split_fee_as_sent?: unknown;
}

/** Named fields of a wire type, without the index signature of a loose object. */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type View<W> = Omit<Known<W>, keyof Normalised | 'processing_time' | 'order_currency'> & Normalised;

export type Payment = View<wire.PaymentResponse>;
export type Operation = View<wire.OperationResponse>;
export type OrderOperation = View<wire.OrderOperationResponse>;
export type PaymentEvent = View<wire.PaymentEvent>;
export type OperationEvent = View<wire.OperationEvent>;
export type WebhookEvent = PaymentEvent | OperationEvent;

interface WireMoneyFields {
  amount: WireAmount;
  currency?: string | undefined;
  order_currency?: string | undefined;
  processed_amount?: WireAmount | null | undefined;
  processed_currency?: string | null | undefined;
  fee?: wire.WireFee;
  fixed_fee?: wire.WireFee;
  percent_fee?: wire.WireFee;
  status_code?: string | number | null | undefined;
  processed_at?: string | null | undefined;
  processing_time?: string | null | undefined;
  status_description?: string | null | undefined;
  split_fee?: unknown;
}

/**
 * Converts one payment, operation or order entry. `currency` is the one its amounts are in
 * (the object's own, or the order's when an order-state entry names none). Throws RangeError
 * when its amount is finer than the currency's minor unit; a fee or processed_amount that is
 * comes as sent instead (`fee_as_sent` …), so that the payment's outcome is still read.
 */
function normalise<W extends WireMoneyFields>(object: W, currency: string): View<W> {
  const { processing_time, processed_amount: wirePaid } = object;
  // The fields besides the money ones, in their order, then each money field converted (or kept
  // under its `_as_sent` name) where the fields had it or after them: what `{ ...rest,
  // ...converted }` of the fields without the money ones makes, written into one object. On
  // Node 20 that rest and spread — a spread then given keys it lacked, the fees — cost about
  // 8 µs a webhook event, this copy about 1.5 (a dictionary-mode object: its few reads are cheap).
  const view = ownFieldsExcept(object, MONEY_FIELDS) as Normalised & Record<string, unknown>;
  view.amount = fromWireAmount(object.amount, currency);
  view.currency = currency;
  view.status_code = object.status_code == null ? null : String(object.status_code);
  view.processed_at = object.processed_at ?? processing_time ?? null;
  if (object.status_description != null) view.status_description = maskCardData(object.status_description);
  if (wirePaid === null) view.processed_amount = null;
  else if (wirePaid !== undefined) readProcessedAmount(view, wirePaid, object.processed_currency, currency);
  for (const key of FEE_FIELDS) {
    const fee = object[key];
    if (fee === null) view[key] = null;
    else if (fee !== undefined) readFee(view, key, fee, currency);
  }
  if (object.split_fee != null) {
    try {
      view.split_fee = splitFee(object.split_fee, currency);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // Its shape is not promised: one it cannot read in minor units leaves the rest readable.
      delete view.split_fee;
      view.split_fee_as_sent = object.split_fee;
    }
  }
  // TypeScript cannot follow Omit over a generic W; the object is exactly View<W>.
  return view as unknown as View<W>;
}

/** The wire fields `normalise` converts or drops: they leave the copy and come back converted. */
const MONEY_FIELDS: ReadonlySet<PropertyKey> = new Set(['processing_time', 'order_currency', 'processed_amount', 'fee', 'fixed_fee', 'percent_fee']);

/**
 * A plain copy of `object`'s own enumerable properties but `except`'s, as object rest would
 * make it (`const { a, ...rest } = object`): in their order, symbols after strings, a
 * `__proto__` key copied as a key.
 */
function ownFieldsExcept(object: object, except: ReadonlySet<PropertyKey>): Record<PropertyKey, unknown> {
  const copy: Record<PropertyKey, unknown> = {};
  const source = object as Record<PropertyKey, unknown>;
  for (const key of Object.keys(object)) {
    if (except.has(key)) continue;
    if (key === '__proto__') defineField(copy, key, source[key]);
    else copy[key] = source[key];
  }
  for (const symbol of Object.getOwnPropertySymbols(object)) {
    if (!except.has(symbol) && Object.prototype.propertyIsEnumerable.call(object, symbol)) copy[symbol] = source[symbol];
  }
  return copy;
}

function defineField(into: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `processed_amount` in minor units of its currency, or kept as sent: it tells what the payer of
 * an alternative method paid, and one that payform cannot count in minor units must not make the
 * whole payment or webhook unreadable.
 */
function readProcessedAmount(into: Normalised, amount: WireAmount, named: string | null | undefined, currency: string): void {
  // A String in the interface: none named (or empty) is the payment's; 'uah' is UAH, and said so,
  // as every currency of the client's objects — a receiver comparing it with `currency` sees one.
  const code = (named || currency).toUpperCase();
  if (currencyRefusal(code) === undefined) {
    try {
      into.processed_amount = fromWireAmount(amount, code);
      if (named) into.processed_currency = code;
      return;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  into.processed_amount_as_sent = amount;
}

const FEE_FIELDS = ['fee', 'fixed_fee', 'percent_fee'] as const;

/** A fee in minor units, or kept as sent: a fee payform cannot count exactly must not make the payment unreadable. */
function readFee(into: Normalised, key: (typeof FEE_FIELDS)[number], fee: NonNullable<wire.WireFee>, currency: string): void {
  try {
    into[key] = toFee(fee, currency);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    into[`${key}_as_sent`] = fee;
  }
}

/** Deeper than any fee breakdown goes: what lies below is kept as it came. */
const MAX_SPLIT_FEE_DEPTH = 4;

/**
 * A split refund's `split_fee`, whose shape the interface does not show: every object in it
 * with an `amount` is a fee as the interface writes fees (`{ amount, currency }`) and is
 * converted so; the rest is kept as it came. One money unit, even in a field no one specified.
 */
function splitFee(value: unknown, currency: string, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_SPLIT_FEE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => splitFee(item, currency, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = splitFee(item, currency, depth + 1);
  const { amount, currency: own } = copy;
  if (typeof amount === 'number' || typeof amount === 'string') {
    const feeCurrency = typeof own === 'string' ? own : currency;
    copy.amount = fromWireAmount(amount, feeCurrency);
    copy.currency = feeCurrency;
  }
  return copy;
}

function toFee(fee: NonNullable<wire.WireFee>, fallbackCurrency: string): Fee {
  const currency = fee.currency ?? fallbackCurrency;
  return { ...fee, amount: fromWireAmount(fee.amount, currency), currency };
}

export function toPayment(payment: wire.PaymentResponse): Payment {
  return normalise(payment, payment.currency);
}

export function toOperation(operation: wire.OperationResponse): Operation {
  return normalise(operation, operationCurrency(operation));
}

export function toWebhookEvent(event: wire.WebhookEvent): WebhookEvent {
  switch (event.method) {
    case 'capture':
    case 'void':
    case 'refund':
      return toOperation(event);
    default:
      return normalise(event, event.currency);
  }
}

/**
 * An order's operations all share the order's currency. The live service promises no currency
 * on these entries, so the caller — who created the order and knows its currency — names it;
 * without that, entries that do not repeat it take it from one that does.
 */
export function toOrderState(entries: readonly wire.OrderOperationResponse[], orderCurrency?: string): OrderOperation[] {
  const currency = orderCurrency ?? entries.map((entry) => entry.currency ?? entry.order_currency).find((c) => c !== undefined);
  return entries.map((entry) => toOrderOperation(entry, currency));
}

export function toOrderOperation(entry: wire.OrderOperationResponse, orderCurrency?: string): OrderOperation {
  const currency = entry.currency ?? entry.order_currency ?? orderCurrency;
  if (currency === undefined) throw new RangeError("the order names no currency for its amounts: give the order's currency, orders.get(orderId, { currency })");
  return normalise(entry, currency);
}

export interface Balance {
  readonly available: MinorUnits;
  /** Present when the gateway reports one, whichever spelling it used. */
  readonly rolling_reserve?: MinorUnits;
  readonly [field: string]: unknown;
}

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly balances: Balance;
  readonly [field: string]: unknown;
}
/** Terminals have the same shape as accounts. */
export type Terminal = Account;

export interface TerminalList {
  readonly terminals: Terminal[];
  /** Terminals whose balance could not be read, each with the gateway's message. */
  readonly failed_terminals: { readonly id: string; readonly message: string }[];
}

export function toAccount(account: wire.AccountResponse | wire.TerminalResponse): Account {
  const { rollingReserve, rolling_reserve, ...balances } = account.balances;
  const reserve = rolling_reserve ?? rollingReserve;
  return {
    ...account,
    balances: {
      ...balances,
      available: fromWireAmount(account.balances.available, account.currency),
      ...(reserve == null ? {} : { rolling_reserve: fromWireAmount(reserve, account.currency) }),
    },
  };
}

export function toTerminalList(list: wire.TerminalListResponse): TerminalList {
  return { terminals: list.terminals.map(toAccount), failed_terminals: list.failed_terminals ?? [] };
}

function operationCurrency(operation: { currency?: string | undefined; order_currency?: string | undefined }): string {
  const currency = operation.currency ?? operation.order_currency;
  if (currency === undefined) throw new RangeError('the operation names no currency');
  return currency;
}
