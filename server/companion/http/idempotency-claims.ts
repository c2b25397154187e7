/**
 * Settling an Idempotency-Key's claim once its request has been answered — storing the answer,
 * freeing the key, or ending the claim's lease — when the database is away at that moment: the
 * claim would otherwise hold the key for its whole lease (5 min), every retry on any instance
 * answered 409 "still running" for work that no longer runs, or a completed request's answer
 * never kept. So the settling is held in memory and done as soon as the database answers again
 * (LedgerOutage's probe, every second while it is away), or first by a retry under the key that
 * reaches this instance. Every settling is guarded by the claim's id, so one done late — after
 * another instance took the claim over — changes nothing.
 *
 * The lease then only bounds what this process cannot settle: when it died (crash, SIGKILL, its
 * host lost) or stopped with a settling held, or cannot reach a database that other instances
 * can, another instance takes the key over once the lease has run out (idempotency-keys.ts).
 */
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { Logger } from '../log/logger.js';
import type { LedgerOutage } from '../operator/ledger-outage.js';

/** What tells of the database's outages, where a settling that failed otherwise is said, and of which request. */
export interface SettlingDeps {
  readonly outage: LedgerOutage;
  readonly logger: Logger;
  readonly path: string;
}

interface Held {
  readonly settle: () => Promise<void>;
  readonly deps: SettlingDeps;
  /** Under way: the probe and a retry arriving together settle once. */
  running?: Promise<void>;
}

/** One per companion: the claims of its own requests that wait for the database to settle them. */
export class UnsettledClaims {
  readonly #held = new Map<string, Held>();

  /**
   * Settles the claim on `key` now; if the database is away, holds it until it is back. Never
   * throws: the client has its answer either way.
   */
  async settle(key: string, settle: () => Promise<void>, deps: SettlingDeps): Promise<void> {
    try {
      await settle();
    } catch (error) {
      if (!isLedgerUnavailable(error)) return failed(deps, error);
      // Said by the outage tracker, once however many statements meet it (this may be the only
      // one that did: the request itself was answered).
      deps.outage.noticed(error);
      deps.logger.debug('an idempotency key is held until the database is back, then settled', { path: deps.path, err: error });
      this.#held.set(key, { settle, deps });
      this.#whenBack(key, deps.outage);
    }
  }

  /**
   * Before `key` is claimed again: what this instance holds of it settled first, so its retry
   * finds the key as the first request left it. Throws while the database is still away (the
   * retry is answered 503, as its claim would be). Nothing held: no statement, no wait.
   */
  settleFirst(key: string): Promise<void> | undefined {
    return this.#held.has(key) ? this.#run(key) : undefined;
  }

  #run(key: string): Promise<void> {
    const held = this.#held.get(key);
    if (!held) return Promise.resolve();
    held.running ??= held.settle().then(
      () => void this.#held.delete(key),
      (error: unknown) => {
        held.running = undefined;
        if (!isLedgerUnavailable(error)) {
          this.#held.delete(key);
          return failed(held.deps, error);
        }
        held.deps.outage.noticed(error);
        this.#whenBack(key, held.deps.outage);
        throw error;
      },
    );
    return held.running;
  }

  #whenBack(key: string, outage: LedgerOutage): void {
    void outage.back().then(() => this.#run(key).catch(() => undefined));
  }
}

/** Not the database away: a fault, said; the claim is left to its lease. */
function failed({ logger, path }: SettlingDeps, error: unknown): void {
  logger.error('the idempotency key could not be settled; it is held until its lease ends', { path, err: error });
}
