// What happens beside a running SQLite ledger's file, on real files: its -wal deleted (what it
// held written into the file at once, so a kill after it loses nothing), its -shm deleted, its
// folder made read-only under it (a real read-only bind mount: it needs root, as small-disk.ts),
// and a file at the path that is no SQLite database at all.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LedgerNotDurable } from './durability.js';
import type { LedgerLog } from './index-builds.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment } from './testing/contract.js';

const undo: (() => unknown)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const step of undo.splice(0).reverse()) await step();
});

function folder(): string {
  const made = realpathSync(mkdtempSync(join(tmpdir(), 'payform-folder-')));
  undo.push(() => rmSync(made, { recursive: true, force: true }));
  return made;
}

/** A log that keeps its lines, each as `level: message`. */
function keptLog(): LedgerLog & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (line) => void lines.push(`info: ${line}`), warn: (line) => void lines.push(`warn: ${line}`), error: (line) => void lines.push(`error: ${line}`) };
}

async function open(file: string, log: LedgerLog = keptLog()): Promise<Ledger> {
  const ledger = await openLedger(file, { log });
  undo.push(() => ledger.close().catch(() => undefined));
  return ledger;
}

/** The ledger file as a kill would leave it: the file alone, the deleted -wal gone with the process. */
async function afterAKill(file: string): Promise<Ledger> {
  const copy = join(folder(), 'ledger.db');
  copyFileSync(file, copy);
  return open(copy);
}

/** Runs the ledger's look at its surroundings, as it does every 5 s while idle. */
const idleLook = () => vi.advanceTimersByTime(5_000);

describe('a SQLite ledger whose -wal is deleted under it', () => {
  it('writes what the deleted log held into the file at the next commit, so a kill after it loses no pay claim', async () => {
    const file = join(folder(), 'ledger.db');
    const ledger = await open(file);
    const claimed = await claimedPayment(ledger);
    rmSync(`${file}-wal`);

    const refused = await claimedPayment(ledger).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LedgerNotDurable);
    expect(refused).toMatchObject({ walGone: 'kept', message: expect.stringContaining(`what it held is written into ${file}`) });
    // Before, the claim lived only in the deleted log until a clean stop: a kill lost it.
    expect((await (await afterAKill(file)).findSessionOfOrder(claimed.orderId))?.id).toBe(claimed.sessionId);
  });

  it('finds it while nothing is written, and writes what it held into the file then', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const file = join(folder(), 'ledger.db');
    const ledger = await open(file);
    const claimed = await claimedPayment(ledger);
    rmSync(`${file}-wal`);
    idleLook();
    expect((await (await afterAKill(file)).findSessionOfOrder(claimed.orderId))?.id).toBe(claimed.sessionId);
    await expect(ledger.listOrders({ limit: 1 })).rejects.toMatchObject({ walGone: 'kept' });
  });

  it('says nothing on stderr of its own: the companion’s outage line says it', async () => {
    const warned = vi.spyOn(process, 'emitWarning');
    undo.push(() => warned.mockRestore());
    const file = join(folder(), 'ledger.db');
    const ledger = await open(file);
    await claimedPayment(ledger);
    rmSync(`${file}-wal`);
    await expect(claimedPayment(ledger)).rejects.toThrow(LedgerNotDurable);
    expect(warned).not.toHaveBeenCalled();
  });
});

describe('a SQLite ledger whose -shm is deleted under it', () => {
  it('goes on, and says once what another process opening the file would do, and what to do', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const file = join(folder(), 'ledger.db');
    const log = keptLog();
    const ledger = await open(file, log);
    rmSync(`${file}-shm`);
    idleLook();
    idleLook();
    await claimedPayment(ledger);
    expect(log.lines).toEqual([
      `warn: ledger: ${file}-shm, the index of the write-ahead log every process on ledger.db shares, was deleted while the companion had it open. ` +
        'This process goes on with the one it holds, but another one opening ledger.db now (a second companion, a backup, a database browser) would make a new index and could corrupt the ledger: ' +
        "restart every companion on ledger.db (SIGTERM) before anything else opens it, and never delete a running ledger's -wal or -shm files",
    ]);
  });
});

describe('a SQLite ledger whose folder is made read-only under it', () => {
  it('takes payments on, says once which folder and what it breaks, and when it is writable again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const dir = folder();
    const file = join(dir, 'ledger.db');
    const log = keptLog();
    const ledger = await open(file, log);
    // A read-only mount of the folder over itself: what a volume remounted read-only, or a
    // container's read-only path, is to the files the ledger holds open — root is refused too.
    execFileSync('mount', ['--bind', dir, dir]);
    let mounted = true;
    const unmount = () => mounted && (execFileSync('umount', [dir]), (mounted = false));
    undo.push(unmount);
    execFileSync('mount', ['-o', 'remount,bind,ro', dir]);

    idleLook();
    await claimedPayment(ledger);
    idleLook();
    expect(log.lines).toEqual([
      `warn: ledger: the companion's user can no longer create or remove files in ${dir} (EROFS: a read-only file system or mount), where SQLite keeps ledger.db-wal and ledger.db-shm. ` +
        'Payments go on, but ledger.db-wal is left there as the companion stops, a start without it is refused, and a ledger file deleted under the companion cannot be saved beside it: ' +
        `make ${dir} writable again (mount it read-write); never delete ledger.db-wal meanwhile`,
    ]);
    unmount();
    idleLook();
    expect(log.lines.slice(1)).toEqual([`info: ledger: ${dir} can be written again; SQLite removes ledger.db-wal and ledger.db-shm as the companion stops`]);
  });
});

describe('a file at the ledger’s path that is not a SQLite database', () => {
  it('is refused at start naming the setting and what to do, and left as it is', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'data'));
    const file = join(dir, 'data', 'payform.db');
    writeFileSync(file, 'not a ledger, a shop export: order,amount\n'.repeat(200));
    await expect(openLedger(file, { log: keptLog() })).rejects.toThrow(
      `${file} is not a SQLite database (file is not a database): PAYFORM_DATABASE_URL names another kind of file, or the ledger's file is damaged — point it at the ledger's file, or put the ledger's backup there; the file is left as it is`,
    );
  });
});
