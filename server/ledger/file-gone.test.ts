// A SQLite ledger file deleted, moved or replaced while the ledger has it open: the next synced
// commit finds it, the ledger takes no more writes, what it held is saved beside the path, and
// the next start takes the saved copy back when nothing is at the path.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerNotDurable } from './durability.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import type { LedgerLog } from './index-builds.js';

const SESSION = { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g', method: 'purchase' } as const;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function ledgerFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'payform-gone-'));
  folders.push(folder);
  return join(folder, 'ledger.db');
}

/** A log that keeps its lines, each as `level: message`. */
function keptLog(): LedgerLog & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (line) => void lines.push(`info: ${line}`), warn: (line) => void lines.push(`warn: ${line}`), error: (line) => void lines.push(`error: ${line}`) };
}

const savedCopies = (file: string) => readdirSync(join(file, '..')).filter((name) => name.startsWith('ledger.db.saved-'));

/** A new ledger file, open, with one session recorded in it. */
async function ledgerWithSession() {
  const file = ledgerFile();
  const log = keptLog();
  const ledger = await openLedger(file, { log });
  return { file, log, ledger, kept: await ledger.createSession(SESSION) };
}

/** The ledger at `file` opened again, as the next start opens it, for `check`; closed after. */
async function reopened(file: string, log: LedgerLog, check: (ledger: Ledger) => Promise<void>): Promise<void> {
  const again = await openLedger(file, { log });
  try {
    await check(again);
  } finally {
    await again.close();
  }
}

async function refused(ledger: Ledger): Promise<LedgerNotDurable> {
  const error: unknown = await ledger.createSession(SESSION).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LedgerNotDurable);
  return error as LedgerNotDurable;
}

describe('a SQLite ledger file gone from under the open ledger', () => {
  it('deleted: refuses every write, saves what it held beside the path, and the next start takes it back', async () => {
    const { file, log, ledger, kept } = await ledgerWithSession();
    rmSync(file);

    const first = await refused(ledger);
    expect(first.ledgerFile).toBe(file);
    expect(first.savedTo).toMatch(new RegExp(`^${file}\\.saved-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z-${process.pid}$`));
    expect((first.cause as Error).message).toBe(`the ledger file ${file} was deleted, moved or replaced while the ledger had it open`);
    // Every later write too, naming the same copy.
    expect((await refused(ledger)).savedTo).toBe(first.savedTo);
    await ledger.close();
    expect(savedCopies(file)).toEqual([first.savedTo!.slice(file.length - 'ledger.db'.length)]);
    expect(log.lines).toEqual([expect.stringMatching(new RegExp(`^error: ledger: ${file} was deleted, moved or replaced while the companion had it open; everything the ledger held is saved to ${first.savedTo} \\(\\d+ pages\\)\\. Restart the companion`))]);

    await reopened(file, log, async (again) => {
      expect(again.createdNow).toBe(false);
      expect((await again.getSession(kept.id))?.amount).toBe(1010);
      await again.createSession(SESSION);
      expect(log.lines.at(-1)).toBe(`warn: ledger: ${file} was missing; took back ${first.savedTo!.split('/').at(-1)}, which a companion saved when the file was deleted, moved or replaced under it`);
      expect(savedCopies(file)).toEqual([]);
    });
  });

  it('moved away: saved as well, and the moved file is left where it was put', async () => {
    const { file, log, ledger, kept } = await ledgerWithSession();
    renameSync(file, `${file}.old`);
    await refused(ledger);
    await ledger.close();

    await reopened(file, log, async (again) => {
      expect((await again.getSession(kept.id))?.id).toBe(kept.id);
      expect(existsSync(`${file}.old`)).toBe(true);
    });
  });

  it('replaced by another file on purpose: that file is opened at the next start, the copy set aside', async () => {
    const { file, log, ledger } = await ledgerWithSession();
    // A copy of the ledger as it was before any payment: what an operator restoring a backup puts there.
    const backup = `${file}.backup`;
    copyFileSync(file, backup);
    const lost = await ledger.createSession(SESSION);
    rmSync(file);
    copyFileSync(backup, file);
    const { savedTo } = await refused(ledger);
    await ledger.close();

    await reopened(file, log, async (again) => {
      expect(await again.getSession(lost.id)).toBeUndefined();
      expect(log.lines.filter((line) => line.includes('took back'))).toEqual([]);
    });
    // Set aside, named: the file deleted on purpose months later starts anew, not from this copy.
    expect(existsSync(savedTo!)).toBe(false);
    expect(existsSync(`${savedTo}.set-aside`)).toBe(true);
    expect(log.lines.filter((line) => line.includes('set-aside'))).toEqual([expect.stringContaining(`warn: ledger: ${file} is there, so the copies a companion saved beside it when it was gone are not read: ${savedTo!.split('/').at(-1)}.set-aside`)]);
    rmSync(file);
    await reopened(file, log, async (fresh) => expect(fresh.createdNow).toBe(true));
  });

  it('a copy cut short is never taken back, and the newest of two is', async () => {
    const { file, log, ledger, kept } = await ledgerWithSession();
    rmSync(file);
    const { savedTo } = await refused(ledger);
    await ledger.close();
    // An older copy, and newer names a save cut short leaves: its copy, and that copy's journal.
    const older = `${file}.saved-2000-01-01T00-00-00-000Z-1`;
    copyFileSync(savedTo!, older);
    copyFileSync(savedTo!, `${file}.saved-2999-01-01T00-00-00-000Z-1.partial`);
    writeFileSync(`${file}.saved-2999-01-01T00-00-00-000Z-1.partial-journal`, 'not a database');
    writeFileSync(join(file, '..', '.ledger.db.saved-2999-01-01T00-00-00-000Z-2.partial-journal'), 'not a database');

    await reopened(file, log, async (again) => {
      expect((await again.getSession(kept.id))?.id).toBe(kept.id);
      expect(log.lines.at(-1)).toContain(`; older copies left beside it, not read: ${older.split('/').at(-1)}`);
    });
  });
});

