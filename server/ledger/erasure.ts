// A customer's personal data erased on request (the GDPR's right to erasure, and its like
// elsewhere). What the ledger keeps of a person — the customer details of their orders' payments
// and checkout sessions, and of the webhooks about those orders — is emptied, their orders' card
// tokens cleared and the cards kept under their customer id deleted. The orders stay, with their
// amounts, card masks, gateway ids and money: a payment's record is the merchant's to keep for
// its books, the person's details are not. The webhook events' `customer_*` fields go; the rest
// of each event stays as sent.
import { setImmediate as loopTurn, setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import { lockingRead } from './context.js';
import type { LedgerContext, LedgerDb } from './context.js';
import { UNSETTLED } from './discrepancies.js';
import { OrdersInFlight } from './errors.js';
import { givenUpForAnother } from './group-commit.js';
import { erasureInput, parseInput } from './input.js';
import { CUSTOMER_EMAIL, ERASED_BODY } from './migrations.js';
import { loweredSpellings } from './order-search.js';
import { periodWindows } from './period-windows.js';
import { sweptUpTo } from './session-sweep.js';
import type { CustomerErasure, ErasureRequest } from './types.js';

/** What an erased payment or session keeps as its customer: nothing. */
const NO_DETAILS = '{}';
/** Orders whose details one transaction erases: a few milliseconds of SQLite's time. */
export const ORDERS_AT_ONCE = 100;
/** In-flight orders a refusal names; the rest are counted. */
const NAMED = 5;

/**
 * The checkout session being written has a successful attempt: it stays unclosed. Found by the
 * session's attempts (its own index), never by the index leading with status.
 */
const sessionPaid = sql<SqlBool>`exists (select 1 from ${sql.table('payments')} as p where p.session_id = ${sql.ref('checkout_sessions.id')} and (p.status = 'success') is true)`;

/**
 * Whose details a row of payments or checkout_sessions holds: the e-mail's (any spelling, any
 * case: the order search's index), or the customer id's.
 */
function whose(ctx: LedgerContext, request: ErasureRequest): RawBuilder<SqlBool> {
  const conditions = [
    ...(request.email === undefined ? [] : [sql`${sql.raw(CUSTOMER_EMAIL[ctx.dialect])} in (${sql.join(loweredSpellings(request.email))})`]),
    ...(request.customerId === undefined ? [] : [sql`customer_id = ${request.customerId}`]),
  ];
  return sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
}

/**
 * Erases the customer's details from every order of theirs, from the sessions they opened (and
 * closes those not paid) and from the webhooks of those orders, clears the card tokens of those
 * orders and deletes their saved cards (`customerId`). Refused while one of those orders is still
 * to be decided — a payment the gateway may still report on (an attempt ended as never sent too: the gateway may
 * still show it), a capture or refund under way, a payment held for a person to settle with the
 * customer: LedgerConflict `payment_in_flight`, naming them, nothing erased. Each batch of orders
 * is checked again under its transaction's lock, and the customer's orders are read again at the
 * end: an attempt a customer began meanwhile is erased too once decided, or named.
 */
export async function eraseCustomer(ctx: LedgerContext, input: ErasureRequest): Promise<CustomerErasure> {
  const request = parseInput(erasureInput, input);
  const match = whose(ctx, request);
  const erased: Erased = { orderIds: [], sessions: 0, events: 0 };
  // Every order of theirs, those erased before too: a webhook that came since (a subscription's
  // later charge) may have brought their details back.
  let orders = await ctx.db.selectFrom('payments').select(['order_id', 'session_id', 'customer_id']).where(match).execute();
  // The merchant's ids on the orders found by e-mail alone: the cards saved under them stay.
  const customerIds = [...new Set(orders.flatMap(({ customer_id }) => (customer_id === null || customer_id === request.customerId ? [] : [customer_id])))];
  const open = await undecided(ctx, ctx.db, orders.map(({ order_id }) => order_id));
  if (open.length > 0) throw inFlight(open, { orderIds: [], sessions: 0 });
  await withLateArrivals(ctx, erased, async () => {
    // Their sessions first, closed: from here no attempt begins with what they were opened with
    // (a claim refuses a closed session under its lock).
    erased.sessions += await eraseFromOpenSessions(ctx, match);
    for (let round = 1; ; round++) {
      for (let at = 0; at < orders.length; at += ORDERS_AT_ONCE) {
        await eraseOrders(ctx, orders.slice(at, at + ORDERS_AT_ONCE), erased);
        await loopTurn();
      }
      // An attempt begun meanwhile (on a session opened without their details) holds what the payer typed.
      const known = new Set(erased.orderIds);
      orders = (await ctx.db.selectFrom('payments').select(['order_id', 'session_id', 'customer_id']).where(match).where('customer', '<>', NO_DETAILS).execute()).filter(({ order_id }) => !known.has(order_id));
      if (orders.length === 0) break;
      if (round === ROUNDS) throw inFlight(orders.map(({ order_id }) => order_id), erased);
    }
  });
  const cards = request.customerId === undefined ? 0 : Number((await ctx.db.deleteFrom('saved_cards').where('customer_id', '=', request.customerId).executeTakeFirst()).numDeletedRows);
  return { orderIds: [...new Set(erased.orderIds)], sessions: erased.sessions, events: erased.events, cards, otherCustomerIds: customerIds, walKept: ctx.dialect === 'sqlite' && !(await emptyWal(ctx)) };
}

/** What an erasure has erased so far: the orders, and how many sessions and events changed. */
export interface Erased {
  readonly orderIds: string[];
  sessions: number;
  events: number;
}

/** Erases the orders of `chunk` in one transaction, each checked again under its lock; adds them to `erased`. */
async function eraseOrders(ctx: LedgerContext, chunk: readonly ErasedOrder[], erased: Erased): Promise<void> {
  await erasingBatch(ctx, erased, async (trx, batch) => {
    // Under the lock (SQLite's write lock; PostgreSQL's on these rows): what was decided stays so until the commit.
    const changed = await undecided(ctx, trx, chunk.map(({ order_id }) => order_id), true);
    if (changed.length > 0) throw inFlight(changed, erased);
    const done = await eraseDecided(ctx, trx, chunk);
    batch.orderIds.push(...chunk.map(({ order_id }) => order_id));
    batch.sessions += done.sessions;
    batch.events += done.events;
  });
}

/** An order to erase: its order id, and the checkout session its attempt was made in. */
export interface ErasedOrder {
  readonly order_id: string;
  readonly session_id: string;
}

/**
 * Erases, in `trx`, the customer's details from the orders of `chunk` — found decided by
 * `undecided` in that transaction, which holds their payments locked — as an erasure does, on
 * request or by age (retention.ts): the payments' customer and card token emptied, the orders
 * marked erased, their sessions' details emptied (those not paid closed), their events' customer
 * fields dropped. How many sessions and events changed.
 */
export async function eraseDecided(ctx: LedgerContext, trx: LedgerDb, chunk: readonly ErasedOrder[]): Promise<{ sessions: number; events: number }> {
  const ids = chunk.map(({ order_id }) => order_id);
  if (ids.length === 0) return { sessions: 0, events: 0 };
  await trx
    .updateTable('payments')
    .set({ customer: NO_DETAILS, cc_token: null, cc_token_expiration: null })
    .where('order_id', 'in', ids)
    // An order with nothing to erase (erased before, or never given details) is not written again.
    .where((eb) => eb.or([eb('customer', '<>', NO_DETAILS), eb('cc_token', 'is not', null), eb('cc_token_expiration', 'is not', null)]))
    .execute();
  // Marked: whatever is written about them later keeps none of this, whoever writes it (migrations 0026 and 0027's triggers).
  const now = ctx.now();
  await trx
    .insertInto('erased_orders')
    .values(ids.map((order_id) => ({ order_id, erased_at: now })))
    .onConflict((oc) => oc.column('order_id').doUpdateSet({ erased_at: now }))
    .execute();
  const sessionIds = [...new Set(chunk.map(({ session_id }) => session_id))];
  const sessions = await trx.updateTable('checkout_sessions').set({ customer: NO_DETAILS }).where('id', 'in', sessionIds).where('customer', '<>', NO_DETAILS).executeTakeFirst();
  // One still open would take another attempt with what it was opened with: an instance
  // that showed it keeps that in memory (session-terms.ts), and pays with it.
  await trx
    .updateTable('checkout_sessions')
    .set({ closed_at: now })
    .where('id', 'in', sessionIds)
    .where('closed_at', 'is', null)
    .where(sql<SqlBool>`not ${sessionPaid}`)
    .execute();
  return { sessions: Number(sessions.numUpdatedRows), events: await eraseFromEvents(trx, ids) };
}

/** How long an erasure tries to empty SQLite's write-ahead log while another connection reads it. */
const WAL_TRIES = 20;
const WAL_TRY_EVERY_MS = 100;

/**
 * SQLite's write-ahead log still holds the pages as they were (secure_delete zeroes what the file
 * frees, sqlite.ts): copied into the file and emptied, they are gone from the disk too. Another
 * connection reading the file (a backup, another process) holds it: tried again for a while,
 * off the event loop. Whether it was emptied.
 */
async function emptyWal(ctx: LedgerContext): Promise<boolean> {
  for (let tries = 1; ; tries++) {
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(ctx.db);
    if (rows[0]?.busy === 0) return true;
    if (tries === WAL_TRIES) return false;
    await sleep(WAL_TRY_EVERY_MS);
  }
}

/** How many times the customer's orders are read again for attempts begun meanwhile. */
const ROUNDS = 3;

/** The refusal of an erasure by `open`, undecided orders, once `erased` (others of theirs) was erased. */
function inFlight(open: readonly string[], erased: Pick<Erased, 'orderIds' | 'sessions'>): OrdersInFlight {
  const named = open.slice(0, NAMED).join(', ') + (open.length > NAMED ? ` and ${open.length - NAMED} more` : '');
  const parts = [...(erased.orderIds.length > 0 ? [`${erased.orderIds.length} other orders`] : []), ...(erased.sessions > 0 ? [`${erased.sessions} sessions`] : [])];
  const done = parts.length === 0 ? 'nothing was erased' : `the details of ${parts.join(' and ')} of theirs were erased; ask again to erase the rest`;
  return new OrdersInFlight(
    open,
    `The customer's orders ${named} are not decided yet (a payment the gateway may still report, an operation under way, or a payment held for review): erase once they are; ${done}`,
  );
}

/**
 * Which of `orderIds` are to be decided (eraseCustomer, and the erasure by age); `locked`: their
 * payments locked until the transaction ends.
 */
export async function undecided(ctx: LedgerContext, db: LedgerDb, orderIds: readonly string[], locked = false): Promise<string[]> {
  const open: string[] = [];
  for (let at = 0; at < orderIds.length; at += ORDERS_AT_ONCE) {
    const ids = orderIds.slice(at, at + ORDERS_AT_ONCE);
    // PostgreSQL: locked by a statement of their own, so the read below takes its snapshot after
    // the lock was granted — a refund reserved while it waited is seen (SQLite's write lock holds it out).
    if (locked && ctx.dialect === 'postgres') await lockOrders(ctx, db, ids);
    const rows = await db
      .selectFrom('payments as p')
      .select(['p.order_id', 'p.status', 'p.mismatch_report', sql<number>`${sql.raw(UNSETTLED[ctx.dialect])}`.as('unsettled')])
      .select((eb) =>
        // Found by the order's index, never by one leading with status (isStatus in progression.ts).
        eb.exists(eb.selectFrom('operations as o').select(sql.lit(1).as('one')).whereRef('o.order_id', '=', 'p.order_id').where(sql<SqlBool>`(o.status = 'pending') is true`)).as('operating'),
      )
      .where('p.order_id', 'in', ids)
      .execute();
    for (const row of rows) {
      const held = row.mismatch_report !== null && Boolean(Number(row.unsettled));
      if (row.status === 'init' || row.status === 'pending' || held || Boolean(Number(row.operating))) open.push(row.order_id);
    }
  }
  return open;
}

/** PostgreSQL: locks the payments of `ids` until the transaction ends, in the order of their ids, as every erasure takes them: none waits for another in a circle. */
async function lockOrders(ctx: LedgerContext, db: LedgerDb, ids: readonly string[]): Promise<void> {
  await db.selectFrom('payments').select('order_id').where('order_id', 'in', ids).orderBy('order_id').$call(lockingRead(ctx)).execute();
}

/**
 * How many times a batch PostgreSQL gave up for another (a deadlock with a webhook group holding
 * an order of it and waiting for another it holds) runs in all.
 */
const TRIES = 3;

/**
 * Runs a batch of an erasure (on request, or by age) in a transaction, again when PostgreSQL
 * broke it; what it erased (`batch`, counted afresh at each try) joins `erased` once committed.
 */
export async function erasingBatch<T>(ctx: LedgerContext, erased: Erased, work: (trx: LedgerDb, batch: Erased) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const batch: Erased = { orderIds: [], sessions: 0, events: 0 };
    try {
      const result = await ctx.db.transaction().execute((trx) => work(trx, batch));
      erased.orderIds.push(...batch.orderIds);
      erased.sessions += batch.sessions;
      erased.events += batch.events;
      return result;
    } catch (error) {
      if (tries === TRIES || !givenUpForAnother(error)) throw error;
    }
  }
}

