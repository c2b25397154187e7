// What a running SQLite ledger needs beside its file, which no statement of a payment touches:
// - its folder writable: SQLite removes the -wal and -shm there as the ledger closes and makes
//   them again at the next start, and file-gone.ts saves a deleted file's ledger there. A folder
//   made read-only under the running companion (chmod, chattr +i, a read-only bind mount) stops
//   no payment — the files are open — so it went unnoticed until a -wal was left behind, or a
//   start was refused;
// - its -shm file, the index of the WAL that every process on the file shares: deleted (or
//   replaced), this process goes on with the one it has mapped, but another process opening the
//   file makes a new one, and the two then write without seeing each other.
// Neither refuses work; each is said once, as found — at start, or by the idle look every few
// seconds (file-gone.ts) — naming the path, the cause and what to do.
import { accessSync, constants, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { LedgerLog } from './index-builds.js';

export class FolderWatch {
  readonly #file: string;
  readonly #log: LedgerLog;
  /** The -shm file as the ledger found it (none when the file is held alone: SQLite keeps the index in memory). */
  readonly #shm: { readonly dev: number; readonly ino: number } | undefined;
  /** Why the folder cannot be written, while it cannot (said once). */
  #unwritable: string | undefined;
  #shmSaid = false;

  /** `file`: the ledger's file, links followed (SQLite keeps the -wal and -shm beside it). */
  constructor(file: string, log: LedgerLog) {
    this.#file = file;
    this.#log = log;
    const shm = statSync(`${file}-shm`, { throwIfNoEntry: false });
    this.#shm = shm && { dev: shm.dev, ino: shm.ino };
    this.look();
  }

  look(): void {
    try {
      this.#lookAtFolder();
      this.#lookAtShm();
    } catch {
      // A look that fails (the folder itself gone: file-gone.ts says that) must not end the process from a timer.
    }
  }

  #lookAtFolder(): void {
    const folder = dirname(this.#file);
    const why = deniedWrite(folder);
    if (why === this.#unwritable) return;
    const was = this.#unwritable;
    this.#unwritable = why;
    const name = basename(this.#file);
    if (why === undefined) {
      if (was !== undefined) this.#log.info(`ledger: ${folder} can be written again; SQLite removes ${name}-wal and ${name}-shm as the companion stops`);
      return;
    }
    this.#log.warn(
      `ledger: the companion's user can no longer create or remove files in ${folder} (${why}: ${CAUSES[why] ?? 'refused'}), where SQLite keeps ${name}-wal and ${name}-shm. ` +
        `Payments go on, but ${name}-wal is left there as the companion stops, a start without it is refused, and a ledger file deleted under the companion cannot be saved beside it: ` +
        `make ${folder} writable again (${FIXES[why] ?? 'give the companion’s user write access to it'}); never delete ${name}-wal meanwhile`,
    );
  }

  #lookAtShm(): void {
    if (this.#shm === undefined || this.#shmSaid) return;
    const now = statSync(`${this.#file}-shm`, { throwIfNoEntry: false });
    if (now !== undefined && now.dev === this.#shm.dev && now.ino === this.#shm.ino) return;
    this.#shmSaid = true;
    const name = basename(this.#file);
    this.#log.warn(
      `ledger: ${this.#file}-shm, the index of the write-ahead log every process on ${name} shares, was ${now === undefined ? 'deleted' : 'replaced'} while the companion had it open. ` +
        `This process goes on with the one it holds, but another one opening ${name} now (a second companion, a backup, a database browser) would make a new index and could corrupt the ledger: ` +
        `restart every companion on ${name} (SIGTERM) before anything else opens it, and never delete a running ledger's -wal or -shm files`,
    );
  }
}

const CAUSES: Readonly<Record<string, string>> = {
  EROFS: 'a read-only file system or mount',
  EACCES: "the folder's permissions",
  EPERM: 'an immutable attribute, chattr +i',
};
const FIXES: Readonly<Record<string, string>> = {
  EROFS: 'mount it read-write',
  EACCES: 'chmod u+wx, or chown it to the companion’s user',
  EPERM: 'chattr -i',
};

/** Why this process may not make files in `folder` (access(2)'s code), or undefined when it may. */
function deniedWrite(folder: string): string | undefined {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'EACCES';
    // The folder itself gone is the file gone (file-gone.ts), not a folder to make writable.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return code;
  }
}
