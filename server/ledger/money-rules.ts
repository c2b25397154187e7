// The money rules of secondary operations, as pure functions over one order's payment and
// operations. The store calls them while it holds the order's lock, so what they decide holds
// under concurrency; pending reservations count against every limit, failures count for nothing.
import { formatLimit, formatMinorUnits } from '@payform/gateway';
import { overReserveLimit, wireStep } from '@payform/gateway/wire';
import { OperationRefused } from './errors.js';
import type { OperationKind, OperationStatus, OrderTotals, PaymentMethod, PaymentStatus, SplitShare } from './types.js';

export interface MoneyPayment {
  readonly method: PaymentMethod;
  readonly status: PaymentStatus;
  readonly amount: number;
  readonly currency: string;
  readonly split: readonly SplitShare[] | null;
}

export interface MoneyOperation {
  readonly kind: OperationKind;
  readonly status: OperationStatus;
  readonly amount: number;
  readonly split: readonly SplitShare[] | null;
  /** `gateway`: recorded as the gateway made it, without the ledger asking (no limit checked). */
  readonly origin?: 'merchant' | 'gateway';
}

export interface MoneyRequest {
  readonly kind: OperationKind;
  readonly amount?: number;
  readonly split?: readonly SplitShare[];
  readonly overCapturePercent?: number;
}

function sum(operations: readonly MoneyOperation[], kind: OperationKind, status: OperationStatus): number {
  return operations.reduce((total, op) => (op.kind === kind && op.status === status ? total + op.amount : total), 0);
}

/**
 * The most an auth may be captured for: the reserve plus the project's over-capture percentage,
 * in whole steps the gateway can be sent (tens of fils for KWD: 1.161 KWD cannot travel, 1.160 can).
 */
export function captureCeiling(amount: number, overCapturePercent = 0, step = 1): number {
  const over = overReserveLimit(amount, overCapturePercent) - amount;
  return amount + over - (over % step);
}

/**
 * The amount of a capture or refund that goes to the gateway in the interface's "full" form,
 * without an amount: the whole payment at once. None for a void, nor for an auth's refund (of
 * its captures, not of the payment). The gateway makes such an operation of what it holds,
 * which differs from the ledger's rest when an operation made at the gateway never reached it.
 */
export function fullFormAmount(payment: Pick<MoneyPayment, 'method' | 'amount'>, kind: OperationKind): number | undefined {
  return kind === 'capture' || (kind === 'refund' && payment.method === 'purchase') ? payment.amount : undefined;
}

/** Whether an operation goes in that full form: of the full-form amount, not split (a split payment's plain refund is whole, and goes so). */
export function sentInFull(payment: Pick<MoneyPayment, 'method' | 'amount'>, operation: Pick<MoneyOperation, 'kind' | 'amount' | 'split'>): boolean {
  return !operation.split && operation.amount === fullFormAmount(payment, operation.kind);
}

/**
 * What the customer paid for an order (the `paid` of moneyTotals): a purchase's amount once it
 * succeeded, an auth's successful captures; a reserve or a verification pays nothing.
 */
export function amountPaid(payment: Pick<MoneyPayment, 'method' | 'status' | 'amount'>, totals: Pick<OrderTotals, 'captured'>): number {
  if (payment.method === 'purchase') return payment.status === 'success' ? payment.amount : 0;
  return totals.captured;
}

export function orderTotals(payment: MoneyPayment, operations: readonly MoneyOperation[], overCapturePercent = 0): OrderTotals {
  const captured = sum(operations, 'capture', 'success');
  const capturePending = sum(operations, 'capture', 'pending');
  const refunded = sum(operations, 'refund', 'success');
  const refundPending = sum(operations, 'refund', 'pending');
  const voided = operations.some((op) => op.kind === 'void' && op.status !== 'failure');
  const paid = payment.status === 'success';
  // A purchase is refundable as paid; an auth only as far as it was captured (pending
  // captures are not money yet), and never past what was authorised by captures nobody checked.
  const refundBase = !paid ? 0 : payment.method === 'purchase' ? payment.amount : refundableCaptured(payment, operations);
  // One capture per auth: once one is made or under way, the rest of the reserve is released.
  const capturable = paid && payment.method === 'auth' && !voided && captured + capturePending === 0 ? captureCeiling(payment.amount, overCapturePercent, wireStep(payment.currency)) : 0;
  return {
    captured,
    capturePending,
    refunded,
    refundPending,
    voided,
    refundable: Math.max(0, refundBase - refunded - refundPending),
    capturable,
  };
}