/**
 * Runs an erasure's batches, then goes over what came meanwhile (eraseLateArrivals) for the
 * orders they erased — also when a later batch failed: those committed stay erased, and an
 * erasure asked again by e-mail would not find them.
 */
export async function withLateArrivals<T>(ctx: LedgerContext, erased: Erased, batches: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await batches();
  } catch (error) {
    await eraseLateArrivals(ctx, erased).catch(() => undefined);
    throw error;
  }
  await eraseLateArrivals(ctx, erased);
  return result;
}

/**
 * PostgreSQL reads what others committed before each statement: an event about an order stored
 * while the erasure's batch was open saw no mark (migration 0026's trigger let its customer
 * through), and was not seen by the batch. Every event's insert holds its order's shared advisory
 * lock until its transaction ends (migration 0027): once the marks are committed, taking each
 * order's lock (one at a time, holding nothing else: no writer can wait for it in a circle) waits
 * for every such event to be committed, and what they stored is taken out. An event stored after
 * sees the mark. A card token they wrote is dropped by 0027's trigger.
 */
async function eraseLateArrivals(ctx: LedgerContext, erased: Erased): Promise<void> {
  if (ctx.dialect !== 'postgres') return;
  for (const orderId of erased.orderIds) {
    await ctx.db.transaction().execute((trx) => sql`select pg_advisory_xact_lock(hashtextextended(${orderId}, 0))`.execute(trx));
  }
  for (let at = 0; at < erased.orderIds.length; at += ORDERS_AT_ONCE) {
    const ids = erased.orderIds.slice(at, at + ORDERS_AT_ONCE);
    erased.events += await ctx.db.transaction().execute((trx) => eraseFromEvents(trx, ids));
  }
}

