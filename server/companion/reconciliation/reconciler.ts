/**
 * Reconciliation: nothing stays pending without being checked. On every pass the reconciler
 * takes the payments that have heard nothing for a while and the captures, voids and refunds
 * whose answer was lost, and reads each order's state at the gateway:
 *
 * - what the gateway decided is applied (forward-only, so a late webhook changes nothing);
 * - a payment still open is marked checked and looked at again next time; the gateway is
 *   asked to send its webhook again, in case it was lost on the way;
 * - an unpaid hosted payment whose checkout session has expired, or whose page's address was
 *   lost with the gateway's answer, is cancelled;
 * - a webhook event that could not be applied when it came is tried again;
 * - a payment attempt or reservation the gateway answers "not there" for over a window of
 *   spaced reads (`neverSentReads`, `neverSentSpacingMs`) never reached it: the attempt's
 *   session may pay again, under the same order id; the reservation is released. Read again
 *   every `neverSentSpacingMs` until then, not only when stale;
 * - a payment or operation the gateway still does not know `giveUpAfterMs` after it was last
 *   sent is ended as failed for good; one it shows, even as pending, is never given up;
 * - a change the merchant's `onPaymentEvent` hook was not told (it threw, or the process
 *   stopped before it returned) is told again, backing off while the hook keeps failing;
 * - idempotency keys past their lifetime are deleted;
 * - with `personalDataDays`, the customer's details of the decided orders older than that are
 *   erased (the ledger's retention.ts), a few hundred a pass.
 *
 * Several instances may reconcile the same ledger: every write is forward-only and guarded.
 */
import { AuthenticationError, NotTheGatewayError } from '@payform/gateway';
import type { GatewayClient } from '@payform/gateway';
import type { Ledger, Operation, Payment, StoredEvent } from '../../ledger/index.js';
import { gatewayAnswered, isLedgerUnavailable, NEVER_REACHED } from '../../ledger/index.js';
import type { ReconciliationTimings } from '../config.js';
import type { Logger } from '../log/logger.js';
import type { LedgerOutage } from '../operator/ledger-outage.js';
import type { MissingWebhooks } from './missing-webhooks.js';
import type { MerchantNotices } from '../payments/merchant-notices.js';
import { isGatewayUnreachable } from '../payments/gateway-unreachable.js';
import type { OrderStateSync } from '../payments/order-state.js';
import { pageLost } from '../payments/lost-page.js';
import type { PaymentReactions } from '../payments/reactions.js';

interface ReconcilerDeps {
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  readonly orderState: OrderStateSync;
  readonly reactions: PaymentReactions;
  readonly notices: MerchantNotices;
  readonly timings: ReconciliationTimings;
  readonly logger: Logger;
  readonly clock: () => number;
  /** A pass the database's outage stopped is counted there, not logged with a stack each time. */
  readonly outage?: LedgerOutage;
  /** Looks, now and then, for payments the gateway sent no webhook for. */
  readonly missingWebhooks?: MissingWebhooks;
  /** Set while the ledger is another point of sale's: the instance takes no payments (readyz 503). */
  readonly readiness?: { foreignLedger: boolean };
  /** Days a customer's details are kept after their order (the companion's option); undefined: until erased on request. */
  readonly personalDataDays?: number | undefined;
}

/**
 * Abandoned checkout sessions a pass deletes at most: a few milliseconds of SQLite's time, and
 * nearly 3 million a day at a pass every 15 s, so a ledger upgraded with years of them catches up.
 */
const SESSIONS_SWEPT_A_PASS = 500;

/**
 * Orders whose customer's details a pass erases by age at most: five transactions of a hundred, a
 * few milliseconds of SQLite's time each, and nearly 3 million a day at a pass every 15 s, so a
 * ledger that turns the option on with years of orders behind it catches up within days.
 */
const ORDERS_ERASED_A_PASS = 500;

const DAY_MS = 24 * 3_600_000;

