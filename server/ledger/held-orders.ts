// A person settles a held order: the gateway reported what contradicts it (discrepancies.ts),
// and they put it right with the customer or at the gateway. The reports stay; the mark says so.
import type { LedgerContext } from './context.js';
import { discrepancyVersion } from './discrepancies.js';
import { LedgerConflict } from './errors.js';
import { discrepancySettlementInput, parseInput } from './input.js';
import { getPayment } from './payments.js';
import { toPayment } from './rows.js';
import type { Payment } from './types.js';
import { PAYMENT_COLUMNS } from './columns.js';

/**
 * A person settled a held order — with the customer, or at the gateway — and says how: the
 * discrepancy is kept whole, marked settled, and the order leaves the held list. `version` is the
 * discrepancy's as the person read it: a report that came since is one they have not seen, so the
 * mark is refused (`discrepancy_changed`) rather than laid over it; one that comes after it holds
 * the order again. The order's unmatched webhook events are marked reviewed with it. The payment
 * as it is then, or undefined for an unknown order.
 */
export async function settleDiscrepancy(ctx: LedgerContext, orderId: string, input: { note: string; version: number }): Promise<Payment | undefined> {
  const { note, version } = parseInput(discrepancySettlementInput, input);
  const payment = await getPayment(ctx, ctx.db, orderId);
  if (!payment) return undefined;
  const { discrepancy } = payment;
  if (discrepancy === null) throw new LedgerConflict('no_discrepancy', `Order ${orderId} is not held: the gateway reported nothing that contradicts it`);
  if (discrepancy.settled !== undefined) throw new LedgerConflict('discrepancy_settled', `Order ${orderId} is settled already (${new Date(discrepancy.settled.settledAt).toISOString()}): a further report of the gateway's would hold it again`);
  const current = discrepancyVersion(discrepancy);
  if (version !== current) throw changedSince(orderId, current);
  const now = ctx.now();
  const settled = { ...discrepancy, settled: { settledAt: now, note, version } };
  const row = await ctx.db.transaction().execute(async (trx) => {
    // Only while the column holds what was read: a report noted meanwhile is not settled unseen.
    const marked = await trx
      .updateTable('payments')
      .set({ mismatch_report: JSON.stringify(settled), updated_at: now })
      .where('order_id', '=', orderId)
      .where('mismatch_report', '=', JSON.stringify(discrepancy))
      .returning(PAYMENT_COLUMNS)
      .executeTakeFirst();
    // The order's events that apply to nothing brought its reports: settled with them, they
    // leave the unmatched list and its alert, and are not tried again (which, past the reports
    // kept, would hold the order again each time).
    if (marked) {
      await trx
        .updateTable('webhook_events')
        .set({ reviewed_at: now })
        .where('order_id', '=', orderId)
        .where('outcome', '=', 'unmatched')
        .where('applied_at', 'is', null)
        .where('reviewed_at', 'is', null)
        .execute();
    }
    return marked;
  });
  if (row) return toPayment(row);
  const read = await getPayment(ctx, ctx.db, orderId);
  throw read?.discrepancy?.settled !== undefined
    ? new LedgerConflict('discrepancy_settled', `Order ${orderId} was settled meanwhile`)
    : changedSince(orderId, read?.discrepancy ? discrepancyVersion(read.discrepancy) : current);
}

function changedSince(orderId: string, version: number): LedgerConflict {
  return new LedgerConflict('discrepancy_changed', `Order ${orderId}'s discrepancy is at version ${version}, not the one sent: read the order (the gateway may have reported again since), then settle version ${version}`);
}