/** Drops the `customer_*` fields (but the merchant's own customer id) from the stored events of `orderIds`: how many changed. */
async function eraseFromEvents(trx: LedgerDb, orderIds: readonly string[]): Promise<number> {
  const rows = await trx
    .selectFrom('webhook_events')
    .select(['id', 'body', 'facts'])
    .where('order_id', 'in', orderIds)
    .execute();
  let changed = 0;
  for (const { id, body, facts } of rows) {
    const kept = { body: withoutCustomer(body), facts: withoutCardToken(facts) };
    if (kept.body === body && kept.facts === facts) continue;
    await trx.updateTable('webhook_events').set(kept).where('id', '=', id).execute();
    changed++;
  }
  return changed;
}

/**
 * An event's body without the customer's fields (but the merchant's customer id); as it was when
 * it holds none. A body that is no JSON object (a post that could not be read) yet names a
 * `customer_` cannot be taken apart: ERASED_BODY in its place, as migration 0026's trigger does.
 */
export function withoutCustomer(body: string): string {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    event = undefined;
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return body.includes('customer_') ? ERASED_BODY : body;
  const personal = Object.keys(event).filter((field) => field.startsWith('customer_') && field !== 'customer_id');
  if (personal.length === 0) return body;
  const kept = { ...(event as Record<string, unknown>) };
  for (const field of personal) delete kept[field];
  return JSON.stringify(kept);
}

