/**
 * Why a SQLite ledger file cannot be opened. SQLite says "unable to open database file"
 * whatever the reason, and `mkdir` names the folder it tried rather than the one at fault, so
 * the file system is asked what stands in the way: the refusal then names that path and what
 * to change, not every reason it might have been.
 */
import { accessSync, constants, existsSync, realpathSync, statSync, statfsSync, utimesSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** What stands in the way, as the file system's error code would name it, and where. */
export interface FileFault {
  readonly code: 'EISDIR' | 'ENOTDIR' | 'EACCES' | 'EROFS';
  /** The ledger's file itself, or the folder (or file in a folder's place) that blocks it. */
  readonly path: string;
  /** The path's permission bits and owner, when it exists (said with EACCES). */
  readonly mode?: number;
  readonly owner?: number;
  /** The path is SQLite's -wal or -shm file beside the ledger's. */
  readonly beside?: true;
}

/** What is wrong with opening (or making) the ledger's file at `location`; undefined when nothing the file system says explains it. */
export function ledgerFileFault(location: string): FileFault | undefined {
  // The nearest part of the path that exists: the file, or the folder it would be made in.
  let existing = location;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const stats = statSync(existing, { throwIfNoEntry: false });
  if (!stats) return undefined;
  const found = { path: existing, mode: stats.mode & 0o777, owner: stats.uid };
  if (existing === location) {
    if (stats.isDirectory()) return { code: 'EISDIR', path: location };
    const file = denied(location, constants.R_OK | constants.W_OK);
    if (file) return file === 'EROFS' ? { code: 'EROFS', path: location } : { code: 'EACCES', ...found };
    // Left by an earlier run as another user (root), or by a start on a read-only file: SQLite
    // needs them as it needs the file, beside the file a symbolic link leads to.
    const real = realpathSync(location);
    for (const beside of [`${real}-wal`, `${real}-shm`]) {
      const besideStats = statSync(beside, { throwIfNoEntry: false });
      if (besideStats && denied(beside, constants.R_OK | constants.W_OK)) return { code: 'EACCES', path: beside, mode: besideStats.mode & 0o777, owner: besideStats.uid, beside: true };
    }
    // SQLite makes the -wal and -shm files beside it.
    const folder = dirname(location);
    const folderStats = statSync(folder, { throwIfNoEntry: false });
    const inFolder = folderStats && denied(folder, constants.W_OK | constants.X_OK);
    if (!inFolder) return undefined;
    return inFolder === 'EROFS' ? { code: 'EROFS', path: folder } : { code: 'EACCES', path: folder, mode: folderStats.mode & 0o777, owner: folderStats.uid };
  }
  if (!stats.isDirectory()) return { code: 'ENOTDIR', path: existing };
  const folder = denied(existing, constants.W_OK | constants.X_OK);
  if (!folder) return undefined;
  // A container's read-only root (docker --read-only, readOnlyRootFilesystem): no permission fixes that.
  return folder === 'EROFS' ? { code: 'EROFS', path: existing } : { code: 'EACCES', ...found };
}

/** `error` (met opening or making the ledger's file at `location`) said as what stands in the way; undefined when nothing does. */
export function fileFaultRefusal(location: string, error: unknown): Error | undefined {
  // Said from the root: a relative path's folder would otherwise be named ".".
  const path = resolve(location);
  const fault = ledgerFileFault(path);
  return fault && new Error(fileFaultProblem(path, fault), { cause: error });
}

/** Less free space than this where the ledger's file is: SQLite's "disk I/O error" at open is a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * `error` (SQLite's at open: `database or disk is full`, or a `disk I/O error` making the -wal or
 * -shm file) said as the full disk it is, naming it; undefined when the disk has room.
 */
export function fullDiskRefusal(location: string, error: unknown): Error | undefined {
  const code = String((error as { code?: unknown } | null)?.code);
  if (!code.startsWith('SQLITE_FULL') && !code.startsWith('SQLITE_IOERR')) return undefined;
  let free: number;
  try {
    const { bavail, bsize } = statfsSync(dirname(location));
    free = bavail * bsize;
  } catch {
    return undefined;
  }
  if (free >= NEARLY_FULL_BYTES) return undefined;
  return new Error(
    `${location} cannot be opened: the disk holding it is full (${Math.floor(free / 1024)} KiB free; SQLite said "${(error as Error).message}"): free space on it, or point PAYFORM_DATABASE_URL at a file on another disk, then start again`,
    { cause: error },
  );
}

/**
 * Whether the file system holding the ledger's `file` is read-only now. SQLite says a write the
 * kernel refused so (a disk remounted read-only after errors) as a plain "disk I/O error"; asked
 * once, as an outage begins. access(2) knows a read-only mount, not an ext4 the kernel made
 * read-only after errors (Linux 6 keeps it mounted read-write, `emergency_ro`): a write that
 * changes nothing — the folder's own times set again — meets that one.
 */
export function onReadOnlyFileSystem(file: string): boolean {
  const folder = dirname(file);
  if (denied(folder, constants.W_OK) === 'EROFS') return true;
  try {
    const { atimeMs, mtimeMs } = statSync(folder);
    utimesSync(folder, atimeMs / 1000, mtimeMs / 1000);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'EROFS';
  }
}

/** The refusal of the ledger's file at `location` for `fault`: what is wrong, where, and the fix. */
export function fileFaultProblem(location: string, fault: FileFault): string {
  const permissions = fault.mode === undefined ? '' : ` (mode ${fault.mode.toString(8).padStart(3, '0')}, owned by uid ${fault.owner}${userId()})`;
  switch (fault.code) {
    case 'EISDIR':
      return `${location} is a folder, not a file: point PAYFORM_DATABASE_URL at a file in it, e.g. ${join(location, 'payform.db')}`;
    case 'ENOTDIR':
      return `${fault.path} is a file, not a folder, so ${location} cannot be made: point PAYFORM_DATABASE_URL at a file in a folder`;
    case 'EROFS':
      return `${fault.path} is on a read-only file system: mount a writable volume there (a container with a read-only root needs one for the ledger), or point PAYFORM_DATABASE_URL at a file on one`;
    case 'EACCES':
      if (fault.path === location) {
        return `${location} cannot be read and written by the companion's user${permissions}: give that user read and write access to it (chown it to that user, or chmod u+rw), or point PAYFORM_DATABASE_URL at another file`;
      }
      if (fault.beside) {
        return (
          `${fault.path}, SQLite's file beside the ledger, cannot be read and written by the companion's user${permissions}: ` +
          `chown it (and ${basename(location)}'s other files) to that user, or chmod u+rw — never delete it: a -wal file holds payments not yet written into the ledger's file`
        );
      }
      return (
        `the companion's user may not create files in ${fault.path}${permissions}, where SQLite keeps ${basename(location)} and its -wal and -shm files: ` +
        'give that user write access to the folder, or point PAYFORM_DATABASE_URL at a file in a folder it may write to'
      );
  }
}

/** Why this process may not use `path` so (accessSync's code), or undefined when it may. */
function denied(path: string, mode: number): string | undefined {
  try {
    accessSync(path, mode);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? 'EACCES';
  }
}

/** `; the companion runs as uid N`, where the system has user ids. */
function userId(): string {
  const uid = process.getuid?.();
  return uid === undefined ? '' : `; the companion runs as uid ${uid}`;
}
