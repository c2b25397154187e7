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
import { isLedgerUnavailable } from './availability.js';
import { oncePerLedger } from './prepared.js';
import { LedgerNotDurable } from './durability.js';

/** A bound on one transaction's length, so the first piece of a long queue is not held back. */
const MAX_GROUP = 128;

/** PostgreSQL's unique violation (another instance stored the event first) and deadlock. */
const EXPECTED_BATCH_FAILURES = new Set(['23505', '40P01']);

/**
 * PostgreSQL gave the piece's transaction up to let another through — a deadlock it broke (two
 * companions applying copies of one webhook, their locks taken in turn), a serialization
 * failure — and rolled it back whole: it runs again, up to this many times in all, before it
 * fails as any other.
 */
// A piece is its statements alone (no call out, no state of its own), so running it again does
// what it would have done once; a light piece on PostgreSQL is one statement, which PostgreSQL
// rolled back as it failed.
const RUN_AGAIN_CODES = new Set(['40P01', '40001']);
const TRIES_ALONE = 3;

/** Whether PostgreSQL rolled `error`'s transaction back whole to let another through (a deadlock, a serialization failure): run again, it does what it would have done. */
export function givenUpForAnother(error: unknown): boolean {
  return RUN_AGAIN_CODES.has(String((error as { code?: unknown } | null)?.code));
}

/** Keys whose piece failed lately: kept this many, the oldest forgotten first. */
const MAX_SUSPECTS = 64;

/**
 * Many pieces' usual work as one statement, run outside any transaction (PostgreSQL: one round
 * trip for a group instead of BEGIN, one per piece, COMMIT). The statement must be atomic on
 * its own and settle an item only when it can settle it entirely: an item it leaves (its result
 * undefined) runs its piece's `work` in the group's transaction instead, as does every item when
 * the statement throws.
 */
export interface Batch<Item> {
  run(db: LedgerDb, items: readonly Item[]): Promise<readonly unknown[]>;
}

/** A piece's way into a batch: the statement, and the piece's item of it. */
export interface Batched<Item = unknown> {
  readonly batch: Batch<Item>;
  readonly item: Item;
}

/** How a piece may run besides in its group's synced transaction. */
export interface PieceOptions<T = unknown> {
  /**
   * Its commit need not wait for the disk: always (`true`: what it writes the gateway holds and
   * says again), or when its result says it changed nothing the ledger must keep (a webhook that
   * repeats what is stored). A group commits without a sync only when every piece says so.
   */
  readonly relaxed?: boolean | ((value: T) => boolean);
  /** The work may instead be settled by one statement with its group's (Batch). */
  readonly batched?: Batched;
}

interface Piece {
  readonly work: (trx: LedgerDb) => Promise<unknown>;
  readonly key: string;
  /** Whether its result may commit without a sync (PieceOptions `relaxed`). */
  readonly relaxed: (value: unknown) => boolean;
  /** Always relaxed: alone, it runs as the ledger's light writes do, without a transaction. */
  readonly light: boolean;
  batched: Batched | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const never = () => false;
const always = () => true;

type Lightly = LedgerContext['lightly'];
type CommitLightly = LedgerContext['commitLightly'];

export class GroupCommit {
  readonly #db: LedgerDb;
  readonly #lightly: Lightly;
  readonly #commitLightly: CommitLightly;
  #queue: Piece[] = [];
  #draining = false;
  /** Keys whose piece failed alone: their next pieces run alone too, so they cannot undo a group. */
  readonly #suspects = new Set<string>();
  /** An unexpected batch failure has been told (#batchFailed). */
  #warned = false;

  constructor(db: LedgerDb, lightly: Lightly = (work) => work(db), commitLightly: CommitLightly = () => undefined) {
    this.#db = db;
    this.#lightly = lightly;
    this.#commitLightly = commitLightly;
  }

