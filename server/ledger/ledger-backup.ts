/**
 * A backup of an SQLite ledger, taken while a companion runs on it: SQLite's `VACUUM INTO`, which
 * writes one read transaction's snapshot (every payment committed before it, none half-written)
 * into a new file, compacted. A copy of the file alone (`cp`) misses what its `-wal` holds, the
 * latest payments, until a checkpoint. The copy is then checked and counted.
 */
import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { loadSqlite } from './drivers.js';
import { isPostgresUrl } from './ledger.js';
import { LedgerMoved, MOVED_MARK_QUERY, parseMove } from './ledger-moved.js';
import { refuseAbsentLedgerFile } from './sqlite-file-check.js';
import { LEDGER_TABLES, stored } from './table-names.js';
import type { LedgerTable } from './table-names.js';

export interface LedgerBackup {
  /** The backup's file, as a full path. */
  readonly file: string;
  readonly bytes: number;
  /** Rows of each of the ledger's tables in the backup. */
  readonly rows: Readonly<Record<LedgerTable, number>>;
}

/** How long the snapshot's read waits for a file another process holds locked (a checkpoint, a migration). */
const BUSY_WAIT_MS = 5_000;

/** Backs the SQLite ledger at `from` up into `to`, a file not there yet; refused, with nothing written, otherwise. */
export async function backupLedger(from: string, to: string): Promise<LedgerBackup> {
  refuseEnds(from, to);
  const Sqlite = await loadSqlite();
  const source = new Sqlite(from, { readonly: true, fileMustExist: true });
  try {
    source.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
    const tables = new Set((source.prepare('select name from sqlite_master where type = ?').pluck().all('table') as string[]));
    if (!tables.has('ledger_migration')) throw new Error(`${resolvePath(from)} holds no payform ledger (it has no ledger_migration table): give the SQLite file the companion uses`);
    // A nightly backup of a file the companions left would go on succeeding, and back up nothing new.
    const move = tables.has(stored('ledger_settings')) ? (source.prepare(MOVED_MARK_QUERY).pluck().get() as string | undefined) : undefined;
    if (move !== undefined) throw new LedgerMoved(resolvePath(from), parseMove(move), 'back up');
    // Made empty first, readable by its owner only as the ledger is: VACUUM INTO fills an empty file.
    makeEmpty(to);
    try {
      source.prepare('VACUUM INTO ?').run(to);
    } catch (error) {
      rmSync(to, { force: true });
      // SQLite's words would read as the ledger's disk being full.
      if ((error as { code?: unknown }).code === 'SQLITE_FULL') {
        throw new Error(`the disk of ${resolvePath(to)} is full (the ledger itself is untouched): free space there, or give a file on another disk`, { cause: error });
      }
      throw error;
    }
  } finally {
    source.close();
  }
  try {
    return checked(Sqlite, to);
  } catch (error) {
    // A backup that fails its check is no backup: the name is free for the next try.
    rmSync(to, { force: true });
    throw error;
  }
}

/** The backup opened on its own: SQLite's check of every page, and its tables counted. */
function checked(Sqlite: Awaited<ReturnType<typeof loadSqlite>>, file: string): LedgerBackup {
  const copy = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the backup at ${resolvePath(file)} fails SQLite's check (${String(check)}): keep the ledger's file as it is and try again`);
    const names = new Set(copy.prepare('select name from sqlite_master where type = ?').pluck().all('table') as string[]);
    // A ledger from before the tables had their payform_ prefix (migration 0010) names them without it.
    const count = (table: LedgerTable) => {
      const name = names.has(stored(table)) ? stored(table) : names.has(table) ? table : undefined;
      return name === undefined ? 0 : (copy.prepare(`select count(*) from "${name}"`).pluck().get() as number);
    };
    const rows = Object.fromEntries(LEDGER_TABLES.map((table) => [table, count(table)])) as Record<LedgerTable, number>;
    return { file: resolvePath(file), bytes: statSync(file).size, rows };
  } finally {
    copy.close();
  }
}

function makeEmpty(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') throw new Error(`there is no folder ${dirname(resolvePath(file))}: make it first, or give a file in another`, { cause: error });
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new Error(`${resolvePath(file)} cannot be written (${code}): give a file in a folder this user may write`, { cause: error });
    if (code === 'ENOTDIR') throw new Error(`${fileOnThePath(file)} is a file, not a folder, so ${resolvePath(file)} cannot be made: give a file in a folder`, { cause: error });
    throw error;
  }
}

/** The file that stands where `file`'s path needs a folder. */
function fileOnThePath(file: string): string {
  let folder = dirname(resolvePath(file));
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}

function refuseEnds(from: string, to: string): void {
  if (isPostgresUrl(from)) throw new Error('the ledger is in PostgreSQL: back it up with pg_dump (of its schema), as any PostgreSQL database');
  refuseAbsentLedgerFile(from, 'back up');
  if (isPostgresUrl(to) || to === ':memory:') throw new Error('--to is the file to write the backup into');
  if (resolvePath(to) === resolvePath(from)) throw new Error('--to is the ledger itself: give a new file');
  if (existsSync(to) && statSync(to).isDirectory()) throw new Error(`${resolvePath(to)} is a folder: give the backup's file in it, e.g. ${join(to, `payform-${new Date().toISOString().slice(0, 10)}.db`)}`);
  if (existsSync(to)) throw new Error(`${resolvePath(to)} is there already: a backup never overwrites a file, give a new name`);
}
