/**
 * Everything the stack keeps, read raw: every row of every ledger table (SQLite file or a
 * PostgreSQL schema) and the sandbox's orders, webhook deliveries and faults. Two snapshots
 * compare equal when nothing stored changed in between.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openLedger } from '../../../server/ledger/index.js';
import { dropSchema, trackedLedgers } from '../../../server/ledger/testing/databases.js';
import type { LedgerBackend } from '../../../server/ledger/testing/databases.js';
import type { SandboxApp } from '../../../server/sandbox/app.js';
import { keptForScan, stackFolder } from './at-rest.js';

export type TableDump = Record<string, unknown[]>;

/**
 * A SQLite ledger in a file whose folder the test knows (to read the file and its WAL). The
 * folder is removed afterwards unless PAYFORM_AT_REST_DIR keeps it for the scan after the run.
 */
export interface SqliteFileBackend extends LedgerBackend {
  readonly dir: string;
  readonly path: string;
}

export function sqliteFileBackend(): SqliteFileBackend {
  const dir = stackFolder();
  const path = join(dir, 'ledger.db');
  return {
    name: 'SQLite file',
    persistent: true,
    dir,
    path,
    open: (clock) =>
      trackedLedgers(
        () => openLedger(path, { clock: clock.read }),
        () => {
          if (!keptForScan()) rmSync(dir, { recursive: true, force: true });
        },
      ),
  };
}

/** A PostgreSQL ledger in a schema of its own, whose name the test knows; dropped afterwards. */
export function postgresSchemaBackend(url: string): LedgerBackend & { readonly schema: string } {
  const schema = `resilience_${randomBytes(6).toString('hex')}`;
  return {
    name: 'PostgreSQL',
    persistent: true,
    schema,
    open: (clock) => trackedLedgers(() => openLedger(url, { clock: clock.read, schema }), () => dropSchema(url, schema)),
  };
}

/** Every row of every table, in a stable order (a read-only connection beside the ledger's). */
export function dumpSqlite(path: string): TableDump {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[];
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`select * from "${name}" order by rowid`).all()]));
  } finally {
    db.close();
  }
}

/** Every row of every table of one PostgreSQL schema, ordered by all columns. */
export async function dumpPostgres(url: string, schema: string): Promise<TableDump> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>('select table_name from information_schema.tables where table_schema = $1 order by table_name', [schema]);
    const dump: TableDump = {};
    for (const { table_name: table } of tables.rows) {
      const rows = await client.query(`select * from "${schema}"."${table}"`);
      dump[table] = rows.rows.map((row: Record<string, unknown>) => JSON.stringify(row)).sort();
    }
    return dump;
  } finally {
    await client.end();
  }
}

/** The sandbox's state as its API would show it: orders of every project, deliveries, faults. */
export function sandboxState(sandbox: SandboxApp): unknown {
  const { gateway } = sandbox.sandbox;
  return JSON.parse(
    JSON.stringify({
      orders: gateway.config.projects.map((project) => gateway.store.orders(project.posId)),
      deliveries: gateway.webhooks.list(),
      faults: gateway.faults.settings,
    }),
  );
}
