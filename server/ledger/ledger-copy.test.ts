// copyLedger: an SQLite file's ledger copied into PostgreSQL — every row as it was, or nothing —
// through the real ledger on both sides (a schema of the test database per test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyLedger } from './ledger-copy.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { LEDGER_TABLES, stored } from './table-names.js';
import { gatewayEvent, paidOrder, claimedPayment } from './testing/contract.js';
import { TestClock, withTestDatabase } from './testing/databases.js';
import { claimSchema, freshSchemaName, releaseSchema, withClient } from './testing/schema-pool.js';

const TOKEN = 'tok_copy_7f3a9c';

/** A ledger file with a little of everything in it, closed. */
async function ledgerFile(path: string): Promise<{ id: string; orderIds: string[] }> {
  const clock = new TestClock();
  const ledger = await openLedger(path, { clock: clock.read });
  try {
    await ledger.claimPointOfSale('pos-file');
    await ledger.claimGateway('https://gateway.example');
    await ledger.probeWrite();
    const paid = await paidOrder(ledger, { customerId: 'cust-1' }, { ccToken: TOKEN, ccMask: '424242******4242' });
    clock.advance(1_000);
    const auth = await paidOrder(ledger, { method: 'auth', amount: 2500 });
    const open = await claimedPayment(ledger, { amount: 700 });
    await ledger.createSession({ amount: 900, currency: 'XTS', description: 'Unpaid', method: 'purchase', customerId: 'cust-2', saveCard: false });
    const refund = await ledger.reserveOperation(paid.orderId, { kind: 'refund', amount: 300, comment: 'one cup broken' });
    await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-refund-1' });
    await ledger.reserveOperation(auth.orderId, { kind: 'capture', amount: 2000 });
    await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: paid.orderId, amount: 1000, currency: 'XTS' }));
    await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: 'other-shop-1', amount: 500, currency: 'XTS' }, { cc_token: TOKEN }));
    await ledger.saveCard({ customerId: 'cust-1', ccToken: TOKEN, ccMask: '424242******4242', brand: 'visa' });
    const claim = await ledger.claimIdempotencyKey({ scope: 's', key: 'k-1', method: 'POST', path: '/api/orders/x/refund', fingerprint: 'f', leaseMs: 60_000, lifetimeMs: 86_400_000 });
    if (claim.outcome !== 'claimed') throw new Error('idempotency key not claimed');
    await ledger.storeIdempotentAnswer('k-1', claim.claimId, { status: 200, contentType: 'application/json', body: '{}' }, 86_400_000);
    return { id: ledger.id, orderIds: [paid.orderId, auth.orderId, open.orderId] };
  } finally {
    await ledger.close();
  }
}

/** Every row of every table, as each database holds it (ledger_settings: the ledger's identity), in one order. */
function fileRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    return Object.fromEntries(LEDGER_TABLES.map((table) => [table, sorted(db.prepare(rowsQuery(table)).all())]));
  } finally {
    db.close();
  }
}

/** BIGINT read as the ledger reads it: a number. */
const types = { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format))) as pg.CustomTypesConfig['getTypeParser'] };

function targetRows(url: string, schema: string): Promise<Record<string, unknown[]>> {
  return withClient(url, async (client) => {
    await client.query(`set search_path = ${schema}`);
    const rows: Record<string, unknown[]> = {};
    for (const table of LEDGER_TABLES) rows[table] = sorted((await client.query({ text: rowsQuery(table), types })).rows);
    return rows;
  });
}

function rowsQuery(table: (typeof LEDGER_TABLES)[number]): string {
  const where = table === 'ledger_settings' ? ` where key in ('ledger_id', 'pos_id', 'gateway')` : '';
  return `select * from ${stored(table)}${where}`;
}

/** The two databases sort text by other collations. */
const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort().map((row) => JSON.parse(row) as unknown);

