// A ledger moved from its SQLite file into PostgreSQL, for a merchant outgrowing one machine
// (docs/companion.md, "Moving a ledger from SQLite to PostgreSQL"). Every row of every table is
// read in one snapshot of a file nothing else has open, and written in one transaction into a
// database that holds no ledger yet: the copy is there whole, or not at all. Two ledgers are
// never merged.
import { resolve as resolvePath } from 'node:path';
import { Kysely, sql } from 'kysely';
import { passwordMasked } from '@payform/gateway';
import type { Transaction } from 'kysely';
import { carriedValue, copiedColumns } from './copied-columns.js';
import type { CopiedColumn } from './copied-columns.js';
import { parseInput, schemaName } from './input.js';
import { isPostgresUrl, ledgerUrlProblem, openLedger } from './ledger.js';
import { migrateToLatest } from './migrate.js';
import { LedgerMoved, markMoved, moveOf } from './ledger-moved.js';
import { LEDGER_IDENTITY } from './owner.js';
import { postgresDialect } from './postgres.js';
import type { LedgerTables } from './schema.js';
import { sqliteDialect } from './sqlite.js';
import { refuseAbsentLedgerFile } from './sqlite-file-check.js';
import { LEDGER_TABLES, stored } from './table-names.js';
import type { LedgerTable } from './table-names.js';

export interface LedgerCopyOptions {
  /** The PostgreSQL schema to copy into, as openLedger takes it (created if missing); else the URL's search_path. */
  readonly schema?: string;
  /** Told what is copied, a line at a time: tables and how many rows, never a row's content. */
  readonly log?: (line: string) => void;
  /** Rows read and written at a time, 1–1,000 (default 500): memory stays bounded whatever the ledger's size. */
  readonly batchRows?: number;
}

export interface LedgerCopy {
  /** Rows copied, by table; `ledger_settings`: those of LEDGER_IDENTITY the file held. */
  readonly rows: Readonly<Record<LedgerTable, number>>;
  /** The file is marked as moved (ledger-moved.ts): a start, a backup and another copy refuse it. */
  readonly marked: boolean;
}

type Db = Kysely<LedgerTables>;

/** The tables whose rows are the ledger's history: a target holding any of them holds a ledger. */
const HISTORY = LEDGER_TABLES.filter((table) => table !== 'ledger_settings');

const DEFAULT_BATCH_ROWS = 500;
/** How often a long table's progress is told. */
const PROGRESS_ROWS = 100_000;
/** How long the copy waits for another process's writes to the target before it gives up. */
const LOCK_WAIT = '10s';

/**
 * Copies the ledger in the SQLite file `from` into the PostgreSQL database at `to`. Both are
 * brought to this version's schema first. Refused while the file is open elsewhere (a companion
 * running on it: the copy holds it alone, sqlite.ts `alone`) and when the target already holds
 * checkout sessions, payments, operations, events, cards, idempotency keys or no-card marks. The
 * ledger's identity settings (owner.ts LEDGER_IDENTITY) replace the target's; its other settings
 * stay the target's own.
 */
export async function copyLedger(from: string, to: string, options: LedgerCopyOptions = {}): Promise<LedgerCopy> {
  const schema = options.schema === undefined ? undefined : parseInput(schemaName, options.schema);
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  if (!Number.isInteger(batchRows) || batchRows < 1 || batchRows > 1_000) throw new RangeError(`batchRows must be an integer of 1–1,000, not ${batchRows}`);
  refuseEnds(from, to);
  const log = options.log ?? (() => undefined);
  const file = resolvePath(from);
  const target = `${passwordMasked(to)}${schema ? ` (schema ${schema})` : ''}`;
  log(`copying the ledger in ${file} to ${target}`);
  const writer = new Kysely<LedgerTables>({ dialect: await postgresDialect(to, { schema, poolSize: 1 }) });
  try {
    // Before anything is changed at either end: a target that cannot be reached, or holds a
    // ledger, leaves the file as it was (not upgraded) and the target as it was found.
    await refuseLedgerIn(writer, target);
    const source = await openSource(from, log);
    try {
      await migrateTarget(to, schema, log);
      const started = performance.now();
      const rows = await source.transaction().execute((read) => writer.transaction().execute((write) => copyAll(read, write, { file, target, batchRows, log })));
      const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
      log(`copied ${total} rows in ${((performance.now() - started) / 1_000).toFixed(1)} s`);
      // After the commit: a copy that failed leaves the file unmarked, the ledger it still is.
      const marked = await markMoved(source as Kysely<unknown>, target).then(
        () => true,
        (error: unknown) => {
          log(`the copy is whole, but ${file} could not be marked as moved (${(error as Error).message}): start no companion on it, since its payments would not reach PostgreSQL`);
          return false;
        },
      );
      return { rows, marked };
    } finally {
      await source.destroy();
    }
  } finally {
    await writer.destroy();
  }
}

