/**
 * Secondary operations and the interface's rules for them:
 *   - capture, split capture and void only on an `auth` in `success` (one capture or one void);
 *   - a capture may exceed the reserve by the project's percentage, only through charge_amount;
 *   - refund and split refund only on a successful `purchase`, or on the successful capture of
 *     an auth; refunds never add up above what was paid (per sub-merchant for split payments);
 *   - an omitted amount means the full amount (for a refund: all that is left).
 * A request that breaks a rule of the order's state is a business decline: the operation is
 * recorded with status `failure` and answered with 200 (gateway-notes.md). Every operation is
 * reported by webhook, a declined one too: the interface reports each operation whose status
 * changes, and a receiver must not read every capture or refund event as a success. An unknown
 * order is 404; ill-formed input was refused before (400).
 */
import type { MinorUnits } from './state/amounts.js';
import type {
  CaptureRequest, RefundRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from '@payform/gateway/wire';
import { formatMinorUnits, maskFreeText } from '@payform/gateway';
import { overReserveLimit, StatusCode } from '@payform/gateway/wire';
import type { Project } from './config.js';
import type { RequestId } from './inspector/request-log.js';
import { minorUnits } from './state/amounts.js';
import { commission } from './state/fees.js';
import { newUuid, transactionIdentifiers } from './state/identifiers.js';
import { succeeded, sumAmounts } from './state/records.js';
import type { Operation, Order, Share } from './state/records.js';
import { Refusal } from './state/refusal.js';
import { splitIssues, toShare } from './payments.js';
import type { SimulatedGateway } from './simulated-gateway.js';

interface Target {
  readonly project: Project;
  readonly order: Order;
  readonly request: Operation['request'];
  readonly comment: string | undefined;
  readonly serverUrl: string | undefined;
  /** The request named no amount: the whole of it (a full capture answers `order_currency`), declined or not. */
  readonly full: boolean;
}

/** What an operation would be; `decline` turns it into a recorded failure. */
interface Draft {
  readonly method: Operation['method'];
  readonly amount: MinorUnits;
  readonly split?: readonly Share[] | undefined;
  readonly fees?: Operation['fees'];
}

class Decline {
  constructor(
    readonly code: StatusCode,
    readonly description: string,
  ) {}
}

export function capture(gateway: SimulatedGateway, cause: RequestId | undefined, project: Project, request: CaptureRequest | SplitCaptureRequest): Operation {
  const split = 'split' in request ? request.split : undefined;
  const issues = splitIssues(project, split);
  if (issues.length > 0) throw Refusal.invalid(issues);
  const target = find(gateway, project, request, split ? 'split_capture' : 'capture', request.charge_amount === undefined);
  return perform(gateway, cause, target, request.order_currency, (currency) => {
    const payment = target.order.payment;
    authorisedOnly(target.order, 'captured');
    const reserved = payment.amount;
    const amount = request.charge_amount === undefined ? reserved : minorUnits(request.charge_amount, currency, 'charge_amount');
    const shares = split?.map((share, index) => toShare(share, currency, index));
    if (shares && sumAmounts(shares) !== amount) {
      // With charge_amount the schema checked the sum; without it the shares must cover the reserve.
      throw Refusal.invalidField('split', 'amounts must add up to the captured amount (the full reserved amount when charge_amount is omitted)');
    }
    if (amount > overReserveLimit(reserved, project.captureOverReservePercent)) {
      throw new Decline(StatusCode.AmountLimitExceeded, `Amount limit exceeded: at most ${project.captureOverReservePercent}% over the reserved amount can be captured`);
    }
    return { method: 'capture', amount, split: shares, fees: commission(amount, currency, project) };
  });
}

export function voidAuth(gateway: SimulatedGateway, cause: RequestId | undefined, project: Project, request: VoidRequest): Operation {
  const target = find(gateway, project, request, 'void', true);
  return perform(gateway, cause, target, request.order_currency, () => {
    authorisedOnly(target.order, 'voided');
    return { method: 'void', amount: target.order.payment.amount, fees: null };
  });
}

export function refund(gateway: SimulatedGateway, cause: RequestId | undefined, project: Project, request: RefundRequest | SplitRefundRequest): Operation {
  const split = 'split' in request ? request.split : undefined;
  const issues = splitIssues(project, split);
  if (issues.length > 0) throw Refusal.invalid(issues);
  const target = find(gateway, project, request, split ? 'split_refund' : 'refund', request.refund_amount === undefined);
  const currency = 'currency' in request ? request.currency : request.order_currency;
  return perform(gateway, cause, target, currency, (orderCurrency) => {
    const refundable = refundableOf(target.order);
    const left = refundable.amount - sumAmounts(succeeded(target.order, 'refund'));
    const amount = request.refund_amount === undefined ? left : minorUnits(request.refund_amount, orderCurrency, 'refund_amount');
    if (left <= 0) throw new Decline(StatusCode.InvalidOperation, `Invalid operation: the payment is already refunded in full${recurringNote(target.order)}`);
    if (amount > left) throw new Decline(StatusCode.InvalidAmount, `Invalid amount: at most ${formatMinorUnits(left, orderCurrency)} is left to refund${recurringNote(target.order)}`);
    const shares = refundable.shares ? shareRefunds(target.order, refundable.shares, split, amount, left, orderCurrency, project) : undefined;
    if (!refundable.shares && split) throw new Decline(StatusCode.InvalidOperation, 'Invalid operation: the payment is not a split payment');
    const fees = shares && split ? { fixed: 0, percent: sumAmounts(shares.map((share) => ({ amount: share.fee ?? 0 }))) } : null;
    return { method: 'refund', amount, split: shares, fees };
  });
}

/**
 * Of an order charged again as a recurring payment: a refund names no transaction, so it returns
 * the first payment only (docs/sandbox.md), and a refusal says so rather than leave the charges unexplained.
 */
function recurringNote(order: Order): string {
  const charges = order.recurring?.charges.length ?? 0;
  if (charges === 0) return '';
  return ` (refunds return the order's first payment: a refund names no transaction, so its ${charges === 1 ? 'recurring charge is' : `${charges} recurring charges are`} not refunded here)`;
}

/** The order, or 404. Operations go to the project the credentials belong to. */
function find(
  gateway: SimulatedGateway,
  project: Project,
  request: { order_id: string; comment?: string | undefined; server_url?: string | undefined },
  kind: Operation['request'],
  full: boolean,
): Target {
  const order = gateway.store.order(project.posId, request.order_id);
  if (!order) throw Refusal.notFound(`Order ${request.order_id}`);
  return { project, order, request: kind, comment: request.comment, serverUrl: request.server_url, full };
}

/**
 * Runs the rules of one operation: a currency that is not the order's is a decline (4124), a
 * Decline thrown by the rules becomes a failed operation; either outcome is reported by webhook.
 */
function perform(gateway: SimulatedGateway, cause: RequestId | undefined, target: Target, currency: string, rules: (currency: string) => Draft): Operation {
  const payment = target.order.payment;
  const now = gateway.clock.now();
  const record = (draft: Draft, outcome: Decline | undefined): Operation => {
    const operation: Operation = {
      id: newUuid(),
      payment,
      request: target.request,
      method: draft.method,
      amount: draft.amount,
      currency: payment.currency,
      full: target.full,
      ...transactionIdentifiers(),
      createdAt: now,
      processedAt: now,
      comment: target.comment === undefined ? undefined : maskFreeText(target.comment),
      serverUrl: target.serverUrl,
      split: outcome ? undefined : draft.split,
      fees: outcome ? null : (draft.fees ?? null),
      status: outcome ? 'failure' : 'success',
      statusCode: outcome ? outcome.code : successCode(draft.method),
      statusDescription: outcome?.description,
    };
    gateway.store.addOperation(target.order, operation);
    gateway.notifyOperation(cause, target.order, operation);
    return operation;
  };
  const method = methodOf(target.request);
  if (currency !== payment.currency) {
    return record({ method, amount: 0 }, new Decline(StatusCode.InvalidCurrency, `Invalid currency: the order is in ${payment.currency}`));
  }
  try {
    return record(rules(payment.currency), undefined);
  } catch (error) {
    if (!(error instanceof Decline)) throw error;
    return record({ method, amount: 0 }, error);
  }
}

/** Capture and void act on an authorised, not yet captured or voided, auth. */
function authorisedOnly(order: Order, what: 'captured' | 'voided'): void {
  const payment = order.payment;
  if (payment.method !== 'auth' || payment.status !== 'success') {
    throw new Decline(StatusCode.InvalidOperation, `Invalid operation: only a successful auth can be ${what}; this is ${article(payment.method)} ${payment.method} in status ${payment.status}`);
  }
  if (succeeded(order, 'capture').length > 0) throw new Decline(StatusCode.InvalidOperation, 'Invalid operation: the auth is already captured');
  if (succeeded(order, 'void').length > 0) throw new Decline(StatusCode.InvalidOperation, 'Invalid operation: the auth is voided');
}

/** What a refund draws on: a successful purchase, or the successful capture of an auth. */
function refundableOf(order: Order): { amount: MinorUnits; shares: readonly Share[] | undefined } {
  const payment = order.payment;
  if (payment.method === 'purchase' && payment.status === 'success') return { amount: payment.amount, shares: payment.split };
  const captured = payment.method === 'auth' ? succeeded(order, 'capture')[0] : undefined;
  if (captured) return { amount: captured.amount, shares: captured.split };
  const authState = payment.method !== 'auth' ? '' : succeeded(order, 'void').length > 0 ? ', voided' : ' without a capture';
  throw new Decline(StatusCode.InvalidOperation, `Invalid operation: only a successful purchase or capture can be refunded; this is ${article(payment.method)} ${payment.method} in status ${payment.status}${authState}`);
}

/**
 * How a refund of a split payment divides among sub-merchants. A split refund names them, each
 * within what is left of its share; a plain refund of a split payment must be the full rest
 * and returns every share's rest.
 */
function shareRefunds(
  order: Order,
  shares: readonly Share[],
  requested: readonly { amount: number | string; sub_merchant_id: string }[] | undefined,
  amount: MinorUnits,
  left: MinorUnits,
  currency: string,
  project: Project,
): Share[] {
  const leftOf = (subMerchantId: string) => {
    const share = shares.find((candidate) => candidate.subMerchantId === subMerchantId);
    const refunded = succeeded(order, 'refund').flatMap((operation) => operation.split ?? []).filter((part) => part.subMerchantId === subMerchantId);
    return share ? share.amount - sumAmounts(refunded) : undefined;
  };
  const withFee = (subMerchantId: string, part: MinorUnits): Share => ({
    subMerchantId,
    amount: part,
    fee: commission(part, currency, project).percent,
  });
  if (!requested) {
    if (amount !== left) throw new Decline(StatusCode.InvalidOperation, 'Invalid operation: refund part of a split payment through split refund');
    return shares.map((share) => withFee(share.subMerchantId, leftOf(share.subMerchantId) ?? 0)).filter((share) => share.amount > 0);
  }
  return requested.map((part, index) => {
    const partLeft = leftOf(part.sub_merchant_id);
    const partAmount = minorUnits(part.amount, currency, `split[${index}].amount`);
    if (partLeft === undefined) throw new Decline(StatusCode.InvalidOperation, `Invalid operation: sub-merchant ${part.sub_merchant_id} has no share in this payment`);
    if (partAmount > partLeft) throw new Decline(StatusCode.InvalidAmount, `Invalid amount: at most ${formatMinorUnits(partLeft, currency)} is left to refund to sub-merchant ${part.sub_merchant_id}`);
    return withFee(part.sub_merchant_id, partAmount);
  });
}

function methodOf(request: Operation['request']): Operation['method'] {
  if (request === 'void') return 'void';
  return request === 'capture' || request === 'split_capture' ? 'capture' : 'refund';
}

function successCode(method: Operation['method']): StatusCode {
  if (method === 'capture') return StatusCode.TransactionSuccessful;
  return method === 'void' ? StatusCode.ReverseSuccessful : StatusCode.RefundSuccessful;
}

/** "an auth", "a purchase": the decline messages name the payment's method. */
const article = (method: string): string => (/^[aeiou]/.test(method) ? 'an' : 'a');