withTestDatabase((url) => {
  let dir: string;
  let file: string;
  let schema: string;
  const opened: Ledger[] = [];
  const open = async (path: string, options: Parameters<typeof openLedger>[1] = {}) => {
    const ledger = await openLedger(path, options);
    opened.push(ledger);
    return ledger;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-copy-'));
    file = join(dir, 'payform.db');
    schema = await claimSchema(url);
  });
  afterEach(async () => {
    for (const ledger of opened.splice(0)) await ledger.close();
    await releaseSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('copyLedger', () => {
    it('copies every row of every table as the file holds it, in batches, and says how many', async () => {
      const { id } = await ledgerFile(file);
      const lines: string[] = [];
      const copy = await copyLedger(file, url, { schema, batchRows: 2, log: (line) => lines.push(line) });

      expect(copy.rows).toEqual({ checkout_sessions: 4, payments: 3, operations: 2, webhook_events: 2, saved_cards: 1, idempotency_keys: 1, ledger_settings: 3, no_card_sessions: 1, fixed_end_sessions: 0, saved_card_payments: 0, erased_orders: 0, retention_waits: 0 });
      expect(await targetRows(url, schema)).toEqual(fileRows(file));
      expect(lines).toEqual(expect.arrayContaining(['payform_payments: 3 rows', 'payform_saved_cards: 1 row', 'payform_ledger_settings: 3 rows']));
      expect(lines[0]).toBe(`copying the ledger in ${file} to postgres://payform:***@127.0.0.1:5432/payform_test (schema ${schema})`);
      expect(lines.join('\n')).not.toMatch(/tok_|4242|:payform@/);
      // The ledger opened there is the same one: its name, point of sale and gateway.
      const copied = await open(url, { schema });
      expect(copied.id).toBe(id);
      expect(await copied.claimPointOfSale('pos-other')).toBe('pos-file');
      expect(await copied.claimGateway('https://elsewhere.example')).toBe('https://gateway.example');
    });

    it("keeps the target's own settings that are not the ledger's identity: the write probe is the database's", async () => {
      await ledgerFile(file);
      const before = await open(url, { schema });
      await before.probeWrite();
      await before.close();
      const probe = () => withClient(url, async (client) => (await client.query(`select value from ${schema}.payform_ledger_settings where key = 'write_probe'`)).rows);
      const own = await probe();
      await copyLedger(file, url, { schema });
      expect(await probe()).toEqual(own);
    });

    it('refuses a target that holds payments, naming it and what it holds, and changes nothing there', async () => {
      await ledgerFile(file);
      const other = await open(url, { schema });
      await paidOrder(other);
      await other.close();
      const before = await targetRows(url, schema);
      const migrations = () => withClient(url, async (client) => (await client.query(`select name from ${schema}.ledger_migration order by name`)).rows);
      const migrated = await migrations();

      await expect(copyLedger(file, url, { schema })).rejects.toThrow(
        `postgres://payform:***@127.0.0.1:5432/payform_test (schema ${schema}) already holds a ledger (1 checkout session, 1 payment): a copy never merges two ledgers, and nothing was copied`,
      );
      expect(await targetRows(url, schema)).toEqual(before);
      expect(await migrations()).toEqual(migrated);
    });

    it('leaves the target empty when PostgreSQL refuses a row half-way (an operation of no payment)', async () => {
      const { id } = await ledgerFile(file);
      const raw = new Database(file);
      raw.pragma('foreign_keys = OFF');
      raw.prepare(`insert into payform_operations (id, order_id, kind, amount, status, origin, created_at, updated_at, last_seen_at) values ('op-ghost', 'no-such-order', 'refund', 100, 'success', 'merchant', 1, 1, 1)`).run();
      raw.close();

      await expect(copyLedger(file, url, { schema })).rejects.toThrow(/^PostgreSQL refused a row of payform_operations \(rowids 1–3 in .*\): insert or update on table "payform_operations" violates foreign key constraint .*\. Nothing was copied$/);
      const { ledger_settings: settings, ...history } = await targetRows(url, schema);
      for (const [table, rows] of Object.entries(history)) expect(rows, table).toEqual([]);
      // The target's own name, made when it was migrated: not the file's.
      expect(settings).toEqual([{ key: 'ledger_id', value: expect.not.stringMatching(id) }]);
    });

    it('refuses a value PostgreSQL would not take, naming its row and column but not the value', async () => {
      await ledgerFile(file);
      const raw = new Database(file);
      raw.prepare(`update payform_saved_cards set last_used_at = 1.5`).run();
      raw.close();

      const refusal = copyLedger(file, url, { schema });
      await expect(refusal).rejects.toThrow(`payform_saved_cards rowid 1 in ${file}: last_used_at holds a fraction, which PostgreSQL's bigint column does not take. Nothing was copied`);
      expect((await targetRows(url, schema)).payments).toEqual([]);
    });

    it('refuses a file another connection has open (a companion running on it), before the target is touched', async () => {
      await ledgerFile(file);
      const running = await open(file);
      const untouched = freshSchemaName();
      await expect(copyLedger(file, url, { schema: untouched })).rejects.toThrow(`${file} is open in another process — a companion running on it`);
      const schemas = await withClient(url, async (client) => (await client.query('select 1 from pg_namespace where nspname = $1', [untouched])).rows);
      expect(schemas).toEqual([]);
      await running.close();
      // Let go, the file is copied.
      await expect(copyLedger(file, url, { schema })).resolves.toMatchObject({ rows: { payments: 3 } });
    });

    it('holds the file alone while it copies: no other connection can read it meanwhile', async () => {
      await ledgerFile(file);
      let meanwhile: string | undefined;
      await copyLedger(file, url, {
        schema,
        log: (line) => {
          if (!line.startsWith('payform_checkout_sessions')) return;
          const other = new Database(file, { timeout: 50 });
          try {
            other.prepare('select count(*) from payform_payments').get();
            meanwhile = 'read';
          } catch (error) {
            meanwhile = (error as { code?: string }).code;
          } finally {
            other.close();
          }
        },
      });
      expect(meanwhile).toBe('SQLITE_BUSY');
    });

    /** A ledger file as an earlier 0.3 left it: no session sweep's expiry index, fixed ends, movement dates, operations' currency nor erased orders and their tokens' guard, nor the erasure by age's waiting orders, their migrations not run yet. */
    async function olderLedgerFile(): Promise<void> {
      await ledgerFile(file);
      const raw = new Database(file);
      raw.exec(`drop index payform_checkout_sessions_expiry; drop table payform_fixed_end_sessions; drop table payform_saved_card_payments; drop trigger payform_erased_order_events; drop trigger payform_erased_order_tokens; drop table payform_erased_orders; drop table payform_retention_waits; drop index payform_operations_made; alter table payform_operations drop column currency;
        delete from ledger_migration where name in ('0021_session_expiry', '0022_session_extension', '0023_movement_dates', '0024_operation_currency', '0025_saved_card_payments', '0026_erased_orders', '0027_erased_order_tokens', '0028_retention_waits')`);
      raw.close();
    }

    it('upgrades an older file before copying it', async () => {
      await olderLedgerFile();
      const lines: string[] = [];
      await copyLedger(file, url, { schema, log: (line) => lines.push(line) });
      expect(lines).toContain("upgraded the SQLite file to this version's schema first: 0021_session_expiry, 0022_session_extension, 0023_movement_dates, 0024_operation_currency, 0025_saved_card_payments, 0026_erased_orders, 0027_erased_order_tokens, 0028_retention_waits");
    });

    it('leaves an older file as it was when the target is refused: nothing is upgraded for a copy that does not happen', async () => {
      await olderLedgerFile();
      const other = await open(url, { schema });
      await paidOrder(other);
      await other.close();
      await expect(copyLedger(file, url, { schema })).rejects.toThrow(/already holds a ledger/);
      const after = new Database(file, { readonly: true });
      try {
        expect(after.prepare(`select count(*) as n from ledger_migration where name = '0021_session_expiry'`).get()).toEqual({ n: 0 });
      } finally {
        after.close();
      }
    });

    it.each([
      ['a PostgreSQL URL to copy from', () => url, () => url, 'the ledger to copy must be an SQLite file, not a PostgreSQL URL'],
      ['a ledger in memory', () => ':memory:', () => url, 'a ledger in memory ends with its process: there is no file to copy'],
      ['a file that is not there', () => join(dir, 'none.db'), () => url, 'there is no ledger file at '],
      ['a target that is not PostgreSQL', () => file, () => join(dir, 'other.db'), 'the ledger is copied into PostgreSQL: give a postgres:// URL'],
      ['a PostgreSQL URL it cannot read', () => file, () => 'postgres://shop:pa#ss@db/shop', 'the PostgreSQL URL is not a URL that can be read as written'],
    ])('refuses %s', async (_case, from, to, message) => {
      await ledgerFile(file);
      await expect(copyLedger(from(), to(), { schema })).rejects.toThrow(message);
    });

    it("refuses an SQLite file that holds no ledger, and gives it none of the ledger's tables", async () => {
      const shop = new Database(file);
      shop.exec('create table orders (id integer primary key)');
      shop.close();
      await expect(copyLedger(file, url, { schema })).rejects.toThrow(`${file} holds no payform ledger (it has no ledger_migration table)`);
      const tables = new Database(file, { readonly: true });
      expect(tables.prepare(`select name from sqlite_master where type = 'table'`).all()).toEqual([{ name: 'orders' }]);
      tables.close();
    });
  });

  it('lists the tables parents first: every foreign key of the schema references an earlier table', async () => {
    await open(url, { schema });
    const references = await withClient(url, (client) =>
      client.query<{ child: string; parent: string }>(
        `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c
         join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and n.nspname = $1`,
        [schema],
      ),
    );
    expect(references.rows.length).toBeGreaterThan(0);
    const order = (name: string) => LEDGER_TABLES.map(stored).indexOf(name.replace(`${schema}.`, ''));
    for (const { child, parent } of references.rows) expect(order(parent), `${child} → ${parent}`).toBeLessThan(order(child));
  });
});
