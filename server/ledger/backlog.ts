// What is still waiting in the ledger, for an operator's gauges (the companion's /metrics):
// payments without a final status, reservations without the gateway's answer, and webhook
// events stored but not applied. Three aggregate reads over partial-index-sized sets.
import type { LedgerContext } from './context.js';
import type { LedgerBacklog } from './types.js';

export async function readBacklog(ctx: LedgerContext): Promise<LedgerBacklog> {
  const payments = await ctx.db
    .selectFrom('payments')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number | null>('created_at').as('oldest')])
    .where('status', 'in', ['init', 'pending'])
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
    .groupBy('outcome')
    .execute();
  const waiting = (outcome: string) => Number(events.find((row) => row.outcome === outcome)?.count ?? 0);
  return {
    unfinishedPayments: Number(payments.count),
    oldestUnfinishedPaymentAt: payments.oldest === null ? undefined : Number(payments.oldest),
    unsettledOperations: Number(operations.count),
    parkedEvents: waiting('parked'),
    unmatchedEvents: waiting('unmatched'),
  };
}
