// A long period's reports on a SQLite file: added up a window of rows at a time, a payment
// claimed meanwhile is served between windows instead of waiting for the whole period, and the
// figures are those of the period as one.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { WINDOW_ROWS } from './order-search.js';
import { claimedPayment } from './testing/contract.js';
import { fileBackend, TestClock } from './testing/databases.js';
import type { TestLedger } from './testing/databases.js';

const SECOND = 1000;
/** Three full windows and part of a fourth. */
const PAYMENTS = 3 * WINDOW_ROWS.most + 100;

/**
 * PAYMENTS orders a second apart from `start`, written straight to the file: a paid purchase of
 * 1000 UAH, an auth of 2000 UAH captured for 1500, a declined purchase, in turn; every seventh
 * order refunded 100. Returns what the ledger should make of them.
 */
function seed(file: string, start: number, at = (i: number) => start + i * SECOND) {
  const db = new Database(file);
  const session = db.prepare(`insert into payform_checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
    values (?, ?, ?, 'UAH', 'Tea', ?, '{}', '["direct"]', ?, ?)`);
  const payment = db.prepare(`insert into payform_payments (order_id, session_id, attempt, mode, method, amount, currency, status, status_code, customer, created_at, updated_at, last_seen_at)
    values (?, ?, 1, 'direct', ?, ?, 'UAH', ?, ?, '{}', ?, ?, ?)`);
  const operation = db.prepare(`insert into payform_operations (id, order_id, kind, amount, status, origin, created_at, updated_at, last_seen_at)
    values (?, ?, ?, ?, 'success', 'merchant', ?, ?, ?)`);
  const expected = { paid: 0, refunded: 0, succeeded: 0, failed: 0 };
  db.transaction(() => {
    for (let i = 0; i < PAYMENTS; i++) {
      const id = `long-${i}`;
      const [method, amount, status, code] = i % 3 === 0 ? ['purchase', 1000, 'success', '1000'] : i % 3 === 1 ? ['auth', 2000, 'success', '1000'] : ['purchase', 1000, 'failure', '1002'];
      const created = at(i);
      session.run(id, id, amount, method, created, created + 3_600_000);
      payment.run(id, id, method, amount, status, code, created, created, created);
      if (status === 'success') expected.succeeded++;
      else expected.failed++;
      if (method === 'purchase' && status === 'success') expected.paid += amount;
      if (method === 'auth') {
        operation.run(`capture-${i}`, id, 'capture', 1500, created + 1, created + 1, created + 1);
        expected.paid += 1500;
      }
      if (status === 'success' && i % 7 === 0) {
        operation.run(`refund-${i}`, id, 'refund', 100, created + 2, created + 2, created + 2);
        expected.refunded += 100;
      }
    }
  })();
  db.close();
  return expected;
}

describe('a long period on a SQLite file', () => {
  const clock = new TestClock();
  const start = clock.now - 24 * 3_600_000;
  let store: TestLedger;
  let expected: ReturnType<typeof seed>;
  let statements: string[];
  let ledger: Ledger;

  beforeEach(async () => {
    store = await fileBackend.open(clock);
    expected = seed(store.file!, start);
    statements = [];
    ledger = await openLedger(store.file!, { clock: clock.read, onStatement: (sql) => void statements.push(sql) });
  });
  afterEach(async () => {
    await ledger.close();
    await store.dispose();
  });

  it("adds up the period's money and counts a window at a time, to the period's figures", async () => {
    const period = { from: start, to: clock.now };
    const money = { currency: 'UAH', paid: expected.paid, refunded: expected.refunded, net: expected.paid - expected.refunded };
    statements.length = 0;
    expect(await ledger.moneyTotals(period)).toEqual([money]);
    // Four windows of the payments, each summed by its own statement.
    expect(statements.filter((sql) => /^select "p"\."currency", sum\(case when p\.method = 'purchase'/.test(sql))).toHaveLength(4);
    expect(await ledger.moneyTotals({ ...period, datedBy: 'movement' })).toEqual([money]);
    const days = await ledger.paymentStats({ ...period, bucket: 'day' });
    expect(days.reduce((sum, day) => sum + day.succeeded, 0)).toBe(expected.succeeded);
    expect(days.reduce((sum, day) => sum + day.failed, 0)).toBe(expected.failed);
    expect(days.reduce((sum, day) => sum + day.total, 0)).toBe(PAYMENTS);
  });

  it('keeps the rows of one millisecond in one window, however many, and counts each once', async () => {
    await ledger.close();
    await store.dispose();
    store = await fileBackend.open(clock);
    // All but the last hundred in one millisecond: more than a window holds.
    expected = seed(store.file!, start, (i) => (i < PAYMENTS - 100 ? start : start + i * SECOND));
    ledger = await openLedger(store.file!, { clock: clock.read, onStatement: (sql) => void statements.push(sql) });
    statements.length = 0;
    const period = { from: start, to: clock.now };
    expect(await ledger.moneyTotals(period)).toEqual([{ currency: 'UAH', paid: expected.paid, refunded: expected.refunded, net: expected.paid - expected.refunded }]);
    // The millisecond's window, then the rest.
    expect(statements.filter((sql) => /^select "p"\."currency", sum\(case when p\.method = 'purchase'/.test(sql))).toHaveLength(2);
    const days = await ledger.paymentStats({ ...period, bucket: 'day' });
    expect(days.reduce((sum, day) => sum + day.total, 0)).toBe(PAYMENTS);
  });

  it('serves a payment claimed meanwhile between windows, not after the whole period', async () => {
    statements.length = 0;
    const totals = ledger.moneyTotals({ from: start, to: clock.now });
    await claimedPayment(ledger, { amount: 700, currency: 'UAH' });
    await totals;
    const sums = statements.flatMap((sql, at) => (/^select "p"\."currency", sum\(/.test(sql) ? [at] : []));
    const claim = statements.findIndex((sql) => /^insert into "payform_payments"/.test(sql));
    expect(claim).toBeGreaterThan(sums[0]!);
    expect(claim).toBeLessThan(sums.at(-1)!);
  });
});