/**
 * What of an auth's successful captures can be given back: the ledger's own captures as made
 * (their limit was checked when they were reserved), and the ones the gateway made unasked only
 * up to the authorised amount — a capture of 50 times the reserve must not open 50 times the
 * refund (it is flagged, see overCaptured).
 */
function refundableCaptured(payment: MoneyPayment, operations: readonly MoneyOperation[]): number {
  const captured = sum(operations, 'capture', 'success');
  const unasked = sum(operations.filter((op) => op.origin === 'gateway'), 'capture', 'success');
  const asked = captured - unasked;
  return asked + Math.min(unasked, Math.max(0, payment.amount - asked));
}

/**
 * What of an auth's successful captures can never be refunded: the part of captures the ledger
 * never asked for past the authorised amount. More than 0 only when the gateway reported one.
 */
export function overCaptured(payment: MoneyPayment, operations: readonly MoneyOperation[]): number {
  if (payment.method !== 'auth' || payment.status !== 'success') return 0;
  return sum(operations, 'capture', 'success') - refundableCaptured(payment, operations);
}

/**
 * How far the order's successful refunds go past what was paid (a purchase's amount, an auth's
 * successful captures): more than 0 only when refunds the ledger never asked for (or a gateway
 * amount above the one reserved) took it there. 0 while the payment is not paid, or an auth has
 * no capture known: what may be refunded is not known yet.
 */
export function refundedPastPaid(payment: MoneyPayment, operations: readonly MoneyOperation[]): number {
  const paid = payment.method === 'purchase' ? payment.amount : sum(operations, 'capture', 'success');
  if (payment.status !== 'success' || paid === 0) return 0;
  return Math.max(0, sum(operations, 'refund', 'success') - paid);
}

export function splitTotal(shares: readonly { readonly amount: number }[]): number {
  return shares.reduce((total, share) => total + share.amount, 0);
}

/** The amount a refund names: its own, else the sum of its split, else undefined (all that is left). */
function requestedRefund(request: MoneyRequest): number | undefined {
  return request.amount ?? (request.split ? splitTotal(request.split) : undefined);
}

function requireSuccessfulAuth(payment: MoneyPayment, operations: readonly MoneyOperation[], totals: OrderTotals, kind: OperationKind): void {
  if (payment.method !== 'auth') throw new OperationRefused('not_an_auth', `a ${kind} applies only to an auth`);
  if (payment.status !== 'success') {
    throw new OperationRefused('payment_not_successful', `a ${kind} needs a successful auth (it is ${payment.status})`);
  }
  if (!totals.voided) return;
  // A void whose answer is not in yet holds the auth as one that is: said as such.
  const pending = operations.find((op) => op.kind === 'void' && op.status === 'pending');
  if (pending) throw new OperationRefused('void_pending', `${awaited('a void of the auth', pending.amount, payment.currency)}: once voided, an auth takes nothing more`);
  throw new OperationRefused('already_voided', 'the auth is voided');
}

/**
 * One capture per auth, as the sandbox and acquirers commonly have it: a partial capture settles
 * the auth and releases the rest of the reserve, so a second capture is refused here, under the
 * order's lock — two racing partial captures cannot both be reserved.
 */
function decideCapture(payment: MoneyPayment, operations: readonly MoneyOperation[], request: MoneyRequest): number {
  const totals = orderTotals(payment, operations, request.overCapturePercent);
  requireSuccessfulAuth(payment, operations, totals, 'capture');
  if (totals.captured > 0) {
    throw new OperationRefused('already_captured', 'the auth is already captured: an auth takes one capture, a partial one releases the rest', 0);
  }
  if (totals.capturePending > 0) {
    throw new OperationRefused('already_captured', `${awaited('a capture of the auth', totals.capturePending, payment.currency)}: an auth takes one capture`, 0);
  }
  // Omitted amount: the whole reserve, never the over-capture allowance. Shared out, the shares
  // must make the whole of it, as the gateway takes a split capture without charge_amount: their
  // sum taken instead would release the rest of the reserve, or over-capture, unasked.
  if (request.amount === undefined && request.split && splitTotal(request.split) !== payment.amount) {
    throw new OperationRefused('split_not_whole_reserve', `a split capture without an amount takes the whole reserve, ${formatLimit(payment.amount, payment.currency)}: its shares must add up to it`, payment.amount);
  }
  const amount = request.amount ?? payment.amount;
  if (amount > totals.capturable) {
    throw new OperationRefused('exceeds_capturable', `at most ${formatLimit(totals.capturable, payment.currency)} can be captured`, totals.capturable);
  }
  return amount;
}

