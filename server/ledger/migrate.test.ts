// A migration that fails says which one and why (the database's own words), so whoever starts
// the companion can act on it without a debugger. The tables carry the payform_ prefix, so a
// shop's own tables of the same names live beside them — an existing ledger's rows renamed, kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { migrations } from './migrations.js';
import { ensureSchema, postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { withClient } from './testing/schema-pool.js';
import { migratedTo, paidOrderOf02 } from './testing/earlier-ledgers.js';

describe('a failed migration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'payform-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the migration and carries its cause, in the message and as `cause`', async () => {
    const path = join(dir, 'shop.db');
    // A database that already holds an index of a name the first migration gives one of its own.
    const shop = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
    await sql`create table carts (created_at integer, order_id text)`.execute(shop);
    await sql`create index payments_newest on carts (created_at, order_id)`.execute(shop);
    await shop.destroy();

    const failure = await openLedger(path).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/^ledger: migration 0001_initial failed: .*index "?payments_newest"? already exists/);
    expect(failure?.message).toContain('. Give the ledger a file of its own: PAYFORM_DATABASE_URL=./data/payform.db');
    expect((failure?.cause as Error | undefined)?.message).toMatch(/payments_newest/);
  });

  it('refuses a database holding a shop\'s table of a name the first migrations take, before it creates anything, naming the fix', async () => {
    const path = join(dir, 'shop.db');
    const shop = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
    await sql`create table payments (id integer primary key, cart text)`.execute(shop);
    await sql`create table checkout_sessions (id integer primary key)`.execute(shop);
    await shop.destroy();
    await expect(openLedger(path)).rejects.toThrow(
      'ledger: migration 0001_initial cannot run: the database already has tables named checkout_sessions, payments, which the ledger\'s first migrations create (nothing was created). ' +
        'Give the ledger a file of its own: PAYFORM_DATABASE_URL=./data/payform.db, or another path no other program writes',
    );
    const after = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
    const names = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(after)).rows.map(({ name }) => name);
    await after.destroy();
    expect(names).toEqual(['checkout_sessions', 'payments']);
  });

  it('says a ledger a later payform migrated needs that version, rather than that it is corrupted', async () => {
    const path = join(dir, 'ledger.db');
    await (await openLedger(path)).close();
    const db = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
    await sql`insert into ledger_migration (name, timestamp) values ('0099_of_a_later_version', '2030-01-01T00:00:00.000Z')`.execute(db);
    await db.destroy();
    await expect(openLedger(path)).rejects.toThrow(
      'ledger: this database was migrated by a later payform (its migration 0099_of_a_later_version is not one this version has): run that version or a later one on it; a ledger is never migrated back',
    );
  });
});

/** A ledger as 0.2 left it (up to 0009), holding a paid order: its tables unprefixed. */
async function ledgerOf02(db: Kysely<unknown>, schema?: string): Promise<void> {
  await migratedTo(db, '0009_lookup_method', schema);
  await paidOrderOf02(db);
}

/** A shop's own tables and indexes of the very names the ledger used to have. */
async function shopTables(db: Kysely<unknown>): Promise<void> {
  await sql`create table payments (id integer primary key, cart text)`.execute(db);
  await sql`create table checkout_sessions (id integer primary key)`.execute(db);
  await sql`create index payments_of_customer on payments (cart)`.execute(db);
  await sql`insert into payments (id, cart) values (1, 'the shop''s')`.execute(db);
}

