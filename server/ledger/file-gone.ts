// A SQLite ledger file deleted, moved or replaced while the ledger has it open (a clean-up
// script, `rm -rf data/` on the wrong host, a restore copied over it, a symbolic link pointed
// elsewhere). SQLite goes on writing into the file the process still holds, which nothing will
// ever open again: a restart would open whatever is at the path — nothing, so an empty ledger —
// and every payment recorded since the start would be lost. So the ledger's path is checked
// against the file it opened at each synced commit, every few seconds while it is idle, and as
// it closes; when it no longer leads there, the ledger takes no more writes (LedgerNotDurable),
// writes what it holds — the WAL's commits included — to a file beside the path, and the next
// start takes that file back when nothing is at the path.
import { closeSync, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import type { LedgerLog } from './index-builds.js';

/** Which file a path led to when the ledger opened it. */
interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

const SAVED = '.saved-';
/** A copy's name after its path: the time it was begun (ISO, `:` and `.` as `-`) and the process that made it. */
const SAVED_NAME = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d+$/;
/** How long a save that failed (its folder unwritable, its disk full) waits before it is tried again. */
const RETRY_MS = 30_000;
/** How often an idle ledger looks at its path: one stat, about a microsecond. */
const LOOK_EVERY_MS = 5_000;

/** Where the ledger of `location` is saved: beside it, named by the time and this process, so two companions on one file never share one. */
function savedName(location: string, now = new Date()): string {
  return `${location}${SAVED}${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
}

/**
 * The ledger's file, watched through the path a restart opens (`location`, symbolic links
 * followed): `onGone` is told once when the path no longer leads to it, as the save begins.
 */
export class FileWatch {
  readonly #database: Database.Database;
  readonly #location: string;
  readonly #opened: FileIdentity;
  readonly #log: LedgerLog;
  readonly #onGone: (savedTo: string, saved: Promise<void>) => void;
  readonly #timer: NodeJS.Timeout;
  #savedTo: string | undefined;
  #saving: Promise<void> | undefined;
  /** Ends the wait between two tries of a save that failed: closing tries again at once. */
  #wake: (() => void) | undefined;
  #closing = false;

  /** `onLook`: what else to look at while idle, when the file is still there (the ledger's folder, its -wal and -shm). */
  constructor(database: Database.Database, location: string, log: LedgerLog, onGone: (savedTo: string, saved: Promise<void>) => void, onLook?: () => void) {
    this.#database = database;
    this.#location = location;
    const { dev, ino } = statSync(location);
    this.#opened = { dev, ino };
    this.#log = log;
    this.#onGone = onGone;
    // Between transactions only: one under way must end (commit, or roll back) as it began.
    this.#timer = setInterval(() => {
      if (!database.inTransaction && !this.check()) onLook?.();
    }, LOOK_EVERY_MS).unref();
  }

  /** Where what the ledger held is saved, once its file was found gone (the save may still run). */
  get savedTo(): string | undefined {
    return this.#savedTo;
  }

  /** Whether the path no longer leads to the file opened; the first time, the save begins. */
  check(): boolean {
    if (this.#savedTo !== undefined) return true;
    if (!this.#gone()) return false;
    this.#savedTo = savedName(this.#location);
    this.#saving = this.#save(this.#savedTo);
    this.#onGone(this.#savedTo, this.#saving);
    return true;
  }

  /** Looked at once more, then waited for: nothing may close the database before what it held is saved. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#closing = true;
    this.check();
    this.#wake?.();
    await this.#saving;
  }

  #gone(): boolean {
    try {
      const now = statSync(this.#location, { throwIfNoEntry: false });
      return now === undefined || now.dev !== this.#opened.dev || now.ino !== this.#opened.ino;
    } catch {
      // A folder of the path replaced by a file (ENOTDIR), a loop of links: not the file opened.
      return true;
    }
  }

  /**
   * SQLite's backup of the open database, the WAL's commits included, into a file of its
   * owner's alone, under a name of its own until whole — so a copy cut short, or its journal, is
   * never taken for one. Tried again while it fails.
   */
  async #save(to: string): Promise<void> {
    const partial = join(dirname(to), `.${basename(to)}.partial`);
    for (let tries = 0; ; tries += 1) {
      try {
        // Its folder may have gone with it.
        mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
        rmSync(partial, { force: true });
        closeSync(openSync(partial, 'wx', 0o600));
        const { totalPages } = await this.#database.backup(partial);
        renameSync(partial, to);
        syncFolder(dirname(to));
        this.#log.error(
          `ledger: ${this.#location} was deleted, moved or replaced while the companion had it open; everything the ledger held is saved to ${to} (${totalPages} pages). ` +
            `Restart the companion: with nothing at ${this.#location} it takes ${basename(to)} back; with another file put there on purpose, it opens that one and sets ${basename(to)} aside`,
        );
        return;
      } catch (error) {
        rmSync(partial, { force: true });
        if (tries === 0) {
          this.#log.error(
            `ledger: ${this.#location} was deleted, moved or replaced while the companion had it open, and what the ledger held cannot be saved to ${to} (${(error as Error).message}); ` +
              `trying again every ${RETRY_MS / 1000} s: make that folder writable; stopping the companion waits for the save, and killing it loses everything recorded since it started`,
          );
        }
        if (!this.#closing) await new Promise<void>((resolve) => (this.#wake = resolve, setTimeout(resolve, RETRY_MS)));
        else await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }
}

