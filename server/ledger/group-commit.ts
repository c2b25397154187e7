// Group commit: work that arrives while a transaction is open waits, and the next transaction
// runs all of it. One commit — one synced write of the WAL — then serves the whole group; on a
// busy webhook endpoint the commit is most of an event's cost (and on PostgreSQL each event's
// BEGIN and COMMIT are round trips of their own). Nothing waits for a group to fill: work that
// finds the queue idle starts at the end of the current turn of the event loop (setImmediate),
// so the deliveries read off the sockets in the same turn join it. Without that turn
// better-sqlite3, being synchronous, would run and commit each HTTP delivery's transaction
// before the next request is even parsed.
//
// The pieces run one after another with nothing between them: no savepoint each (on SQLite two
// statements more per event, on PostgreSQL two round trips). A piece is not expected to fail —
// the webhook path settles a repeat without undoing anything — so when one does, the whole
// group is rolled back and every piece runs again in a transaction of its own: only the
// failing one fails, and the others are stored as if grouping had never happened.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LedgerContext, LedgerDb } from './context.js';
import { oncePerLedger } from './prepared.js';

/** A bound on one transaction's length, so the first piece of a long queue is not held back. */
const MAX_GROUP = 128;

interface Piece {
  readonly work: (trx: LedgerDb) => Promise<unknown>;
  readonly key: string;
  /** Need not be synced (LedgerContext `lightly`): a group of only such pieces is not. */
  readonly relaxed: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Lightly = LedgerContext['lightly'];

export class GroupCommit {
  readonly #db: LedgerDb;
  readonly #lightly: Lightly;
  #queue: Piece[] = [];
  #draining = false;

  constructor(db: LedgerDb, lightly: Lightly = (work) => work(db)) {
    this.#db = db;
    this.#lightly = lightly;
  }

  /**
   * Runs `work` in a transaction shared with the work queued beside it. A piece that throws
   * rejects and leaves nothing stored; the others commit. `work` may run twice (the second
   * time alone, after its group was rolled back): it must do nothing but its statements.
   * `key` names what the work locks (its order): a group runs its pieces in key order.
   * `relaxed`: one statement whose commit need not wait for the disk; it shares a group's
   * synced commit when there is one, and alone it runs as the ledger's light writes do.
   */
  run<T>(work: (trx: LedgerDb) => Promise<T>, key = '', relaxed = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, key, relaxed, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        await nextTurn();
        // In key order (stable: one order's pieces keep theirs), so that two groups — of two
        // instances on PostgreSQL — take their orders' locks in the same order and cannot deadlock.
        const group = this.#queue.splice(0, MAX_GROUP).sort(byKey);
        if (group.length === 1) {
          await this.#alone(group[0]!);
          continue;
        }
        let values: unknown[];
        try {
          const all = async (trx: LedgerDb) => {
            const done: unknown[] = [];
            for (const piece of group) done.push(await piece.work(trx));
            return done;
          };
          values = await (group.every((piece) => piece.relaxed) ? this.#lightly((db) => db.transaction().execute(all)) : this.#db.transaction().execute(all));
        } catch {
          // Rolled back: each piece again on its own, so that only a failing one fails.
          for (const piece of group) await this.#alone(piece);
          continue;
        }
        group.forEach((piece, index) => piece.resolve(values[index]));
      }
    } finally {
      this.#draining = false;
    }
  }

  async #alone(piece: Piece): Promise<void> {
    try {
      piece.resolve(await (piece.relaxed ? this.#lightly(piece.work) : this.#db.transaction().execute(piece.work)));
    } catch (error) {
      piece.reject(error);
    }
  }
}

/** `key`: the order (or row) whose locks the work takes. */
function byKey(a: Piece, b: Piece): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

type InTransaction = <T>(work: (trx: LedgerDb) => Promise<T>, key: string, relaxed?: boolean) => Promise<T>;

/**
 * Groups at once on PostgreSQL: while one waits for its round trips the database works on
 * another's (the pool holds 10 connections; the pay path keeps the rest).
 */
const POSTGRES_LANES = 4;

/**
 * Where the webhook path's writes go — storing an event, clearing a notice mark after the hook:
 * group commits, one at a time on SQLite (one writer); on PostgreSQL a few side by side, each
 * order always in the same one, so that two groups of this instance never wait for each
 * other's locks on an order.
 */
export const sharedTransactions = oncePerLedger((ctx: LedgerContext): InTransaction => {
  const lanes = Array.from({ length: ctx.dialect === 'postgres' ? POSTGRES_LANES : 1 }, () => new GroupCommit(ctx.db, ctx.lightly));
  if (lanes.length === 1) return (work, key, relaxed) => lanes[0]!.run(work, key, relaxed);
  return (work, key, relaxed) => lanes[laneOf(key, lanes.length)]!.run(work, key, relaxed);
});

/** A cheap, stable spread of keys (FNV-1a). */
function laneOf(key: string, lanes: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}
