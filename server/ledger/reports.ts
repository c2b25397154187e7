// Reads for the back office and the reconciler.
import { sql } from 'kysely';
import { ABANDONED_CODES } from './attempts.js';
import type { LedgerContext } from './context.js';
import { InvalidLedgerInput } from './errors.js';
import { eventsOf } from './events.js';
import { eventListInput, moneyTotalsInput, orderListInput, parseInput, staleInput, statsInput } from './input.js';
import { newestFirst, pageOf, pageRequest } from './keyset.js';
import { orderTotals } from './money-rules.js';
import { CurrencySums, periodWindows } from './period-windows.js';
import type { PeriodWindow } from './period-windows.js';
import { movementTotals } from './movements.js';
import { operationsOf } from './operations.js';
import { searchOrders } from './order-search.js';
import { getPayment } from './payments.js';
import { toListedEvent, toPayment, toStoredEvent } from './rows.js';
import { toOperations } from './operations.js';
import { localDayStart, offsetSpans } from './time-zone.js';
import type {
  CurrencyTotals, EventListQuery, EventPage, MoneyTotalsQuery, Operation, OrderDetail, OrderListQuery, OrderPage, Payment, StaleQuery, StatsBucket, StatsQuery, StoredEvent,
} from './types.js';
import { EVENT_COLUMNS, OPERATION_COLUMNS, PAYMENT_COLUMNS } from './columns.js';

const DEFAULT_BATCH = 100;
const MAX_BUCKETS = 5000;
const HOUR = 3_600_000;

/**
 * Newest first, keyset-paged on (created_at, order_id) so pages stay stable while orders arrive.
 * An e-mail or an amount reads its own index in that order (0018); the last four digits filter
 * the rows another index reads: no index of the mask, which every webhook's UPDATE would rewrite.
 * On SQLite such a search reads that index a window at a time, yielding the event loop between
 * windows (order-search.ts).
 */
export async function listOrders(ctx: LedgerContext, input: OrderListQuery = {}): Promise<OrderPage> {
  const query = parseInput(orderListInput, input);
  const page = pageRequest('orders', query);
  const rows = await searchOrders(ctx, query, page);
  const { items, nextCursor } = pageOf(rows.map(toPayment), page, (payment) => ({ time: payment.createdAt, key: payment.orderId }));
  return { orders: items, nextCursor };
}

/**
 * What each listed payment sold (its session's description), by order id: one read for a page
 * of `listOrders`, none for an empty one. A session's attempts share it.
 */
