// What every store module works with: the query builder, how this database locks an order,
// and the clock.
import type { Kysely } from 'kysely';
import type { LedgerTables } from './schema.js';

export type LedgerDb = Kysely<LedgerTables>;

export interface LedgerContext {
  readonly db: LedgerDb;
  readonly dialect: 'sqlite' | 'postgres';
  /** Epoch milliseconds; injectable so tests can move time. */
  readonly now: () => number;
}

/**
 * Reads a payment row and, on PostgreSQL, locks it until the transaction ends, so everything
 * that checks an order's money and then writes is serialised per order across instances.
 * On SQLite the transaction's BEGIN IMMEDIATE already holds the database's write lock.
 */
export function lockPayment(ctx: LedgerContext, trx: LedgerDb, orderId: string) {
  return trx
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .$if(ctx.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
}