/**
 * An event's facts (the ledger's reading of it, kept to apply it later) without the card token
 * the gateway gave: the body has it masked, the facts as sent.
 */
function withoutCardToken(facts: string): string {
  const read = JSON.parse(facts) as Record<string, unknown>;
  // Null: emptied in place by migration 0026's trigger on PostgreSQL.
  if (read.ccToken == null && read.ccTokenExpiration == null) return facts;
  const { ccToken: _token, ccTokenExpiration: _expiration, ...kept } = read;
  return JSON.stringify(kept);
}

/**
 * The customer's sessions, those never paid too — not swept yet (session-sweep.ts deletes them
 * some ABANDONED_SESSION_KEPT_MS after they expired, when a reconciler runs) — read by their
 * expiry index from where the sweep has reached, a window at a time (period-windows.ts), on
 * every database: a ledger whose sessions nobody sweeps holds all of them. Each is emptied, and
 * closed unless paid. How many it erased.
 */
async function eraseFromOpenSessions(ctx: LedgerContext, match: RawBuilder<SqlBool>): Promise<number> {
  let erased = 0;
  for await (const window of periodWindows(ctx, 'checkout_sessions', await sweptUpTo(ctx.db), Number.MAX_SAFE_INTEGER, { everywhere: true })) {
    const result = await ctx.db
      .updateTable('checkout_sessions')
      // A paid session stays as it is, but for the details, as the orders' sessions do.
      .set({ customer: NO_DETAILS, closed_at: sql<number>`case when closed_at is null and not ${sessionPaid} then ${ctx.now()} else closed_at end` })
      .where('expires_at', '>=', window.from)
      .where('expires_at', '<', window.to)
      .where('customer', '<>', NO_DETAILS)
      .where(match)
      .executeTakeFirst();
    erased += Number(result.numUpdatedRows);
  }
  return erased;
}
