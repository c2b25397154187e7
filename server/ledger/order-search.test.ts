// The order list by currency alone (an accountant's "every EUR order", 0020) or by the card's
// last four digits (0021) seeks its own index, newest first: read by the newest-first index and
// filtered, a value among many would scan the ledger for each page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import type { OrderListQuery } from './types.js';

const cursor = Buffer.from('1:order').toString('base64url');

/** Each search, its first page and a next one, with the value its statement binds and the index it must seek. */
const searches = [
  { filter: { currency: 'EUR' }, value: 'EUR', index: 'payform_payments_by_currency' },
  { filter: { cardLastFour: '4242' }, value: '4242', index: 'payform_payments_by_card' },
].flatMap((search) => [{ ...search, query: search.filter as OrderListQuery }, { ...search, query: { ...search.filter, cursor } as OrderListQuery }]);

/** The statement `listOrders(query)` sent. */
async function statementOf(ledger: Ledger, sent: string[], query: OrderListQuery): Promise<string> {
  sent.length = 0;
  await ledger.listOrders(query);
  return sent.find((sql) => sql.startsWith('select') && sql.includes('"payform_payments"'))!;
}

it('lists one currency’s orders, or one card’s, by its index on SQLite, the next page too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'payform-search-plan-'));
  try {
    const file = join(dir, 'ledger.db');
    const sent: string[] = [];
    const ledger = await openLedger(file, { onStatement: (sql) => void sent.push(sql) });
    try {
      for (const { query, value, index } of searches) {
        const statement = await statementOf(ledger, sent, query);
        const db = new Database(file, { readonly: true });
        try {
          const parameters = (statement.match(/\?/g) ?? []).map((_, i) => (i === 0 ? value : 0));
          const plan = db.prepare(`explain query plan ${statement}`).all(...parameters).map((row) => (row as { detail: string }).detail).join('\n');
          expect(plan, JSON.stringify(query)).toContain(`USING INDEX ${index} (`);
          expect(plan, JSON.stringify(query)).not.toContain('TEMP B-TREE');
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

withTestDatabase((url) => {
  describe('on PostgreSQL', () => {
    let schema: string;
    let ledger: Ledger;
    const sent: string[] = [];

    beforeEach(async () => {
      schema = freshSchemaName();
      ledger = await openLedger(url, { schema, onStatement: (sql) => void sent.push(sql) });
    });
    afterEach(async () => {
      await ledger.close();
      await dropSchema(url, schema);
    });

    it('lists one currency’s orders, or one card’s, by its index, the next page too', async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`set search_path to "${schema}"`);
        // An empty table costs every plan alike: told to avoid reading it whole, the planner
        // still picks between the search's index and the newest-first one filtered.
        await client.query('set enable_seqscan = off');
        for (const { query, value, index } of searches) {
          const statement = await statementOf(ledger, sent, query);
          const parameters = (statement.match(/\$\d+/g) ?? []).map((_, i) => (i === 0 ? value : i === 2 ? 'order' : 51));
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${statement}`, parameters);
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(plan, JSON.stringify(query)).toMatch(new RegExp(`Index Scan Backward using ${index} on payform_payments`));
          expect(plan, JSON.stringify(query)).not.toContain('Sort');
        }
      } finally {
        await client.end();
      }
    });
  });
});
