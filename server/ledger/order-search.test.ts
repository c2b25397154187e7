// The order list by currency alone (an accountant's "every EUR order") seeks its own index
// (0020), newest first: read by the newest-first index and filtered, a currency among many
// would scan the ledger for each page. A customer's orders by the merchant's id seek theirs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { queryPlan } from './testing/query-plan.js';
import type { OrderListQuery } from './types.js';

/**
 * The plans of the statements each of `queries` sends to a SQLite ledger file, the first
 * parameter of each `first` and the others 0.
 */
async function plansOf(queries: readonly OrderListQuery[], first: string): Promise<{ query: OrderListQuery; statement: string; plan: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-search-plan-'));
  const file = join(dir, 'ledger.db');
  const sent: string[] = [];
  const ledger = await openLedger(file, { onStatement: (sql) => void sent.push(sql) });
  const db = new Database(file, { readonly: true });
  try {
    const plans = [];
    for (const query of queries) {
      sent.length = 0;
      await ledger.listOrders(query);
      for (const statement of sent) plans.push({ query, statement, plan: queryPlan(db, statement, (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? first : 0))) });
    }
    return plans;
  } finally {
    db.close();
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

it('lists one currency’s orders by its index on SQLite, the next page too', async () => {
  const cursor = Buffer.from('orders|1:order').toString('base64url');
  // An older release's cursor, without its list's name, is read alike (a rolling deploy).
  const older = Buffer.from('1:order').toString('base64url');
  const plans = (await plansOf([{ currency: 'EUR' }, { currency: 'EUR', cursor }, { currency: 'EUR', cursor: older }], 'EUR')).filter(({ statement }) => statement.includes('"currency" = ?'));
  expect(plans).toHaveLength(3);
  for (const { plan } of plans) {
    expect(plan).toContain('USING INDEX payform_payments_by_currency (currency=?');
    expect(plan).not.toContain('TEMP B-TREE');
  }
});

it('lists a customer’s orders by their own index on SQLite, with a state or a period too', async () => {
  // With another filter, read a window of the customer's index at a time (order-search.ts).
  const queries: OrderListQuery[] = [{ customerId: 'cust-1' }, { customerId: 'cust-1', status: 'success' }, { customerId: 'cust-1', createdFrom: 1, createdTo: 2 }, { customerId: 'cust-1', amount: 100, email: 'a@b.c' }];
  const plans = await plansOf(queries, 'cust-1');
  expect(new Set(plans.map(({ query }) => query)).size).toBe(queries.length);
  for (const { query, plan } of plans) expect(plan, JSON.stringify(query)).toContain('USING INDEX payform_payments_of_customer (customer_id=?');
});
