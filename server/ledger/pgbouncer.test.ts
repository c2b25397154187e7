// The ledger behind PgBouncer in transaction mode (what Heroku's, Supabase's and Neon's pooled
// endpoints and most Kubernetes setups run): a client's transactions may each run on another
// server session, and its sessions serve other clients in between. Two server connections for
// every client: they are shared all the time.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment } from './testing/contract.js';
import { withTestDatabase } from './testing/databases.js';
import { withClient } from './testing/schema-pool.js';
import { buildWaitingFor, connected, ledgerWithPayments, pidOf, snapshotHeld } from './testing/large-ledger.js';
import { startPgBouncer } from './testing/pgbouncer.js';
import type { PgBouncer } from './testing/pgbouncer.js';

/** A payment's way through the ledger, each step a transaction or a statement with values. */
async function payAndRead(ledger: Ledger): Promise<void> {
  const payment = await claimedPayment(ledger);
  await ledger.advancePayment(payment.orderId, { status: 'success', statusCode: '1000' });
  expect((await ledger.getOrder(payment.orderId))?.payment.status).toBe('success');
}

withTestDatabase((url) => {
  describe('the ledger behind PgBouncer in transaction mode', () => {
    let bouncer: PgBouncer;

    beforeAll(async () => {
      bouncer = await startPgBouncer(url, 'transaction', 2);
    });
    afterAll(async () => {
      await bouncer?.stop();
    });
    /** The pooler said in the URL, as an operator does (`?pgbouncer=true`, Prisma's flag too). */
    const declared = () => `${bouncer.url}?pgbouncer=true`;

    it('opens two instances at once, pays through both and opens again after they stop', async () => {
      for (let round = 0; round < 3; round += 1) {
        // Declared in the URL: the look at start can miss a pooler that two instances opening at once keep busy.
        const ledgers = await Promise.all([openLedger(declared(), { poolSize: 4 }), openLedger(declared(), { poolSize: 4 })]);
        try {
          expect(ledgers.map((ledger) => ledger.transactionPooled)).toEqual([true, true]);
          await Promise.all(Array.from({ length: 24 }, (_, i) => payAndRead(ledgers[i % 2]!)));
        } finally {
          for (const ledger of ledgers) await ledger.close();
        }
      }
      // The migrations' lock went with their transactions: no server session keeps it.
      const direct = new pg.Client({ connectionString: bouncer.directUrl });
      await direct.connect();
      try {
        const { rows } = await direct.query(`select count(*)::int as held from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = current_database()`);
        expect(rows[0].held).toBe(0);
      } finally {
        await direct.end();
      }
    }, 60_000);

    it('refuses a schema the pooler would not pass on, naming where to set it instead', async () => {
      await expect(openLedger(bouncer.url, { schema: 'payform_pooled' })).rejects.toThrow(/ALTER ROLE \S+ SET search_path = payform/);
    });

    it('leaves no session setting for another client of the pooler to inherit', async () => {
      const ledger = await openLedger(declared(), { poolSize: 4 });
      try {
        expect(ledger.transactionPooled).toBe(true);
        await Promise.all(Array.from({ length: 8 }, () => payAndRead(ledger)));
      } finally {
        await ledger.close();
      }
      // Another application on the same pool: its statements reach the ledger's server sessions.
      const other = new pg.Client({ connectionString: bouncer.url });
      await other.connect();
      try {
        for (let i = 0; i < 4; i += 1) expect((await other.query('show statement_timeout')).rows[0].statement_timeout).toBe('0');
      } finally {
        await other.end();
      }
    }, 60_000);
  });

  describe('the ledger behind PgBouncer told to ignore the options parameter', () => {
    let bouncer: PgBouncer;

    beforeAll(async () => {
      bouncer = await startPgBouncer(url, 'transaction', 2, ['ignore_startup_parameters = options']);
    });
    afterAll(async () => {
      await bouncer?.stop();
    });

    it('refuses to open in another schema than the one asked for', async () => {
      await expect(openLedger(bouncer.url, { schema: 'payform_pooled' })).rejects.toThrow(/asked for schema payform_pooled, but the server's search_path is .*ALTER ROLE \S+ SET search_path = payform_pooled/);
      const direct = new pg.Client({ connectionString: bouncer.directUrl });
      await direct.connect();
      try {
        // Nothing of the ledger's in the role's default schema.
        const { rows } = await direct.query(`select count(*)::int as tables from pg_tables where schemaname = 'public'`);
        expect(rows[0].tables).toBe(0);
      } finally {
        await direct.end();
      }
    });
  });

  describe('an index build behind PgBouncer in transaction mode, on a role with a statement_timeout', () => {
    let bouncer: PgBouncer;

    beforeAll(async () => {
      // Each server connection used once: each takes the role's setting, made once it started.
      bouncer = await startPgBouncer(url, 'transaction', 2, ['server_lifetime = 0']);
    });
    afterAll(async () => {
      await bouncer?.stop();
    });

    it('leaves the role\'s deadline alone (a SET could reach another client), and says how to let the build finish when it cuts it short', async () => {
      await ledgerWithPayments(bouncer.directUrl, 'public');
      await withClient(bouncer.directUrl, (client) => client.query(`alter role current_user in database ${new URL(bouncer.directUrl).pathname.slice(1)} set statement_timeout = '3s'`));
      const [blocker, watcher] = await Promise.all([snapshotHeld(bouncer.directUrl, 'public'), connected(bouncer.directUrl, 'public')]);
      const errors: string[] = [];
      const log = { info: () => undefined, warn: () => undefined, error: (message: string) => void errors.push(message) };
      let ledger: Ledger | undefined;
      try {
        ledger = await openLedger(`${bouncer.url}?pgbouncer=true`, { log });
        await buildWaitingFor(watcher, pidOf(blocker));
        await expect.poll(() => ledger!.indexBuilds?.state, { timeout: 15_000 }).toBe('failed');
        expect(errors).toEqual([
          expect.stringMatching(
            /^ledger: migration 0018_order_search failed building the index payform_payments_by_email \(.*\): canceling statement due to statement timeout\. Behind a pooler in transaction mode the build cannot lift the role's statement_timeout .*connect one instance's ledger to PostgreSQL directly.*ALTER ROLE <user> SET statement_timeout = 0.*; tried again in 1 min/,
          ),
        ]);
      } finally {
        await ledger?.close();
        await Promise.all([blocker.end(), watcher.end()]);
      }
    }, 30_000);
  });
});
