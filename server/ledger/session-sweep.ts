// Checkout sessions nobody paid: most page views open one and never pay, and each would be kept
// for ever. A session past ABANDONED_SESSION_KEPT_MS since it expired, without a single payment
// attempt, is deleted with its no_card_sessions mark. One with any attempt, whatever its status,
// is part of an order's record (its payments point at it) and stays.
import { sql } from 'kysely';
import { z } from 'zod';
import type { LedgerContext, LedgerDb } from './context.js';
import { parseInput } from './input.js';
import { holdPassCursor, movePassCursor, readPassCursor, samePosition } from './pass-cursor.js';
import type { PassPosition } from './pass-cursor.js';

/**
 * How long an unpaid session is kept after it expired. A customer opening an old link, or
 * support looking at it, is told it expired rather than that it never was; the back office shows
 * the session of an order id a customer quotes for weeks after. A month covers both.
 */
export const ABANDONED_SESSION_KEPT_MS = 30 * 24 * 3_600_000;

/** The setting that holds how far the sweep has looked, `<expires_at> <id>`. */
const CURSOR = 'session_sweep';

const sweepLimit = z.strictObject({ limit: z.number().int().positive().max(10_000) });


/**
 * Deletes up to `limit` sessions expired more than ABANDONED_SESSION_KEPT_MS ago that have no
 * payment attempt; how many it deleted.
 *
 * Each pass looks on from where the last one stopped (in expires_at order, a setting): a
 * session that old takes no attempt any more (a claim needs it unexpired) and none is opened
 * already expired, so what the sweep has passed never needs another look. Without that, the
 * paid sessions at the front of the index — an order's each, for ever — would be read again
 * every pass. A pass looks at `limit` sessions at most, so fewer than `limit` deleted does not
 * mean none is left where most are paid.
 *
 * The write lock on SQLite, and the cursor's row lock on PostgreSQL, make instances sweeping
 * at once take turns. A session is deleted only by a statement that finds no payment for it
 * at that moment, and the payments' foreign key refuses the delete of one a claim has inserted
 * a row for meanwhile (the sweep then fails, the payment stands).
 */
export async function sweepAbandonedSessions(ctx: LedgerContext, limit: number): Promise<number> {
  const most = parseInput(sweepLimit, { limit }).limit;
  const cutoff = ctx.now() - ABANDONED_SESSION_KEPT_MS;
  // Most passes find nothing due: two reads, no write.
  const seen = await readPassCursor(ctx.db, CURSOR);
  const due = await sessionsDue(ctx.db, seen, cutoff, most);
  if (due.length === 0) return 0;
  return ctx.db.transaction().execute(async (trx) => {
    const from = await holdPassCursor(trx, CURSOR);
    const batch = samePosition(from, seen) ? due : await sessionsDue(trx, from, cutoff, most);
    const last = batch.at(-1);
    if (!last) return 0;
    const ids = batch.map(({ key }) => key);
    const swept = await trx
      .deleteFrom('checkout_sessions')
      .where('id', 'in', ids)
      .where('expires_at', '<=', cutoff)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payments').select(sql.lit(1).as('one')).whereRef('payments.session_id', '=', 'checkout_sessions.id'))))
      .returning('id')
      .execute();
    if (swept.length > 0) {
      const sweptIds = swept.map(({ id }) => id);
      await trx.deleteFrom('no_card_sessions').where('session_id', 'in', sweptIds).execute();
      await trx.deleteFrom('fixed_end_sessions').where('session_id', 'in', sweptIds).execute();
    }
    await movePassCursor(trx, CURSOR, last);
    return swept.length;
  });
}

/** The sessions past the cutoff after `from`, oldest first (the expiry index, read from `from`). */
async function sessionsDue(db: LedgerDb, from: PassPosition, cutoff: number, limit: number): Promise<PassPosition[]> {
  const rows = await db
    .selectFrom('checkout_sessions')
    .select(['id', 'expires_at'])
    .where(sql<boolean>`(expires_at, id) > (${from.at}, ${from.key})`)
    .where('expires_at', '<=', cutoff)
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ at: Number(row.expires_at), key: row.id }));
}

/** The expiry before which every unpaid session is gone (0: the sweep has not run on this ledger). */
export async function sweptUpTo(db: LedgerDb): Promise<number> {
  return Math.max(0, (await readPassCursor(db, CURSOR)).at);
}
