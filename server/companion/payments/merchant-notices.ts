/**
 * Telling the merchant's `onPaymentEvent` hook, at least once. The ledger marks every change due
 * in the statement that makes it; the companion tells it at once and clears the mark. What was
 * not told — the hook threw, or the process stopped before it returned — reconciliation tells
 * again from the ledger's current record, backing off while the hook keeps failing. Several
 * instances share the work: each claim leases its rows, so one row's hook runs once at a time.
 *
 * With no hook there is no one to tell: a pass clears the marks in bulk (one statement per
 * table), so nothing piles up, and every instance sharing a ledger should be given the same hook.
 */
import { isLedgerUnavailable, operationNotice, paymentNotice } from '../../ledger/index.js';
import type { DueNotice, Ledger, NoticeState } from '../../ledger/index.js';
import { waitAtMost } from '../http/in-flight.js';
import type { InFlight } from '../http/in-flight.js';
import type { Logger } from '../log/logger.js';
import { discrepancyChange, hookName, operationChange, paymentChange } from './payment-change.js';
import type { PaymentChange, PaymentEventHook } from './payment-change.js';

/** How long a claimed notice is this instance's to tell before another may try. */
export const NOTICE_LEASE_MS = 60_000;

/**
 * Longest whoever made a change (a pay answer, a webhook's acknowledgement) waits for the hook
 * told at once; it carries on after that, tracked so that stopping waits for it.
 */
const TELL_WAIT_MS = 2_000;

/** After the n-th failed retry, the next one waits this long (the last one repeats). */
const RETRY_DELAYS_MS = [15_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];
/** Payments whose change failed here that are kept in mind until a pass takes them up. */
const MISSED_KEPT = 10_000;

/** What one reconciliation pass did with notices. */
export interface NoticeReport {
  /** Claimed to be told again, and of those told. */
  readonly due: number;
  readonly told: number;
  /** Marks cleared because no hook is configured. */
  readonly dropped: number;
}

interface NoticeDeps {
  readonly ledger: Ledger;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly hook: PaymentEventHook | undefined;
  /** A call taking longer is given up on here (it may still finish) and told again later. */
  readonly hookTimeoutMs: number;
  /** Without a hook, marks no instance told for this long are cleared (reconciliation's give-up time). */
  readonly dropAfterMs: number;
  /** Calls still running when their maker stopped waiting. */
  readonly background: InFlight;
}

export class MerchantNotices {
  readonly #deps: NoticeDeps;
  /**
   * The hook's failures since it last returned. Of the changes told at once, the first failure of
   * a streak is an error and the rest debug: a receiver down would log every payment. Each pass
   * that tells it again and fails still logs one error, the streak's reminder.
   */
  #failures = 0;
  /**
   * Payments whose change this instance failed to tell as it was made, until a pass takes it up:
   * their operations' changes wait meanwhile. Bounded: a receiver down for long leaves the
   * oldest to the ledger's count of attempts, which a pass sets.
   */
  readonly #missed = new Set<string>();

  constructor(deps: NoticeDeps) {
    this.#deps = deps;
  }