/** A pass's orders the gateway could not be asked about, as its one log line says them. */
interface Unreached {
  orders: number;
  first_order_id?: string;
  reason?: string;
  /** The gateway refuses every read (credentials, another server at its address): the pass asks it no more. */
  refused?: boolean;
}

/**
 * Trouble every read meets alike, whatever the order: the gateway refusing the credentials, or
 * something else answering at its address. operator/gateway-trouble.ts says it, naming the
 * setting; each order logging it again as its own error wrote 50 lines a pass. A 401 only: the
 * interface answers credentials so, and a 403 one order met would otherwise halt every pass there.
 */
const refusesEveryRead = (error: unknown) => (error instanceof AuthenticationError && error.status === 401) || error instanceof NotTheGatewayError;

/** A pass's orders the gateway could not be asked about are said at most this often. */
const UNREACHED_SAID_EVERY_MS = 60_000;

/** What one pass did, for logs and tests. */
export interface ReconciliationReport {
  readonly checkedPayments: number;
  readonly checkedOperations: number;
  /** Payments and operations that reached a final state in this pass. */
  readonly settled: number;
  readonly cancelled: number;
  /** Attempts and reservations ended as never sent in this pass (their window's last read). */
  readonly neverSent: number;
  readonly givenUp: number;
  /** Webhook events still waiting (parked, unmatched) that were tried again, and how many applied. */
  readonly checkedEvents: number;
  readonly appliedEvents: number;
  readonly failures: number;
  /** Changes the hook was not told, claimed and told again (told: it returned); dropped: cleared for want of a hook. */
  readonly dueNotices: number;
  readonly toldNotices: number;
  readonly droppedNotices: number;
  /** Idempotency keys deleted at the end of their lifetime. */
  readonly expiredKeys: number;
  /** Checkout sessions deleted a month after they expired without any payment attempt. */
  readonly abandonedSessions: number;
  /** Orders whose customer's details were erased by age (`personalDataDays`); 0 when it is unset. */
  readonly erasedByAge: number;
}

/**
 * The ledger holds another point of sale's payments. A pass would take them for this one's: its
 * gateway knows none of them, so each would be ended as never sent while its customer may still
 * be paying at the other companion. No pass runs on such a ledger.
 */
export class ForeignLedgerError extends Error {
  readonly code = 'PAYFORM_LEDGER_OF_ANOTHER_POS';
  constructor(held: string, posId: string) {
    super(
      `reconciliation does not run: the ledger holds the payments of point of sale ${held}, and this companion's gateway client is point of sale ${posId} ` +
        `(one ledger keeps one point of sale's payments). Handed over to ${held} (going live)? Then this companion is the old one: stop it. ` +
        `Otherwise give this companion a ledger of its own; or, to hand the ledger to ${posId}, stop every companion of ${held} and hand it over once: ` +
        `await ledger.claimPointOfSale('${posId}', '${held}') (composed: PAYFORM_LEDGER_HANDOVER_FROM=${held})`,
    );
    this.name = 'ForeignLedgerError';
  }
}

export class Reconciler {
  readonly #deps: ReconcilerDeps;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<ReconciliationReport> | undefined;
  #stopped = true;
  /** Ends the pass under way's gateway reads when the companion stops (a slow gateway held a stop for minutes). */
  #halt = new AbortController();
  /** The loop has logged that the ledger is another point of sale's: once, not every pass. */
  #toldForeign = false;
  /** When a pass last said it could not read the gateway, and the passes since that said nothing. */
  #unreachedSaidAt = Number.NEGATIVE_INFINITY;
  #unreachedPasses = 0;
  /** Whether the line last said was of a gateway refusing every read: a change is said at once. */
  #unreachedRefused = false;

  constructor(deps: ReconcilerDeps) {
    this.#deps = deps;
  }

