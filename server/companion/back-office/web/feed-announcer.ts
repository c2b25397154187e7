/**
 * What the live feed tells a screen reader. The rows that change flash for the eye; the ear gets
 * one polite line for what changed over a few seconds, not a line a change: a busy shop would
 * otherwise talk over everything else on the page. The operator's own action is heard alone, and
 * the changes it causes (its order's webhook, arriving before or just after its answer) are its
 * echo, not news.
 */
import type { Change } from './admin-api.js';

/** How long changes are gathered before they are said, and the least time between two lines. */
export const GATHER_MS = 3_000;
export const BETWEEN_MS = 15_000;
/** How long the operator's own line is heard alone, and its order's changes taken for its echo. */
export const OWN_MS = 10_000;

/** The changes said: the latest of each order, oldest first. */
export type Say = (changes: readonly Change[]) => void;

export class FeedAnnouncer {
  /** By order: its latest change (re-set, so the Map's order is that of the latest changes). */
  readonly #gathered = new Map<string, Change>();
  readonly #actedOn = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saidAt = -Infinity;
  #ownAt = -Infinity;

  constructor(
    private readonly say: Say,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page said the outcome of the operator's own action, on `orderId` when it had one. */
  own(orderId?: string): void {
    const now = this.now();
    this.#ownAt = now;
    if (orderId === undefined) return;
    this.#actedOn.set(orderId, now);
    this.#gathered.delete(orderId);
  }

  change(change: Change): void {
    // Sessions opened and closed are the shop's own bookkeeping, not news of money.
    if (change.kind === 'session') return;
    const acted = this.#actedOn.get(change.order_id);
    if (acted !== undefined && this.now() - acted < OWN_MS) return;
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

  #flush(): void {
    const now = this.now();
    const wait = Math.max(this.#ownAt + OWN_MS, this.#saidAt + BETWEEN_MS) - now;
    if (wait > 0) {
      this.#timer = setTimeout(() => this.#flush(), wait);
      return;
    }
    this.#timer = undefined;
    for (const [order, at] of this.#actedOn) if (now - at >= OWN_MS) this.#actedOn.delete(order);
    if (this.#gathered.size === 0) return;
    const changes = [...this.#gathered.values()];
    this.#gathered.clear();
    this.#saidAt = now;
    this.say(changes);
  }
}
