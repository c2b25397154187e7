// The journal of money moved (Ledger.listMovements, moneyTotals dated by movement), on every
// backend: each sale, capture and refund in the period it was made, whatever its order's date; a
// reserve, a void, a pending or failed operation and a card verification move nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment, paidOrder } from './testing/contract.js';
import { fileBackend, memoryBackend, postgresBackend, TestClock, withTestDatabase } from './testing/databases.js';
import type { LedgerBackend, TestLedger } from './testing/databases.js';
import type { Movement } from './types.js';
import { queryPlan } from './testing/query-plan.js';

const HOUR = 3_600_000;

function describeMovements(backend: LedgerBackend): void {
  describe(`money moved on ${backend.name}`, () => {
    let store: TestLedger;
    let ledger: Ledger;
    let clock: TestClock;

    beforeEach(async () => {
      clock = new TestClock();
      store = await backend.open(clock);
      ledger = store.ledger;
    });
    afterEach(() => store.dispose());

    async function operation(orderId: string, kind: 'capture' | 'refund' | 'void', amount?: number, status: 'success' | 'failure' | 'pending' = 'success') {
      const reserved = await ledger.reserveOperation(orderId, { kind, ...(amount === undefined ? {} : { amount }) });
      if (status !== 'pending') await ledger.settleOperation(reserved.id, { status, operationId: `op-${reserved.id}`, transactionId: `tx-${reserved.id}` });
      return reserved;
    }

    /** Every movement of [from, to), read a page of `limit` at a time. */
    async function journal(from: number, to: number, limit = 200): Promise<Movement[]> {
      const all: Movement[] = [];
      let cursor: string | undefined;
      do {
        const page = await ledger.listMovements({ from, to, limit, ...(cursor === undefined ? {} : { cursor }) });
        all.push(...page.movements);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return all;
    }

    it('dates a refund by when it was made: the month of its order keeps its figures', async () => {
      const october = clock.now;
      const tea = await paidOrder(ledger, { amount: 10_000, currency: 'UAH', description: 'Green tea' }, { paymentId: 'pay-tea', transactionId: 'tx-tea' });
      clock.advance(24 * HOUR);
      const november = clock.now;
      const refund = await operation(tea.orderId, 'refund', 4000);
      const end = november + HOUR;

      expect(await ledger.moneyTotals({ from: october, to: november, datedBy: 'movement' })).toEqual([{ currency: 'UAH', paid: 10_000, refunded: 0, net: 10_000 }]);
      expect(await ledger.moneyTotals({ from: november, to: end, datedBy: 'movement' })).toEqual([{ currency: 'UAH', paid: 0, refunded: 4000, net: -4000 }]);
      // Dated by order, the refund still lowers the order's month, as it always did.
      expect(await ledger.moneyTotals({ from: october, to: november })).toEqual([{ currency: 'UAH', paid: 10_000, refunded: 4000, net: 6000 }]);
      expect(await ledger.moneyTotals({ from: october, to: november, datedBy: 'order' })).toEqual([{ currency: 'UAH', paid: 10_000, refunded: 4000, net: 6000 }]);

      expect(await journal(october, november)).toEqual([
        {
          at: october, kind: 'sale', orderId: tea.orderId, currency: 'UAH', amount: 10_000, orderCreatedAt: october,
          paymentId: 'pay-tea', operationId: null, transactionId: 'tx-tea', origin: null, description: 'Green tea',
        },
      ]);
      expect(await journal(november, end)).toEqual([
        {
          at: november, kind: 'refund', orderId: tea.orderId, currency: 'UAH', amount: -4000, orderCreatedAt: october,
          paymentId: 'pay-tea', operationId: `op-${refund.id}`, transactionId: `tx-${refund.id}`, origin: 'merchant', description: 'Green tea',
        },
      ]);
    });

    it('counts sales, captures of auths and refunds that succeeded; nothing else moves money', async () => {
      const start = clock.now;
      const hotel = await paidOrder(ledger, { amount: 10_000, currency: 'UAH', method: 'auth' });
      clock.advance(1000);
      await operation(hotel.orderId, 'capture', 8000);
      clock.advance(1000);
      await operation(hotel.orderId, 'refund', 500, 'failure');
      await operation(hotel.orderId, 'refund', 700, 'pending');
      // A reserve voided, a reserve never captured, a declined purchase, one in flight, a verification.
      const voided = await paidOrder(ledger, { amount: 3000, currency: 'UAH', method: 'auth' });
      await operation(voided.orderId, 'void');
      await paidOrder(ledger, { amount: 40_000, currency: 'UAH', method: 'auth' });
      const declined = await claimedPayment(ledger, { amount: 9900, currency: 'UAH' });
      await ledger.advancePayment(declined.orderId, { status: 'failure', statusCode: '1002' });
      await claimedPayment(ledger, { amount: 7700, currency: 'UAH' });
      await paidOrder(ledger, { amount: 100, currency: 'UAH', method: 'lookup', customerId: 'cust-1' });
      // Another currency: never added to the first.
      const sushi = await paidOrder(ledger, { amount: 500, currency: 'JPY' });
      await operation(sushi.orderId, 'refund', 500);

      const moved = await journal(start, clock.now + 1);
      expect(moved.map(({ kind, currency, amount }) => [kind, currency, amount])).toEqual([
        ['capture', 'UAH', 8000],
        ['sale', 'JPY', 500],
        ['refund', 'JPY', -500],
      ]);
      expect(await ledger.moneyTotals({ from: start, to: clock.now + 1, datedBy: 'movement' })).toEqual([
        { currency: 'JPY', paid: 500, refunded: 500, net: 0 },
        { currency: 'UAH', paid: 8000, refunded: 0, net: 8000 },
      ]);
    });

    it('pages oldest first through movements made at the same millisecond, each once', async () => {
      const start = clock.now;
      const orders = [];
      for (let i = 0; i < 5; i++) orders.push(await paidOrder(ledger, { amount: 1000 + i, currency: 'UAH' }));
      for (const order of orders.slice(0, 4)) await operation(order.orderId, 'refund', 100);
      clock.advance(1);
      await paidOrder(ledger, { amount: 2000, currency: 'UAH' });
      await operation(orders[4]!.orderId, 'refund', 200);

      const whole = await journal(start, clock.now + 1);
      expect(whole).toHaveLength(11);
      for (const limit of [1, 2, 3, 7]) expect(await journal(start, clock.now + 1, limit), `pages of ${limit}`).toEqual(whole);
      // Oldest first; at one time, the sales before the refunds.
      expect(whole.map(({ at, kind }) => [at - start, kind])).toEqual([
        ...Array.from({ length: 5 }, () => [0, 'sale']),
        ...Array.from({ length: 4 }, () => [0, 'refund']),
        [1, 'sale'],
        [1, 'refund'],
      ]);
      expect(whole.reduce((sum, { amount }) => sum + amount, 0)).toBe(1000 + 1001 + 1002 + 1003 + 1004 + 2000 - 400 - 200);
    });

    it('refuses a period that ends before it starts, and a cursor it did not give', async () => {
      await expect(ledger.listMovements({ from: 10, to: 5 })).rejects.toMatchObject({ field: 'to' });
      await expect(ledger.moneyTotals({ from: 0, to: 5, datedBy: 'someday' as never })).rejects.toMatchObject({ field: 'datedBy' });
      await expect(ledger.listMovements({ from: 0, to: 5, cursor: 'nonsense' })).rejects.toMatchObject({ field: 'cursor' });
    });
  });
}

describe('the plan of the journal on SQLite', () => {
  it('reads a period by indexes, not by a scan of every payment or operation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-movements-plan-'));
    try {
      const file = join(dir, 'ledger.db');
      const sent: string[] = [];
      const ledger = await openLedger(file, { onStatement: (sql) => void sent.push(sql) });
      sent.length = 0;
      await ledger.listMovements({ from: 0, to: 1 });
      await ledger.moneyTotals({ from: 0, to: 1, datedBy: 'movement' });
      await ledger.close();
      const db = new Database(file, { readonly: true });
      try {
        // The page's two, and the totals' two with where each one's window ends (period-windows.ts).
        const reads = sent.filter((sql) => sql.startsWith('select'));
        expect(reads).toHaveLength(6);
        for (const statement of reads) {
          const plan = queryPlan(db, statement);
          expect(plan, statement).toMatch(statement.includes('"payform_operations"') ? /payform_operations_made/ : /payform_payments_(by_status|newest)/);
          expect(plan, statement).not.toMatch(/SCAN (o|p|payform_payments|payform_operations)\b(?! USING)/);
        }
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeMovements(memoryBackend);
describeMovements(fileBackend);
withTestDatabase((url) => describeMovements(postgresBackend(url)));