  /** Runs a pass every `intervalMs` until stopped. The timer never keeps the process alive. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule();
  }

  /**
   * Stops the loop and ends a pass under way: its order reads are aborted, and it takes no further
   * order (what it did not reach, the next start's first pass does). A read's answer is only
   * recorded, so nothing is left half done.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#halt.abort(new Error('the companion is stopping'));
    await this.#running?.catch(() => undefined);
  }

  /** One pass now (a pass already running is joined, not doubled). */
  runOnce(): Promise<ReconciliationReport> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.runOnce()
        .catch((error: unknown) => {
          if (this.#deps.outage && isLedgerUnavailable(error)) this.#deps.outage.noticed(error);
          else if (!(error instanceof ForeignLedgerError)) this.#deps.logger.error('a reconciliation pass failed', { err: error });
          else if (!this.#toldForeign) {
            this.#toldForeign = true;
            this.#deps.logger.error(error.message);
          }
        })
        .finally(() => this.#schedule());
    }, this.#deps.timings.intervalMs);
    this.#timer.unref();
  }

  async #pass(): Promise<ReconciliationReport> {
    const { ledger, timings, logger } = this.#deps;
    if (this.#halt.signal.aborted) this.#halt = new AbortController();
    const { signal } = this.#halt;
    await this.#checkOwner();
    const tally = {
      checkedPayments: 0, checkedOperations: 0, settled: 0, cancelled: 0, neverSent: 0, givenUp: 0, checkedEvents: 0, appliedEvents: 0, failures: 0,
      dueNotices: 0, toldNotices: 0, droppedNotices: 0, expiredKeys: 0, abandonedSessions: 0, erasedByAge: 0,
    };
    // Orders the gateway could not be asked about: one line for the pass, not one (and two stacks) each.
    const unreached: Unreached = { orders: 0 };
    const guard = (orderId: string, check: () => Promise<void>, markChecked: () => Promise<void>) => this.#guard(tally, unreached, orderId, check, markChecked, signal);
    const payments = await ledger.listStalePayments({ quietForMs: timings.stalePaymentAfterMs, absentQuietForMs: timings.neverSentSpacingMs, limit: timings.batchSize });
    for (const payment of payments) {
      if (signal.aborted || unreached.refused) break;
      tally.checkedPayments += 1;
      await guard(payment.orderId, () => this.#checkPayment(payment, tally, signal), () => ledger.markPaymentChecked(payment.orderId));
    }
    const operations = await ledger.listUnsettledOperations({
      quietForMs: timings.unsettledOperationAfterMs, absentQuietForMs: timings.neverSentSpacingMs, limit: timings.batchSize,
    });
    for (const operation of operations) {
      if (signal.aborted || unreached.refused) break;
      tally.checkedOperations += 1;
      await guard(operation.orderId, () => this.#checkOperation(operation, tally, signal), () => ledger.markOperationChecked(operation.id));
    }
    const events = await ledger.listWaitingEvents({ quietForMs: timings.unsettledOperationAfterMs, limit: timings.batchSize });
    for (const event of events) {
      if (signal.aborted) break;
      tally.checkedEvents += 1;
      // A retry records its own try, so there is nothing to mark when it fails.
      await guard(event.orderId, () => this.#retryEvent(event, tally), async () => {});
    }
    this.#sayUnreached(unreached);
    // Last, so what this pass settled has had its own chance to be told first.
    const notices = await this.#deps.notices.tellDue(timings.batchSize);
    Object.assign(tally, { dueNotices: notices.due, toldNotices: notices.told, droppedNotices: notices.dropped });
    tally.expiredKeys = await ledger.sweepIdempotencyKeys();
    tally.abandonedSessions = await ledger.sweepAbandonedSessions(SESSIONS_SWEPT_A_PASS);
    tally.erasedByAge = await this.#eraseByAge();
    // Last: a ledger away for it leaves the pass's own work done.
    await this.#deps.missingWebhooks?.look();
    // A pass that only looked (a challenge still open, an event that may never apply) says so at
    // debug: at info, every half minute, it buried the passes that changed something.
    // Orders the gateway could not be asked about changed nothing either: #sayUnreached said them.
    // Nor do notices dropped without a hook: each payment's, half an hour on, routine, which at
    // info made the log follow the traffic of half an hour before.
    const changed = tally.settled + tally.cancelled + tally.neverSent + tally.givenUp + tally.appliedEvents + tally.failures - unreached.orders + tally.toldNotices;
    if (changed > 0) logger.info('reconciliation pass', tally);
    else if (tally.checkedPayments + tally.checkedOperations + tally.checkedEvents + tally.dueNotices + tally.droppedNotices > 0) logger.debug('reconciliation pass', tally);
    return tally;
  }

  /**
   * The customer's details of the decided orders older than `personalDataDays`, erased: one line
   * when some were, counts only (never a person's details, which the line would keep). Not
   * announced on the live feed: a catch-up pass erases hundreds of orders at least a day old,
   * which would push the payments' changes out of its ring; the order's detail says when.
   */
  async #eraseByAge(): Promise<number> {
    const { ledger, logger, clock, personalDataDays } = this.#deps;
    if (personalDataDays === undefined) return 0;
    const erased = await ledger.eraseAgedCustomerDetails({ createdBefore: clock() - personalDataDays * DAY_MS, limit: ORDERS_ERASED_A_PASS }).catch((error: unknown) => {
      // The batches done stay done; the next pass goes on from there. The rest of this pass runs.
      logger.warn('erasing customers’ personal data by age failed this pass; the next one tries again', { err: error });
      return undefined;
    });
    if (!erased) return 0;
    if (erased.orderIds.length > 0) {
      logger.info('customers’ personal data erased by age', {
        orders: erased.orderIds.length, sessions: erased.sessions, events: erased.events, undecided_orders_waiting: erased.undecided, personal_data_days: personalDataDays,
      });
    }
    return erased.orderIds.length;
  }

  /**
   * One line for a pass's orders the gateway could not be asked about, at most once a minute:
   * operator/gateway-trouble.ts says the gateway's trouble itself, and a pass every 15 s saying
   * it again wrote hundreds of lines an hour while the gateway was away. The passes in between
   * are counted in the next line (`passes_since_last_line`).
   */
  #sayUnreached({ refused, ...unreached }: Unreached): void {
    const { logger, clock } = this.#deps;
    if (unreached.orders === 0) return;
    const now = clock();
    if (now - this.#unreachedSaidAt < UNREACHED_SAID_EVERY_MS && Boolean(refused) === this.#unreachedRefused) {
      this.#unreachedPasses += 1;
      return logger.debug('reconciliation could not read the gateway', unreached);
    }
    const passes = this.#unreachedPasses > 0 ? { passes_since_last_line: this.#unreachedPasses } : {};
    this.#unreachedSaidAt = now;
    this.#unreachedPasses = 0;
    this.#unreachedRefused = Boolean(refused);
    if (refused) {
      logger.warn('reconciliation stopped asking the gateway, which refuses its reads (the error logged when it began names the setting to fix): the orders are read on the next pass', { ...unreached, ...passes });
    } else logger.warn('reconciliation could not reach the gateway: those orders are tried again on the next pass', { ...unreached, ...passes });
  }

  /**
   * Claims the ledger for this point of sale, or refuses it (ForeignLedgerError), at every pass
   * (one statement): a handover to another point of sale while this instance runs — a rolling
   * deploy — stops its passes and its payments within one interval, and one back to it resumes
   * them. A composed companion checked it at start already; an app made by createCompanion on a
   * ledger of its caller's has not.
   */
  async #checkOwner(): Promise<void> {
    const { ledger, gateway, readiness } = this.#deps;
    const held = await ledger.claimPointOfSale(gateway.posId);
    const foreign = held !== gateway.posId.toLowerCase();
    if (readiness) readiness.foreignLedger = foreign;
    if (foreign) throw new ForeignLedgerError(held, gateway.posId);
    this.#toldForeign = false;
  }

