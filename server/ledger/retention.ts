// Customers' details kept for a set time, then erased by age (the GDPR's storage limitation): the
// companion's `personalDataDays`. An order created before the cutoff and decided has its
// customer's details erased exactly as an erasure on request erases an order (erasure.ts, whose
// code does it): the payment's customer and card token, its session's details (closed unless
// paid), its webhook events' `customer_*` fields; the order is marked erased, so what comes about
// it later keeps none. The orders stay, with their money, card masks and the merchant's customer
// id; the cards saved under a customer id stay too, the customer's standing choice, deleted by an
// erasure on request or by the merchant.
//
// The age is the order's creation (its attempt's `created_at`): the date a shop's privacy notice
// counts from ("N days after the order"), written once by the payment's INSERT. Its index
// (0001's `payments_newest`, created_at and order_id) is read from where the last pass stopped,
// so a pass costs two reads of an index when nothing is due, however many orders are behind it;
// `finalized_at` would have needed an index of its own on a column a webhook's UPDATE writes.
// An order still to be decided at its turn is passed by and noted (migration 0028's table), and
// looked at again until it is decided; a refund asked for later changes nothing of its age.
import { setImmediate as loopTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { z } from 'zod';
import type { LedgerContext, LedgerDb } from './context.js';
import { eraseDecided, erasingBatch, ORDERS_AT_ONCE, undecided, withLateArrivals } from './erasure.js';
import type { Erased } from './erasure.js';
import { parseInput } from './input.js';
import { holdPassCursor, movePassCursor, readPassCursor, samePosition } from './pass-cursor.js';
import type { PassPosition } from './pass-cursor.js';
import type { AgedErasure, AgedErasureQuery } from './types.js';

/** The setting that holds how far the erasure by age has looked, `<created_at> <order_id>`. */
const CURSOR = 'personal_data_erasure';

/**
 * How long an order passed by undecided waits before it is looked at again: it is decided within
 * reconciliation's give-up time, or by a person, so a look every few minutes erases it soon after.
 */
export const UNDECIDED_LOOKED_AGAIN_MS = 10 * 60_000;

const agedErasureInput = z.strictObject({ createdBefore: z.number().int().nonnegative(), limit: z.number().int().positive().max(10_000) });

/** An order at its turn: its position (created_at, order_id), its session, whether its details were erased already. */
interface Due {
  readonly createdAt: number;
  readonly orderId: string;
  readonly sessionId: string;
  readonly erased: boolean;
}

/**
 * Erases the customer's details of the decided orders created before `createdBefore`, looking at
 * `limit` orders at most (1–10,000); what it erased, and how many orders it passed by undecided.
 *
 * First the orders passed by undecided before, those not looked at for UNDECIDED_LOOKED_AGAIN_MS;
 * then the orders from where the last pass stopped, in creation order. An order erased already (on
 * request) is passed by as it is. Each batch is a transaction that holds the cursor's row
 * (PostgreSQL) or the write lock (SQLite): instances passing at once take turns, and the second
 * reads where the first stopped, so no order is erased twice. Each batch's orders are locked in
 * the order of their ids, as an erasure on request takes them: neither waits for the other in a
 * circle. Most passes find nothing due: three reads, no write.
 */
export async function eraseAgedCustomerDetails(ctx: LedgerContext, input: AgedErasureQuery): Promise<AgedErasure> {
  const { createdBefore, limit } = parseInput(agedErasureInput, input);
  const erased: Erased = { orderIds: [], sessions: 0, events: 0 };
  let undecidedCount = 0;
  let left = limit;

  await withLateArrivals(ctx, erased, async () => {
    // The orders passed by before, now perhaps decided.
    const lookAgainBefore = ctx.now() - UNDECIDED_LOOKED_AGAIN_MS;
    while (left > 0 && (await waitingDue(ctx.db, lookAgainBefore, 1)).length > 0) {
      const batch = Math.min(left, ORDERS_AT_ONCE);
      const looked = await erasingBatch(ctx, erased, async (trx, batchErased) => {
        await holdPassCursor(trx, CURSOR);
        const ids = await waitingDue(trx, lookAgainBefore, batch);
        const due = await dueOf(trx, ids);
        const waiting = await settle(ctx, trx, due, batchErased);
        // Gone from the payments (a ledger copied without them): nothing to wait for.
        const gone = ids.filter((id) => !due.some(({ orderId }) => orderId === id));
        if (gone.length > 0) await trx.deleteFrom('retention_waits').where('order_id', 'in', gone).execute();
        return { count: ids.length, waiting };
      });
      left -= looked.count;
      undecidedCount += looked.waiting;
      if (looked.count < batch) break;
      await loopTurn();
    }

    // The orders from where the last pass stopped.
    let seen = await readPassCursor(ctx.db, CURSOR);
    while (left > 0) {
      const batch = Math.min(left, ORDERS_AT_ONCE);
      const due = await ordersDue(ctx.db, seen, createdBefore, batch);
      if (due.length === 0) break;
      const looked = await erasingBatch(ctx, erased, async (trx, batchErased) => {
        const from = await holdPassCursor(trx, CURSOR);
        // Another instance passed meanwhile: read again from where it stopped.
        const turn = samePosition(from, seen) ? due : await ordersDue(trx, from, createdBefore, batch);
        const last = turn.at(-1);
        if (!last) return { count: 0, last: from, waiting: 0 };
        const waiting = await settle(ctx, trx, turn, batchErased);
        const reached = { at: last.createdAt, key: last.orderId };
        await movePassCursor(trx, CURSOR, reached);
        return { count: turn.length, last: reached, waiting };
      });
      left -= looked.count;
      undecidedCount += looked.waiting;
      seen = looked.last;
      if (looked.count < batch) break;
      await loopTurn();
    }
  });

  return { orderIds: erased.orderIds, sessions: erased.sessions, events: erased.events, undecided: undecidedCount };
}

/**
 * In `trx`, which holds the cursor: erases the orders of `due` that are decided and not erased
 * yet, and notes those still to be decided to be looked at again (those decided leave the note).
 * How many were still to be decided.
 */
async function settle(ctx: LedgerContext, trx: LedgerDb, due: readonly Due[], erased: Erased): Promise<number> {
  const toErase = due.filter((order) => !order.erased);
  // Erasing an order empties its session, and closes it unless paid: an order waits while another
  // attempt of its session is undecided too (an erasure on request checks all of them alike).
  const sessionIds = [...new Set(toErase.map(({ sessionId }) => sessionId))];
  const attempts = sessionIds.length === 0 ? [] : await trx.selectFrom('payments').select(['order_id', 'session_id']).where('session_id', 'in', sessionIds).execute();
  // Locked (PostgreSQL) in the order of their ids, and checked under the lock, as eraseCustomer's batches are.
  const openAttempts = new Set(attempts.length === 0 ? [] : await undecided(ctx, trx, attempts.map(({ order_id }) => order_id).sort(), true));
  const openSessions = new Set(attempts.filter(({ order_id }) => openAttempts.has(order_id)).map(({ session_id }) => session_id));
  const open = new Set(toErase.filter(({ sessionId }) => openSessions.has(sessionId)).map(({ orderId }) => orderId));
  const decided = toErase.filter(({ orderId }) => !open.has(orderId));
  const done = await eraseDecided(ctx, trx, decided.map(({ orderId, sessionId }) => ({ order_id: orderId, session_id: sessionId })));
  erased.orderIds.push(...decided.map(({ orderId }) => orderId));
  erased.sessions += done.sessions;
  erased.events += done.events;
  const now = ctx.now();
  if (open.size > 0) {
    await trx
      .insertInto('retention_waits')
      .values([...open].map((order_id) => ({ order_id, checked_at: now })))
      .onConflict((oc) => oc.column('order_id').doUpdateSet({ checked_at: now }))
      .execute();
  }
  const settled = due.filter(({ orderId }) => !open.has(orderId)).map(({ orderId }) => orderId);
  if (settled.length > 0) await trx.deleteFrom('retention_waits').where('order_id', 'in', settled).execute();
  return open.size;
}

/** Orders created before `createdBefore` after `from`, oldest first: the creation index, read from `from`. */
async function ordersDue(db: LedgerDb, from: PassPosition, createdBefore: number, limit: number): Promise<Due[]> {
  const rows = await db
    .selectFrom('payments')
    .select(['order_id', 'session_id', 'created_at'])
    .where(sql<boolean>`(created_at, order_id) > (${from.at}, ${from.key})`)
    .where('created_at', '<', createdBefore)
    .orderBy('created_at')
    .orderBy('order_id')
    .limit(limit)
    .execute();
  return withErasures(db, rows);
}

/** The orders of `ids`, as ordersDue reads them (by their key). */
async function dueOf(db: LedgerDb, ids: readonly string[]): Promise<Due[]> {
  if (ids.length === 0) return [];
  return withErasures(db, await db.selectFrom('payments').select(['order_id', 'session_id', 'created_at']).where('order_id', 'in', ids).orderBy('order_id').execute());
}

/**
 * The orders of `rows`, each said erased already or not: read by the erased orders' key, a
 * statement of its own. As a subquery of the read above, PostgreSQL's generic plan may hash the
 * whole table of erased orders for each batch.
 */
async function withErasures(db: LedgerDb, rows: readonly { order_id: string; session_id: string; created_at: number }[]): Promise<Due[]> {
  const ids = rows.map(({ order_id }) => order_id);
  const erased = new Set(ids.length === 0 ? [] : (await db.selectFrom('erased_orders').select('order_id').where('order_id', 'in', ids).execute()).map(({ order_id }) => order_id));
  return rows.map((row) => ({ orderId: row.order_id, sessionId: row.session_id, createdAt: Number(row.created_at), erased: erased.has(row.order_id) }));
}

/** The orders passed by undecided that were last looked at before `before`, longest ago first (their own index). */
async function waitingDue(db: LedgerDb, before: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('retention_waits').select('order_id').where('checked_at', '<=', before).orderBy('checked_at').orderBy('order_id').limit(limit).execute();
  return rows.map(({ order_id }) => order_id);
}
