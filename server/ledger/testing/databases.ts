// Real databases for the ledger's tests: SQLite in memory or in a temporary file, and a
// PostgreSQL schema per test, of its own while the test runs, so parallel files and reruns never
// collide (emptied and pooled afterwards: schema-pool.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { it } from 'vitest';
import { openLedger } from '../ledger.js';
import type { Ledger, LedgerOptions } from '../ledger.js';
import type { InternalOpenOptions } from '../sqlite.js';
import { LEDGER_TABLES, stored } from '../table-names.js';
import { claimSchema, releaseSchema, withClient } from './schema-pool.js';

export { dropSchema, freshSchemaName } from './schema-pool.js';

/** A clock the test moves by hand. */
export class TestClock {
  constructor(public now = Date.UTC(2030, 0, 15, 9, 30)) {}
  readonly read = (): number => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export interface Column {
  readonly table: string;
  readonly column: string;
}

/** One test's ledger on a database of its own. */
export interface TestLedger {
  readonly ledger: Ledger;
  /** The SQLite file, for a look from outside the ledger. */
  readonly file?: string;
  /** Opens another ledger on the same database, as a restart or a second instance would. */
  readonly reopen?: () => Promise<Ledger>;
  /** Every column of the ledger's tables, read straight from the database. */
  readonly columns?: () => Promise<Column[]>;
  /** The names recorded by the migrator. */
  readonly migrations?: () => Promise<string[]>;
  /** Every row of the ledger's tables, as JSON text: what is at rest. */
  readonly contents?: () => Promise<string>;
  dispose(): Promise<void>;
}

export interface OpenOptions {
  /**
   * SQLite: migrated from nothing by this open, as at a first start (`createdNow`), for the tests
   * that watch the migrator; otherwise a copy of a ledger migrated earlier (migratedImage).
   * PostgreSQL's schemas come from a pool of migrated ones either way (schema-pool.ts).
   */
  readonly fromScratch?: boolean;
}

export interface LedgerBackend {
  readonly name: string;
  /** Whether the database outlives its first connection (reopen, columns and migrations work). */
  readonly persistent: boolean;
  open(clock: TestClock, options?: OpenOptions): Promise<TestLedger>;
}

/** The tables as the database names them (the payform_ prefix). */
const ledgerTables = LEDGER_TABLES.map(stored);

const missingDatabase =
  'TEST_DATABASE_URL is not set, so the PostgreSQL half of the ledger suite cannot run (it must not be skipped).\n' +
  'Get a server with `sh -c ". .ci/ensure-postgres"` as root (it prints the URL), then run\n' +
  '  TEST_DATABASE_URL=postgres://payform:payform@127.0.0.1:5432/payform_test npx vitest run server/ledger\n' +
  'or run `npm test`, which provides it.';

/**
 * Defines the PostgreSQL tests with TEST_DATABASE_URL, or — when it is unset — one test that
 * fails saying how to set it (a thrown module would hide the message behind the reporter).
 */
export function withTestDatabase(define: (url: string) => void): void {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return define(url);
  // Said on stderr too: Vitest 5's error summary needs Node 22 and may not get to print it.
  console.error(`payform ledger: ${missingDatabase}`);
  it('has a PostgreSQL server to run against (TEST_DATABASE_URL)', () => {
    throw new Error(missingDatabase);
  });
}

/**
 * Ledgers on one database: the first opened now, more on `reopen` (a restart, a second
 * instance); `dispose` closes every one of them, then cleans the database up.
 */
export async function trackedLedgers(
  open: () => Promise<Ledger>,
  cleanUp: () => void | Promise<void>,
): Promise<Required<Pick<TestLedger, 'ledger' | 'reopen' | 'dispose'>>> {
  const opened: Ledger[] = [];
  const reopen = async () => {
    const ledger = await open();
    opened.push(ledger);
    return ledger;
  };
  return {
    ledger: await reopen(),
    reopen,
    async dispose() {
      for (const ledger of opened) await ledger.close();
      await cleanUp();
    },
  };
}

/**
 * A SQLite ledger as its migrations leave it, once per process (Vitest keeps a worker's modules:
 * isolate: false). A run opens about a thousand SQLite test ledgers: migrating each from nothing
 * costs 45–55 ms of CPU, opening a copy of this under 10. Made by this run's code and kept in
 * memory only, so it always holds the current migrations.
 */
let template: Promise<Buffer> | undefined;

export function migratedImage(): Promise<Buffer> {
  return (template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-template-'));
    try {
      const file = join(dir, 'ledger.db');
      await (await openLedger(file)).close();
      const db = new Database(file);
      try {
        // What the open wrote after its migrations: each ledger draws an id of its own (owner.ts).
        db.prepare(`delete from ${stored('ledger_settings')} where key = 'ledger_id'`).run();
        // A rollback journal's header: an image SQLite opens in memory, and a file that a copy's
        // open turns to WAL as it does a new file.
        db.pragma('journal_mode = DELETE');
        return db.serialize();
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })());
}

/** A copy of the migrated ledger at `path`, its folder made: openLedger(path) opens it as an existing ledger's file. */
export async function migratedFile(path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  // Private, as openLedger makes a new file (sqlite.ts, createPrivately).
  writeFileSync(path, await migratedImage(), { mode: 0o600 });
}

export const memoryBackend: LedgerBackend = {
  name: 'SQLite in memory',
  persistent: false,
  async open(clock, { fromScratch = false } = {}) {
    const options: LedgerOptions & InternalOpenOptions = { clock: clock.read, ...(fromScratch ? {} : { memoryImage: await migratedImage() }) };
    const ledger = await openLedger(':memory:', options);
    return { ledger, dispose: () => ledger.close() };
  },
};

export const fileBackend: LedgerBackend = {
  name: 'SQLite file',
  persistent: true,
  async open(clock, { fromScratch = false } = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'payform-ledger-'));
    const path = join(dir, 'nested', 'ledger.db');
    if (!fromScratch) await migratedFile(path);
    const read = <T>(query: string) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare(query).all() as T[];
      } finally {
        db.close();
      }
    };
    return {
      ...(await trackedLedgers(() => openLedger(path, { clock: clock.read }), () => rmSync(dir, { recursive: true, force: true }))),
      file: path,
      columns: async () =>
        ledgerTables.flatMap((table) => read<{ name: string }>(`select name from pragma_table_info('${table}')`).map(({ name }) => ({ table, column: name }))),
      migrations: async () => read<{ name: string }>('select name from ledger_migration order by name').map(({ name }) => name),
      contents: async () => JSON.stringify(ledgerTables.map((table) => read(`select * from ${table}`))),
    };
  },
};

/**
 * A ledger on a schema of its own — migrated and emptied by an earlier test when the pool has
 * one (schema-pool.ts); every instance it opens shares that schema.
 */
export async function postgresTestLedger(url: string, clock: TestClock, options: Pick<LedgerOptions, 'poolSize' | 'onStatement'> = {}): Promise<TestLedger> {
  const schema = await claimSchema(url);
  return {
    ...(await trackedLedgers(() => openLedger(url, { clock: clock.read, schema, ...options }), () => releaseSchema(url, schema))),
    columns: () =>
      withClient(url, async (client) => {
        const { rows } = await client.query<{ table: string; column: string }>(
          'select table_name as "table", column_name as "column" from information_schema.columns where table_schema = $1 and table_name = any($2)',
          [schema, ledgerTables],
        );
        return rows;
      }),
    migrations: () =>
      withClient(url, async (client) => (await client.query<{ name: string }>(`select name from ${schema}.ledger_migration order by name`)).rows.map(({ name }) => name)),
  };
}

export function postgresBackend(url: string): LedgerBackend {
  return { name: 'PostgreSQL', persistent: true, open: (clock) => postgresTestLedger(url, clock) };
}
