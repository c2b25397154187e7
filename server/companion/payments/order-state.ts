/**
 * Reads the gateway's state of an order and brings the ledger up to it: the payment's status
 * and the captures, voids and refunds still waiting for an answer. This is how the companion
 * learns an outcome it did not get — after a timeout or a 5xx, on the customer's return, and in
 * reconciliation — without ever sending a payment or refund a second time.
 */
import { NotFoundError } from '@payform/gateway';
import type { GatewayClient, OrderOperation, RequestOptions } from '@payform/gateway';
import { gatewayAnswered, NEVER_REACHED } from '../../ledger/index.js';
import type { Ledger, Payment, Operation } from '../../ledger/index.js';
import { operationResult, paymentUpdate } from './gateway-facts.js';
import { isGatewayUnreachable } from './gateway-unreachable.js';
import { fitsReservation, matchOperations } from './operation-matching.js';
import type { Logger } from '../log/logger.js';
import type { ChangeSource, PaymentReactions } from './reactions.js';

/** How long an order-state read (its retries included) or a cancel may take while someone waits for the answer. */
export const RECOVERY_READ_MS = 5_000;

export interface RefreshOptions extends RequestOptions {
  /** The order's payment as the caller read it a moment ago, so the refresh need not read it again. */
  readonly payment?: Payment;
}

export type OrderRefresh =
  /** The gateway does not know the order; `neverSent`: this read ended its attempt as never sent. */
  | { readonly found: false; readonly neverSent: boolean }
  | {
      readonly found: true;
      readonly entries: readonly OrderOperation[];
      readonly payment: Payment | undefined;
      /** This read moved the payment's status forward (another instance's read, or a webhook, may have got there first). */
      readonly advanced: boolean;
      /** Ledger ids of the reservations the gateway shows, whatever their status there. */
      readonly shown: ReadonlySet<string>;
      /** Ledger ids of the reservations this read ended as never sent. */
      readonly neverSent: ReadonlySet<string>;
    };

/** How many "not there" reads, how far apart, end an attempt or reservation as never sent. */
export interface NeverSentWindow {
  readonly reads: number;
  readonly spacingMs: number;
}

interface OrderStateDeps {
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  readonly reactions: PaymentReactions;
  readonly logger: Logger;
  readonly sandboxOrigin: string | undefined;
  readonly neverSent: NeverSentWindow;
  readonly clock: () => number;
}

export class OrderStateSync {
  readonly #deps: OrderStateDeps;
  #toldOfClock = false;

  constructor(deps: OrderStateDeps) {
    this.#deps = deps;
  }

