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

function progression<S extends string>(ranks: Readonly<Record<S, number>>): Progression<S> {
  const entries = Object.entries<number>(ranks);
  const finalRank = Math.max(...entries.map(([, rank]) => rank));
  // One raw fragment of the ledger's own status names (never input): cheap to compile.
  const storedRank = sql.raw<number>(`(case status ${entries.map(([status, rank]) => `when '${status}' then ${rank}`).join(' ')} end)`);
  return {
    rank: (status) => ranks[status],
    isFinal: (status) => ranks[status] === finalRank,
    forward: (rank) => sql<SqlBool>`${storedRank} < ${rank}`,
    same: (status) => sql<SqlBool>`status = ${status}`,
  };
}

export const paymentProgression = progression<PaymentStatus>({ init: 0, pending: 1, success: 2, failure: 2 });
export const operationProgression = progression<OperationStatus>({ pending: 0, success: 1, failure: 1 });

/**
 * Moves a row forward: first the UPDATE guarded by `forward`, else the one guarded by `same`
 * (only that one `from` 'updated', when the first was tried already).
 * 'stale' when neither changed a row (or the row is missing; the caller tells them apart).
 * Each UPDATE is atomic on its own, so concurrent writers agree.
 */
export async function progressTo<Row>(update: (step: 'advanced' | 'updated') => Promise<Row | undefined>, from: 'advanced' | 'updated' = 'advanced'): Promise<{ progress: Progress; row?: Row }> {
  const advanced = from === 'advanced' ? await update('advanced') : undefined;
  if (advanced) return { progress: 'advanced', row: advanced };
  const updated = await update('updated');
  return updated ? { progress: 'updated', row: updated } : { progress: 'stale' };
}
