// A disk of its own that a test can really fill: a small tmpfs mounted on a fresh folder, so a
// SQLite ledger on it meets ENOSPC as it would on a full volume (SQLITE_FULL from the driver,
// not a simulation of it). Mounting needs root, as `.ci/ensure-postgres` does; without it the
// test fails saying so, rather than being skipped.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerBackend, TestLedger } from './databases.js';
import { openLedger } from '../ledger.js';

export interface SmallDisk {
  readonly dir: string;
  /** Writes a file of zeros until the disk refuses (ENOSPC). */
  fill(): void;
  /** Removes what `fill` wrote. */
  free(): void;
  /** Unmounts the disk and removes its folder. */
  dispose(): void;
}

const FILLER = 'filler';

/**
 * `size`: room for a new ledger's write-ahead log (its migrations, about 250 KB, are not
 * checkpointed into the file before 4 MB) and what a test writes once the disk is freed.
 */
export function mountSmallDisk(size = '1m'): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'payform-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`a full disk is a tmpfs mounted for the test, which needs root: run this suite as root (${(error as Error).message.split('\n')[0]})`, { cause: error });
  }
  return {
    dir,
    fill() {
      const fd = openSync(join(dir, FILLER), 'a');
      const zeros = Buffer.alloc(4096);
      try {
        for (;;) writeSync(fd, zeros);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(join(dir, FILLER), { force: true });
    },
    dispose() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A SQLite file ledger on `disk` (the stack's backend); the disk is the caller's to dispose. */
export function smallDiskBackend(disk: SmallDisk): LedgerBackend {
  return {
    name: 'SQLite file on a small disk',
    persistent: false,
    async open(clock): Promise<TestLedger> {
      const ledger = await openLedger(join(disk.dir, 'ledger.db'), { clock: clock.read });
      return { ledger, dispose: () => ledger.close() };
    },
  };
}