  /**
   * Runs `work` in a transaction shared with the work queued beside it. A piece that throws
   * rejects and leaves nothing stored; the others commit. `work` may run twice (the second
   * time alone, after its group was rolled back): it must do nothing but its statements.
   * `key` names what the work locks (its order): a group runs its pieces in key order.
   * `relaxed` work shares a group's synced commit when another piece needs one; a group whose
   * pieces all may go unsynced commits without waiting for the disk — decided once they ran.
   */
  run<T>(work: (trx: LedgerDb) => Promise<T>, key = '', { relaxed = false, batched }: PieceOptions<T> = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const relaxedBy = relaxed === true ? always : relaxed === false ? never : (relaxed as (value: unknown) => boolean);
      this.#queue.push({ work, key, relaxed: relaxedBy, light: relaxed === true, batched, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        await nextTurn();
        // In key order (stable: one order's pieces keep theirs), so that two groups — of two
        // instances on PostgreSQL — mostly take their orders' locks in the same order. A batch
        // statement's locks follow its plan instead; a deadlock that makes is PostgreSQL's to
        // break, and its group runs again piece by piece.
        const taken = this.#queue.splice(0, MAX_GROUP).sort(byKey);
        // A key that failed lately runs alone, before the group, so it cannot undo the others.
        // Told apart once: a suspect that succeeds alone is no longer one, yet ran already.
        const suspects = taken.filter((piece) => this.#suspects.has(piece.key));
        const group = taken.filter((piece) => !this.#suspects.has(piece.key));
        for (const piece of suspects) await this.#alone(piece);
        if (group.length > 0 && group.every((piece) => piece.batched)) {
          // The usual group: one statement, its own commit, no transaction around it. A key's
          // later pieces (an order's success right behind its pending, a repeat) wait for the
          // next group, first in the queue, rather than make this one a transaction of rounds.
          const firsts = firstsOfKeys(group);
          const firstSet = new Set(firsts);
          this.#queue.unshift(...group.filter((piece) => !firstSet.has(piece)));
          const left = await this.#settleFirsts(this.#db, firsts);
          if (left.length > 0) await this.#together(left);
        } else if (group.length > 0) {
          await this.#together(group);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * The pieces in one transaction, and one commit: first what batches settle — each round the
   * first piece left of each key, so a key's pieces still run in their order — then the rest.
   * When anything fails, all of it is rolled back and each piece runs again alone — except a
   * commit whose sync failed (LedgerNotDurable): it landed, so no piece may run again.
   */
  async #together(group: Piece[]): Promise<void> {
    if (group.length === 1 && !group[0]!.batched) return this.#alone(group[0]!);
    let values: Map<Piece, unknown>;
    try {
      const all = async (trx: LedgerDb) => {
        const done = new Map<Piece, unknown>();
        let left = group;
        for (;;) {
          const settled = await this.#settleFirsts(trx, left, done);
          if (settled === left) break;
          left = settled;
        }
        for (const piece of left) done.set(piece, await piece.work(trx));
        if (group.every((piece) => piece.relaxed(done.get(piece)))) this.#commitLightly();
        return done;
      };
      values = await this.#db.transaction().execute(all);
    } catch (error) {
      // Committed, then the disk failed: nothing may run twice, nothing more can run. Or the
      // database is away: each piece alone would wait out the same outage again, one after
      // another (a stall held the last of a group for 17 s); the gateway sends them again.
      if (error instanceof LedgerNotDurable || isLedgerUnavailable(error)) {
        for (const piece of group) piece.reject(error);
        return;
      }
      // Rolled back: each piece again on its own, so that only a failing one fails.
      for (const piece of group) {
        piece.batched = undefined;
        await this.#alone(piece);
      }
      return;
    }
    for (const piece of group) piece.resolve(values.get(piece));
  }

  /**
   * One round of batches over the first piece of each key; returns the pieces left (the same
   * array when no piece was up for a batch). Settled pieces go into `done` when given (their
   * transaction is not committed yet), else they are resolved. A batch that throws throws in a
   * transaction (which is rolled back), and settles nothing outside one.
   */
  async #settleFirsts(db: LedgerDb, pieces: Piece[], done?: Map<Piece, unknown>): Promise<Piece[]> {
    const firsts = firstsOfKeys(pieces).filter((piece) => piece.batched);
    if (firsts.length === 0) return pieces;
    const settled = new Set<Piece>();
    for (const [batch, batched] of byBatch(firsts)) {
      const running = batch.run(
        db,
        batched.map((piece) => piece.batched!.item),
      );
      // Outside a transaction a failed statement stored nothing: its pieces are left, to run
      // the ordinary way — unless the database is away, which would fail them there too.
      let away: unknown;
      const values = done
        ? await running
        : await running.catch((error: unknown): readonly unknown[] => {
            if (isLedgerUnavailable(error)) away = error;
            else this.#batchFailed(error);
            return [];
          });
      batched.forEach((piece, index) => {
        piece.batched = undefined;
        if (away !== undefined) {
          settled.add(piece);
          return piece.reject(away);
        }
        if (values[index] === undefined) return;
        settled.add(piece);
        if (done) done.set(piece, values[index]);
        else piece.resolve(values[index]);
      });
    }
    return pieces.filter((piece) => !settled.has(piece));
  }

  /**
   * Another instance storing the same event, or a deadlock PostgreSQL broke, fails a batch now
   * and then (a database that cannot be reached fails its pieces at once, as an outage).
   * Anything else fails it every time (a schema or a server the statement does not
   * suit): the events still go in, the slow way, and the operator hears of it once — by its
   * code only, as a driver's message may quote a value.
   */
  #batchFailed(error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    if (this.#warned || (typeof code === 'string' && EXPECTED_BATCH_FAILURES.has(code))) return;
    this.#warned = true;
    process.emitWarning(
      `payform ledger: the statement that stores a group of webhook events at once failed (${typeof code === 'string' ? `code ${code}` : (error as Error)?.name ?? 'unknown error'}); events are stored one by one instead, which is slower. Check the ledger database's version and schema.`,
      { code: 'PAYFORM_LEDGER_BATCH_FAILED' },
    );
  }

  async #alone(piece: Piece): Promise<void> {
    for (let tries = 1; ; tries += 1) {
      try {
        piece.resolve(await (piece.light ? this.#lightly(piece.work) : this.#db.transaction().execute((trx) => this.#once(piece, trx))));
        this.#suspects.delete(piece.key);
        return;
      } catch (error) {
        if (tries < TRIES_ALONE && givenUpForAnother(error)) continue;
        this.#suspect(piece.key);
        return piece.reject(error);
      }
    }
  }

  /** A piece alone in its transaction, whose commit its result may relax. */
  async #once(piece: Piece, trx: LedgerDb): Promise<unknown> {
    const value = await piece.work(trx);
    if (piece.relaxed(value)) this.#commitLightly();
    return value;
  }

  #suspect(key: string): void {
    this.#suspects.delete(key);
    this.#suspects.add(key);
    if (this.#suspects.size > MAX_SUSPECTS) this.#suspects.delete(this.#suspects.values().next().value!);
  }
}

/** Of pieces in key order, the first of each key. */
function firstsOfKeys(pieces: readonly Piece[]): Piece[] {
  return pieces.filter((piece, index) => index === 0 || pieces[index - 1]!.key !== piece.key);
}

function byBatch(pieces: readonly Piece[]): Map<Batch<unknown>, Piece[]> {
  const batches = new Map<Batch<unknown>, Piece[]>();
  for (const piece of pieces) {
    const batch = piece.batched!.batch;
    batches.set(batch, [...(batches.get(batch) ?? []), piece]);
  }
  return batches;
}

/** `key`: the order (or row) whose locks the work takes. */
function byKey(a: Piece, b: Piece): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

type InTransaction = <T>(work: (trx: LedgerDb) => Promise<T>, key: string, options?: PieceOptions<T>) => Promise<T>;

/**
 * Where the webhook path's writes go — storing an event, clearing a notice mark after the hook:
 * one group commit per ledger, on PostgreSQL as on SQLite. On PostgreSQL there used to be four
 * side by side, while each group cost a round trip an event; now a group's usual events are one
 * statement however many they are, and one group at a time makes the largest groups: at the
 * ledger, 16 in flight, 1,000 payments, two groups side by side cost 328 µs of CPU an event at
 * 1,438/s, one 109 µs at 3,859/s (docs/performance-history.md, "Third round"). It also holds
 * one connection of the pool at most, so a burst of webhooks never leaves a payment waiting for one.
 */
export const sharedTransactions = oncePerLedger((ctx: LedgerContext): InTransaction => {
  const group = new GroupCommit(ctx.db, ctx.lightly, ctx.commitLightly);
  return (work, key, options) => group.run(work, key, options);
});
