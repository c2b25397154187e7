// A search that filters what an index reads (the card's last four, the kind, a second filter) is
// read on SQLite a window of the index at a time, yielding the event loop between windows: the
// pages must be exactly those of one read, and a search over a large ledger must let others run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerContext } from './context.js';
import { orderListInput, parseInput } from './input.js';
import { pageOf, pageRequest } from './keyset.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { matchingOrders, ordersInWindows, WINDOW_ROWS } from './order-search.js';
import type { LedgerTables, PaymentRow } from './schema.js';
import { sqliteDialect } from './sqlite.js';
import { TablePrefixPlugin } from './table-names.js';
import { seedPayments } from './testing/seeded-payments.js';
import type { OrderListQuery } from './types.js';
import { queryPlan } from './testing/query-plan.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A migrated ledger file holding `count` seeded payments. */
async function seededFile(count: number, columns: Parameters<typeof seedPayments>[2]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-order-windows-'));
  dirs.push(dir);
  const file = join(dir, 'ledger.db');
  await (await openLedger(file)).close();
  seedPayments(file, count, columns);
  return file;
}

/** A deterministic generator, so that a failure names the case that fails again. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (below: number) => Math.floor(next() * below), pick: <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!, chance: (p: number) => next() < p };
}

// Pseudo-random columns of n: times with many ties and out of order_id's order, masks of every
// shape (none, empty, shorter than four, ending in one of three last fours).
const h = (n: string, k: number, m: number) => `((${n}) * ${k} % ${m})`;
const COLUMNS = {
  createdAt: `${h('n', 7919, 40)} * 1000`,
  ccMask: `case ${h('n', 104729, 10)} when 0 then null when 1 then '' when 2 then '42' when 3 then '4242' else '424242******' || (case ${h('n', 31, 3)} when 0 then '4242' when 1 then '1881' else '0005' end) end`,
  status: `case ${h('n', 131, 4)} when 0 then 'init' when 1 then 'pending' when 2 then 'success' else 'failure' end`,
  method: `case ${h('n', 17, 5)} when 0 then 'lookup' when 1 then 'auth' else 'purchase' end`,
  amount: `100 * (1 + ${h('n', 13, 3)})`,
  currency: `case ${h('n', 7, 3)} when 0 then 'UAH' when 1 then 'EUR' else 'USD' end`,
  email: `case ${h('n', 11, 4)} when 0 then null when 1 then 'Olena@Example.com' when 2 then 'olena@example.com' else 'taras@example.com' end`,
  mismatchReport: `case when ${h('n', 23, 9)} = 0 then '{"reason":"amount"}' end`,
  customerId: `case ${h('n', 29, 5)} when 0 then null when 1 then 'cust-1' else 'cust-2' end`,
};

describe('on SQLite, a search read in windows', () => {
  let file: string;
  let ledger: Ledger;
  let ctx: LedgerContext;
  let db: Kysely<LedgerTables>;
  beforeAll(async () => {
    file = await seededFile(400, COLUMNS);
    ledger = await openLedger(file);
    db = new Kysely<LedgerTables>({ dialect: await sqliteDialect(file) }).withPlugin(new TablePrefixPlugin());
    ctx = { db, dialect: 'sqlite', now: Date.now, lightly: (work) => work(db), commitLightly: () => undefined };
  });
  afterAll(async () => {
    await ledger.close();
    await db.destroy();
  });

  const pageOfRows = (rows: PaymentRow[], limit: number) => {
    const { items, nextCursor } = pageOf(rows, { list: 'orders', limit, position: undefined }, (row) => ({ time: row.created_at, key: row.order_id }));
    return { orders: items.map((row) => row.order_id), nextCursor };
  };

  // Thousands of reads, all CPU: 4 s alone, past Vitest's default 20 s beside two other files on
  // two busy cores (the full run timed it out twice). A budget, not a measure: nothing is timed.
  it('gives every page and cursor one read gives, whatever the filters, page size and window', async () => {
    const random = generator(43);
    let matched = 0;
    for (let round = 0; round < 100; round++) {
      const query: Record<string, unknown> = {};
      if (random.chance(0.7)) query.cardLastFour = random.pick(['4242', '1881', '0005', '9999', '0042']);
      if (random.chance(0.3)) query.kind = random.pick(['payments', 'verifications']);
      if (random.chance(0.25)) query.status = random.pick(['init', 'pending', 'success', 'failure']);
      if (random.chance(0.2)) query.held = true;
      if (random.chance(0.2)) query.email = random.pick(['olena@example.com', 'TARAS@example.com', 'nobody@example.com']);
      if (random.chance(0.25)) query.customerId = random.pick(['cust-1', 'cust-2', 'nobody']);
      if (random.chance(0.2)) query.amount = random.pick([100, 200, 300, 400]);
      if (random.chance(0.25)) query.currency = random.pick(['UAH', 'EUR', 'USD']);
      if (random.chance(0.3)) query.createdFrom = random.int(30) * 1000 + random.pick([0, 1]);
      if (random.chance(0.3)) query.createdTo = ((query.createdFrom as number | undefined) ?? 0) + 1 + random.int(30) * 1000;
      const limit = 1 + random.int(12);
      const rows = { first: 1 + random.int(3), most: 1 + random.int(9) };
      const windows = { ...rows, most: Math.max(rows.first, rows.most) };
      const label = JSON.stringify({ round, query, limit, windows });
      let cursor: string | undefined;
      do {
        const parsed = parseInput(orderListInput, { ...query, limit, ...(cursor !== undefined && { cursor }) });
        const page = pageRequest('orders', parsed);
        const once = pageOfRows(await matchingOrders(ctx, parsed, page), limit);
        expect(pageOfRows(await ordersInWindows(ctx, parsed, page, windows), limit), label).toEqual(once);
        // And as the ledger answers it, with its own windows.
        const listed = await ledger.listOrders({ ...(query as OrderListQuery), limit, ...(cursor !== undefined && { cursor }) });
        expect({ orders: listed.orders.map((payment) => payment.orderId), nextCursor: listed.nextCursor }, label).toEqual(once);
        matched += once.orders.length;
        cursor = once.nextCursor ?? undefined;
      } while (cursor !== undefined);
    }
    // The cases found orders, not only empty pages.
    expect(matched).toBeGreaterThan(300);
  }, 60_000);

  it('reads each window between its two ends in the index, the dates included', async () => {
    const large = await seededFile(20_000, COLUMNS);
    const sent: string[] = [];
    const observed = await openLedger(large, { onStatement: (sql) => void sent.push(sql) });
    const reader = new Database(large, { readonly: true });
    try {
      const cursor = Buffer.from('orders|30000:seed-1').toString('base64url');
      // Each with the index its windows are counted in: another between the same ends may hold
      // many times the entries (a status's, beside the held payments').
      const cases = [
        [{ cardLastFour: '9999' }, 'payform_payments_newest'],
        [{ cardLastFour: '9999', createdFrom: 1000, createdTo: 35_000 }, 'payform_payments_newest'],
        [{ currency: 'EUR', kind: 'verifications', createdFrom: 1000 }, 'payform_payments_by_currency'],
        [{ status: 'init', cardLastFour: '9999', createdTo: 20_000 }, 'payform_payments_by_status'],
        [{ held: true, status: 'success', cardLastFour: '9999' }, 'payform_payments_held'],
        [{ email: 'taras@example.com', amount: 200, currency: 'USD', status: 'pending', cardLastFour: '9999' }, 'payform_payments_by_email'],
        [{ amount: 300, currency: 'UAH', status: 'failure', kind: 'payments' }, 'payform_payments_by_amount'],
      ] as const;
      for (const [query, index] of cases) {
        sent.length = 0;
        await observed.listOrders({ ...query, cursor });
        const reads = sent.filter((sql) => sql.startsWith('select "order_id", "session_id"'));
        // The last window may end with the index; the others have an end of their own.
        expect(reads.length).toBeGreaterThan(1);
        for (const read of reads.slice(0, -1)) {
          const plan = queryPlan(reader, read, (read.match(/\?/g) ?? []).map(() => 1));
          expect(plan, `${JSON.stringify(query)}: ${read}`).toMatch(/\(created_at,order_id\)>\(\?,\?\) AND \(created_at,order_id\)<\(\?,\?\)\)$/);
          expect(plan, `${JSON.stringify(query)}: ${read}`).toContain(`USING INDEX ${index} (`);
        }
      }
    } finally {
      reader.close();
      await observed.close();
    }
  });
});

it('on SQLite, a search through many payments lets a payment be read meanwhile', async () => {
  const count = 100_000;
  // No card ends in 9999: the search reads the whole ledger.
  const ledger = await openLedger(await seededFile(count, { ccMask: `'424242******' || substr('000' || (n % 5000), -4)` }));
  try {
    const events: string[] = [];
    let turns = 0;
    let searching = true;
    const turn = () => {
      turns++;
      if (searching) setImmediate(turn);
    };
    setImmediate(() => void ledger.getPayment('seed-1').then(() => events.push('payment read')));
    setImmediate(turn);
    const page = await ledger.listOrders({ cardLastFour: '9999' });
    searching = false;
    events.push('search answered');
    expect(page).toEqual({ orders: [], nextCursor: null });
    expect(events).toEqual(['payment read', 'search answered']);
    // The loop turned at least once for each full window's worth of the ledger.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(count / WINDOW_ROWS.most));
  } finally {
    await ledger.close();
  }
});
