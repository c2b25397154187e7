/**
 * The back office's live view: every status change this instance makes or learns, numbered in
 * order, kept in a bounded ring for clients that poll (`?after=<seq>`) or reconnect to the
 * event stream (`Last-Event-ID`). It is per instance: behind a load balancer, pin the back
 * office to one instance or poll the orders list instead.
 *
 * The numbers start afresh with each process, from a point of its start time (`feedStart`): a
 * seq kept from a process before a restart, or from another instance, falls outside what this
 * feed numbered, and is answered as incomplete (read everything again) rather than as a place in
 * this feed, whose first changes it would skip.
 */

/**
 * Where a feed started at `now` (epoch ms) numbers from: four a millisecond, so a feed begun
 * later starts past any seq an earlier one reached, unless that one averaged more than 4,000
 * changes a second over its life; 13 digits for centuries, inside the 15 a seq may have.
 */
export function feedStart(now: number): number {
  return 4 * Math.floor(now);
}

export interface Change {
  /** Increases by one per change, from the feed's start (`ChangeFeed.start`) + 1. */
  readonly seq: number;
  /**
   * `discrepancy`: the gateway reported what contradicts the order (payment.discrepancy);
   * `customer`: the order's customer details were erased (status `erased`).
   */
  readonly kind: 'payment' | 'operation' | 'session' | 'discrepancy' | 'customer';
  readonly orderId: string;
  readonly status: string;
  /** The operation (capture, void, refund) for `operation` changes. */
  readonly operationId?: string;
  readonly operationKind?: string;
  /** What told the companion: the gateway's answer, a webhook, the reconciler… */
  readonly source: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

export type ChangeListener = (change: Change) => void;

export class ChangeFeed {
  readonly #capacity: number;
  /**
   * The latest changes, oldest first: the ring is its last `#capacity` entries. It may hold up to
   * as many again before the oldest are cut off in one go: dropping one change at each publish
   * (`shift`) moved the whole ring, about a microsecond and a half a change at the default size.
   */
  #changes: Change[] = [];
  readonly #listeners = new Set<ChangeListener>();
  #seq: number;
  /** The seq before the first change: a cursor of this feed is never below it. */
  readonly start: number;

  constructor({ capacity = 1000, start = 0 }: { readonly capacity?: number; readonly start?: number } = {}) {
    // At least one kept: slice(-0) would keep them all.
    this.#capacity = Math.max(1, Math.floor(capacity));
    this.start = start;
    this.#seq = start;
  }

  /** The latest sequence number (`start` before the first change). */
  get seq(): number {
    return this.#seq;
  }

  publish(change: Omit<Change, 'seq'>): Change {
    // Object.assign, not `{ ...change, seq }`: a spread given a key it lacked gets a map of its
    // own each time on Node 20, about four times the copy. A change holds plain fields only.
    const numbered: Change = Object.assign({}, change, { seq: ++this.#seq });
    this.#changes.push(numbered);
    if (this.#changes.length > 2 * this.#capacity) this.#changes = this.#changes.slice(-this.#capacity);
    for (const listener of this.#listeners) listener(numbered);
    return numbered;
  }

  /**
   * Changes after `seq`, oldest first, at most `limit`; `lastSeq` is where the next read starts:
   * the last change given when `limit` cut them, the latest otherwise (the latest would skip the
   * rest of a cut page). `complete` is false when they were cut, when some after `seq` were
   * already dropped from the ring, or when `seq` is not this feed's (before its start or past
   * its latest: a feed that began again with a restart, or another instance's): the client
   * should reload everything then.
   */
  since(seq: number, limit = this.#capacity): { changes: Change[]; lastSeq: number; complete: boolean } {
    const ring = this.#ring();
    const oldest = ring[0]?.seq ?? this.#seq + 1;
    const changes = ring.filter((change) => change.seq > seq).slice(0, limit);
    // Not cut, the last change given is the latest; none given, nothing is after `seq` now.
    const lastSeq = changes.at(-1)?.seq ?? this.#seq;
    return { changes, lastSeq, complete: seq >= oldest - 1 && seq <= this.#seq && lastSeq === this.#seq };
  }

  /** The changes kept: the last `#capacity` published. */
  #ring(): Change[] {
    return this.#changes.length > this.#capacity ? this.#changes.slice(-this.#capacity) : this.#changes;
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
