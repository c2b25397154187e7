// A customer's personal data erased on request (the GDPR's right to erasure, and its like
// elsewhere). What the ledger keeps of a person — the customer details of their orders' payments
// and checkout sessions, and of the webhooks about those orders — is emptied, and the cards kept
// under their customer id deleted. The orders stay, with their amounts, card masks, gateway ids
// and money: a payment's record is the merchant's to keep for its books, the person's details are
// not. The webhook events' `customer_*` fields go; the rest of each event stays as sent.
import { setImmediate as loopTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import type { LedgerContext, LedgerDb } from './context.js';
import { UNSETTLED } from './discrepancies.js';
import { LedgerConflict } from './errors.js';
import { erasureInput, parseInput } from './input.js';
import { CUSTOMER_EMAIL } from './migrations.js';
import { loweredSpellings } from './order-search.js';
import { periodWindows } from './period-windows.js';
import { ABANDONED_SESSION_KEPT_MS } from './session-sweep.js';
import type { CustomerErasure, ErasureRequest } from './types.js';

/** What an erased payment or session keeps as its customer: nothing. */
const NO_DETAILS = '{}';
/** Orders whose details one transaction erases: a few milliseconds of SQLite's time. */
const ORDERS_AT_ONCE = 100;
/** In-flight orders a refusal names; the rest are counted. */
const NAMED = 5;

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
 * Erases the customer's details from every order of theirs, from the sessions they opened and
 * from the webhooks of those orders, and deletes their saved cards (`customerId`). Refused, with
 * nothing erased, while one of those orders is still to be decided — a payment the gateway may
 * still report on, a capture or refund under way, a payment held for a person to settle with the
 * customer: LedgerConflict `payment_in_flight`, naming them. A second erasure finds nothing.
 */
export async function eraseCustomer(ctx: LedgerContext, input: ErasureRequest): Promise<CustomerErasure> {
  const request = parseInput(erasureInput, input);
  const match = whose(ctx, request);
  const orders = await ctx.db.selectFrom('payments').select(['order_id', 'session_id']).where(match).where('customer', '<>', NO_DETAILS).execute();
  const orderIds = orders.map(({ order_id }) => order_id);
  await refuseInFlight(ctx, orderIds);
  let sessions = 0;
  let events = 0;
  for (let at = 0; at < orders.length; at += ORDERS_AT_ONCE) {
    const chunk = orders.slice(at, at + ORDERS_AT_ONCE);
    const erased = await ctx.db.transaction().execute(async (trx) => {
      const ids = chunk.map(({ order_id }) => order_id);
      await trx.updateTable('payments').set({ customer: NO_DETAILS }).where('order_id', 'in', ids).execute();
      const sessionIds = [...new Set(chunk.map(({ session_id }) => session_id))];
      const session = await trx.updateTable('checkout_sessions').set({ customer: NO_DETAILS }).where('id', 'in', sessionIds).where('customer', '<>', NO_DETAILS).executeTakeFirst();
      return { sessions: Number(session.numUpdatedRows), events: await eraseFromEvents(trx, ids) };
    });
    sessions += erased.sessions;
    events += erased.events;
    await loopTurn();
  }
  sessions += await eraseFromOpenSessions(ctx, match);
  const cards = request.customerId === undefined ? 0 : Number((await ctx.db.deleteFrom('saved_cards').where('customer_id', '=', request.customerId).executeTakeFirst()).numDeletedRows);
  return { orderIds, sessions, events, cards };
}

/** Refuses the erasure while any of `orderIds` is to be decided (eraseCustomer). */
async function refuseInFlight(ctx: LedgerContext, orderIds: readonly string[]): Promise<void> {
  const open: string[] = [];
  for (let at = 0; at < orderIds.length; at += ORDERS_AT_ONCE) {
    const ids = orderIds.slice(at, at + ORDERS_AT_ONCE);
    const rows = await ctx.db
      .selectFrom('payments as p')
      .select('p.order_id')
      .where('p.order_id', 'in', ids)
      .where((eb) =>
        eb.or([
          // An attempt never sent waits for its customer, not the gateway: nothing more comes of it.
          eb.and([eb('p.status', 'in', ['init', 'pending']), eb('p.unsent_at', 'is', null)]),
          eb.and([eb('p.mismatch_report', 'is not', null), sql<SqlBool>`${sql.raw(UNSETTLED[ctx.dialect])}`]),
          eb.exists(eb.selectFrom('operations as o').select(sql.lit(1).as('one')).whereRef('o.order_id', '=', 'p.order_id').where('o.status', '=', 'pending')),
        ]),
      )
      .execute();
    open.push(...rows.map(({ order_id }) => order_id));
  }
  if (open.length === 0) return;
  const named = open.slice(0, NAMED).join(', ') + (open.length > NAMED ? ` and ${open.length - NAMED} more` : '');
  throw new LedgerConflict(
    'payment_in_flight',
    `The customer's orders ${named} are not decided yet (a payment the gateway may still report, an operation under way, or a payment held for review): erase once they are, nothing was erased`,
  );
}

/** Drops the `customer_*` fields (but the merchant's own customer id) from the stored events of `orderIds`: how many changed. */
async function eraseFromEvents(trx: LedgerDb, orderIds: readonly string[]): Promise<number> {
  const rows = await trx.selectFrom('webhook_events').select(['id', 'body']).where('order_id', 'in', orderIds).execute();
  let changed = 0;
  for (const { id, body } of rows) {
    const kept = withoutCustomer(body);
    if (kept === body) continue;
    await trx.updateTable('webhook_events').set({ body: kept }).where('id', '=', id).execute();
    changed++;
  }
  return changed;
}

/** An event's body without the customer's fields; as it was when it holds none, or is not a JSON object (a post that could not be read). */
export function withoutCustomer(body: string): string {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return body;
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return body;
  const personal = Object.keys(event).filter((field) => field.startsWith('customer_') && field !== 'customer_id');
  if (personal.length === 0) return body;
  const kept = { ...(event as Record<string, unknown>) };
  for (const field of personal) delete kept[field];
  return JSON.stringify(kept);
}

/**
 * The customer's sessions without an order — opened, never paid, not yet swept (session-sweep.ts
 * deletes them ABANDONED_SESSION_KEPT_MS after they expired) — read by their expiry index a
 * window at a time (period-windows.ts). How many it erased.
 */
async function eraseFromOpenSessions(ctx: LedgerContext, match: RawBuilder<SqlBool>): Promise<number> {
  let erased = 0;
  for await (const window of periodWindows(ctx, 'checkout_sessions', ctx.now() - ABANDONED_SESSION_KEPT_MS, Number.MAX_SAFE_INTEGER)) {
    const result = await ctx.db
      .updateTable('checkout_sessions')
      .set({ customer: NO_DETAILS })
      .where('expires_at', '>=', window.from)
      .where('expires_at', '<', window.to)
      .where('customer', '<>', NO_DETAILS)
      .where(match)
      .executeTakeFirst();
    erased += Number(result.numUpdatedRows);
  }
  return erased;
}