describe('the payform_ prefix', () => {
  it('renames an existing SQLite ledger\'s tables and indexes, keeping its rows, and leaves room for a shop\'s own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-prefix-'));
    const path = join(dir, 'shop.db');
    try {
      const old = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
      await ledgerOf02(old);
      await old.destroy();
      const ledger = await openLedger(path);
      expect(await ledger.getPayment('old-1')).toMatchObject({ status: 'success', amount: 1000, sessionId: 's1' });
      // What this open ran on it, for the companion's line at start: from 0.2's last on.
      expect(ledger.upgradedNow[0]).toBe('0010_payform_prefix');
      expect(ledger.upgradedNow.at(-1)).toBe(Object.keys(migrations).at(-1));
      expect(ledger.createdNow, 'an upgraded ledger was there before').toBe(false);
      await ledger.close();

      const shop = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
      const names = (await sql<{ name: string }>`select name from sqlite_schema where sql is not null and name not like 'ledger_migration%' order by name`.execute(shop)).rows.map(({ name }) => name);
      expect(names.every((name) => name.startsWith('payform_')), names.join(', ')).toBe(true);
      await shopTables(shop);
      await shop.destroy();
      const again = await openLedger(path);
      expect(await again.getPayment('old-1')).toMatchObject({ status: 'success' });
      expect(again.upgradedNow, 'up to date: nothing ran').toEqual([]);
      expect(again.createdNow).toBe(false);
      await again.close();
      const fresh = await openLedger(join(dir, 'new.db'));
      expect(fresh.upgradedNow, 'a new ledger is not an upgrade').toEqual([]);
      expect(fresh.createdNow).toBe(true);
      await fresh.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  withTestDatabase((url) => {
    it('renames an existing PostgreSQL ledger\'s tables and indexes, keeping its rows, and leaves room for a shop\'s own', async () => {
      const schema = freshSchemaName();
      try {
        const old = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
        await ensureSchema(old, schema);
        await ledgerOf02(old, schema);
        await old.destroy();
        const ledger = await openLedger(url, { schema });
        expect(await ledger.getPayment('old-1')).toMatchObject({ status: 'success', amount: 1000, sessionId: 's1' });
        expect(ledger.createdNow, 'an upgraded ledger was there before').toBe(false);
        await ledger.close();
        // A schema of its own made new is a new ledger; opened again, it is not.
        const made = freshSchemaName();
        try {
          const fresh = await openLedger(url, { schema: made });
          expect(fresh.createdNow).toBe(true);
          await fresh.close();
          const reopened = await openLedger(url, { schema: made });
          expect(reopened.createdNow).toBe(false);
          await reopened.close();
        } finally {
          await dropSchema(url, made);
        }

        const shop = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
        const relations = await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = ${schema} and c.relkind in ('r', 'i') and c.relname not like 'ledger_migration%'`.execute(shop);
        const names = relations.rows.map(({ name }) => name);
        expect(names.every((name) => name.startsWith('payform_')), names.join(', ')).toBe(true);
        // The shop's own payments table makes its own payments_pkey: no clash.
        await shopTables(shop);
        await shop.destroy();
        const again = await openLedger(url, { schema });
        expect(await again.getPayment('old-1')).toMatchObject({ status: 'success' });
        await again.close();
      } finally {
        await dropSchema(url, schema);
      }
    });
  });
});

withTestDatabase((url) => {
  describe('a shop\'s schema on PostgreSQL', () => {
    /** PAYFORM_DATABASE_URL naming the schema: options=-c search_path=… */
    const inSchema = (schema: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

    it('refuses a shop\'s payments table before it creates anything, and opens in a schema of its own named in the URL', async () => {
      const [shop, own] = [freshSchemaName(), freshSchemaName()];
      try {
        await withClient(url, async (client) => {
          await client.query(`create schema ${shop}; create table ${shop}.payments (id integer primary key, cart text)`);
        });
        await expect(openLedger(inSchema(shop))).rejects.toThrow(
          `ledger: migration 0001_initial cannot run: schema "${shop}" already has a table named payments, which the ledger's first migrations create (nothing was created). ` +
            'Give the ledger a schema of its own: create it (CREATE SCHEMA payform) and name it in the URL, ' +
            'PAYFORM_DATABASE_URL=postgres://…/<database>?options=-c%20search_path%3Dpayform (openLedger: its schema option, which creates it)',
        );
        const left = await withClient(url, async (client) => (await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [shop])).rows);
        expect(left.map(({ name }) => name)).toEqual(['payments']);

        // The way the refusal names: a schema of its own, in PAYFORM_DATABASE_URL.
        await withClient(url, (client) => client.query(`create schema ${own}`));
        const ledger = await openLedger(inSchema(own));
        await ledger.close();
        const tables = await withClient(url, async (client) => (await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [own])).rows);
        expect(tables.map(({ name }) => name)).toContain('payform_payments');
      } finally {
        await dropSchema(url, shop);
        await dropSchema(url, own);
      }
    });

    it('says to create the schema a URL names when there is none of that name', async () => {
      const missing = freshSchemaName();
      await expect(openLedger(inSchema(missing))).rejects.toThrow(
        `ledger: the search_path (${missing}) names no schema of this database: create the ledger's (CREATE SCHEMA ${missing}), or name one that exists in the URL's options=-c search_path=…`,
      );
    });
  });
});

/** A paid order with one settled operation, in the columns every ledger since 0016 has: session `s<n>`, order `old-<n>`. */
interface OldOrder {
  readonly n: number;
  readonly amount: number;
  readonly currency: string;
  readonly method: 'purchase' | 'auth';
  readonly operation: { readonly id: string; readonly kind: 'refund' | 'capture'; readonly amount: number; readonly operationId: string };
}