  /**
   * Tells a change just made, waiting for it at most TELL_WAIT_MS. A throw is logged; the
   * change stays due for reconciliation.
   */
  async tell(change: PaymentChange): Promise<void> {
    const { hook, background } = this.#deps;
    if (!hook) return;
    await waitAtMost(background.track(this.#tellNow(hook, change)), TELL_WAIT_MS);
  }

  async #tellNow(hook: PaymentEventHook, change: PaymentChange): Promise<void> {
    const { logger } = this.#deps;
    // An operation's change waits while its payment's is to be told again (the hook failed on
    // it): told now, a refund would reach the merchant before the success it refunds.
    // Reconciliation tells the two in order; the operation's mark stays for it meanwhile. A
    // payment's call still running is no reason to wait: the merchant has that change (a hook
    // that captures as it hears of the payment must not have its capture held back).
    if (change.kind === 'operation' && (await this.#paymentRetold(change.orderId))) {
      logger.debug('a change of an operation waits for its payment’s to be told first', { order_id: change.orderId });
      return;
    }
    try {
      await this.#call(hook, change);
    } catch (error) {
      if (change.kind === 'payment') this.#missedPayment(change.orderId);
      const first = ++this.#failures === 1;
      const message = `${hookName(hook)} failed; reconciliation tells the change again`;
      const fields = { order_id: change.orderId, kind: change.kind, err: error };
      if (first) logger.error(`${message} (the next failures of changes told at once are logged at debug until it works again)`, fields);
      else logger.debug(message, fields);
      return;
    }
    this.#recovered(hook);
    // Its newer change told, a payment missed before holds nothing back (no pass would take it up).
    if (change.kind === 'payment') this.#missed.delete(change.orderId);
    // A flagged payment's record has two things to tell, and the mark cannot say whether the
    // other one was told (its call may have thrown): it stays, and reconciliation tells both.
    if (tellsWholeRecord(change)) await this.#told(stateOf(change));
  }

  #missedPayment(orderId: string): void {
    this.#missed.add(orderId);
    // The oldest first: a Set iterates in the order entries came.
    if (this.#missed.size > MISSED_KEPT) this.#missed.delete(this.#missed.values().next().value!);
  }

  /**
   * Whether the payment's change is to be told again: its call here failed, or a pass has taken
   * it up (on any instance). So taken when the ledger cannot say, the operation's mark left for
   * reconciliation, which reads it again.
   */
  async #paymentRetold(orderId: string): Promise<boolean> {
    if (this.#missed.has(orderId)) return true;
    try {
      return await this.#deps.ledger.paymentNoticeRetried(orderId);
    } catch (error) {
      if (!isLedgerUnavailable(error)) this.#deps.logger.error('could not read whether a payment’s change was told; its operation’s is told by reconciliation', { order_id: orderId, err: error });
      return true;
    }
  }

  /**
   * Tells what is due (at most `batchSize` payments and as many operations). Without a hook, drops
   * what has waited longer than `dropAfterMs`: an instance with one (a rolling deploy adding it)
   * would have told it by then, so nothing it could tell is lost and nothing piles up.
   */
  async tellDue(batchSize: number): Promise<NoticeReport> {
    const { hook, ledger, clock, dropAfterMs } = this.#deps;
    if (!hook) return { due: 0, told: 0, dropped: await ledger.dropNotices(clock() - dropAfterMs) };
    let due = 0;
    let told = 0;
    for (const kind of ['payment', 'operation'] as const) {
      // One claim per call, so each call has the whole lease: rows claimed together would wait
      // for the calls before them, and another instance could claim them once the lease ran out.
      for (let n = 0; n < batchSize; n++) {
        const [notice] = await ledger.claimNotices({ limit: 1, leaseMs: NOTICE_LEASE_MS, kind });
        if (!notice) break;
        // Taken up, its attempt counted: the ledger says from now on that it is told again.
        if (notice.kind === 'payment') this.#missed.delete(notice.payment.orderId);
        due += 1;
        // A hook that fails or hangs is down for the rest too: they keep their marks for the
        // next pass, and this one goes on with the reconciler's other work.
        if (!(await this.#retell(notice, hook))) return { due, told, dropped: 0 };
        told += 1;
      }
    }
    return { due, told, dropped: 0 };
  }

  async #retell(notice: DueNotice, hook: PaymentEventHook): Promise<boolean> {
    const { ledger, logger, clock } = this.#deps;
    const changes = changesOf(notice);
    const state = notice.kind === 'payment' ? paymentNotice(notice.payment) : operationNotice(notice.operation);
    try {
      for (const change of changes) await this.#call(hook, change);
    } catch (error) {
      const retryInMs = RETRY_DELAYS_MS[Math.min(notice.attempt, RETRY_DELAYS_MS.length) - 1]!;
      logger.error(`${hookName(hook)} failed again; the change is told again later`, {
        order_id: changes[0]?.orderId, attempt: notice.attempt, retry_in_ms: retryInMs, err: error,
      });
      await ledger.noticeFailed(state, clock() + retryInMs);
      this.#failures += 1;
      return false;
    }
    this.#recovered(hook);
    await this.#told(state);
    return true;
  }

  #recovered(hook: PaymentEventHook): void {
    if (this.#failures === 0) return;
    this.#deps.logger.info(`${hookName(hook)} works again`, { failures: this.#failures });
    this.#failures = 0;
  }

  /** The hook's call, or a HookTimeout once it has taken `hookTimeoutMs`. */
  async #call(hook: PaymentEventHook, change: PaymentChange): Promise<void> {
    const limitMs = this.#deps.hookTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new HookTimeout(limitMs)), limitMs);
    });
    try {
      await Promise.race([hook(change), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A ledger that cannot clear the mark only makes the change be told again. */
  async #told(state: NoticeState): Promise<void> {
    await this.#deps.ledger.noticeTold(state).catch((error: unknown) => {
      this.#deps.logger.warn('could not record that the merchant was told; it will be told again', { err: error });
    });
  }
}

class HookTimeout extends Error {
  constructor(limitMs: number) {
    super(`the hook did not return within ${limitMs} ms`);
    this.name = 'HookTimeout';
  }
}

/** The ledger state a change tells: its whole record, as it was when told. */
function stateOf(change: PaymentChange): NoticeState {
  return change.kind === 'operation' ? operationNotice(change.operation) : paymentNotice(change.payment);
}

/** Whether a change is all its record has to tell (a flagged payment past init has two things: its discrepancy and its status). */
function tellsWholeRecord(change: PaymentChange): boolean {
  return change.kind === 'operation' || change.payment.discrepancy === null || change.payment.status === 'init';
}

/** What a due record tells: a payment's discrepancy (if noted) and its status; an operation's status. */
function changesOf(notice: DueNotice): PaymentChange[] {
  if (notice.kind === 'operation') return [operationChange(notice.operation, 'redelivery')];
  const { payment } = notice;
  const discrepancy = discrepancyChange(payment, 'redelivery');
  return [...(discrepancy ? [discrepancy] : []), ...(payment.status === 'init' ? [] : [paymentChange(payment, 'redelivery')])];
}
