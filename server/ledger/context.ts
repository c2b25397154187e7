// What every store module works with: the query builder, how this database locks an order,
// and the clock.
import type { Kysely } from 'kysely';
import type { LedgerTables } from './schema.js';
import { PAYMENT_COLUMNS } from './columns.js';
import { oncePerLedger, prepareQuery } from './prepared.js';
import type { PaymentRow } from './schema.js';

export type LedgerDb = Kysely<LedgerTables>;

export interface LedgerContext {
  readonly db: LedgerDb;
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `work` — one write of what the gateway said, which it will say again — without
   * waiting for the disk to confirm its commit (see sqlite.ts `recordedLightly`); as any
   * other write where the database offers no such thing.
   */
  readonly lightly: <T>(work: (db: LedgerDb) => Promise<T>) => Promise<T>;
  /**
   * Called inside a transaction, once its statements ran: its commit need not wait for the disk
   * (what it wrote is something the gateway holds and tells again). SQLite only; elsewhere
   * nothing.
   */
  readonly commitLightly: () => void;
  /** Epoch milliseconds; injectable so tests can move time. */
  readonly now: () => number;
}

/**
 * For `.$call()` on a SELECT inside a transaction: locks the rows it reads until the
 * transaction ends — FOR UPDATE on PostgreSQL; on SQLite the transaction's BEGIN IMMEDIATE
 * already holds the database's write lock. The one place where locking differs by dialect.
 * `of` names the table whose rows to lock when the read joins others (PostgreSQL cannot lock
 * the nullable side of an outer join).
 */
export function lockingRead(ctx: LedgerContext, of?: string) {
  return <Query extends { forUpdate(of?: never): Query }>(query: Query): Query => (ctx.dialect === 'postgres' ? query.forUpdate(of as never) : query);
}

/**
 * Reads a payment row and locks it, so everything that checks an order's money and then
 * writes is serialised per order, across instances too.
 */
const lockedPayment = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<{ orderId: string }, PaymentRow>((slot) => ctx.db.selectFrom('payments').select(PAYMENT_COLUMNS).where('order_id', '=', slot('orderId')).$call(lockingRead(ctx))),
);
export async function lockPayment(ctx: LedgerContext, trx: LedgerDb, orderId: string) {
  return (await lockedPayment(ctx)(trx, { orderId })).rows[0];
}
