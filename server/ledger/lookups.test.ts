// Card verifications (`lookup`) in the ledger, on every backend: a session and its attempt may
// be a lookup, its webhook applies like a payment's, the back office lists it apart, and a
// ledger made before lookups existed takes them after its upgrade with nothing lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger } from './ledger.js';
import { openLedger } from './ledger.js';
import { ensureSchema, postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';
import { claimedPayment, gatewayEvent } from './testing/contract.js';
import { migratedTo, paidOrderOf02 } from './testing/earlier-ledgers.js';
import { dropSchema, fileBackend, freshSchemaName, memoryBackend, postgresBackend, TestClock, withTestDatabase } from './testing/databases.js';
import type { LedgerBackend, TestLedger } from './testing/databases.js';

const verification = { amount: 100, currency: 'XTS', description: 'Save a card', method: 'lookup' as const, customerId: 'cust-7' };

function describeLookups(backend: LedgerBackend): void {
  describe(`card verifications on ${backend.name}`, () => {
    let store: TestLedger;
    let ledger: Ledger;

    beforeEach(async () => {
      store = await backend.open(new TestClock());
      ledger = store.ledger;
    });
    afterEach(() => store.dispose());

    it('keeps a lookup session and attempt, and applies its webhook like a payment', async () => {
      const attempt = await claimedPayment(ledger, verification);
      expect(attempt).toMatchObject({ method: 'lookup', status: 'init', customerId: 'cust-7' });
      const ingest = await ledger.ingestEvent(
        gatewayEvent({ method: 'lookup', status: 'success', orderId: attempt.orderId, amount: 100, currency: 'XTS', statusCode: '1000', ccToken: 'tok-1', ccMask: '424242******4242' }),
      );
      expect(ingest.event.outcome).toBe('applied');
      expect(await ledger.getPayment(attempt.orderId)).toMatchObject({ method: 'lookup', status: 'success', ccToken: 'tok-1' });
      expect((await ledger.getSession(attempt.sessionId))?.status).toBe('paid');
    });

    it('lists verifications apart from payments', async () => {
      const lookup = await claimedPayment(ledger, verification);
      const purchase = await claimedPayment(ledger, { amount: 1000, currency: 'XTS', description: 'Tea', method: 'purchase' });
      const ids = async (kind?: 'payments' | 'verifications') => (await ledger.listOrders(kind ? { kind } : {})).orders.map((order) => order.orderId).sort();
      expect(await ids('verifications')).toEqual([lookup.orderId]);
      expect(await ids('payments')).toEqual([purchase.orderId]);
      expect(await ids()).toEqual([lookup.orderId, purchase.orderId].sort());
      // The payments chart counts the purchase only.
      const now = Date.UTC(2030, 0, 15, 9, 30);
      const [hour] = await ledger.paymentStats({ from: now - 3_600_000, to: now + 1, bucket: 'hour' }).then((buckets) => buckets.filter((bucket) => bucket.total > 0));
      expect(hour).toMatchObject({ total: 1, inFlight: 1 });
    });

    it('refuses a split verification and a capture of one', async () => {
      await expect(ledger.createSession({ ...verification, split: [{ subMerchantId: '7f0c3c55-83b9-4ec4-9d1a-8b0f0b3d4a11', amount: 100 }] })).rejects.toMatchObject({ field: 'split' });
      const attempt = await claimedPayment(ledger, verification);
      await ledger.advancePayment(attempt.orderId, { status: 'success', statusCode: '1000' });
      await expect(ledger.reserveOperation(attempt.orderId, { kind: 'capture' })).rejects.toMatchObject({ reason: 'not_an_auth' });
      await expect(ledger.reserveOperation(attempt.orderId, { kind: 'refund' })).rejects.toMatchObject({ reason: 'not_a_payment' });
    });
  });
}

/** A database at the last migration before lookups (0009), holding a paid order with a refund. */
async function beforeLookups(db: Kysely<unknown>, schema?: string): Promise<void> {
  await migratedTo(db, '0008_never_sent', schema);
  await paidOrderOf02(db);
  await sql`insert into operations (id, order_id, kind, amount, status, origin, created_at, updated_at)
    values ('op-1', 'old-1', 'refund', 300, 'success', 'merchant', 2, 2)`.execute(db);
}

async function expectUpgraded(ledger: Ledger): Promise<void> {
  const order = await ledger.getOrder('old-1');
  expect(order?.payment).toMatchObject({ method: 'purchase', status: 'success', amount: 1000 });
  expect(order?.operations.map((operation) => [operation.id, operation.amount])).toEqual([['op-1', 300]]);
  // The unique live attempt per session (a rebuilt index) still holds.
  await expect(ledger.claimPayAttempt('s1', { mode: 'direct' })).resolves.toMatchObject({ claimed: false, reason: 'paid' });
  expect((await claimedPayment(ledger, verification)).method).toBe('lookup');
}

describeLookups(memoryBackend);
describeLookups(fileBackend);
withTestDatabase((url) => describeLookups(postgresBackend(url)));

describe('a ledger made before card verifications', () => {
  it('takes them after its upgrade, on SQLite, its orders and their references intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-lookup-'));
    const path = join(dir, 'ledger.db');
    try {
      const old = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
      await beforeLookups(old);
      await old.destroy();
      const ledger = await openLedger(path);
      try {
        await expectUpgraded(ledger);
        // Foreign keys still point at the rebuilt tables.
        await expect(ledger.reserveOperation('nope', { kind: 'refund' })).rejects.toMatchObject({ code: 'not_found' });
        const check = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
        // (Named as stored since 0010: the payform_ prefix.)
        await expect(sql`insert into payform_operations (id, order_id, kind, amount, status, origin, created_at, updated_at) values ('op-2', 'missing', 'refund', 1, 'success', 'merchant', 1, 1)`.execute(check)).rejects.toThrow(/FOREIGN KEY/);
        expect((await sql<{ sql: string }>`select sql from sqlite_schema where name = 'payform_payments'`.execute(check)).rows[0]?.sql).toContain('references "payform_checkout_sessions"');
        await check.destroy();
      } finally {
        await ledger.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  withTestDatabase((url) => {
    it('takes them after its upgrade, on PostgreSQL', async () => {
      const schema = freshSchemaName();
      try {
        const old = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
        await ensureSchema(old, schema);
        await beforeLookups(old, schema);
        await old.destroy();
        const ledger = await openLedger(url, { schema });
        try {
          await expectUpgraded(ledger);
        } finally {
          await ledger.close();
        }
      } finally {
        await dropSchema(url, schema);
      }
    });
  });
});
