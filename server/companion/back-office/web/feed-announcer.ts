/**
 * What the live feed tells a screen reader. The rows that change flash for the eye; the ear gets
 * one polite line for what changed over a few seconds, not a line a change: a busy shop would
 * otherwise talk over everything else on the page. The operator's own action is heard alone, and
 * the change it said (its order's webhook of that status, arriving before or just after its
 * answer) is its echo, not news; a later status of that order is.
 */
import type { Change } from './admin-api.js';

/** How long changes are gathered before they are said, and the least time between two lines. */
export const GATHER_MS = 3_000;
export const BETWEEN_MS = 15_000;
/** How long the operator's own line is heard alone, and its order's changes taken for its echo. */
export const OWN_MS = 10_000;

/** Statuses no later step follows. */
const FINAL: ReadonlySet<string> = new Set(['success', 'failure']);

/** What the operator's own line said of an order: the feed brings that change too. */
export interface Echo {
  readonly orderId: string;
  readonly status: string;
}

/** The changes said: the latest of each order, oldest first. */
export type Say = (changes: readonly Change[]) => void;

export class FeedAnnouncer {
  /** By order: its latest change (re-set, so the Map's order is that of the latest changes). */
  readonly #gathered = new Map<string, Change>();
  /** By order: the status the operator's own line said of it, and when. */
  readonly #actedOn = new Map<string, { readonly status: string; readonly at: number }>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saidAt = -Infinity;
  #ownAt = -Infinity;

  constructor(
    private readonly say: Say,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The page told the operator what their own action came to: `echo`, the order and the status it
   * said, when the feed will bring that change too. A later status of it (a refund said pending,
   * then its success) is news.
   */
  own(echo?: Echo): void {
    const now = this.now();
    this.#ownAt = now;
    if (echo === undefined) return;
    this.#actedOn.set(echo.orderId, { status: echo.status, at: now });
    // What is gathered of the order is news only if it is past what was said (a success said
    // "pending"); the same or an earlier step is behind it.
    const gathered = this.#gathered.get(echo.orderId);
    if (gathered && !(FINAL.has(gathered.status) && !FINAL.has(echo.status))) this.#gathered.delete(echo.orderId);
  }

  change(change: Change): void {
    // Sessions opened and closed, and a customer's details erased, are the shop's own bookkeeping, not news of money.
    if (change.kind === 'session' || change.kind === 'customer') return;
    if (this.#isEcho(change, this.now())) {
      // An earlier step of it gathered before is behind what was said.
      this.#gathered.delete(change.order_id);
      return;
    }
    this.#gathered.delete(change.order_id);
    this.#gathered.set(change.order_id, change);
    this.#timer ??= setTimeout(() => this.#flush(), GATHER_MS);
  }

  /** Signed out: nothing gathered is said. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#gathered.clear();
    this.#actedOn.clear();
  }

  #isEcho(change: Change | undefined, now: number): boolean {
    const acted = change && this.#actedOn.get(change.order_id);
    return acted !== undefined && acted.status === change!.status && now - acted.at < OWN_MS;
  }

  #flush(): void {
    const now = this.now();
    const wait = Math.max(this.#ownAt + OWN_MS, this.#saidAt + BETWEEN_MS) - now;
    if (wait > 0) {
      this.#timer = setTimeout(() => this.#flush(), wait);
      return;
    }
    this.#timer = undefined;
    for (const [order, { at }] of this.#actedOn) if (now - at >= OWN_MS) this.#actedOn.delete(order);
    if (this.#gathered.size === 0) return;
    const changes = [...this.#gathered.values()];
    this.#gathered.clear();
    this.#saidAt = now;
    this.say(changes);
  }
}