function decideVoid(payment: MoneyPayment, operations: readonly MoneyOperation[]): number {
  const totals = orderTotals(payment, operations);
  requireSuccessfulAuth(payment, operations, totals, 'void');
  if (totals.captured + totals.capturePending > 0) throw new OperationRefused('already_captured', 'a captured auth cannot be voided');
  return payment.amount;
}

/** Per sub-merchant: what it was paid (purchase split, or the splits of successful captures). */
function paidShares(payment: MoneyPayment, operations: readonly MoneyOperation[]): Map<string, number> {
  const sources =
    payment.method === 'purchase' ? [payment.split] : operations.filter((op) => op.kind === 'capture' && op.status === 'success').map((op) => op.split);
  const shares = new Map<string, number>();
  for (const share of sources.flatMap((split) => split ?? [])) {
    shares.set(share.subMerchantId, (shares.get(share.subMerchantId) ?? 0) + share.amount);
  }
  return shares;
}

function refundedShare(operations: readonly MoneyOperation[], subMerchantId: string): number {
  return operations
    .filter((op) => op.kind === 'refund' && op.status !== 'failure')
    .flatMap((op) => op.split ?? [])
    .reduce((total, share) => (share.subMerchantId === subMerchantId ? total + share.amount : total), 0);
}

function checkSplitRefund(payment: MoneyPayment, operations: readonly MoneyOperation[], split: readonly SplitShare[]): void {
  const paid = paidShares(payment, operations);
  for (const share of split) {
    const paidShare = paid.get(share.subMerchantId);
    if (paidShare === undefined) {
      throw new OperationRefused('unknown_sub_merchant', `sub-merchant ${share.subMerchantId} has no share in this order`, 0, { subMerchantId: share.subMerchantId });
    }
    const left = paidShare - refundedShare(operations, share.subMerchantId);
    if (share.amount > left) {
      throw new OperationRefused('exceeds_sub_merchant_share', `at most ${formatLimit(left, payment.currency)} can be refunded to sub-merchant ${share.subMerchantId}`, left, {
        subMerchantId: share.subMerchantId,
      });
    }
  }
}

function decideRefund(payment: MoneyPayment, operations: readonly MoneyOperation[], request: MoneyRequest): number {
  if (payment.method === 'lookup') throw new OperationRefused('not_a_payment', 'a card verification paid nothing to refund');
  if (payment.status !== 'success') {
    throw new OperationRefused('payment_not_successful', `a refund needs a successful payment (it is ${payment.status})`);
  }
  const totals = orderTotals(payment, operations);
  if (payment.method === 'auth' && totals.captured === 0) {
    // A capture whose answer was lost (202) is not "nothing captured" for good: the merchant retries once it settles.
    const why = totals.capturePending > 0 ? `${awaited('the capture of the auth', totals.capturePending, payment.currency)}: refund once it is settled` : 'nothing of the auth is captured yet';
    throw new OperationRefused('nothing_captured', why, 0);
  }
  const amount = requestedRefund(request) ?? totals.refundable;
  if (totals.refundable === 0) {
    const why =
      totals.refundPending > 0
        ? `nothing is left to refund: ${formatMinorUnits(totals.refunded, payment.currency)} is refunded and ${formatMinorUnits(totals.refundPending, payment.currency)} still waits for the gateway’s answer`
        : 'the payment is fully refunded';
    throw new OperationRefused('nothing_left', why, 0);
  }
  if (amount > totals.refundable) {
    throw new OperationRefused('exceeds_refundable', `at most ${formatLimit(totals.refundable, payment.currency)} can be refunded`, totals.refundable);
  }
  if (request.split) checkSplitRefund(payment, operations, request.split);
  // A payment paid in shares gives back part of it only per sub-merchant (the gateway declines a
  // plain partial refund of it); a plain refund must be the whole rest, which returns every share.
  else if (amount !== totals.refundable && paidShares(payment, operations).size > 0) {
    throw new OperationRefused('split_refund_required', 'part of a split payment is refunded per sub-merchant, through a split refund', totals.refundable);
  }
  return amount;
}

/** `what (6.00 UAH) still waits for the gateway’s answer`: an operation whose answer was lost, settled later by reconciliation. */
function awaited(what: string, amount: number, currency: string): string {
  return `${what} (${formatMinorUnits(amount, currency)}) still waits for the gateway’s answer`;
}

/** The amount to reserve for `request`, or an OperationRefused saying which rule forbids it. */
export function decideOperation(payment: MoneyPayment, operations: readonly MoneyOperation[], request: MoneyRequest): number {
  switch (request.kind) {
    case 'capture':
      return decideCapture(payment, operations, request);
    case 'void':
      return decideVoid(payment, operations);
    case 'refund':
      return decideRefund(payment, operations, request);
  }
}
