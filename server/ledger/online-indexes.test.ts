// An upgrade that indexes the payments table, on a ledger with payments: PostgreSQL builds the
// indexes in the background while pay claims and webhooks go on writing the table (a plain
// CREATE INDEX holds them all for the build: seconds on a million payments, past their 5 s
// deadline), the ledger opens without waiting for them, two instances starting together build
// them once, and an index a build left half-done (a crash, a close) is built again.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CompanionMetrics } from '../companion/operator/metrics.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import type { LedgerLog } from './index-builds.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { buildWaitingFor, connected, ledgerWithPayments, PAY_CLAIM, pidOf, snapshotHeld, WEBHOOK_UPDATE } from './testing/large-ledger.js';
import { databaseWithRoleSettings } from './testing/role-settings.js';

/** Runs each statement on `writer`, failing (and cancelling it) the moment it waits for a lock instead. */
async function writtenWithoutWaiting(writer: pg.Client, watcher: pg.Client, statements: readonly (readonly [string, readonly unknown[]])[]): Promise<void> {
  const pid = pidOf(writer);
  for (const [text, values] of statements) {
    let done = false;
    const running = writer.query(text, [...values]).finally(() => (done = true));
    while (!done) {
      const { rows } = await watcher.query<{ blockers: number[] }>(`select pg_blocking_pids(pid) as blockers from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [pid]);
      if (rows.length > 0) {
        await watcher.query('select pg_cancel_backend($1)', [pid]);
        await running.catch(() => undefined);
        throw new Error(`a payment's write waited for the upgrade's lock (held by ${rows[0]!.blockers.join(', ')}): ${text.trim().slice(0, 30)}…`);
      }
    }
    await running;
  }
}

/** The order search's indexes: name → [valid, columns]. */
async function searchIndexes(watcher: pg.Client, schema: string): Promise<Record<string, [boolean, string]>> {
  const { rows } = await watcher.query<{ name: string; valid: boolean; definition: string }>(
    `select c.relname as name, i.indisvalid as valid, pg_get_indexdef(c.oid) as definition from pg_index i join pg_class c on c.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname in ('payform_payments_by_email', 'payform_payments_by_amount', 'payform_payments_by_currency', 'payform_checkout_sessions_expiry')`,
    [schema],
  );
  return Object.fromEntries(rows.map(({ name, valid, definition }) => [name, [valid, definition.replace(/^.* USING btree /, '')]]));
}

/** A log that keeps its lines. */
function keptLog(): LedgerLog & { readonly lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/** The index build's series of a companion's metrics on `ledger`, by state. */
async function indexBuildGauge(ledger: Ledger): Promise<string[]> {
  const text = await new CompanionMetrics().exposition(ledger, Date.now());
  return [...text.matchAll(/^payform_ledger_index_build\{state="(\w+)"\} (\d)$/gm)].map(([, state, value]) => `${state} ${value}`);
}

/** The claim of the instance building the indexes, if one holds it. */
async function builderClaim(watcher: pg.Client): Promise<unknown[]> {
  return (await watcher.query(`select key from payform_ledger_settings where key = 'online_index_build'`)).rows;
}

/** Whether a build has waited for backend `pid`'s transaction for more than `seconds`. */
async function buildWaitedPast(watcher: pg.Client, pid: number, seconds: number): Promise<boolean> {
  const { rows } = await watcher.query(
    `select 1 from pg_stat_activity where query ilike '%create index concurrently%' and $1 = any (pg_blocking_pids(pid)) and clock_timestamp() - query_start > make_interval(secs => $2)`,
    [pid, seconds],
  );
  return rows.length > 0;
}

/** The server connections open with `application_name`. */
async function connectionsOf(watcher: pg.Client, application: string): Promise<number> {
  return (await watcher.query<{ open: number }>('select count(*)::int as open from pg_stat_activity where application_name = $1', [application])).rows[0]!.open;
}

const BUILT = {
  payform_payments_by_amount: [true, '(amount, created_at, order_id)'],
  payform_payments_by_email: [true, "(lower(((customer)::json ->> 'email'::text)), created_at, order_id) WHERE (lower(((customer)::json ->> 'email'::text)) IS NOT NULL)"],
  payform_payments_by_currency: [true, '(currency, created_at, order_id)'],
  payform_checkout_sessions_expiry: [true, '(expires_at, id)'],
};

withTestDatabase((url) => {
  describe('0018_order_search on a PostgreSQL ledger with payments', () => {
    it('builds its indexes while pay claims and webhooks write the table, once for two instances starting together', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const [inFlight, writer, watcher] = await Promise.all([connected(url, schema), connected(url, schema), connected(url, schema)]);
      let opening: Promise<Ledger>[] = [];
      try {
        // A checkout being opened as the upgrade starts: the build waits for its transaction to end
        // (as one on a busy database does for each), which holds the build still for the writes
        // below. (A payment's write left open would hold the upgrade itself: 0027 adds a trigger
        // to the payments table, which waits for the writes under way, a second at a time.)
        await inFlight.query('begin');
        await inFlight.query(PAY_CLAIM[0], ['in-flight']);
        const logs = [keptLog(), keptLog()];
        opening = logs.map((log) => openLedger(url, { schema, log, indexBuildWarnAfterMs: 0 }));
        // Both open (and take payments) while the build waits: it goes on in the background.
        const ledgers = await Promise.all(opening);
        expect(ledgers.map(({ upgradedNow }) => upgradedNow.join()).sort()).toEqual(['', '0018_order_search,0019_card_consent,0020_orders_by_currency,0021_session_expiry,0022_session_extension,0023_movement_dates,0024_operation_currency,0025_saved_card_payments,0026_erased_orders,0027_erased_order_tokens,0028_retention_waits']);
        await buildWaitingFor(watcher, pidOf(inFlight));
        expect(ledgers.map(({ indexBuilds }) => indexBuilds?.state).sort()).toEqual(['building', 'waiting']);
        const builder = ledgers.find(({ indexBuilds }) => indexBuilds?.state === 'building')!;
        expect(await indexBuildGauge(builder)).toEqual(['building 1', 'waiting 0', 'failed 0']);

        await writtenWithoutWaiting(writer, watcher, [...PAY_CLAIM.map((statement) => [statement, ['new-1']] as const), [WEBHOOK_UPDATE, ['old-1']]]);
        // A search meanwhile reads the table.
        const meanwhile = await ledgers[0]!.listOrders({ email: 'buyer@example.com', limit: 10 });
        expect(meanwhile.orders.map(({ orderId }) => orderId).sort()).toEqual(['new-1', 'old-1', 'old-2', 'old-3']);
        // The builder names the transaction it waits for: who, never what it runs.
        const builderLog = logs[ledgers.findIndex(({ indexBuilds }) => indexBuilds?.state === 'building')]!;
        await expect.poll(() => builderLog.lines.find((line) => line.startsWith('warn')), { timeout: 10_000 }).toMatch(new RegExp(`waited \\d+ s for a transaction to end \\(pid ${pidOf(inFlight)}, application_name "", state idle in transaction, transaction open for \\d+ s\\)`));
        expect(builderLog.lines.join('\n')).not.toMatch(/insert into|Buyer@Example/i);

        await inFlight.query('commit');
        await Promise.all(ledgers.map(({ indexBuilds }) => indexBuilds!.settled));
        expect(ledgers.map(({ indexBuilds }) => indexBuilds?.state)).toEqual(['built', 'built']);
        expect(await indexBuildGauge(builder)).toEqual(['building 0', 'waiting 0', 'failed 0']);
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
        expect(builderLog.lines.filter((line) => line.includes('building the index')).map((line) => line.split(' ').slice(0, 6).join(' '))).toEqual([
          'info ledger: building the index payform_payments_by_email',
          'info ledger: building the index payform_payments_by_amount',
          'info ledger: building the index payform_payments_by_currency',
          'info ledger: building the index payform_checkout_sessions_expiry',
        ]);
        expect(logs.find((log) => log !== builderLog)!.lines).toEqual([
          'info ledger: another instance builds the index payform_payments_by_email (migration 0018_order_search); this one takes over if that one stops',
        ]);
        expect(builderLog.lines.filter((line) => line.includes('built the index'))).toEqual([
          expect.stringMatching(/^info ledger: built the index payform_payments_by_email \(migration 0018_order_search\) in \d+\.\d s$/),
          expect.stringMatching(/^info ledger: built the index payform_payments_by_amount /),
          expect.stringMatching(/^info ledger: built the index payform_payments_by_currency \(migration 0020_orders_by_currency\) /),
          expect.stringMatching(/^info ledger: built the index payform_checkout_sessions_expiry \(migration 0021_session_expiry\) /),
        ]);
        const found = await ledgers[1]!.listOrders({ email: 'buyer@example.com', limit: 10 });
        expect(found.orders.map(({ orderId }) => orderId).sort()).toEqual(['new-1', 'old-1', 'old-2', 'old-3']);
      } finally {
        await inFlight.query('rollback').catch(() => undefined);
        for (const result of await Promise.allSettled(opening)) if (result.status === 'fulfilled') await result.value.close();
        await Promise.all([inFlight.end(), writer.end(), watcher.end()]);
        await dropSchema(url, schema);
      }
    });

    it('drops an index a build left invalid (a crash, a cancel) and builds it again; builds one missing at a restart', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const watcher = await connected(url, schema);
      try {
        // What a build cut short leaves: an index of 0018's name that PostgreSQL keeps but never uses.
        await expect(watcher.query('create unique index concurrently payform_payments_by_amount on payform_payments (currency)')).rejects.toThrow(/could not create unique index/);
        expect((await searchIndexes(watcher, schema)).payform_payments_by_amount?.[0]).toBe(false);

        const ledger = await openLedger(url, { schema, log: keptLog() });
        expect(ledger.upgradedNow).toEqual(['0018_order_search', '0019_card_consent', '0020_orders_by_currency', '0021_session_expiry', '0022_session_extension', '0023_movement_dates', '0024_operation_currency', '0025_saved_card_payments', '0026_erased_orders', '0027_erased_order_tokens', '0028_retention_waits']);
        await ledger.indexBuilds!.settled;
        await ledger.close();
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
        expect(await builderClaim(watcher), 'the builder let its claim go').toEqual([]);

        await watcher.query('drop index payform_payments_by_email');
        const restarted = await openLedger(url, { schema, log: keptLog() });
        expect(restarted.upgradedNow).toEqual([]);
        await restarted.indexBuilds!.settled;
        await restarted.close();
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
      } finally {
        await watcher.end();
        await dropSchema(url, schema);
      }
    });

    it('closes during a build that waits for another transaction, and the next start builds it', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const [blocker, watcher] = await Promise.all([snapshotHeld(url, schema), connected(url, schema)]);
      try {
        const ledger = await openLedger(url, { schema, log: keptLog() });
        await buildWaitingFor(watcher, pidOf(blocker));

        await ledger.close();
        expect(ledger.indexBuilds?.state).toBe('stopped');
        expect((await watcher.query(`select pid from pg_stat_activity where state = 'active' and query ilike '%create index concurrently%' and $1 = any (pg_blocking_pids(pid))`, [pidOf(blocker)])).rows, 'the build was cancelled').toEqual([]);
        expect(await builderClaim(watcher), 'the builder let its claim go').toEqual([]);
        await blocker.query('commit');

        const restarted = await openLedger(url, { schema, log: keptLog() });
        await restarted.indexBuilds!.settled;
        await restarted.close();
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
      } finally {
        await Promise.all([blocker.end(), watcher.end()]);
        await dropSchema(url, schema);
      }
    });

    it('a build cut short (its connection ended) is logged, and another instance takes it over', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const [blocker, watcher] = await Promise.all([snapshotHeld(url, schema), connected(url, schema)]);
      const opened: Ledger[] = [];
      try {
        const log = keptLog();
        const first = await openLedger(url, { schema, log });
        opened.push(first);
        await buildWaitingFor(watcher, pidOf(blocker));
        await watcher.query(`select pg_terminate_backend(pid) from pg_stat_activity where query ilike '%create index concurrently%' and pid <> pg_backend_pid() and $1 = any (pg_blocking_pids(pid))`, [pidOf(blocker)]);
        await expect.poll(() => first.indexBuilds?.state).toBe('failed');
        expect(await indexBuildGauge(first)).toEqual(['building 0', 'waiting 0', 'failed 1']);
        expect(log.lines.filter((line) => line.startsWith('error'))).toEqual([
          expect.stringMatching(/^error ledger: migration 0018_order_search failed building the index payform_payments_by_email \(CREATE INDEX CONCURRENTLY, payments still written meanwhile\): .*terminat.*; tried again in 1 min \(or at the next start\)$/),
        ]);
        expect(await builderClaim(watcher), 'the failed builder let its claim go').toEqual([]);
        await blocker.query('commit');

        const second = await openLedger(url, { schema, log: keptLog() });
        opened.push(second);
        await second.indexBuilds!.settled;
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
      } finally {
        for (const ledger of opened) await ledger.close();
        await Promise.all([blocker.end(), watcher.end()]);
        await dropSchema(url, schema);
      }
    });

    it("builds past the role's statement_timeout and lock_timeout (a managed service's, or set for a pooler)", async () => {
      const schema = freshSchemaName();
      const database = await databaseWithRoleSettings(url, { statement_timeout: '2s', lock_timeout: '2s' }, (databaseUrl) => ledgerWithPayments(databaseUrl, schema));
      const clients: pg.Client[] = [];
      let ledger: Ledger | undefined;
      try {
        const [blocker, watcher] = await Promise.all([snapshotHeld(database.url, schema), connected(database.url, schema)]);
        clients.push(blocker, watcher);
        expect((await watcher.query('show statement_timeout')).rows[0].statement_timeout).toBe('2s');
        const log = keptLog();
        ledger = await openLedger(database.url, { schema, log });
        // The build waits for the report's snapshot past both of the role's deadlines.
        const waited = async () => ((await buildWaitedPast(watcher, pidOf(blocker), 3)) ? 'waited' : (log.lines.find((line) => line.startsWith('error')) ?? 'waiting'));
        await expect.poll(waited, { timeout: 15_000 }).toBe('waited');
        expect(ledger.indexBuilds?.state).toBe('building');

        await blocker.query('commit');
        await ledger.indexBuilds!.settled;
        expect(ledger.indexBuilds?.state).toBe('built');
        expect(await searchIndexes(watcher, schema)).toEqual(BUILT);
        expect(log.lines.filter((line) => !line.startsWith('info'))).toEqual([]);
      } finally {
        await ledger?.close();
        await Promise.all(clients.map((client) => client.end()));
        await database.drop();
      }
      // A database of its own: creating and dropping one waits on a checkpoint, which on a server
      // busy with every other suite's writes (CI) takes far longer than the test's own work.
    }, 120_000);

    it('an open that fails once its builds started leaves no connection behind', async () => {
      const schema = freshSchemaName();
      await ledgerWithPayments(url, schema);
      const [blocker, watcher] = await Promise.all([snapshotHeld(url, schema), connected(url, schema)]);
      const application = `payform_failed_open_${schema.slice(-8)}`;
      try {
        // The ledger's id cannot be recorded, which its open does last, after the builds started.
        await watcher.query(`create function refuse_ledger_id() returns trigger language plpgsql as $$
          begin if new.key = 'ledger_id' then raise exception 'the ledger id is refused here'; end if; return new; end $$`);
        await watcher.query('create trigger refuse_ledger_id before insert on payform_ledger_settings for each row execute function refuse_ledger_id()');
        const ledgerUrl = Object.assign(new URL(url), { search: `?application_name=${application}` }).toString();
        await expect(openLedger(ledgerUrl, { schema, log: keptLog() })).rejects.toThrow(/the ledger id is refused here/);
        // Neither the pool nor the builder's connection: a build would wait for the report.
        await expect.poll(() => connectionsOf(watcher, application)).toBe(0);
        expect(await builderClaim(watcher), 'the builder let its claim go').toEqual([]);
      } finally {
        // What a leak left would build on once the report ends, and hold up the schema's drop.
        await watcher.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [application]);
        await Promise.all([blocker.end(), watcher.end()]);
        await dropSchema(url, schema);
      }
    });
  });
});
