/**
 * Gateway answers the ledger could not take because the database was away. The payment exists
 * at the gateway (a 3-D Secure challenge open for the customer, or already decided) but the
 * ledger's row still says `init`. The pay request answers from it at once (heldAnswer: on to the
 * bank, or pending), and the answer is held in memory and written the moment the database is
 * back (LedgerOutage's probe), or first by the session's next pay request. So is a capture, void
 * or refund the gateway made, whose reservation stays pending meanwhile. A held answer lost
 * with the process is what reconciliation has always covered.
 */
import { isLedgerUnavailable } from '../../ledger/index.js';
import { waitAtMost } from '../http/in-flight.js';
import type { Logger } from '../log/logger.js';
import type { LedgerOutage } from '../operator/ledger-outage.js';

interface Held {
  readonly orderId: string;
  readonly write: () => Promise<void>;
  /** The write under way: the probe and a click arriving together write once. */
  running?: Promise<void>;
}

export class HeldAnswers {
  readonly #held = new Map<string, Held>();
  readonly #outage: LedgerOutage;
  readonly #logger: Logger;

  constructor(outage: LedgerOutage, logger: Logger) {
    this.#outage = outage;
    this.#logger = logger;
  }

  /**
   * Keeps `write` (recording the gateway's answer for `key`: a session's id, or an operation's)
   * until the database is back.
   */
  hold(key: string, orderId: string, error: unknown, write: () => Promise<void>): void {
    this.#outage.noticed(error);
    this.#logger.warn('the gateway answered while the database was away; the answer is held until it is back', { order_id: orderId });
    this.#held.set(key, { orderId, write });
    this.#whenBack(key);
  }

  /**
   * Writes what is held for `key`, if anything; a session's next pay request calls it
   * before reading the attempt. Throws (and keeps it held) while the database is still away.
   */
  release(key: string): Promise<void> {
    const held = this.#held.get(key);
    if (!held) return Promise.resolve();
    held.running ??= held.write().then(
      () => void this.#held.delete(key),
      (error: unknown) => {
        held.running = undefined;
        if (!isLedgerUnavailable(error)) {
          // Not an outage: reconciliation reads the order's state, as for any lost answer.
          this.#held.delete(key);
          this.#logger.error('a held gateway answer could not be recorded; reconciliation will read the order', { order_id: held.orderId, err: error });
          return;
        }
        this.#outage.noticed(error);
        this.#whenBack(key);
        throw error;
      },
    );
    return held.running;
  }

  /**
   * At stop: writes what is held once more, waiting at most `withinMs`, and says what is left
   * (the database still away) and so dropped with the process: reconciliation reads those orders
   * from the gateway once a companion runs on the ledger again.
   */
  async flush(withinMs: number): Promise<void> {
    if (this.#held.size === 0) return;
    await waitAtMost(Promise.allSettled([...this.#held.keys()].map((key) => this.release(key))), withinMs);
    if (this.#held.size === 0) return;
    this.#logger.warn(
      `stopped with ${this.#held.size} gateway ${this.#held.size === 1 ? 'answer' : 'answers'} not recorded, the database still away: ` +
        'reconciliation reads those orders from the gateway once a companion runs on this ledger again',
      { order_ids: [...this.#held.values()].map((held) => held.orderId) },
    );
  }

  #whenBack(key: string): void {
    void this.#outage.back().then(() => this.release(key).catch(() => undefined));
  }
}
