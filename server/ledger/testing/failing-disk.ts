// A disk the kernel itself turns read-only under a running ledger, as it does a real volume after
// disk errors (ext4's errors=remount-ro): a small ext4 image loop-mounted on a fresh folder, with
// a folder beside the ledger whose directory block the test damages and then lists. A remount
// asked for (`mount -o remount,ro`) is refused while the ledger holds files open for writing, so
// this is how a file system goes read-only under one. Needs root and e2fsprogs, as small-disk.ts
// needs root; without them the test fails saying so.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FailingDisk {
  /** The mounted file system's folder. */
  readonly dir: string;
  /** Damages a folder of the file system and reads it: the kernel remounts it read-only. */
  turnReadOnly(): void;
  /** Unmounts it (every file on it closed first), repairs it (fsck) and mounts it read-write again. */
  repair(): void;
  /** Unmounts the disk and removes its image and folder. */
  dispose(): void;
}

const BLOCK = 1024;
const VICTIM = 'victim';

export function mountFailingDisk(): FailingDisk {
  const base = mkdtempSync(join(tmpdir(), 'payform-failing-disk-'));
  const image = join(base, 'disk.img');
  const dir = join(base, 'mnt');
  mkdirSync(dir);
  const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe' }).toString();
  const mount = () => run('mount', ['-o', 'loop,errors=remount-ro', image, dir]);
  let mounted = false;
  let victimBlock: number;
  try {
    closeSync(openSync(image, 'w'));
    truncateSync(image, 8 * 1024 * 1024);
    run('mkfs.ext4', ['-q', '-F', '-b', String(BLOCK), image]);
    mount();
    mounted = true;
    // Enough long names for an indexed folder: its first block is checked as it is read.
    mkdirSync(join(dir, VICTIM));
    for (let index = 0; index < 50; index += 1) writeFileSync(join(dir, VICTIM, `a-file-with-a-long-name-${index}`), '');
    // Mounted again so the folder is read from the disk, not from memory, when it is listed.
    run('umount', [dir]);
    mounted = false;
    victimBlock = Number(/^\s*(\d+)/.exec(run('debugfs', ['-R', `blocks /${VICTIM}`, image]))?.[1]);
    if (!Number.isInteger(victimBlock)) throw new Error(`debugfs found no block of /${VICTIM}`);
    mount();
    mounted = true;
  } catch (error) {
    if (mounted) run('umount', [dir]);
    rmSync(base, { recursive: true, force: true });
    throw new Error(`a disk that turns read-only is an ext4 image loop-mounted for the test, which needs root and e2fsprogs: run this suite as root (${(error as Error).message.split('\n')[0]})`, { cause: error });
  }
  return {
    dir,
    turnReadOnly() {
      const fd = openSync(image, 'r+');
      try {
        writeSync(fd, Buffer.alloc(BLOCK, 0xa5), 0, BLOCK, victimBlock * BLOCK);
      } finally {
        closeSync(fd);
      }
      try {
        readdirSync(join(dir, VICTIM));
      } catch {
        // The damaged folder's error is the point: the kernel remounts the file system read-only.
      }
      // Linux 6 keeps such a file system mounted read-write (`emergency_ro`): a write says it.
      try {
        writeFileSync(join(dir, 'after-the-error'), '');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EROFS') return;
        throw error;
      }
      throw new Error(`the kernel did not turn ${dir} read-only after its error`);
    },
    repair() {
      run('umount', [dir]);
      mounted = false;
      try {
        run('e2fsck', ['-f', '-y', image]);
      } catch (error) {
        // 1: errors corrected, as expected here.
        if ((error as { status?: number }).status !== 1) throw error;
      }
      mount();
      mounted = true;
    },
    dispose() {
      if (mounted) run('umount', [dir]);
      mounted = false;
      rmSync(base, { recursive: true, force: true });
    },
  };
}