/** A rename is durable once its folder is synced. */
function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The -wal and -shm beside `file` (where SQLite keeps them: beside the file a link leads to),
 * once the ledger that held the WAL as `walFd` closed: they are the gone file's, whose commits
 * are saved, and SQLite would replay them into the next file at the path. Left when another
 * process's are there.
 */
export function removeLeftovers(file: string, walFd: number): void {
  const held = fstatSync(walFd);
  const atPath = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if (atPath === undefined || atPath.dev !== held.dev || atPath.ino !== held.ino) return;
  for (const leftover of ['-wal', '-shm']) rmSync(`${file}${leftover}`, { force: true });
}

/**
 * At start: with nothing at `target` (the file `location` leads to), the newest copy an earlier
 * process saved beside `location` is moved there, and said; the -wal and -shm there are the gone
 * file's, whose commits the copy holds, and are removed. With a file there, copies beside it are
 * set aside (renamed out of reach), so that one deleted on purpose months later does not bring
 * them back; said once, naming them.
 */
export function takeBackSaved(location: string, target: string, log: LedgerLog): void {
  const folder = dirname(location);
  const prefix = `${basename(location)}${SAVED}`;
  const saved = (existsSync(folder) ? readdirSync(folder) : []).filter((name) => name.startsWith(prefix) && SAVED_NAME.test(name.slice(prefix.length))).sort();
  if (saved.length === 0) return;
  if (existsSync(target)) {
    for (const name of saved) renameSync(join(folder, name), join(folder, `${name}.set-aside`));
    log.warn(`ledger: ${target} is there, so the copies a companion saved beside it when it was gone are not read: ${saved.map((name) => `${name}.set-aside`).join(', ')} (remove them once you know ${target} is the ledger you want)`);
    return;
  }
  const newest = saved.at(-1)!;
  for (const leftover of ['-wal', '-shm']) rmSync(`${target}${leftover}`, { force: true });
  renameSync(join(folder, newest), target);
  syncFolder(dirname(target));
  const older = saved.slice(0, -1);
  log.warn(
    `ledger: ${target} was missing; took back ${newest}, which a companion saved when the file was deleted, moved or replaced under it` +
      (older.length > 0 ? `; older copies left beside it, not read: ${older.join(', ')}` : ''),
  );
}
