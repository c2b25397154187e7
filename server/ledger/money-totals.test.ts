// What the period's payments came to (Ledger.moneyTotals), on every backend: paid purchases and
// captured auths are money, a reserve is not; refunds count as made, partial ones too; pending
// operations and failures count for nothing; currencies are never added together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment, paidOrder } from './testing/contract.js';
import { dropSchema, fileBackend, freshSchemaName, memoryBackend, postgresBackend, TestClock, withTestDatabase } from './testing/databases.js';
import type { LedgerBackend, TestLedger } from './testing/databases.js';
import { queryPlan } from './testing/query-plan.js';

const HOUR = 3_600_000;

function describeMoneyTotals(backend: LedgerBackend): void {
  describe(`money totals on ${backend.name}`, () => {
    let store: TestLedger;
    let ledger: Ledger;
    let clock: TestClock;

    beforeEach(async () => {
      clock = new TestClock();
      store = await backend.open(clock);
      ledger = store.ledger;
    });
    afterEach(() => store.dispose());

    async function operation(orderId: string, kind: 'capture' | 'refund', amount: number, status: 'success' | 'failure' | 'pending' = 'success'): Promise<void> {
      const reserved = await ledger.reserveOperation(orderId, { kind, amount });
      if (status !== 'pending') await ledger.settleOperation(reserved.id, { status, operationId: `op-${reserved.id}` });
    }

    it('adds up captured, refunded and net per currency, over the payments created in the period', async () => {
      const start = clock.now;
      // UAH: a purchase refunded in part, a purchase refunded twice (one refund failed), an
      // auth captured in part and refunded, an auth never captured, a declined purchase.
      const tea = await paidOrder(ledger, { amount: 1000, currency: 'UAH' });
      await operation(tea.orderId, 'refund', 300);
      const cake = await paidOrder(ledger, { amount: 2500, currency: 'UAH' });
      await operation(cake.orderId, 'refund', 500);
      await operation(cake.orderId, 'refund', 700, 'failure');
      await operation(cake.orderId, 'refund', 200, 'pending');
      const hotel = await paidOrder(ledger, { amount: 10_000, currency: 'UAH', method: 'auth' });
      await operation(hotel.orderId, 'capture', 8000);
      await operation(hotel.orderId, 'refund', 1000);
      await paidOrder(ledger, { amount: 40_000, currency: 'UAH', method: 'auth' });
      const declined = await claimedPayment(ledger, { amount: 9900, currency: 'UAH' });
      await ledger.advancePayment(declined.orderId, { status: 'failure', statusCode: '1002' });
      await claimedPayment(ledger, { amount: 7700, currency: 'UAH' });
      // A capture under way is not money yet.
      const pendingCapture = await paidOrder(ledger, { amount: 6000, currency: 'UAH', method: 'auth' });
      await operation(pendingCapture.orderId, 'capture', 6000, 'pending');
      // Another currency, and a card verification (it pays nothing).
      await paidOrder(ledger, { amount: 500, currency: 'JPY' });
      await paidOrder(ledger, { amount: 100, currency: 'UAH', method: 'lookup', customerId: 'cust-1' });

      const totals = await ledger.moneyTotals({ from: start, to: start + HOUR });
      expect(totals).toEqual([
        { currency: 'JPY', paid: 500, refunded: 0, net: 500 },
        { currency: 'UAH', paid: 1000 + 2500 + 8000, refunded: 300 + 500 + 1000, net: 11_500 - 1800 },
      ]);
    });

    it('counts an order in the period it was created in, a later refund of it too', async () => {
      const before = await paidOrder(ledger, { amount: 1000, currency: 'UAH' });
      clock.advance(2 * HOUR);
      const start = clock.now;
      const within = await paidOrder(ledger, { amount: 2000, currency: 'UAH' });
      await operation(before.orderId, 'refund', 400);
      clock.advance(HOUR);
      await operation(within.orderId, 'refund', 2000);
      // [start, start + 1 h): only `within`, fully refunded after the period ended.
      expect(await ledger.moneyTotals({ from: start, to: start + HOUR })).toEqual([{ currency: 'UAH', paid: 2000, refunded: 2000, net: 0 }]);
      expect(await ledger.moneyTotals({ from: start - 2 * HOUR, to: start })).toEqual([{ currency: 'UAH', paid: 1000, refunded: 400, net: 600 }]);
      expect(await ledger.moneyTotals({ from: start + HOUR, to: start + 2 * HOUR })).toEqual([]);
    });

    it('reads amounts past 32 bits exactly', async () => {
      const start = clock.now;
      await paidOrder(ledger, { amount: 3_000_000_000, currency: 'UAH' });
      await paidOrder(ledger, { amount: 3_000_000_000, currency: 'UAH' });
      expect(await ledger.moneyTotals({ from: start, to: start + 1 })).toEqual([{ currency: 'UAH', paid: 6_000_000_000, refunded: 0, net: 6_000_000_000 }]);
    });

    it('refuses a period that ends before it starts', async () => {
      await expect(ledger.moneyTotals({ from: 10, to: 5 })).rejects.toMatchObject({ field: 'to' });
      await expect(ledger.moneyTotals({ from: -1, to: 5 })).rejects.toMatchObject({ field: 'from' });
    });
  });
}

/**
 * The period's payments by their created_at index, each one's operations by the order's: never
 * an index leading with status, which neither database would give up once the ledger grows
 * (SQLite keeps no statistics; PostgreSQL plans a prepared statement while tables are empty).
 */
const STATUS_LED = /payform_(payments_by_status|operations_unsettled|operations_by_status)\b/;

/** The statement moneyTotals sends, as the ledger sends it. */
async function moneyStatement(url: string, options: { schema?: string } = {}): Promise<string> {
  const sent: string[] = [];
  const ledger = await openLedger(url, { ...options, onStatement: (sql) => void sent.push(sql) });
  try {
    await ledger.moneyTotals({ from: 0, to: 1 });
  } finally {
    await ledger.close();
  }
  const statement = sent.find((sql) => sql.includes('"payform_operations"') && sql.includes('sum('));
  expect(statement).toBeDefined();
  return statement!;
}

describe('the plan of money totals', () => {
  it('reads operations by their order on a fresh SQLite ledger', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-money-plan-'));
    try {
      const file = join(dir, 'ledger.db');
      const statement = await moneyStatement(file);
      const db = new Database(file, { readonly: true });
      try {
        const plan = queryPlan(db, statement);
        expect(plan).toContain('payform_payments_newest');
        expect(plan).toContain('payform_operations_of_order');
        expect(plan).not.toMatch(STATUS_LED);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  withTestDatabase((url) => {
    it('reads operations by their order in a generic plan on a fresh PostgreSQL schema', async () => {
      const schema = freshSchemaName();
      const client = new pg.Client({ connectionString: url });
      try {
        const statement = await moneyStatement(url, { schema });
        await client.connect();
        await client.query(`set search_path to "${schema}"`);
        await client.query('set plan_cache_mode = force_generic_plan');
        const parameters = Math.max(...[...statement.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
        await client.query(`prepare money as ${statement}`);
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain execute money(${Array.from({ length: parameters }, () => '0').join(', ')})`);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan).toContain('payform_operations_of_order');
        expect(plan).not.toMatch(STATUS_LED);
      } finally {
        await client.end().catch(() => undefined);
        await dropSchema(url, schema);
      }
    });
  });
});

describeMoneyTotals(memoryBackend);
describeMoneyTotals(fileBackend);
withTestDatabase((url) => describeMoneyTotals(postgresBackend(url)));