async function insertOldOrder(db: Kysely<unknown>, { n, amount, currency, method, operation }: OldOrder): Promise<void> {
  const [session, order] = [`s${n}`, `old-${n}`];
  await sql`insert into payform_checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
    values (${session}, ${order}, ${amount}, ${currency}, 'Tea', ${method}, '{}', '["direct"]', 1, 99999999999999)`.execute(db);
  await sql`insert into payform_payments (order_id, session_id, attempt, mode, method, amount, currency, status, customer, created_at, updated_at, last_seen_at)
    values (${order}, ${session}, 1, 'direct', ${method}, ${amount}, ${currency}, 'success', '{}', 1, 1, 1)`.execute(db);
  await sql`insert into payform_operations (id, order_id, kind, amount, status, operation_id, origin, created_at, updated_at, last_seen_at, settled_at)
    values (${operation.id}, ${order}, ${operation.kind}, ${operation.amount}, 'success', ${operation.operationId}, 'merchant', 2, 2, 2, 2)`.execute(db);
}

/** A refund as a ledger before 0017 holds it (no transaction column): on `old-1` of paidOrderOf02, its tables prefixed. */
async function refundBefore0017(db: Kysely<unknown>, schema?: string): Promise<void> {
  await migratedTo(db, '0016_ledger_settings', schema);
  await insertOldOrder(db, { n: 1, amount: 1000, currency: 'XTS', method: 'purchase', operation: { id: 'r1', kind: 'refund', amount: 400, operationId: 'op-old' } });
}

/** What an upgraded ledger's refund reads as: no transaction yet, until its webhook names one. */
async function expectRefundLearnsItsTransaction(ledger: Ledger): Promise<void> {
  expect(ledger.upgradedNow).toContain('0017_operation_transactions');
  expect(await ledger.getOperation('r1')).toMatchObject({ amount: 400, status: 'success', operationId: 'op-old', transactionId: null });
  const transactionId = '6f1d3c2a-8b4e-4f70-9a15-2c7e9d0b4a11';
  const body = JSON.stringify({ order_id: 'old-1', method: 'refund', status: 'success', operation_id: 'op-old', transaction_id: transactionId });
  await ledger.ingestEvent({ method: 'refund', status: 'success', orderId: 'old-1', operationId: 'op-old', amount: 400, transactionId, body, data: Buffer.from(body).toString('base64url') });
  expect(await ledger.getOperation('r1')).toMatchObject({ amount: 400, transactionId });
}

describe('operations recorded before their transactions were kept (0017)', () => {
  upgradeCase((database) => `reads a ${database} ledger's refunds with none, and keeps the one a webhook names`, refundBefore0017, expectRefundLearnsItsTransaction);
});

/** A ledger before 0019 (no save_card): paid `old-1` of session `s1`, and `s2` of a customer, open, unpaid. */
async function customerSessionBefore0019(db: Kysely<unknown>, schema?: string): Promise<void> {
  await refundBefore0017(db, schema);
  await migratedTo(db, '0018_order_search', schema);
  await sql`insert into payform_checkout_sessions (id, order_id, amount, currency, description, method, customer, customer_id, allowed_modes, created_at, expires_at)
    values ('s2', 'old-2', 500, 'XTS', 'Tea', 'purchase', '{}', 'cust-old', '["direct"]', 1, 99999999999999)`.execute(db);
}

/** A session opened before keeps its payment's card as it always did; a new one may keep none. */
async function expectCardsKeptAsBefore(ledger: Ledger): Promise<void> {
  expect(ledger.upgradedNow).toContain('0019_card_consent');
  const card = { ccToken: 'tok-1', ccMask: '424242******4242' };
  expect(await ledger.savePaymentCard({ sessionId: 's2', orderId: 'old-2' }, { customerId: 'cust-old', ...card })).toMatchObject({ customerId: 'cust-old', ccToken: 'tok-1' });
  const declined = await ledger.createSession({ amount: 700, currency: 'XTS', description: 'Tea', method: 'purchase', customerId: 'cust-new', saveCard: false });
  expect(await ledger.savePaymentCard({ sessionId: declined.id, orderId: declined.orderId }, { customerId: 'cust-new', ...card })).toBeUndefined();
  expect(await ledger.listCards('cust-new')).toEqual([]);
}

describe('sessions and payments stored before save_card (0019)', () => {
  upgradeCase((database) => `reads a ${database} ledger's as keeping the card, and a new session may not`, customerSessionBefore0019, expectCardsKeptAsBefore);
});

/** Before 0024 an operation's currency was its payment's, read from there: `old-1`'s refund, and a capture of a JPY payment. */
async function operationsBefore0024(db: Kysely<unknown>, schema?: string): Promise<void> {
  await refundBefore0017(db, schema);
  await migratedTo(db, '0023_movement_dates', schema);
  await insertOldOrder(db, { n: 3, amount: 5000, currency: 'JPY', method: 'auth', operation: { id: 'c3', kind: 'capture', amount: 5000, operationId: 'op-c3' } });
}

