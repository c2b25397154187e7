// The order list by currency alone (an accountant's "every EUR order") seeks its own index
// (0020), newest first: read by the newest-first index and filtered, a currency among many
// would scan the ledger for each page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { queryPlan } from './testing/query-plan.js';

it('lists one currency’s orders by its index on SQLite, the next page too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'payform-currency-plan-'));
  try {
    const file = join(dir, 'ledger.db');
    const sent: string[] = [];
    const ledger = await openLedger(file, { onStatement: (sql) => void sent.push(sql) });
    try {
      const cursor = Buffer.from('orders|1:order').toString('base64url');
      // An older release's cursor, without its list's name, is read alike (a rolling deploy).
      const older = Buffer.from('1:order').toString('base64url');
      for (const query of [{ currency: 'EUR' }, { currency: 'EUR', cursor }, { currency: 'EUR', cursor: older }]) {
        sent.length = 0;
        await ledger.listOrders(query);
        const statement = sent.find((sql) => sql.includes('"currency" = ?'))!;
        const db = new Database(file, { readonly: true });
        try {
          const plan = queryPlan(db, statement, (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? 'EUR' : 0)));
          expect(plan).toContain('USING INDEX payform_payments_by_currency (currency=?');
          expect(plan).not.toContain('TEMP B-TREE');
        } finally {
          db.close();
        }
      }
    } finally {
      await ledger.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('lists a customer’s orders by their own index on SQLite, with a state or a period too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'payform-customer-plan-'));
  try {
    const file = join(dir, 'ledger.db');
    const sent: string[] = [];
    const ledger = await openLedger(file, { onStatement: (sql) => void sent.push(sql) });
    try {
      // With another filter, read a window of the customer's index at a time (order-search.ts).
      for (const query of [{ customerId: 'cust-1' }, { customerId: 'cust-1', status: 'success' as const }, { customerId: 'cust-1', createdFrom: 1, createdTo: 2 }, { customerId: 'cust-1', amount: 100, email: 'a@b.c' }]) {
        sent.length = 0;
        await ledger.listOrders(query);
        expect(sent.length).toBeGreaterThan(0);
        const db = new Database(file, { readonly: true });
        try {
          for (const statement of sent) {
            const plan = queryPlan(db, statement, (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? 'cust-1' : 0)));
            expect(plan, JSON.stringify(query)).toContain('USING INDEX payform_payments_of_customer (customer_id=?');
          }
        } finally {
          db.close();
        }
      }
    } finally {
      await ledger.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
