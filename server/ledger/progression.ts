// Forward-only status: init < pending < success|failure for payments, pending < success|failure
// for operations. The store writes a new status only through a guarded UPDATE, so a late or
// reordered update can never move a final state back, whatever the caller remembers to check.
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import type { OperationStatus, PaymentStatus, Progress } from './types.js';

export interface Progression<S extends string> {
  rank(status: S): number;
  isFinal(status: S): boolean;
  /** SQL: the stored status ranks below `rank` (a value, or a prepared query's slot). */
  forward(rank: unknown): Expression<SqlBool>;
  /** SQL: the stored status is `status` (a refresh of details). */
  same(status: unknown): Expression<SqlBool>;
}

/**
 * SQL: the stored status is one of `statuses` (values, or a prepared query's slots), in a
 * statement that finds its row by key. Written so that no index leading with status can serve
 * it: PostgreSQL plans a prepared statement once per connection, often while the tables are
 * still small and unanalysed, and there an index on (status, …) costs the same as the key. It
 * keeps that plan as the table grows, and then walks every row of that status to find one.
 */
export function isStatus(...statuses: readonly unknown[]): Expression<SqlBool> {
  return sql<SqlBool>`(status in (${sql.join(statuses)})) is true`;
}

function progression<S extends string>(ranks: Readonly<Record<S, number>>): Progression<S> {
  const entries = Object.entries<number>(ranks);
  const finalRank = Math.max(...entries.map(([, rank]) => rank));
  // One raw fragment of the ledger's own status names (never input): cheap to compile.
  const storedRank = sql.raw<number>(`(case status ${entries.map(([status, rank]) => `when '${status}' then ${rank}`).join(' ')} end)`);
  return {
    rank: (status) => ranks[status],
    isFinal: (status) => ranks[status] === finalRank,
    forward: (rank) => sql<SqlBool>`${storedRank} < ${rank}`,
    same: (status) => isStatus(status),
  };
}

export const paymentProgression = progression<PaymentStatus>({ init: 0, pending: 1, success: 2, failure: 2 });
export const operationProgression = progression<OperationStatus>({ pending: 0, success: 1, failure: 1 });

/**
 * Which guarded UPDATE to try: 'advanced', the forward step first, then the refresh of the same
 * status; 'updated', only the refresh (the forward step was tried already); 'updated-first', the
 * refresh first, then the forward step — for an update most likely saying what is stored. The
 * two never both apply, so in a transaction that holds the row's lock the order changes nothing
 * but how many statements it takes.
 */
export type StepOrder = 'advanced' | 'updated' | 'updated-first';

/**
 * Moves a row forward: the UPDATE guarded by `forward`, or the one guarded by `same`, in the
 * order `from` says. 'stale' when neither changed a row (or the row is missing; the caller tells
 * them apart). Each UPDATE is atomic on its own, so concurrent writers agree.
 */
export async function progressTo<Row>(update: (step: 'advanced' | 'updated') => Promise<Row | undefined>, from: StepOrder = 'advanced'): Promise<{ progress: Progress; row?: Row }> {
  if (from === 'updated-first') {
    const updated = await update('updated');
    if (updated) return { progress: 'updated', row: updated };
    const advanced = await update('advanced');
    return advanced ? { progress: 'advanced', row: advanced } : { progress: 'stale' };
  }
  const advanced = from === 'advanced' ? await update('advanced') : undefined;
  if (advanced) return { progress: 'advanced', row: advanced };
  const updated = await update('updated');
  return updated ? { progress: 'updated', row: updated } : { progress: 'stale' };
}
