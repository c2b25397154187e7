/**
 * /readyz's read of the ledger, shared. The route needs no credential, so without this anyone —
 * or a probe misconfigured to poll every few milliseconds — makes the companion send the database
 * one statement per request. Requests that come while a read is under way wait for it, and its
 * result answers those that come within READ_REUSED_MS after it; an outage a payment's request
 * noticed meanwhile is not covered by an earlier good read (the route asks again).
 */
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import type { LedgerOutage } from './ledger-outage.js';

/**
 * How long one read answers for: well under any balancer's probe interval (5–10 s), so a
 * readiness change shows at its next probe, and a stranger's flood costs one read a second.
 */
export const READ_REUSED_MS = 1_000;

/** A readiness probe gives up on the database after this long: a hung database is not ready. */
const READ_TIMEOUT_MS = 2_000;

export class LedgerReadiness {
  #pending: Promise<boolean> | undefined;
  #last: { readonly at: number; readonly read: boolean } | undefined;

  constructor(
    private readonly ledger: Ledger,
    private readonly outage: LedgerOutage,
    private readonly clock: () => number,
  ) {}

  /** Whether the ledger answers a read: the read under way, or one finished less than READ_REUSED_MS ago. */
  readable(): Promise<boolean> {
    const last = this.#last;
    const fresh = last !== undefined && this.clock() - last.at < READ_REUSED_MS && !(last.read && this.outage.down);
    if (fresh) return Promise.resolve(last.read);
    this.#pending ??= this.#read().then((read) => {
      this.#last = { at: this.clock(), read };
      this.#pending = undefined;
      return read;
    });
    return this.#pending;
  }

  async #read(): Promise<boolean> {
    try {
      await withTimeout(this.ledger.listOrders({ limit: 1 }), READ_TIMEOUT_MS);
      return true;
    } catch (error) {
      // A database that does not answer in time is not ready either; only a refused or cut
      // connection starts an outage (logged once, probed until it is back).
      if (isLedgerUnavailable(error)) this.outage.noticed(error, { probe: true });
      return false;
    }
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
