// Group commit for SQLite: work that arrives while a transaction is open waits, and the next
// transaction runs all of it, each piece under its own savepoint. One commit — one write of the
// WAL — then serves the whole group; on a busy webhook endpoint the commit is most of an
// event's cost. Nothing waits for a group to fill: work that finds the queue idle starts at the
// end of the current turn of the event loop (setImmediate), so the deliveries read off the
// sockets in the same turn join it. Without that turn better-sqlite3, being synchronous, would
// run and commit each HTTP delivery's transaction before the next request is even parsed.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery } from 'kysely';
import type { LedgerContext, LedgerDb } from './context.js';
import { oncePerLedger } from './prepared.js';

const SAVEPOINT = CompiledQuery.raw('savepoint group_piece');
const RELEASE = CompiledQuery.raw('release group_piece');
const ROLLBACK = CompiledQuery.raw('rollback to group_piece');

/** A bound on one transaction's length, so the first piece of a long queue is not held back. */
const MAX_GROUP = 128;

interface Piece {
  readonly work: (trx: LedgerDb) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export class GroupCommit {
  readonly #db: LedgerDb;
  #queue: Piece[] = [];
  #draining = false;

  constructor(db: LedgerDb) {
    this.#db = db;
  }

  /**
   * Runs `work` in a transaction shared with the work queued beside it. A piece that throws
   * is rolled back alone (its savepoint) and rejects; the others commit. If the commit itself
   * fails, every piece of the group rejects and none of it is stored.
   */
  run<T>(work: (trx: LedgerDb) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        await nextTurn();
        const group = this.#queue.splice(0, MAX_GROUP);
        let outcomes: Outcome[];
        try {
          outcomes = await this.#db.transaction().execute(async (trx) => {
            const done: Outcome[] = [];
            for (const piece of group) {
              await trx.executeQuery(SAVEPOINT);
              try {
                done.push({ ok: true, value: await piece.work(trx) });
              } catch (error) {
                await trx.executeQuery(ROLLBACK);
                done.push({ ok: false, error });
              }
              await trx.executeQuery(RELEASE);
            }
            return done;
          });
        } catch (error) {
          for (const piece of group) piece.reject(error);
          continue;
        }
        group.forEach((piece, index) => {
          const outcome = outcomes[index]!;
          if (outcome.ok) piece.resolve(outcome.value);
          else piece.reject(outcome.error);
        });
      }
    } finally {
      this.#draining = false;
    }
  }
}

type InTransaction = <T>(work: (trx: LedgerDb) => Promise<T>) => Promise<T>;

/**
 * Where the webhook path's writes go — storing an event, clearing a notice mark after the hook:
 * on SQLite one group commit per database (one writer, and the synced commit is most of a small
 * write's cost); on PostgreSQL a transaction each (instances and connections work at once).
 */
export const sharedTransactions = oncePerLedger((ctx: LedgerContext): InTransaction => {
  if (ctx.dialect === 'postgres') return (work) => ctx.db.transaction().execute(work);
  const group = new GroupCommit(ctx.db);
  return (work) => group.run(work);
});
