// The sweep of checkout sessions nobody paid, on a SQLite file and on PostgreSQL, each with two
// instances on one database: what is deleted (unpaid, a month past its expiry, with its no-card
// mark), what stays (younger, or with any attempt), `limit`, sweepers at once, and a payment
// written while the sweep runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger, LedgerOptions } from './ledger.js';
import { ABANDONED_SESSION_KEPT_MS } from './session-sweep.js';
import { teaSession } from './testing/contract.js';
import { dropSchema, freshSchemaName, TestClock, withTestDatabase } from './testing/databases.js';
import type { CheckoutSession, NewCheckoutSession } from './types.js';

const DAY = 24 * 3_600_000;

/** Ledgers on one database, and the database read (and written) straight, as another program would. */
interface SweepDatabase {
  open(options: Pick<LedgerOptions, 'clock' | 'onStatement'>): Promise<Ledger>;
  rows(query: string): Promise<Record<string, unknown>[]>;
  /** PostgreSQL: a connection of its own to the ledger's schema. */
  client(): Promise<pg.Client>;
  /** PostgreSQL: resolves once a statement of the ledger's waits for a row lock. */
  waitingForLock(): Promise<void>;
  dispose(): Promise<void>;
}

function sqliteDatabase(): SweepDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'payform-sweep-'));
  const path = join(dir, 'ledger.db');
  const opened: Ledger[] = [];
  return {
    async open(options) {
      const ledger = await openLedger(path, options);
      opened.push(ledger);
      return ledger;
    },
    async rows(query) {
      const db = new Database(path);
      try {
        const statement = db.prepare(query);
        return statement.reader ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []);
      } finally {
        db.close();
      }
    },
    client: () => Promise.reject(new Error('PostgreSQL only')),
    waitingForLock: () => Promise.reject(new Error('PostgreSQL only')),
    async dispose() {
      for (const ledger of opened) await ledger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresDatabase(url: string): SweepDatabase {
  const schema = freshSchemaName();
  const opened: Ledger[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await client.connect();
    return client;
  };
  const connected = connect();
  return {
    client: connect,
    async waitingForLock() {
      const watcher = await connected;
      for (;;) {
        const { rows } = await watcher.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'delete from "payform_checkout_sessions"%'`);
        if (rows.length > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async open(options) {
      const ledger = await openLedger(url, { ...options, schema });
      opened.push(ledger);
      return ledger;
    },
    async rows(query) {
      return (await (await connected).query(query)).rows as Record<string, unknown>[];
    },
    async dispose() {
      for (const ledger of opened) await ledger.close();
      await (await connected).end();
      await dropSchema(url, schema);
    },
  };
}

/** A payment row for `session` as a claim writes it, straight into the table. */
function paymentInsert(session: CheckoutSession, now: number): string {
  return `insert into payform_payments (order_id, session_id, attempt, mode, method, amount, currency, status, customer, created_at, updated_at, last_seen_at)
    values ('${session.orderId}', '${session.id}', 1, 'direct', 'purchase', ${session.amount}, '${session.currency}', 'init', '{}', ${now}, ${now}, ${now})`;
}

function describeSweep(name: string, database: () => SweepDatabase): void {
  describe(`sweep of abandoned sessions (${name}, two instances)`, () => {
    let clock: TestClock;
    let db: SweepDatabase;
    let a: Ledger;
    let b: Ledger;

    beforeEach(async () => {
      clock = new TestClock();
      db = database();
      a = await db.open({ clock: clock.read });
      b = await db.open({ clock: clock.read });
    });
    afterEach(async () => {
      await db.dispose();
    });

    const open = (session: Partial<NewCheckoutSession> = {}) => a.createSession({ ...teaSession, ...session });
    const marks = async (table: string) => (await db.rows(`select session_id from ${table} order by session_id`)).map((row) => row.session_id);
    const noCardMarks = () => marks('payform_no_card_sessions');
    /** Moves the clock to `days` past `session`'s expiry. */
    const pastExpiry = (session: CheckoutSession, days: number) => {
      clock.now = session.expiresAt + days * DAY;
    };

    it('deletes a session unpaid 31 days past its expiry with its no-card and fixed-end marks, and keeps one 29 days past', async () => {
      const old = await open({ customerId: 'cus-1', saveCard: false, extendable: false });
      clock.advance(2 * DAY);
      const younger = await open({ customerId: 'cus-1', saveCard: false });
      pastExpiry(old, 31);
      expect(ABANDONED_SESSION_KEPT_MS).toBe(30 * DAY);
      expect(await b.sweepAbandonedSessions(100)).toBe(1);
      expect(await a.getSession(old.id)).toBeUndefined();
      expect(await a.findSessionOfOrder(old.orderId)).toBeUndefined();
      expect(await a.getSession(younger.id)).toMatchObject({ id: younger.id, status: 'expired' });
      expect(await noCardMarks()).toEqual([younger.id]);
      expect(await marks('payform_fixed_end_sessions')).toEqual([]);
      // Its order id is free again; the younger one's turn comes when it is a month past too.
      await open({ orderId: old.orderId });
      expect(await a.sweepAbandonedSessions(100)).toBe(0);
      pastExpiry(younger, 31);
      expect(await a.sweepAbandonedSessions(100)).toBe(1);
      expect(await a.getSession(younger.id)).toBeUndefined();
      expect(await noCardMarks()).toEqual([]);
    });

    it('keeps a session with any attempt: a failed one, one never answered, a paid one', async () => {
      const failed = await open();
      const claim = await a.claimPayAttempt(failed.id, { mode: 'direct' });
      if (!claim.claimed) throw new Error(claim.reason);
      await a.advancePayment(claim.payment.orderId, { status: 'failure', statusCode: '1100' });
      const waiting = await open({ customerId: 'cus-2', saveCard: false });
      expect((await a.claimPayAttempt(waiting.id, { mode: 'hosted' })).claimed).toBe(true);
      const paid = await open();
      const paying = await a.claimPayAttempt(paid.id, { mode: 'direct' });
      if (!paying.claimed) throw new Error(paying.reason);
      await a.advancePayment(paying.payment.orderId, { status: 'success', statusCode: '1000' });
      const unpaid = await open();
      pastExpiry(unpaid, 365);
      expect(await b.sweepAbandonedSessions(100)).toBe(1);
      for (const kept of [failed, waiting, paid]) expect(await a.getSession(kept.id)).toMatchObject({ id: kept.id });
      expect(await a.getSession(unpaid.id)).toBeUndefined();
      expect(await a.getOrder(claim.payment.orderId)).toMatchObject({ payment: { status: 'failure', sessionId: failed.id } });
      expect(await noCardMarks()).toEqual([waiting.id]);
    });

    it('deletes at most `limit` a call, the rest at the next ones, and says how many', async () => {
      const sessions = [];
      for (let i = 0; i < 5; i += 1) sessions.push(await open());
      pastExpiry(sessions.at(-1)!, 31);
      expect(await a.sweepAbandonedSessions(2)).toBe(2);
      expect(await b.sweepAbandonedSessions(2)).toBe(2);
      expect(await a.sweepAbandonedSessions(2)).toBe(1);
      expect(await b.sweepAbandonedSessions(2)).toBe(0);
      for (const session of sessions) expect(await a.getSession(session.id)).toBeUndefined();
    });

    it('passes a paid session once and finds the unpaid ones behind it, several with one expiry', async () => {
      // The same expiry to the millisecond: the pass resumes between them by id.
      const sessions = [];
      for (let i = 0; i < 6; i += 1) sessions.push(await open());
      const paid = sessions[2]!;
      await b.claimPayAttempt(paid.id, { mode: 'direct' });
      pastExpiry(paid, 40);
      const swept = [await a.sweepAbandonedSessions(2), await b.sweepAbandonedSessions(2), await a.sweepAbandonedSessions(2), await b.sweepAbandonedSessions(2)];
      expect(swept.reduce((sum, n) => sum + n, 0)).toBe(5);
      expect(swept.every((n) => n <= 2)).toBe(true);
      expect((await db.rows('select id from payform_checkout_sessions')).map((row) => row.id)).toEqual([paid.id]);
    });

    it('takes sweeps of several instances at once: each session deleted once, none twice, no error', async () => {
      const sessions = [];
      for (let i = 0; i < 30; i += 1) sessions.push(await open({ customerId: `cus-${i}`, saveCard: i % 2 === 0 }));
      pastExpiry(sessions.at(-1)!, 31);
      const counts = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).sweepAbandonedSessions(5)));
      const more = await a.sweepAbandonedSessions(100);
      expect(counts.reduce((sum, n) => sum + n, 0) + more).toBe(30);
      expect(await db.rows('select id from payform_checkout_sessions')).toEqual([]);
      expect(await noCardMarks()).toEqual([]);
    });

    if (name === 'SQLite file') {
      it('keeps a session whose payment was written after the sweep read its candidates', async () => {
        const session = await open();
        pastExpiry(session, 31);
        // An instance whose clock is a month behind pays it between the sweep's reads and its
        // transaction (a claim refuses a session expired by its own clock).
        let armed = false;
        const sweeper = await db.open({
          clock: clock.read,
          onStatement: (text) => {
            if (!armed || !/^begin/i.test(text)) return;
            armed = false;
            void db.rows(paymentInsert(session, session.createdAt));
          },
        });
        armed = true;
        expect(await sweeper.sweepAbandonedSessions(100)).toBe(0);
        expect(armed).toBe(false);
        expect(await a.getSession(session.id)).toMatchObject({ id: session.id, payment: { status: 'init' } });
      });
    } else {
      it('never deletes a session a payment is being written for: the sweep waits, then is refused, the payment stands', async () => {
        const session = await open();
        pastExpiry(session, 31);
        const payer = await db.client();
        try {
          await payer.query('begin');
          await payer.query(paymentInsert(session, session.createdAt));
          const sweeping = b.sweepAbandonedSessions(100).then(
            (count) => count,
            (error: unknown) => error,
          );
          await db.waitingForLock();
          await payer.query('commit');
          expect(await sweeping).toMatchObject({ code: '23503' });
        } finally {
          await payer.end();
        }
        expect(await a.getSession(session.id)).toMatchObject({ id: session.id, payment: { status: 'init' } });
        expect(await a.sweepAbandonedSessions(100)).toBe(0);
      });
    }

    it('refuses a limit that is not a whole number of 1 to 10,000', async () => {
      for (const limit of [0, -1, 1.5, 10_001, Number.NaN]) await expect(a.sweepAbandonedSessions(limit)).rejects.toMatchObject({ code: 'invalid_input', field: 'limit' });
    });
  });
}

describeSweep('SQLite file', sqliteDatabase);
withTestDatabase((url) => describeSweep('PostgreSQL', () => postgresDatabase(url)));