async function expectOperationsCarryTheirCurrency(ledger: Ledger, db: Kysely<unknown>): Promise<void> {
  expect(ledger.upgradedNow).toContain('0024_operation_currency');
  expect(await ledger.getOperation('r1')).toMatchObject({ amount: 400, currency: 'XTS' });
  expect(await ledger.getOperation('c3')).toMatchObject({ amount: 5000, currency: 'JPY' });
  const refund = await ledger.reserveOperation('old-1', { kind: 'refund', amount: 100 });
  expect(refund).toMatchObject({ amount: 100, currency: 'XTS' });
  // An instance of the build before, still running during a rolling upgrade, inserts one without it.
  await sql`insert into payform_operations (id, order_id, kind, amount, status, origin, created_at, updated_at, last_seen_at)
    values ('c4', 'old-3', 'capture', 100, 'pending', 'merchant', 3, 3, 3)`.execute(db);
  expect(await ledger.getOperation('c4')).toMatchObject({ amount: 100, currency: 'JPY' });
  expect((await ledger.listOperations('old-3')).map(({ id, currency }) => [id, currency])).toEqual([['c3', 'JPY'], ['c4', 'JPY']]);
  expect((await ledger.settleOperation('c4', { status: 'success', operationId: 'op-c4' })).operation).toMatchObject({ currency: 'JPY' });
}

describe('operations kept before they carried their currency (0024)', () => {
  upgradeCase((database) => `fills a ${database} ledger's from their payments, and a new one takes its payment's`, operationsBefore0024, expectOperationsCarryTheirCurrency);
});

/**
 * A 0.2 ledger with two sessions a customer is still paying in: `s2` open for 20 more minutes, and
 * `s3` opened 28 minutes ago, ending in 2, where a customer of 0.3 could ask for more time.
 */
async function sessionsOpenDuringTheUpgrade(db: Kysely<unknown>, schema?: string): Promise<void> {
  await ledgerOf02(db, schema);
  const now = Date.now();
  for (const [id, createdAt, expiresAt] of [['s2', now - 10 * 60_000, now + 20 * 60_000], ['s3', now - 28 * 60_000, now + 2 * 60_000]] as const) {
    await sql`insert into checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
      values (${id}, ${`old-${id}`}, 500, 'XTS', 'Tea', 'purchase', '{}', '["direct"]', ${createdAt}, ${expiresAt})`.execute(db);
  }
}

/** The shop was told their `expires_at` and could not ask to keep it: they keep it; a new session may move. */
async function expectOpenSessionsKeepTheirEnd(ledger: Ledger): Promise<void> {
  expect(ledger.upgradedNow).toContain('0022_session_extension');
  expect(await ledger.isSessionEndFixed('s2')).toBe(true);
  expect(await ledger.extendSession('s3')).toEqual({ extended: false, reason: 'fixed' });
  const opened = await ledger.createSession({ amount: 700, currency: 'XTS', description: 'Tea', method: 'purchase' });
  expect(await ledger.isSessionEndFixed(opened.id)).toBe(false);
}

describe('sessions open while a 0.2 ledger is upgraded (0022)', () => {
  upgradeCase((database) => `keep the end a ${database} ledger gave them, and a new one may be extended`, sessionsOpenDuringTheUpgrade, expectOpenSessionsKeepTheirEnd);
});

/**
 * A ledger `prepare` writes as an earlier version left it, opened by this one (so upgraded), then
 * `check`ed: on a SQLite file, and on a PostgreSQL schema of its own.
 */
function upgradeCase(
  title: (database: 'SQLite' | 'PostgreSQL') => string,
  prepare: (db: Kysely<unknown>, schema?: string) => Promise<void>,
  check: (ledger: Ledger, db: Kysely<unknown>) => Promise<void>,
): void {
  /** Prepares the database through `connect()`'s connection, then checks it opened by the ledger, beside another. */
  const upgraded = async (connect: () => Promise<Kysely<unknown>>, open: () => Promise<Ledger>, schema?: string) => {
    const old = await connect();
    await prepare(old, schema);
    await old.destroy();
    const ledger = await open();
    const db = await connect();
    try {
      await check(ledger, db);
    } finally {
      await db.destroy();
      await ledger.close();
    }
  };

  it(title('SQLite'), async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-'));
    const path = join(dir, 'ledger.db');
    try {
      await upgraded(async () => new Kysely<unknown>({ dialect: await sqliteDialect(path) }), () => openLedger(path));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  withTestDatabase((url) => {
    it(title('PostgreSQL'), async () => {
      const schema = freshSchemaName();
      const connect = async () => {
        const db = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
        await ensureSchema(db, schema);
        return db;
      };
      try {
        await upgraded(connect, () => openLedger(url, { schema }), schema);
      } finally {
        await dropSchema(url, schema);
      }
    });
  });
}
