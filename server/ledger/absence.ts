// The gateway's "not there" answers, counted: when every read of a window answers that an
// attempt's order or a reservation's operation does not exist, it never reached the gateway.
// Counted in the row with guards, so any number of instances reading at once count a read once.
import type { LedgerContext } from './context.js';
import { absentReadInput, parseInput } from './input.js';
import { isStatus } from './progression.js';
import type { AbsenceCount, AbsentRead } from './types.js';

/**
 * A read sent at `readAt` found no such order for this attempt. It counts when the attempt is
 * still `init` — or `pending`: a payment the gateway acknowledged and then lost (restarted without
 * it) is no more there than one it never saw — and was sent before the read, and the last counted read was sent at least
 * `spacingMs` before it; the `reads`-th counted read ends the attempt as never sent (`unsent_at`),
 * which frees its session for a new send under the same order id.
 */
export async function countAbsentPayment(ctx: LedgerContext, orderId: string, input: AbsentRead): Promise<AbsenceCount | undefined> {
  const read = parseInput(absentReadInput, input);
  const row = await ctx.db
    .updateTable('payments')
    .set((eb) => ({
      absent_reads: eb('absent_reads', '+', 1),
      absent_read_at: read.readAt,
      unsent_at: eb.case().when('absent_reads', '>=', read.reads - 1).then(read.readAt).else(null).end(),
    }))
    .where('order_id', '=', orderId)
    .where(isStatus('init', 'pending'))
    .where('unsent_at', 'is', null)
    // A payment held for a discrepancy was seen by the gateway.
    .where('mismatch_report', 'is', null)
    .where('updated_at', '<=', read.readAt)
    .where((eb) => eb.or([eb('absent_read_at', 'is', null), eb('absent_read_at', '<=', read.readAt - read.spacingMs)]))
    .returning(['absent_reads', 'unsent_at'])
    .executeTakeFirst();
  return row && { reads: row.absent_reads, neverSent: row.unsent_at !== null };
}

/** The gateway showed the order: what was counted starts over, and it is no longer unsent. */
export async function clearAbsentPayment(ctx: LedgerContext, orderId: string): Promise<void> {
  await ctx.db
    .updateTable('payments')
    .set({ absent_reads: 0, absent_read_at: null, unsent_at: null })
    .where('order_id', '=', orderId)
    .where((eb) => eb.or([eb('absent_reads', '>', 0), eb('unsent_at', 'is not', null)]))
    .execute();
}

/**
 * A read sent at `readAt` did not show this reservation. Counted like a payment's; the caller
 * settles it as a failure when the window is complete (a reservation is never sent again).
 */
export async function countAbsentOperation(ctx: LedgerContext, id: string, input: AbsentRead): Promise<AbsenceCount | undefined> {
  const read = parseInput(absentReadInput, input);
  const row = await ctx.db
    .updateTable('operations')
    .set((eb) => ({ absent_reads: eb('absent_reads', '+', 1), absent_read_at: read.readAt }))
    .where('id', '=', id)
    .where(isStatus('pending'))
    .where('created_at', '<=', read.readAt)
    .where((eb) => eb.or([eb('absent_read_at', 'is', null), eb('absent_read_at', '<=', read.readAt - read.spacingMs)]))
    .returning('absent_reads')
    .executeTakeFirst();
  return row && { reads: row.absent_reads, neverSent: row.absent_reads >= read.reads };
}

/** The gateway may be showing this reservation: what was counted starts over. */
export async function clearAbsentOperation(ctx: LedgerContext, id: string): Promise<void> {
  await ctx.db.updateTable('operations').set({ absent_reads: 0, absent_read_at: null }).where('id', '=', id).where('absent_reads', '>', 0).execute();
}
