// Forward-only status: init < pending < success|failure for payments, pending < success|failure
// for operations. The store writes a new status only through a guarded UPDATE, so a late or
// reordered update can never move a final state back, whatever the caller remembers to check.
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import type { OperationStatus, PaymentStatus, Progress } from './types.js';

interface Guards {
  /** The stored status ranks below the new one. */
  readonly forward: Expression<SqlBool>;
  /** The stored status is the new one (a refresh of details). */
  readonly same: Expression<SqlBool>;
}

export interface Progression<S extends string> {
  isFinal(status: S): boolean;
  guards(status: S): Guards;
}

// Built once: these fragments sit on the webhook hot path.
function progression<S extends string>(ranks: Readonly<Record<S, number>>): Progression<S> {
  const entries = Object.entries<number>(ranks);
  const finalRank = Math.max(...entries.map(([, rank]) => rank));
  const storedRank = sql<number>`(case ${sql.ref('status')} ${sql.join(
    entries.map(([status, rank]) => sql`when ${sql.lit(status)} then ${sql.lit(rank)}`),
    sql` `,
  )} end)`;
  const guards = new Map<string, Guards>(
    entries.map(([status, rank]) => [
      status,
      { forward: sql<SqlBool>`${storedRank} < ${sql.lit(rank)}`, same: sql<SqlBool>`${sql.ref('status')} = ${sql.lit(status)}` },
    ]),
  );
  return {
    isFinal: (status) => ranks[status] === finalRank,
    guards: (status) => guards.get(status)!,
  };
}

export const paymentProgression = progression<PaymentStatus>({ init: 0, pending: 1, success: 2, failure: 2 });
export const operationProgression = progression<OperationStatus>({ pending: 0, success: 1, failure: 1 });

/** One guarded UPDATE … RETURNING; resolves to the changed row, if the guard let it change. */
export type GuardedUpdate<Row> = (guard: Expression<SqlBool>, progress: 'advanced' | 'updated') => Promise<Row | undefined>;

/**
 * Moves a row to `status`: first as a step forward, else as a refresh of the same status.
 * 'stale' when neither matched (or the row is missing; the caller tells them apart). Each
 * UPDATE is atomic on its own, so concurrent writers agree.
 */
export async function progressTo<S extends string, Row>(
  progression: Progression<S>,
  status: S,
  update: GuardedUpdate<Row>,
): Promise<{ progress: Progress; row?: Row }> {
  const { forward, same } = progression.guards(status);
  const advanced = await update(forward, 'advanced');
  if (advanced) return { progress: 'advanced', row: advanced };
  const updated = await update(same, 'updated');
  return updated ? { progress: 'updated', row: updated } : { progress: 'stale' };
}