export async function descriptionsOfOrders(ctx: LedgerContext, payments: readonly Payment[]): Promise<Map<string, string>> {
  if (payments.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('checkout_sessions')
    .select(['id', 'description'])
    .where('id', 'in', [...new Set(payments.map((payment) => payment.sessionId))])
    .execute();
  const bySession = new Map(rows.map((row) => [row.id, row.description]));
  return new Map(payments.flatMap((payment) => {
    const description = bySession.get(payment.sessionId);
    return description === undefined ? [] : [[payment.orderId, description] as const];
  }));
}

/**
 * Events that apply to nothing in the ledger (unmatched) or wait for a reservation (parked),
 * newest first, paged as the orders are: what a person must see, since no order shows the
 * unmatched ones.
 */
export async function listEvents(ctx: LedgerContext, input: EventListQuery): Promise<EventPage> {
  const query = parseInput(eventListInput, input);
  const page = pageRequest('events', query);
  const rows = await ctx.db
    .selectFrom('webhook_events')
    .select(EVENT_COLUMNS)
    // Implied by both outcomes; said so the partial index of waiting events can serve the read.
    .where('applied_at', 'is', null)
    .where('outcome', '=', query.outcome)
    .where('reviewed_at', 'is', null)
    .$call(newestFirst('received_at', 'id', page))
    .execute();
  const { items, nextCursor } = pageOf(rows.map(toListedEvent), page, (event) => ({ time: event.receivedAt, key: event.id }));
  return { events: items, nextCursor };
}

export async function getOrder(ctx: LedgerContext, orderId: string): Promise<OrderDetail | undefined> {
  const payment = await getPayment(ctx, ctx.db, orderId);
  if (!payment) return undefined;
  const operations = await operationsOf(ctx, ctx.db, orderId);
  const events = await eventsOf(ctx.db, orderId);
  const erased = await ctx.db.selectFrom('erased_orders').select('erased_at').where('order_id', '=', orderId).executeTakeFirst();
  return { payment, operations, events, totals: orderTotals(payment, operations), customerErasedAt: erased === undefined ? null : Number(erased.erased_at) };
}

/**
 * Payments (not card verifications) created per hour or day in [from, to), by outcome, every bucket present (zeros
 * included) so a chart can draw it as is. Success rate = succeeded / (succeeded + failed).
 *
 * Days start at each local midnight of `timeZone` (a day the clocks change on is 23 or 25 hours
 * long), or at a fixed `utcOffsetMinutes`; hours are hours, starting where the zone's do. The
 * period is cut where the zone's offset changes, and each piece counted by the database as one
 * fixed offset; a day the change falls in adds up its pieces here.
 */
export async function paymentStats(ctx: LedgerContext, input: StatsQuery): Promise<StatsBucket[]> {
  const query = parseInput(statsInput, input);
  const size = query.bucket === 'hour' ? HOUR : 24 * HOUR;
  // Refused before the zone's offsets are read: clock changes lengthen or shorten days by hours (and
  // one date was skipped, Samoa's in 2011), so a period this long has too many buckets in any zone.
  if (query.to - query.from > (MAX_BUCKETS + 3) * size) throw new InvalidLedgerInput('to', `spans more than ${MAX_BUCKETS} buckets`);
  const spans = query.timeZone === undefined ? [{ from: query.from, to: query.to, offset: (query.utcOffsetMinutes ?? 0) * 60_000 }] : offsetSpans(query.timeZone, query.from, query.to);
  // A bucket's key counts its size from the epoch, shifted so it starts where the local day (or
  // hour) does. Pieces of one shift are read as one: hours across a whole-hour change, say.
  const pieces: { from: number; to: number; shift: number }[] = [];
  for (const { from, to, offset } of spans) {
    const shift = query.bucket === 'day' ? offset : ((offset % HOUR) + HOUR) % HOUR;
    const last = pieces.at(-1);
    if (last?.shift === shift) last.to = to;
    else pieces.push({ from, to, shift });
  }
  // Days are one bucket across their pieces (by key). An hour is its piece's: an hour that a
  // change to or from a half-hour offset cuts short starts at the change (by start).
  const buckets = new Map<number, Tally>();
  // The period's first day starts at its midnight, at the offset of then: the clocks may have
  // changed between it and `from`.
  const firstDay = query.timeZone !== undefined && query.bucket === 'day' ? localDayStart(query.timeZone, query.from) : undefined;
  const byPiece = pieces.map(({ from, to, shift }) => {
    // The period's first bucket starts where its day or hour does, before `from`, as a chart
    // labels it; a piece after a change starts there (a day whose midnight was skipped, too).
    const floor = from === query.from ? -Infinity : from;
    const ofKey = new Map<number, Tally>();
    const firstKey = Math.floor((from + shift) / size);
    for (let key = firstKey; key <= Math.floor((to - 1 + shift) / size); key++) {
      const start = floor === -Infinity && key === firstKey && firstDay !== undefined ? firstDay : Math.max(floor, key * size - shift);
      const id = query.bucket === 'day' ? key : start;
      let bucket = buckets.get(id);
      if (!bucket) buckets.set(id, (bucket = { start, total: 0, succeeded: 0, failed: 0, inFlight: 0, notSent: 0, cancelled: 0 }));
      if (buckets.size > MAX_BUCKETS) throw new InvalidLedgerInput('to', `spans more than ${MAX_BUCKETS} buckets`);
      ofKey.set(key, bucket);
    }
    return ofKey;
  });
  // One read per piece (one in a period with no clock change), each by the created_at index.
  for (const [i, piece] of pieces.entries()) {
    for (const row of await countPerBucket(ctx, piece, size)) {
      const entry = byPiece[i]!.get(Number(row.bucket));
      if (!entry) continue;
      const count = Number(row.count);
      entry.total += count;
      if (row.outcome === 'success') entry.succeeded += count;
      else if (row.outcome === 'failure') entry.failed += count;
      else if (row.outcome === 'not_sent') entry.notSent += count;
      else if (row.outcome === 'cancelled') entry.cancelled += count;
      else entry.inFlight += count;
    }
  }
  return [...buckets.values()].sort((a, b) => a.start - b.start);
}

/** A bucket as it is counted. */
type Tally = { -readonly [K in keyof StatsBucket]: StatsBucket[K] };

/** Payments created in [from, to) by bucket key and outcome; on SQLite, a window at a time (period-windows.ts), a bucket's count in several rows. */
async function countPerBucket(ctx: LedgerContext, { from, to, shift }: { from: number; to: number; shift: number }, size: number) {
  const rows = [];
  for await (const window of periodWindows(ctx, 'payments', from, to)) rows.push(...(await countInWindow(ctx, window, shift, size)));
  return rows;
}

function countInWindow(ctx: LedgerContext, { from, to }: PeriodWindow, shift: number, size: number) {
  // Literals, not parameters: SQLite would bind them as REAL and divide as floats.
  const bucket = sql<number>`(${sql.ref('created_at')} + ${sql.lit(shift)}) / ${sql.lit(size)}`;
  // A failure the gateway gave no code for is one it never decided (every decline has one); one
  // cancelled unpaid or expired unpaid (ABANDONED_CODES) was abandoned, not declined.
  const abandoned = sql.join(ABANDONED_CODES.map((code) => sql.lit(code)));
  const outcome = sql<string>`case when status = 'failure' and status_code is null then 'not_sent' when status = 'failure' and status_code in (${abandoned}) then 'cancelled' when status in ('init', 'pending') and unsent_at is not null then 'not_sent' else status end`;
  return ctx.db
    .selectFrom('payments')
    .select((eb) => [bucket.as('bucket'), outcome.as('outcome'), eb.fn.countAll<number>().as('count')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    // Card verifications pay nothing: not counted among payments.
    .where('method', '<>', 'lookup')
    .groupBy([bucket, outcome])
    .execute();
}

/**
 * What the payments created in [from, to) came to, per currency, as orderTotals has each order
 * (or, `datedBy: 'movement'`, what was paid and refunded in it: movements.ts):
 * a purchase's amount once it succeeded, an auth's successful captures, the successful refunds.
 * The period's payments are read by their created_at index and each one's operations through
 * its order's index — subqueries, so no planner can start from every successful operation of
 * the ledger instead: the work grows with the period's payments, never with the whole ledger.
 * On SQLite, a window of them at a time (period-windows.ts).
 */
export async function moneyTotals(ctx: LedgerContext, input: MoneyTotalsQuery): Promise<CurrencyTotals[]> {
  const query = parseInput(moneyTotalsInput, input);
  if (query.datedBy === 'movement') return movementTotals(ctx, query.from, query.to);
  // Found by the order's index, never by one leading with kind or status (isStatus in
  // progression.ts): SQLite keeps no statistics, and PostgreSQL plans a prepared statement while
  // the tables are small; either would then read every successful operation for each payment.
  const succeeded = (kind: 'capture' | 'refund') =>
    sql<number | string>`(select coalesce(sum(o.amount), 0) from ${sql.table('operations')} as o where o.order_id = p.order_id and (o.kind = ${sql.lit(kind)} and o.status = 'success') is true)`;
  const sums = new CurrencySums();
  for await (const window of periodWindows(ctx, 'payments', query.from, query.to)) {
    const rows = await ctx.db
      .selectFrom('payments as p')
      .select((eb) => [
        'p.currency',
        eb.fn.sum<number | string>(sql`case when p.method = 'purchase' and p.status = 'success' then p.amount else 0 end`).as('purchased'),
        // Only an auth is captured: a purchase's row asks nothing of the operations for it.
        eb.fn.sum<number | string>(sql`case when p.method = 'auth' then ${succeeded('capture')} else 0 end`).as('captured'),
        eb.fn.sum<number | string>(succeeded('refund')).as('refunded'),
      ])
      .where('p.created_at', '>=', window.from)
      .where('p.created_at', '<', window.to)
      // Card verifications pay nothing.
      .where('p.method', '<>', 'lookup')
      .groupBy('p.currency')
      .execute();
    // PostgreSQL's sum of a bigint is a numeric, read as text.
    for (const row of rows) sums.add(row.currency, Number(row.purchased) + Number(row.captured), Number(row.refunded));
  }
  return sums.totals();
}

/**
 * Payments still init/pending with no news (event, update or check) for `quietForMs`: attempts in
 * a never-sent window first — a customer waits to pay again, and open challenges (pending for as
 * long as the gateway gives one) would otherwise fill every batch before them —, then oldest first.
 */
export async function listStalePayments(ctx: LedgerContext, input: StaleQuery): Promise<Payment[]> {
  const query = parseInput(staleInput, input);
  const rows = await ctx.db
    .selectFrom('payments')
    .select(PAYMENT_COLUMNS)
    .where('status', 'in', ['init', 'pending'])
    // A payment held for a discrepancy waits for a person, not for the gateway.
    .where('mismatch_report', 'is', null)
    .where((eb) =>
      eb.or([
        eb('last_seen_at', '<=', ctx.now() - query.quietForMs),
        // An attempt the gateway has not shown yet is read again sooner, to end its window.
        eb.and([eb('absent_reads', '>', 0), eb('unsent_at', 'is', null), eb('last_seen_at', '<=', ctx.now() - (query.absentQuietForMs ?? query.quietForMs))]),
      ]),
    )
    .orderBy(sql`case when absent_reads > 0 and unsent_at is null then 0 else 1 end`)
    .orderBy('last_seen_at')
    .limit(query.limit ?? DEFAULT_BATCH)
    .execute();
  return rows.map(toPayment);
}

/**
 * Reservations still pending with no news (answer, event or check) for `quietForMs`: the one
 * heard of longest ago first, so a check sends an operation to the back of the queue.
 */
export async function listUnsettledOperations(ctx: LedgerContext, input: StaleQuery): Promise<Operation[]> {
  const query = parseInput(staleInput, input);
  const rows = await ctx.db
    .selectFrom('operations')
    .select(OPERATION_COLUMNS)
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb('last_seen_at', '<=', ctx.now() - query.quietForMs),
        eb.and([eb('absent_reads', '>', 0), eb('last_seen_at', '<=', ctx.now() - (query.absentQuietForMs ?? query.quietForMs))]),
      ]),
    )
    .orderBy('last_seen_at')
    .orderBy('id')
    .limit(query.limit ?? DEFAULT_BATCH)
    .execute();
  return toOperations(ctx.db, rows);
}

/**
 * Events stored but not applied (parked or unmatched) and not tried for `quietForMs`: the one
 * tried longest ago first, so events that never apply cannot keep the others from a retry.
 */
export async function listWaitingEvents(ctx: LedgerContext, input: StaleQuery): Promise<StoredEvent[]> {
  const query = parseInput(staleInput, input);
  const rows = await ctx.db
    .selectFrom('webhook_events')
    .select(EVENT_COLUMNS)
    .where('applied_at', 'is', null)
    // Settled elsewhere by a person: a re-delivery is still tried, reconciliation leaves it.
    .where('reviewed_at', 'is', null)
    .where('tried_at', '<=', ctx.now() - query.quietForMs)
    .orderBy('tried_at')
    .orderBy('id')
    .limit(query.limit ?? DEFAULT_BATCH)
    .execute();
  return rows.map(toStoredEvent);
}