describe('a SQLite ledger file gone, found without a commit', () => {
  it('deleted, then the companion stopped before another payment: saved as it closes, taken back', async () => {
    const { file, log, ledger, kept } = await ledgerWithSession();
    rmSync(file);
    await ledger.close();
    expect(log.lines).toEqual([expect.stringMatching(/^error: ledger: .* was deleted, moved or replaced while the companion had it open; everything the ledger held is saved to /)]);
    // The gone file's WAL is not left for SQLite to replay into the next file there.
    expect(existsSync(`${file}-wal`)).toBe(false);
    await reopened(file, log, async (again) => expect((await again.getSession(kept.id))?.id).toBe(kept.id));
  });

  it('at a later start, which commits nothing, its folder deleted: saved, not said as a failed sync', async () => {
    const { file, ledger, kept } = await ledgerWithSession();
    await ledger.close();
    const log = keptLog();
    const second = await openLedger(file, { log });
    rmSync(join(file, '..'), { recursive: true });
    const { savedTo } = await refused(second);
    expect(savedTo).toMatch(/\.saved-/);
    await second.close();
    await reopened(file, log, async (again) => expect((await again.getSession(kept.id))?.id).toBe(kept.id));
  });

  it('its symbolic link pointed at another file: the file the link led to is saved', async () => {
    const folder = join(ledgerFile(), '..');
    const real = join(folder, 'real.db');
    const link = join(folder, 'ledger.db');
    const log = keptLog();
    symlinkSync(real, link);
    const ledger = await openLedger(link, { log });
    const kept = await ledger.createSession(SESSION);
    rmSync(link);
    symlinkSync(join(folder, 'elsewhere.db'), link);
    const { savedTo } = await refused(ledger);
    expect(savedTo!.startsWith(`${link}.saved-`)).toBe(true);
    await ledger.close();
    // Nothing at the new target: the copy is taken back there.
    await reopened(link, log, async (again) => expect((await again.getSession(kept.id))?.id).toBe(kept.id));
  });
});

describe('a saved copy', () => {
  it('is its owner’s alone, as the ledger was, and stays so once taken back', async () => {
    const { file, ledger } = await ledgerWithSession();
    const umask = process.umask(0o022);
    try {
      rmSync(file);
      const { savedTo } = await refused(ledger);
      await ledger.close();
      expect(statSync(savedTo!).mode & 0o777).toBe(0o600);
      const log = keptLog();
      await reopened(file, log, async () => {
        for (const name of [file, `${file}-wal`]) expect(statSync(name).mode & 0o777, name).toBe(0o600);
      });
    } finally {
      process.umask(umask);
    }
  });
});

describe('a SQLite ledger whose whole folder was deleted under it', () => {
  it('makes the folder again, saves what the ledger held in it, and the next start takes it back', async () => {
    const { file, log, ledger, kept } = await ledgerWithSession();
    rmSync(join(file, '..'), { recursive: true });
    const { savedTo } = await refused(ledger);
    await ledger.close();
    expect(existsSync(savedTo!)).toBe(true);

    await reopened(file, log, async (again) => {
      expect((await again.getSession(kept.id))?.id).toBe(kept.id);
    });
  });
});