  /**
   * Gateway errors other than "not found" propagate: the state is then simply unknown. Every read
   * also counts towards the never-sent window of what it does not show (see docs/reliability.md).
   */
  async refresh(orderId: string, source: ChangeSource, options: RefreshOptions = {}): Promise<OrderRefresh> {
    const { ledger, gateway, clock } = this.#deps;
    const { payment: known, ...request } = options;
    const payment = known ?? (await ledger.getPayment(orderId));
    // Only what was sent before the read went out can be missing from its answer.
    const readAt = clock();
    let entries: OrderOperation[];
    try {
      // The ledger knows the order's currency; the gateway's entries need not name it.
      entries = await gateway.orders.get(orderId, { ...request, ...(payment ? { currency: payment.currency } : {}) });
    } catch (error) {
      if (error instanceof NotFoundError) return { found: false, neverSent: await this.#countAbsentOrder(payment, readAt, source) };
      throw error;
    }
    if (!payment) return { found: true, entries, payment: undefined, advanced: false, shown: new Set(), neverSent: new Set() };
    // Shown once, the order is there for good: no window may end this attempt (a statement only
    // when some read had missed it).
    const counted = payment.absentReads > 0 || payment.unsentAt !== null;
    if (counted && (payment.status === 'init' || payment.status === 'pending')) await ledger.clearAbsentPayment(orderId);
    const { payment: updated, advanced } = await this.#applyPayment(payment, entries, source);
    const { shown, neverSent } = await this.#settleOperations(updated, entries, source, readAt);
    return { found: true, entries, payment: updated, advanced, shown, neverSent };
  }

  /**
   * The order's state read while a customer or the merchant waits for an answer that was lost:
   * a short timeout, and undefined (logged) when it cannot be read now — reconciliation settles
   * it later. The caller has said the answer was lost; a read lost to the same gateway trouble
   * is said at debug, or a gateway outage would log two lines a payment.
   */
  async readWhileWaiting(orderId: string): Promise<OrderRefresh | undefined> {
    // The read's retries share its deadline: someone already waited out the call's whole timeout.
    const deadline = AbortSignal.timeout(RECOVERY_READ_MS);
    try {
      return await this.refresh(orderId, 'order_state', { timeoutMs: RECOVERY_READ_MS, signal: deadline });
    } catch (error) {
      const level = isGatewayUnreachable(error) || deadline.aborted ? 'debug' : 'warn';
      this.#deps.logger[level]('the order state could not be read; reconciliation will settle it', { order_id: orderId, err: error });
      return undefined;
    }
  }

  /**
   * The entry of the payment's method — the one naming its payment id, else its amount — is
   * applied; the ledger refuses it when it describes another payment (another amount, currency
   * or payment id), which is then only logged.
   */
  async #applyPayment(payment: Payment, entries: readonly OrderOperation[], source: ChangeSource): Promise<{ payment: Payment; advanced: boolean }> {
    const candidates = entries.filter((candidate) => candidate.method === payment.method);
    const entry =
      candidates.find((candidate) => payment.paymentId !== null && candidate.payment_id === payment.paymentId) ??
      candidates.find((candidate) => candidate.amount === payment.amount) ??
      candidates[0];
    if (!entry) return { payment, advanced: false };
    const update = paymentUpdate(entry, this.#deps.sandboxOrigin);
    // The ledger keeps a payment held as paid short from an entry that does not say what was paid.
    // What the gateway's order state says, it says again: no need to wait for the disk.
    const progress = await this.#deps.ledger.advancePayment(payment.orderId, update, { relaxed: true });
    await this.#deps.reactions.paymentProgressed(progress, source);
    if (progress.progress === 'mismatch') this.#deps.logger.warn('the order state shows another payment under this order id; not applied', { order_id: payment.orderId });
    return { payment: progress.payment, advanced: progress.progress === 'advanced' };
  }

  /**
   * Pending reservations meet the gateway's operations (by operation id, else by kind, amount
   * and time: see operation-matching.ts) and take what the gateway says of them. Returns the
   * reservations the gateway may be showing.
   */
  async #settleOperations(payment: Payment, entries: readonly OrderOperation[], source: ChangeSource, readAt: number): Promise<{ shown: ReadonlySet<string>; neverSent: ReadonlySet<string> }> {
    const { ledger, reactions } = this.#deps;
    const { orderId } = payment;
    const operations = await ledger.listOperations(orderId);
    const { settling, shown, unpaired, predated } = matchOperations(payment, operations, entries);
    for (const [id, byMs] of predated) this.#predated(orderId, id, byMs);
    for (const [id, entry] of settling) {
      const settled = await ledger.settleOperation(id, operationResult(entry));
      if (settled.progress === 'advanced') await reactions.operationAdvanced(settled.operation, source);
    }
    await this.#recordLateOperations(payment, operations.filter((operation) => !settling.has(operation.id)), entries, unpaired, source);
    const neverSent = new Set<string>();
    for (const operation of operations.filter((candidate) => candidate.status === 'pending' && !settling.has(candidate.id))) {
      if (shown.has(operation.id)) await ledger.clearAbsentOperation(operation.id);
      else if (await this.#countAbsentOperation(operation, readAt, source)) neverSent.add(operation.id);
    }
    return { shown, neverSent };
  }

  /**
   * A capture or refund the gateway made, of the kind and amount of a reservation ended here as
   * never sent, that no operation of the ledger's pairs with: that request reached the gateway
   * after all (its webhook may be lost). Recorded as the gateway made it, and the payment flagged:
   * the merchant was told it never happened, and may have made it again. `operations`: the
   * order's, but those this read settles.
   */
  async #recordLateOperations(payment: Payment, operations: readonly Operation[], entries: readonly OrderOperation[], unpaired: readonly OrderOperation[], source: ChangeSource): Promise<void> {
    const { ledger, reactions, logger } = this.#deps;
    const { orderId } = payment;
    for (const entry of unpaired) {
      const result = operationResult(entry);
      const { amount } = result;
      const kind = entry.method as Operation['kind'];
      const like = (operation: Operation) => fitsReservation(payment, operation, kind, amount);
      // One still pending of that kind and amount may be the entry: its own settlement decides.
      if (result.status !== 'success' || amount === undefined || !operations.some((operation) => like(operation) && endedAsNeverSent(operation))) continue;
      if (operations.some((operation) => like(operation) && operation.status === 'pending')) continue;
      const shown = entries.filter((other) => other.method === entry.method && other.amount === entry.amount).length;
      const recorded = await ledger.recordGatewayOperation(orderId, { ...result, kind, amount, shown });
      if (!recorded.operation) continue;
      logger.warn('the gateway made an operation this companion had ended as never sent', { order_id: orderId, operation: recorded.operation.id, kind });
      await reactions.operationAdvanced(recorded.operation, source);
      if (recorded.flagged) await reactions.discrepancyNoted(recorded.flagged, source);
    }
  }