  /**
   * One order's trouble never stops the pass. A gateway that could not be reached is tried
   * again on the next pass (that read did not count as a check); one that refuses every read —
   * the credentials, another server at its address — ends the pass's reads, none counted as a
   * check; the database away ends the pass (the loop tells the outage tracker); anything else — a refusal,
   * an unreadable answer, a fault of the ledger or of this code — is logged and the order is
   * marked checked, so it waits its turn instead of holding the head of every batch.
   */
  async #guard(
    tally: { failures: number },
    unreached: Unreached,
    orderId: string,
    check: () => Promise<void>,
    markChecked: () => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    const { logger } = this.#deps;
    try {
      await check();
    } catch (error) {
      // Stopping: the read was ended, not failed.
      if (signal.aborted) return;
      // The database away (its disk full, say) is no one order's trouble: every order would meet
      // it, each logged with a stack. The pass ends, and the loop tells the outage, said once.
      if (isLedgerUnavailable(error)) throw error;
      tally.failures += 1;
      // Not a check: marked checked, the order would also wait out another instance's turn.
      const refused = refusesEveryRead(error);
      if (refused || isGatewayUnreachable(error)) {
        const reason = error instanceof Error ? error.message : String(error);
        unreached.orders += 1;
        unreached.first_order_id ??= orderId;
        unreached.reason = refused ? reason : (unreached.reason ?? reason);
        if (refused) unreached.refused = true;
        logger.debug('could not reconcile an order: the gateway could not be read', { order_id: orderId, err: error });
        return;
      }
      logger.error('could not reconcile an order', { order_id: orderId, err: error });
      await markChecked().catch((markError: unknown) => logger.error('could not mark an order checked', { order_id: orderId, err: markError }));
    }
  }

  async #checkPayment(payment: Payment, tally: { settled: number; cancelled: number; neverSent: number; givenUp: number }, signal: AbortSignal): Promise<void> {
    const { ledger, orderState, gateway, clock, timings, reactions } = this.#deps;
    const readFrom = clock();
    const state = await orderState.refresh(payment.orderId, 'reconciliation', { signal });
    if (!state.found) {
      if (state.neverSent) tally.neverSent += 1;
      // Since it was last sent: an attempt sent again under its order id starts afresh, also one
      // sent again while this read the gateway (the ledger checks under the row's lock).
      if (clock() - payment.updatedAt >= timings.giveUpAfterMs) {
        const progress = await ledger.giveUpPayment(payment.orderId, Math.min(readFrom, clock() - timings.giveUpAfterMs));
        if (progress?.progress === 'advanced') {
          tally.givenUp += 1;
          // Ended as never sent before (this pass's read too), it was counted and said then.
          if (progress.payment.unsentAt === null && gatewayAnswered(payment)) reactions.givenUpLost(progress.payment);
          await reactions.paymentAdvanced(progress.payment, 'reconciliation');
        }
        return;
      }
      await ledger.markPaymentChecked(payment.orderId);
      return;
    }
    const now = state.payment ?? payment;
    if (now.status === 'success' || now.status === 'failure') {
      // Counted and told by the instance whose read settled it: another one reading the same
      // order in the same minute (several companions on one database) finds it done.
      if (!state.advanced) return;
      tally.settled += 1;
      return;
    }
    // A page nobody can reach — its address lost with the gateway's answer — is cancelled too,
    // freeing its session for a fresh one: the customer's next click would otherwise meet it.
    // Its age as listed, before this read: the read itself may record what the gateway showed. An
    // attempt listed as never sent may have been sent again since (a click, under its order id):
    // listed so, it is no lost page.
    const lost = payment.unsentAt === null && pageLost({ ...now, updatedAt: payment.updatedAt }, clock(), gateway.timeoutMs);
    if (now.mode === 'hosted' && now.status === 'init' && (lost || (await this.#sessionExpired(now)))) {
      const cancelled = await gateway.payments.cancel(now.orderId);
      if (cancelled.length > 0) await orderState.refresh(now.orderId, 'reconciliation');
      tally.cancelled += 1;
      return;
    }
    await ledger.markPaymentChecked(payment.orderId);
    // Still open at the gateway too: the webhook may have been lost; ask for it again.
    await gateway.orders.resendWebhook(now.orderId, now.method, {}, { currency: now.currency }).catch((error: unknown) => {
      this.#deps.logger.debug('webhook re-send not possible', { order_id: now.orderId, err: error });
    });
  }

  async #checkOperation(operation: Operation, tally: { settled: number; neverSent: number; givenUp: number }, signal: AbortSignal): Promise<void> {
    const { ledger, orderState, clock, timings, reactions } = this.#deps;
    const state = await orderState.refresh(operation.orderId, 'reconciliation', { signal });
    const now = (await ledger.getOperation(operation.id)) ?? operation;
    // Each reservation the read ended as never sent: this one, or another of the order's, whose
    // own check then finds it ended (not settled by the gateway), or which this pass never takes.
    if (state.found) tally.neverSent += state.neverSent.size;
    if (state.found && state.neverSent.has(operation.id)) return;
    if (now.status !== 'pending') {
      // Ended here without the gateway's word is not settled. With no order at the gateway, a
      // read ended every reservation of the order: each is counted at its own check.
      if (now.status === 'failure' && now.statusDescription === NEVER_REACHED) tally.neverSent += state.found ? 0 : 1;
      else tally.settled += 1;
      return;
    }
    // Only an operation the gateway does not show at all never reached it. One it shows as
    // pending is waiting at the gateway (or its acquirer): released here, it could still
    // succeed there — a refund paid twice.
    const shown = state.found && state.shown.has(operation.id);
    if (!shown && clock() - operation.createdAt >= timings.giveUpAfterMs) {
      const settled = await ledger.settleOperation(operation.id, { status: 'failure', statusDescription: NEVER_REACHED });
      if (settled.progress === 'advanced') {
        tally.givenUp += 1;
        await reactions.operationAdvanced(settled.operation, 'reconciliation');
      }
      return;
    }
    // Looked at: the next pass takes the reservations not checked for longest first.
    await ledger.markOperationChecked(operation.id);
  }

  /**
   * A webhook that could not be applied when it came (its order or its reservation's operation
   * id not known yet) is tried again, as a re-delivery would. One still waiting after
   * `giveUpAfterMs` will most likely never apply (a payment this ledger lost, another shop's
   * order): it keeps its turn, and the first try past that age warns, once, so a person looks
   * at it (the back office lists it). Every try warning kept a line per event each pass.
   */
  async #retryEvent(event: StoredEvent, tally: { appliedEvents: number }): Promise<void> {
    const { ledger, reactions, clock, timings, logger } = this.#deps;
    const retried = await ledger.retryEvent(event.id);
    if (retried?.event.outcome === 'applied') tally.appliedEvents += 1;
    else if (clock() - event.receivedAt >= timings.giveUpAfterMs && event.triedAt - event.receivedAt < timings.giveUpAfterMs) {
      logger.warn('a webhook event still applies to nothing in the ledger', {
        order_id: event.orderId, event_id: event.id, method: event.method, status: event.status, outcome: retried?.event.outcome ?? event.outcome,
        waiting_ms: clock() - event.receivedAt,
      });
    }
    if (retried?.advanced && retried.payment && !retried.operation) await reactions.paymentAdvanced(retried.payment, 'reconciliation');
    if (retried?.flagged && retried.payment) await reactions.discrepancyNoted(retried.payment, 'reconciliation');
    if (retried?.advanced && retried.operation) await reactions.operationAdvanced(retried.operation, 'reconciliation');
  }

  async #sessionExpired(payment: Payment): Promise<boolean> {
    const session = await this.#deps.ledger.getSession(payment.sessionId);
    return session === undefined || session.expiresAt <= this.#deps.clock() || session.closedAt !== null;
  }
}
