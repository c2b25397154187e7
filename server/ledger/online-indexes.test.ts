// An upgrade that indexes the payments table, on a ledger with payments: PostgreSQL builds the
// indexes while pay claims and webhooks go on writing the table (a plain CREATE INDEX holds them
// all for the build: seconds on a million payments, past their 5 s deadline), two instances
// starting together build them once, and an index a build left half-done is built again.
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { ONLINE_BUILD_PAYMENTS } from './migrations.js';
import type { Ledger } from './ledger.js';
import { ensureSchema, postgresDialect } from './postgres.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { migratedTo } from './testing/earlier-ledgers.js';

/** A pay claim's rows, its session's and its payment's: `$1` is both ids. */
const PAY_CLAIM = [
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
const WEBHOOK_UPDATE = `update payform_payments set status = 'success', status_code = '1000', updated_at = 2 where order_id = $1`;

async function connected(url: string, schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set search_path to ${schema}`);
  return client;
}

/** A ledger as 0017 left it, in `schema`, holding three payments (all in UAH) and ONLINE_BUILD_PAYMENTS more. */
async function ledgerWithPayments(url: string, schema: string): Promise<void> {
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
async function buildWaitingFor(watcher: pg.Client, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await watcher.query(`select 1 from pg_stat_activity where query ilike 'create index%' and $1 = any (pg_blocking_pids(pid))`, [pid]);
    if (rows.length > 0) return;
    await sleep(20);
  }
}

/** Runs each statement on `writer`, failing (and cancelling it) the moment it waits for a lock instead. */
async function writtenWithoutWaiting(writer: pg.Client, watcher: pg.Client, statements: readonly (readonly [string, readonly unknown[]])[]): Promise<void> {
  const pid = (writer as unknown as { processID: number }).processID;
  for (const [text, values] of statements) {
    let done = false;
    const running = writer.query(text, [...values]).finally(() => (done = true));
    while (!done) {
      const { rows } = await watcher.query<{ blockers: number[] }>(`select pg_blocking_pids(pid) as blockers from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [pid]);
      if (rows.length > 0) {
        await watcher.query('select pg_cancel_backend($1)', [pid]);
        await running.catch(() => undefined);
        throw new Error(`a payment's write waited for the upgrade's lock (held by ${rows[0]!.blockers.join(', ')}): ${text.trim().slice(0, 30)}…`);
      }
    }
    await running;
  }
}

/** The order search's indexes: name → [valid, columns]. */
async function searchIndexes(watcher: pg.Client, schema: string): Promise<Record<string, [boolean, string]>> {
  const { rows } = await watcher.query<{ name: string; valid: boolean; definition: string }>(
    `select c.relname as name, i.indisvalid as valid, pg_get_indexdef(c.oid) as definition from pg_index i join pg_class c on c.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname in ('payform_payments_by_email', 'payform_payments_by_amount')`,
    [schema],
  );
  return Object.fromEntries(rows.map(({ name, valid, definition }) => [name, [valid, definition.replace(/^.* USING btree /, '')]]));
}

const BUILT = {
  payform_payments_by_amount: [true, '(amount, created_at, order_id)'],
  payform_payments_by_email: [true, "(lower(((customer)::json ->> 'email'::text)), created_at, order_id) WHERE (lower(((customer)::json ->> 'email'::text)) IS NOT NULL)"],
};

withTestDatabase((url) => {
  describe('0018_order_search on a PostgreSQL ledger with payments', () => {
    it('builds its indexes while pay claims and webhooks write the table, once for two instances starting together', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const [inFlight, writer, watcher] = await Promise.all([connected(url, schema), connected(url, schema), connected(url, schema)]);
      let opening: Promise<Ledger>[] = [];
      try {
        // A payment being written as the upgrade starts: the build waits for its transaction to end
        // (as one on a busy table does for each), which holds the build still for the writes below.
        await inFlight.query('begin');
        for (const statement of PAY_CLAIM) await inFlight.query(statement, ['in-flight']);
        opening = [openLedger(url, { schema }), openLedger(url, { schema })];
        await buildWaitingFor(watcher, (inFlight as unknown as { processID: number }).processID);

        await writtenWithoutWaiting(writer, watcher, [...PAY_CLAIM.map((statement) => [statement, ['new-1']] as const), [WEBHOOK_UPDATE, ['old-1']]]);

        await inFlight.query('commit');
        const ledgers = await Promise.all(opening);
        expect(ledgers.map(({ upgradedNow }) => upgradedNow.join()).sort()).toEqual(['', '0018_order_search']);
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
        const found = await ledgers[1]!.listOrders({ email: 'buyer@example.com', limit: 10 });
        expect(found.orders.map(({ orderId }) => orderId).sort()).toEqual(['in-flight', 'new-1', 'old-1', 'old-2', 'old-3']);
      } finally {
        await inFlight.query('rollback').catch(() => undefined);
        for (const result of await Promise.allSettled(opening)) if (result.status === 'fulfilled') await result.value.close();
        await Promise.all([inFlight.end(), writer.end(), watcher.end()]);
        await dropSchema(url, schema);
      }
    });

    it('drops an index a build left invalid (a crash, a cancel) and builds it again; builds one missing at a restart', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const watcher = await connected(url, schema);
      try {
        // What a build cut short leaves: an index of 0018's name that PostgreSQL keeps but never uses.
        await expect(watcher.query('create unique index concurrently payform_payments_by_amount on payform_payments (currency)')).rejects.toThrow(/could not create unique index/);
        expect((await searchIndexes(watcher, schema)).payform_payments_by_amount?.[0]).toBe(false);

        const ledger = await openLedger(url, { schema });
        expect(ledger.upgradedNow).toEqual(['0018_order_search']);
        await ledger.close();
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
        expect((await watcher.query(`select key from payform_ledger_settings where key = 'online_index_build'`)).rows, 'the builder let its claim go').toEqual([]);

        await watcher.query('drop index payform_payments_by_email');
        const restarted = await openLedger(url, { schema });
        expect(restarted.upgradedNow).toEqual([]);
        await restarted.close();
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
      } finally {
        await watcher.end();
        await dropSchema(url, schema);
      }
    });
  });
});