  /**
   * A reservation the gateway seems to show, dated too early to be it. Once in a while that is
   * an operation made elsewhere first; when it is this one, this machine's clock runs ahead of
   * the gateway's and the reservation stays pending for good. Said once as a warning (the
   * machine's clock is one for every order), then at debug.
   */
  #predated(orderId: string, operation: string, byMs: number): void {
    const minutes = Math.round(byMs / 60_000);
    // A day and more is an operation made elsewhere before, not a clock kept by time sync.
    const level = this.#toldOfClock || byMs > PLAUSIBLE_SKEW_MS ? 'debug' : 'warn';
    if (level === 'warn') this.#toldOfClock = true;
    this.#deps.logger[level](
      `the gateway shows an operation of this kind and amount dated ${minutes} min before this companion asked for one, so it is not taken for it: if it is the same, this machine's clock runs ${minutes} min ahead of the gateway's — check its time sync (NTP); the operation stays pending until it is settled`,
      { order_id: orderId, operation, ahead_ms: byMs },
    );
  }

  /**
   * Counts a read without the order — for the attempt, and for the pending reservations of a paid
   * one (only a paid order has any): with no order there, none of them can be at the gateway.
   * True when it ended the attempt as never sent.
   */
  async #countAbsentOrder(payment: Payment | undefined, readAt: number, source: ChangeSource): Promise<boolean> {
    if (!payment) return false;
    if (payment.status !== 'success') return this.#countAbsentPayment(payment, readAt);
    const operations = await this.#deps.ledger.listOperations(payment.orderId);
    for (const operation of operations) if (operation.status === 'pending') await this.#countAbsentOperation(operation, readAt, source, true);
    return false;
  }

  /** Counts a read without the order; true when it ended the attempt as never sent. */
  async #countAbsentPayment(payment: Payment, readAt: number): Promise<boolean> {
    const counted = await this.#deps.ledger.countAbsentPayment(payment.orderId, { readAt, ...this.#deps.neverSent });
    if (!counted?.neverSent) return false;
    this.#deps.reactions.attemptUnsent(payment);
    const fields = { order_id: payment.orderId, reads: counted.reads };
    if (!gatewayAnswered(payment)) {
      this.#deps.logger.warn('the gateway never saw this payment attempt; its session may pay again, under the same order id', fields);
      return true;
    }
    // It answered this one (a payment id, a challenge or a hosted page), so it did see it: the
    // gateway answering now has lost it, or is not the one that took it. Its customer may pay again.
    this.#deps.logger.error(
      'the gateway no longer knows a payment it acknowledged: ended like a never-sent attempt, so its session may pay again under the same order id. The gateway at PAYFORM_GATEWAY_BASE_URL was restarted without its payments (a sandbox) or is not the one that took it: check this payment (its payment_id, or a hosted page\'s order_id) at the gateway that took it before fulfilling the order or refunding a second payment',
      { ...fields, payment_id: payment.paymentId },
    );
    return true;
  }

  /**
   * Counts a read that does not show a reservation; on the window's last one it is settled as a
   * failure, which frees its amount. True when this read did that. `orderLost`: the read showed
   * no order at all, though the ledger holds it paid.
   */
  async #countAbsentOperation(operation: Operation, readAt: number, source: ChangeSource, orderLost = false): Promise<boolean> {
    const { ledger, reactions, logger, neverSent } = this.#deps;
    const counted = await ledger.countAbsentOperation(operation.id, { readAt, ...neverSent });
    if (!counted?.neverSent) return false;
    const settled = await ledger.settleOperation(operation.id, { status: 'failure', statusDescription: NEVER_REACHED });
    if (settled.progress !== 'advanced') return false;
    const fields = { order_id: operation.orderId, operation: operation.id, kind: operation.kind, reads: counted.reads };
    if (!orderLost) logger.warn('the gateway never saw this operation; its amount is free again', fields);
    // The order it was paid under is gone too: the gateway answering is not the one that took the
    // payment (or lost it), and may not be the one this operation reached. Its amount is free, but
    // doing it again could refund twice at the gateway that has it.
    else {
      logger.error(
        'the gateway no longer knows the paid order of this operation: ended as never sent, its amount free again. The gateway at PAYFORM_GATEWAY_BASE_URL was restarted without its payments (a sandbox) or is not the one that took the order: check the operation at the gateway that took it before doing it again',
        fields,
      );
    }
    await reactions.operationAdvanced(settled.operation, source);
    return true;
  }
}

/** The most a machine's clock is taken to run ahead of the gateway's. */
const PLAUSIBLE_SKEW_MS = 24 * 60 * 60_000;

/** A reservation this companion ended as never sent: failed here, without the gateway's word. */
function endedAsNeverSent(operation: Operation): boolean {
  return operation.status === 'failure' && operation.operationId === null && operation.statusCode === null && operation.statusDescription === NEVER_REACHED;
}
