// A SQLite ledger file deleted, moved or replaced while the ledger has it open (a clean-up
// script, `rm -rf data/` on the wrong host, a restore copied over it). SQLite goes on writing
// into the file the process still holds, which nothing will ever open again: a restart would
// start an empty ledger, and every payment recorded since the start would be lost. So the
// ledger checks, at each synced commit, that its path still leads to the file it opened; when it
// does not, it takes no more writes (LedgerNotDurable, /healthz 503), writes what it holds — the
// WAL's commits included — to a file beside the path, and the next start takes that file back
// when nothing is at the path.
import { existsSync, fstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import type { LedgerLog } from './index-builds.js';

/** Which file a path led to when the ledger opened it. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

export function identityOf(file: string): FileIdentity {
  const { dev, ino } = statSync(file);
  return { dev, ino };
}

/** Whether `file` no longer leads to the file opened as `identity`: deleted, moved away, or another put there. */
export function isGone(file: string, identity: FileIdentity): boolean {
  const now = statSync(file, { throwIfNoEntry: false });
  return now === undefined || now.dev !== identity.dev || now.ino !== identity.ino;
}

const SAVED = '.saved-';
/** How long a save that failed (its folder gone, its disk full) waits before it is tried again. */
const RETRY_MS = 30_000;

/** Where the open ledger of `file` is saved: beside it, named by the time and this process, so two companions on one file never share one. */
export function savedName(file: string, now = new Date()): string {
  return `${file}${SAVED}${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
}

/**
 * Writes what `database` holds to `to`, through SQLite's backup (the WAL's commits included),
 * first under a name of its own so that a copy cut short is never taken for one. Tried again
 * while it fails; resolves once it is written.
 */
export async function saveOpenLedger(database: Database.Database, file: string, to: string, log: LedgerLog): Promise<void> {
  const partial = `${to}.partial`;
  for (let tries = 0; ; tries += 1) {
    try {
      // Its folder may have gone with it.
      mkdirSync(dirname(to), { recursive: true });
      const { totalPages } = await database.backup(partial);
      renameSync(partial, to);
      log.error(
        `ledger: ${file} was deleted, moved or replaced while the companion had it open; everything the ledger held is saved to ${to} (${totalPages} pages). ` +
          `Restart the companion: with nothing at ${file} it takes ${basename(to)} back; with another file put there on purpose, it opens that one and ${basename(to)} stays beside it`,
      );
      return;
    } catch (error) {
      rmSync(partial, { force: true });
      if (tries === 0) {
        log.error(
          `ledger: ${file} was deleted, moved or replaced while the companion had it open, and what the ledger held cannot be saved to ${to} (${(error as Error).message}); ` +
            `trying again every ${RETRY_MS / 1000} s: make that folder writable, and stop the companion only with SIGTERM — killed, it loses everything recorded since it started`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/**
 * The -wal and -shm at `file`'s path, once the ledger that held the WAL as `walFd` closed: they
 * are the gone file's, whose commits are saved. Left when another process's are there already.
 */
export function removeLeftovers(file: string, walFd: number): void {
  const held = fstatSync(walFd);
  const atPath = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if (atPath === undefined || atPath.dev !== held.dev || atPath.ino !== held.ino) return;
  for (const leftover of ['-wal', '-shm']) rmSync(`${file}${leftover}`, { force: true });
}

/**
 * At start, with nothing at `file`: the newest copy an earlier process saved there (saveOpenLedger)
 * is moved back to it, and said. Its -wal and -shm files are the deleted file's, whose commits
 * the copy holds: removed, so SQLite never reads them into the copy.
 */
export function takeBackSaved(file: string, log: LedgerLog): void {
  if (existsSync(file)) return;
  const folder = dirname(file);
  const prefix = `${basename(file)}${SAVED}`;
  const saved = (existsSync(folder) ? readdirSync(folder) : []).filter((name) => name.startsWith(prefix) && !name.endsWith('.partial')).sort();
  const newest = saved.at(-1);
  if (newest === undefined) return;
  for (const leftover of ['-wal', '-shm']) rmSync(`${file}${leftover}`, { force: true });
  renameSync(join(folder, newest), file);
  const older = saved.slice(0, -1);
  log.warn(
    `ledger: ${file} was missing; took back ${newest}, which a companion saved when the file was deleted, moved or replaced under it` +
      (older.length > 0 ? `; older copies left beside it, not read: ${older.join(', ')}` : ''),
  );
}