/** Refuses ends that are not a SQLite ledger file and a PostgreSQL URL, before anything is opened. */
function refuseEnds(from: string, to: string): void {
  if (isPostgresUrl(from)) throw new Error('the ledger to copy must be an SQLite file, not a PostgreSQL URL');
  refuseAbsentLedgerFile(from, 'copy');
  if (!isPostgresUrl(to)) throw new Error('the ledger is copied into PostgreSQL: give a postgres:// URL');
  const urlProblem = ledgerUrlProblem(to);
  if (urlProblem) throw new Error(`the PostgreSQL URL ${urlProblem}`);
}

/** The file, held alone until destroyed and migrated to this version's schema; refused unless it is a ledger. */
async function openSource(from: string, log: (line: string) => void): Promise<Db> {
  const db = new Kysely<LedgerTables>({ dialect: await sqliteDialect(from, { alone: true }) });
  try {
    // A shop's own SQLite file would get the ledger's tables.
    const { rows } = await sql`select 1 from sqlite_master where name = 'ledger_migration'`.execute(db);
    if (rows.length === 0) throw new Error(`${resolvePath(from)} holds no payform ledger (it has no ledger_migration table): give the SQLite file the companion used`);
    const move = await moveOf(db as Kysely<unknown>);
    if (move) throw new LedgerMoved(resolvePath(from), move, 'copy');
    const { ran } = await migrateToLatest(db, 'sqlite');
    if (ran.length > 0) log(`upgraded the SQLite file to this version's schema first: ${ran.join(', ')}`);
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** The target's schema and tables, made or upgraded as any start would (openLedger), its indexes built. */
async function migrateTarget(to: string, schema: string | undefined, log: (line: string) => void): Promise<void> {
  const ledger = await openLedger(to, { ...(schema ? { schema } : {}), poolSize: 1, log: { info: log, warn: log, error: log } });
  try {
    await ledger.indexBuilds?.settled;
  } finally {
    await ledger.close();
  }
}

interface CopyContext {
  readonly file: string;
  readonly target: string;
  readonly batchRows: number;
  readonly log: (line: string) => void;
}

async function copyAll(read: Transaction<LedgerTables>, write: Transaction<LedgerTables>, context: CopyContext): Promise<Record<LedgerTable, number>> {
  await holdTarget(write, context.target);
  await refuseLedgerIn(write, context.target);
  const columns = await copiedColumns(read, write);
  const rows = {} as Record<LedgerTable, number>;
  // Parents first (LEDGER_TABLES' order): every row a reference leads to is there before it.
  for (const table of LEDGER_TABLES) {
    rows[table] = table === 'ledger_settings' ? await copyIdentity(read, write) : await copyTable(read, write, table, columns.get(table)!, context);
    context.log(`${stored(table)}: ${rows[table]} ${rows[table] === 1 ? 'row' : 'rows'}`);
  }
  await checkCopied(read, write, rows);
  return rows;
}

/** No other process writes the target's tables until the copy commits (a companion started on it meanwhile waits). */
async function holdTarget(write: Transaction<LedgerTables>, target: string): Promise<void> {
  await sql`set local lock_timeout = ${sql.lit(LOCK_WAIT)}`.execute(write);
  try {
    await sql`lock table ${sql.join(LEDGER_TABLES.map((table) => sql.table(stored(table))))} in exclusive mode`.execute(write);
  } catch (error) {
    if ((error as { code?: unknown }).code !== '55P03') throw error;
    throw new Error(`${target} is being written by another process (a companion running on it?): stop it, then copy again`, { cause: error });
  }
}

/** Refuses a target that holds any of a ledger's history; its tables may not exist yet. */
async function refuseLedgerIn(db: Db, target: string): Promise<void> {
  const names = HISTORY.map(stored);
  const { rows: present } = await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname in (${sql.join(names)})`.execute(db);
  const held: string[] = [];
  for (const table of HISTORY) {
    if (!present.some(({ name }) => name === stored(table))) continue;
    const count = await countRows(db, table);
    const named = table.replaceAll('_', ' ');
    if (count > 0) held.push(`${count} ${count === 1 ? named.slice(0, -1) : named}`);
  }
  if (held.length === 0) return;
  throw new Error(
    `${target} already holds a ledger (${held.join(', ')}): a copy never merges two ledgers, and nothing was copied. ` +
      'Copy into an empty schema — create one (CREATE SCHEMA payform) and name it in the URL: ?options=-c%20search_path%3Dpayform — ' +
      "or, if the ledger there is not wanted, drop its payform_ tables and copy again",
  );
}

async function countRows(db: Db, table: LedgerTable): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(stored(table))}`.execute(db);
  return Number(rows[0]!.count);
}

/** The most values one PostgreSQL statement takes (its protocol counts parameters in 16 bits). */
const MAX_PARAMETERS = 65_535;

/** The table's rows in batches by rowid (an SQLite table's own order), each batch one INSERT. */
async function copyTable(read: Transaction<LedgerTables>, write: Transaction<LedgerTables>, table: LedgerTable, columns: readonly CopiedColumn[], context: CopyContext): Promise<number> {
  const names = sql.join(columns.map(({ name }) => sql.id(name)));
  const batchRows = Math.min(context.batchRows, Math.floor(MAX_PARAMETERS / columns.length));
  let after = 0;
  let copied = 0;
  for (;;) {
    const { rows } = await sql<Record<string, unknown> & { copy_rowid: number }>`select rowid as copy_rowid, ${names} from ${sql.table(stored(table))}
      where rowid > ${after} order by rowid limit ${batchRows}`.execute(read);
    if (rows.length === 0) return copied;
    const first = rows[0]!.copy_rowid;
    const last = rows.at(-1)!.copy_rowid;
    const values = rows.map((row) => sql`(${sql.join(columns.map((column) => carriedValue(row[column.name], column, () => `${stored(table)} rowid ${row.copy_rowid} in ${context.file}`)))})`);
    try {
      await sql`insert into ${sql.table(stored(table))} (${names}) values ${sql.join(values)}`.execute(write);
    } catch (error) {
      // Its words, not its detail: the detail quotes the row's values, a card token among them.
      throw new Error(`PostgreSQL refused a row of ${stored(table)} (rowids ${first}–${last} in ${context.file}): ${(error as Error).message}. Nothing was copied`, { cause: error });
    }
    if (Math.floor((copied + rows.length) / PROGRESS_ROWS) > Math.floor(copied / PROGRESS_ROWS)) context.log(`${stored(table)}: ${copied + rows.length} rows so far`);
    copied += rows.length;
    after = last;
  }
}

/** The ledger's identity settings: the file's replace the target's of the same key (its other settings stay the target's own). */
async function copyIdentity(read: Transaction<LedgerTables>, write: Transaction<LedgerTables>): Promise<number> {
  const held = await identityOf(read);
  if (held.length === 0) return 0;
  const values = sql.join(held.map(({ key, value }) => sql`(${key}, ${value})`));
  await sql`insert into ${sql.table(stored('ledger_settings'))} (key, value) values ${values} on conflict (key) do update set value = excluded.value`.execute(write);
  return held.length;
}

/** The identity settings a ledger holds (all of them, or those of `keys`), by key. */
async function identityOf(db: Db, keys: readonly string[] = LEDGER_IDENTITY): Promise<{ key: string; value: string }[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<{ key: string; value: string }>`select key, value from ${sql.table(stored('ledger_settings'))} where key in (${sql.join(keys)}) order by key`.execute(db);
  return rows;
}

/** Every table has as many rows on both sides, and the identity settings copied read the same: else all is rolled back. */
async function checkCopied(read: Transaction<LedgerTables>, write: Transaction<LedgerTables>, copied: Record<LedgerTable, number>): Promise<void> {
  for (const table of HISTORY) {
    const [inFile, inTarget] = [await countRows(read, table), await countRows(write, table)];
    if (inFile !== inTarget || inFile !== copied[table]) {
      throw new Error(`after the copy ${stored(table)} has ${inTarget} rows in PostgreSQL and ${inFile} in the SQLite file (${copied[table]} copied): nothing was copied`);
    }
  }
  const identity = await identityOf(read);
  const copiedIdentity = await identityOf(write, identity.map(({ key }) => key));
  if (JSON.stringify(identity) !== JSON.stringify(copiedIdentity)) {
    throw new Error(`after the copy the ledger's identity settings (${LEDGER_IDENTITY.join(', ')}) differ between the SQLite file and PostgreSQL: nothing was copied`);
  }
}
