// A PostgreSQL ledger as 0017 left it with enough payments that 0018's indexes are built online
// (index-builds.ts): for the tests of that build, in the ledger and through the companion.
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely } from 'kysely';
import pg from 'pg';
import { ONLINE_BUILD_PAYMENTS } from '../migrations.js';
import { ensureSchema, postgresDialect } from '../postgres.js';
import { migratedTo } from './earlier-ledgers.js';

/** A pay claim's rows, its session's and its payment's: `$1` is both ids. */
export const PAY_CLAIM = [
  `insert into payform_checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
    values ($1, $1, 24950, 'UAH', 'Tea', 'purchase', '{"email":"Buyer@Example.com"}', '["direct"]', 1, 99999999999999)`,
  `insert into payform_payments (order_id, session_id, attempt, mode, method, amount, currency, status, customer, created_at, updated_at, last_seen_at)
    values ($1, $1, 1, 'direct', 'purchase', 24950, 'UAH', 'init', '{"email":"Buyer@Example.com"}', 1, 1, 1)`,
] as const;
/** `$1` pay claims of no customer's e-mail, as PAY_CLAIM's rows. */
const BULK_CLAIMS = [
  `insert into payform_checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
    select 'bulk-' || n, 'bulk-' || n, 1000, 'UAH', 'Tea', 'purchase', '{}', '["direct"]', 1, 99999999999999 from generate_series(1, $1::int) as n`,
  `insert into payform_payments (order_id, session_id, attempt, mode, method, amount, currency, status, customer, created_at, updated_at, last_seen_at)
    select 'bulk-' || n, 'bulk-' || n, 1, 'direct', 'purchase', 1000, 'UAH', 'init', '{}', 1, 1, 1 from generate_series(1, $1::int) as n`,
] as const;
/** What a webhook does to a payment. */
export const WEBHOOK_UPDATE = `update payform_payments set status = 'success', status_code = '1000', updated_at = 2 where order_id = $1`;

/** A connection of the test's own, in `schema`. */
export async function connected(url: string, schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set search_path to ${schema}`);
  return client;
}

/** `client`'s backend, as pg_stat_activity names it. */
export function pidOf(client: pg.Client): number {
  return (client as unknown as { processID: number }).processID;
}

/**
 * Another application's long report on the ledger: a connection of its own holding a snapshot (a
 * repeatable-read transaction that has read the payments), which a concurrent index build waits
 * for until it ends (`end()`, or a commit).
 */
export async function snapshotHeld(url: string, schema: string): Promise<pg.Client> {
  const client = await connected(url, schema);
  await client.query('begin isolation level repeatable read');
  await client.query('select count(*) from payform_payments');
  return client;
}

/** A ledger as 0017 left it, in `schema`, holding three payments (all in UAH) and ONLINE_BUILD_PAYMENTS more. */
export async function ledgerWithPayments(url: string, schema: string): Promise<void> {
  const db = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
  try {
    await ensureSchema(db, schema);
    await migratedTo(db, '0017_operation_transactions', schema);
  } finally {
    await db.destroy();
  }
  const client = await connected(url, schema);
  try {
    for (const id of ['old-1', 'old-2', 'old-3']) for (const statement of PAY_CLAIM) await client.query(statement, [id]);
    // Enough payments for the online build (a smaller ledger builds its indexes in the migration).
    for (const statement of BULK_CLAIMS) await client.query(statement, [ONLINE_BUILD_PAYMENTS]);
  } finally {
    await client.end();
  }
}

/** Waits until an index build waits for the transaction of backend `pid`. */
export async function buildWaitingFor(watcher: pg.Client, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await watcher.query(`select 1 from pg_stat_activity where query ilike '%create index concurrently%' and $1 = any (pg_blocking_pids(pid))`, [pid]);
    if (rows.length > 0) return;
    await sleep(20);
  }
}
