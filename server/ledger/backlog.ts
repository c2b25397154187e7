// What is still waiting in the ledger, for an operator's gauges (the companion's /metrics):
// payments waiting for the gateway's outcome, reservations without its answer, and webhook
// events stored but not applied, payments held for a person. Aggregate reads over
// partial-index-sized sets.
// An attempt ended as never sent keeps `init` (its session sends it again under the same
// order id) but waits for the customer, not the gateway: counted, it held the oldest-age
// gauge up and fired the documented alert until reconciliation gave it up.
import { sql } from 'kysely';
import type { SqlBool } from 'kysely';
import type { LedgerContext } from './context.js';
import { UNSETTLED } from './discrepancies.js';
import type { LedgerBacklog } from './types.js';

export async function readBacklog(ctx: LedgerContext): Promise<LedgerBacklog> {
  const payments = await ctx.db
    .selectFrom('payments')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number | null>('created_at').as('oldest')])
    .where('status', 'in', ['init', 'pending'])
    .where('unsent_at', 'is', null)
    // Held for a discrepancy (a payment paid short stays `init`): a person's to settle, counted
    // below, as reconciliation leaves it (listStalePayments) — not an age that grows for ever.
    .where('mismatch_report', 'is', null)
    .executeTakeFirstOrThrow();
  const operations = await ctx.db
    .selectFrom('operations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const events = await ctx.db
    .selectFrom('webhook_events')
    .select((eb) => ['outcome', eb.fn.countAll<number>().as('count')])
    .where('applied_at', 'is', null)
    .where('reviewed_at', 'is', null)
    .groupBy('outcome')
    .execute();
  const held = await ctx.db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('mismatch_report', 'is not', null)
    .where(sql<SqlBool>`${sql.raw(UNSETTLED[ctx.dialect])}`)
    .executeTakeFirstOrThrow();
  const waiting = (outcome: string) => Number(events.find((row) => row.outcome === outcome)?.count ?? 0);
  return {
    unfinishedPayments: Number(payments.count),
    oldestUnfinishedPaymentAt: payments.oldest === null ? undefined : Number(payments.oldest),
    unsettledOperations: Number(operations.count),
    parkedEvents: waiting('parked'),
    unmatchedEvents: waiting('unmatched'),
    heldPayments: Number(held.count),
  };
}
