// The shared ledger suite on SQLite: in memory and in a WAL file; and how the file is opened.
import fs, { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { isLedgerFault, isLedgerUnavailable } from './availability.js';
import { LedgerNotDurable } from './durability.js';
import { checkWritable, recordedLightly, sqliteDialect } from './sqlite.js';
import Database from 'better-sqlite3';
import type { LedgerSqliteDialect, SqliteOptions } from './sqlite.js';
import type { LedgerTables } from './schema.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import type { GatewayEvent } from './types.js';
import { claimedPayment, describeLedgerContract, gatewayEvent } from './testing/contract.js';
import { fileBackend, memoryBackend } from './testing/databases.js';
import { mountSmallDisk } from './testing/small-disk.js';
import { bundled } from '../../e2e/entry-points.mjs';

describeLedgerContract(memoryBackend);
describeLedgerContract(fileBackend);

/** The value of `pragma name` on `db` (or on a connection of it). */
const pragma = async (db: Kysely<never>, name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0] as unknown;

/**
 * Runs `test` on a fresh ledger file's dialect — `commits` lists each commit that wrote, as
 * 'synced' or 'unsynced' (taken since the last call) — then removes the file's folder.
 */
async function onLedgerFile(test: (dialect: LedgerSqliteDialect, commits: () => string[], dir: string) => Promise<void>, options: SqliteOptions = {}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-sqlite-'));
  const seen: string[] = [];
  try {
    await test(await sqliteDialect(join(dir, 'ledger.db'), { ...options, onCommit: ({ synced }) => void seen.push(synced ? 'synced' : 'unsynced') }), () => seen.splice(0), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * onLedgerFile with a Kysely over the dialect and an `answers` table made first (its commit
 * taken off `commits`); the Kysely is destroyed afterwards.
 */
function onAnswersTable(test: (db: Kysely<LedgerTables>, dialect: LedgerSqliteDialect, commits: () => string[]) => Promise<void>): Promise<void> {
  return onLedgerFile(async (dialect, commits) => {
    const db = new Kysely<LedgerTables>({ dialect });
    try {
      await sql.raw('create table answers (id text primary key)').execute(db);
      commits();
      await test(db, dialect, commits);
    } finally {
      await db.destroy();
    }
  });
}

/**
 * The process's syncs of the disk, made by a test instead: each on this thread (fdatasyncSync)
 * takes `hereMs`; each on the thread pool (fdatasync) answers as long after (at the next turn
 * when 0), or, while `holding`, when the test says (`release`, `failWith`). Nothing is really
 * synced; `counts` says where each sync ran. `restore` answers the held ones, puts the real
 * ones back.
 */
function fakeDisk() {
  const real = { fdatasync: fs.fdatasync, fdatasyncSync: fs.fdatasyncSync };
  const held: Array<(error?: Error) => void> = [];
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let started!: () => void;
  const answerHeld = (error?: Error) => held.splice(0).forEach((answer) => answer(error));
  const disk = {
    hereMs: 0,
    holding: false,
    counts: { here: 0, aside: 0 },
    /** Resolves at the first sync held. */
    started: new Promise<void>((resolve) => (started = resolve)),
    release: () => answerHeld(),
    failWith: (error: Error) => answerHeld(error),
    restore() {
      Object.assign(fs, real);
      syncBuiltinESMExports();
      clock.mockRestore();
      answerHeld();
    },
  };
  // The ledger times its syncs with performance.now(): here that clock moves only by what the
  // disk takes, so a loaded machine's pause in the middle of a sync never makes a fast disk slow.
  let now = performance.now();
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
  fs.fdatasyncSync = (() => {
    disk.counts.here += 1;
    now += disk.hereMs;
    if (disk.hereMs > 0) Atomics.wait(pause, 0, 0, disk.hereMs);
  }) as typeof fs.fdatasyncSync;
  fs.fdatasync = ((_fd: number, callback: fs.NoParamCallback) => {
    disk.counts.aside += 1;
    const takes = disk.hereMs;
    const answer = (error?: Error) => {
      now += takes;
      callback(error ? Object.assign(error, { code: 'EIO' }) : null);
    };
    // A slow disk is as slow on a thread of the pool.
    if (!disk.holding) return void (disk.hereMs > 0 ? setTimeout(answer, disk.hereMs) : setImmediate(answer));
    held.push(answer);
    started();
  }) as typeof fs.fdatasync;
  // The ledger imports both by name: its bindings follow the module's properties only so.
  syncBuiltinESMExports();
  return disk;
}

/**
 * onAnswersTable on a `fakeDisk` slowed until the ledger syncs on the thread pool, then holding
 * its syncs (`commits` taken of the slowing ones); the disk is restored afterwards.
 */
function onSlowDisk(test: (db: Kysely<LedgerTables>, disk: ReturnType<typeof fakeDisk>, commits: () => string[]) => Promise<void>): Promise<void> {
  return onAnswersTable(async (db, _dialect, commits) => {
    const disk = fakeDisk();
    try {
      disk.hereMs = 5;
      for (let i = 0; disk.counts.aside === 0; i += 1) await sql.raw(`insert into answers values ('slow ${i}')`).execute(db);
      disk.holding = true;
      commits();
      await test(db, disk, commits);
    } finally {
      disk.restore();
    }
  });
}

/** How long a statement waits for the lock of another process on the file, in the test of its giving up. */
const LOCK_WAIT_MS = 1_000;

/**
 * onLedgerFile with a Kysely holding an `answers` table and a second handle on the file, as a
 * database browser or a backup would hold it; both closed afterwards. A statement waits
 * `lockWaitMs` for the other's lock (the ledger's own 5 s unless given).
 */
function onSharedFile(test: (db: Kysely<LedgerTables>, browser: Database.Database) => Promise<void>, lockWaitMs?: number): Promise<void> {
  return onLedgerFile(async (dialect, _commits, dir) => {
    const db = new Kysely<LedgerTables>({ dialect });
    const browser = new Database(join(dir, 'ledger.db'));
    try {
      await sql.raw('create table answers (id text primary key)').execute(db);
      await test(db, browser);
    } finally {
      browser.close();
      await db.destroy();
    }
  }, lockWaitMs === undefined ? {} : { lockWaitMs });
}

/** Runs `test` on a fresh ledger on a file, `commits` as in onLedgerFile; then closes and removes it. */
async function onLedger(test: (ledger: Ledger, commits: () => string[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-sqlite-'));
  const seen: string[] = [];
  const ledger = await openLedger(join(dir, 'ledger.db'), { onCommit: ({ synced }) => void seen.push(synced ? 'synced' : 'unsynced') });
  try {
    await test(ledger, () => seen.splice(0));
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The user id of `nobody`, who owns nothing the tests make. */
const NOBODY = 65534;
/**
 * Root's rights past file permissions, and to change a file it does not own (SQLite, as root,
 * gives a -shm another user left back to the ledger's owner); without them root meets
 * permissions as any user does.
 */
const PAST_PERMISSIONS = 'dac_override,dac_read_search,fowner,chown';

/**
 * Opens each of `paths` in a process of its own (testing/open-worker.ts) that permissions stop:
 * this process's user, or, when that is root (as in CI), root without its rights past them
 * (util-linux's setpriv drops them). Gives, per path, the refusal's message or null when it opened;
 * fails, saying why, when that process is not stopped by permissions after all.
 */
async function openedWithoutPrivilege(paths: readonly string[]): Promise<Array<string | null>> {
  const opener = [process.execPath, await bundled('server/ledger/testing/open-worker.ts'), ...paths];
  const asRoot = process.getuid?.() === 0;
  const [command, ...args] = asRoot
    ? ['setpriv', `--inh-caps=-${PAST_PERMISSIONS.replaceAll(',', ',-')}`, `--bounding-set=-${PAST_PERMISSIONS.replaceAll(',', ',-')}`, '--', ...opener]
    : opener;
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  let code: number | null;
  try {
    [code] = (await once(child, 'close')) as [number | null];
  } catch (error) {
    if (asRoot && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`testing file permissions as root needs util-linux's setpriv (to drop ${PAST_PERMISSIONS} from the process that meets them), and there is none on the PATH: install util-linux, or run the suite as another user`, { cause: error });
    }
    throw error;
  }
  if (code !== 0) throw new Error(`the ledger files' opener (${command}) exited with ${code}: ${errors}`);
  const opened = JSON.parse(output) as { passesPermissions: boolean; effectiveCapabilities: string | null; outcomes: Array<string | null> };
  if (opened.passesPermissions) {
    const capabilities = opened.effectiveCapabilities === null ? '' : ` (its CapEff: ${opened.effectiveCapabilities})`;
    throw new Error(
      asRoot
        ? `setpriv did not drop root's ${PAST_PERMISSIONS}: the ledger files' opener still read a file of mode 000${capabilities}, so file permissions cannot be tested here (a container without CAP_SETPCAP?): run the suite as another user, or where root may drop capabilities`
        : `the ledger files' opener passes file permissions: it read a file of mode 000 as uid ${process.getuid?.()}${capabilities}, so file permissions cannot be tested here: run the suite as a user without capabilities past them`,
    );
  }
  return opened.outcomes;
}

describe('a SQLite ledger file', () => {
  it('that is a folder, or locked by another program, is refused at open naming the file and what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-unopenable-'));
    try {
      await expect(openLedger(dir)).rejects.toThrow(`${dir} is a folder, not a file: point PAYFORM_DATABASE_URL at a file in it, e.g. ${join(dir, 'payform.db')}`);
      const path = join(dir, 'ledger.db');
      await (await openLedger(path)).close();
      // A database browser holding it: SQLite waits its busy timeout, then gives up.
      const browser = new Database(path);
      browser.exec('BEGIN EXCLUSIVE');
      try {
        await expect(openLedger(path)).rejects.toThrow(`${path} is locked by another process (database is locked): a database browser, a backup, or another companion still migrating it holds it; close it, or wait, and start again`);
      } finally {
        browser.exec('ROLLBACK');
        browser.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('on a full disk is refused at open naming the disk as full and the fix, not as a disk I/O error', async () => {
    const disk = mountSmallDisk();
    try {
      const path = join(disk.dir, 'ledger.db');
      disk.fill();
      const refused = openLedger(path);
      await expect(refused).rejects.toThrow(`${path} cannot be opened: the disk holding it is full (`);
      await expect(refused).rejects.toThrow('free space on it, or point PAYFORM_DATABASE_URL at a file on another disk, then start again');
    } finally {
      disk.dispose();
    }
  });

  it('in the way of a file or behind permissions is refused naming what is wrong, as the companion\'s user finds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-unopenable-'));
    try {
      // A file where a folder of the path should be, right above the ledger's file or further up.
      const inTheWay = join(dir, 'data');
      writeFileSync(inTheWay, '');
      for (const path of [join(inTheWay, 'ledger.db'), join(inTheWay, 'ledgers', 'ledger.db')]) {
        await expect(openLedger(path)).rejects.toThrow(`${inTheWay} is a file, not a folder, so ${path} cannot be made: point PAYFORM_DATABASE_URL at a file in a folder`);
      }
      // A file its user may not read, and a folder it may not write to, met by a process they stop.
      const locked = join(dir, 'locked.db');
      writeFileSync(locked, '');
      chmodSync(locked, 0o000);
      const closedFolder = join(dir, 'closed');
      mkdirSync(closedFolder, { mode: 0o555 });
      // A ledger its user may read but not write: SQLite opens it read-only, and the write tried at open meets it.
      const readOnly = join(dir, 'read-only.db');
      await (await openLedger(readOnly)).close();
      chmodSync(readOnly, 0o444);
      // A ledger its user may write, beside a -shm file another user's run left (root's, as a
      // mistaken `sudo` start leaves it): SQLite, not its owner, can neither write nor chmod it.
      // Made only as root, the one user that may give a file away.
      const staleShm = join(dir, 'stale-shm.db');
      await (await openLedger(staleShm)).close();
      writeFileSync(`${staleShm}-shm`, '');
      chmodSync(`${staleShm}-shm`, 0o644);
      const asRoot = process.getuid?.() === 0;
      if (asRoot) chownSync(`${staleShm}-shm`, NOBODY, NOBODY);
      const outcomes = await openedWithoutPrivilege([locked, join(closedFolder, 'ledger.db'), join(closedFolder, 'data', 'ledger.db'), readOnly, ...(asRoot ? [staleShm] : [])]);
      const uid = process.getuid?.();
      const permissions = (mode: string) => (uid === undefined ? '' : ` (mode ${mode}, owned by uid ${uid}; the companion runs as uid ${uid})`);
      const inFolder = `the companion's user may not create files in ${closedFolder}${permissions('555')}, where SQLite keeps ledger.db and its -wal and -shm files: give that user write access to the folder`;
      expect(outcomes).toEqual([
        `${locked} cannot be read and written by the companion's user${permissions('000')}: give that user read and write access to it (chown it to that user, or chmod u+rw), or point PAYFORM_DATABASE_URL at another file`,
        expect.stringContaining(inFolder),
        expect.stringContaining(inFolder),
        `${readOnly} cannot be read and written by the companion's user${permissions('444')}: give that user read and write access to it (chown it to that user, or chmod u+rw), or point PAYFORM_DATABASE_URL at another file`,
        ...(asRoot
          ? [
              `${staleShm}-shm, SQLite's file beside the ledger, cannot be read and written by the companion's user (mode 644, owned by uid ${NOBODY}; the companion runs as uid ${uid}): ` +
                "chown it (and stale-shm.db's other files) to that user, or chmod u+rw — never delete it: a -wal file holds payments not yet written into the ledger's file",
            ]
          : []),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('made new is readable by its owner only, as are its -wal and -shm files; one already there keeps its mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-private-'));
    const umask = process.umask(0o022);
    try {
      const path = join(dir, 'ledger.db');
      const ledger = await openLedger(path);
      expect(ledger.createdNow).toBe(true);
      await ledger.createSession({ amount: 100, currency: 'UAH', description: 'Tea', method: 'purchase' });
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777, file).toBe(0o600);
      await ledger.close();
      chmodSync(path, 0o640);
      const again = await openLedger(path);
      expect(again.createdNow).toBe(false);
      expect(statSync(path).mode & 0o777).toBe(0o640);
      await again.close();
      // A symbolic link to a file not made yet (a volume's path): the file it leads to is made 0600.
      const linked = join(dir, 'linked.db');
      mkdirSync(join(dir, 'volume'));
      symlinkSync(join('volume', 'ledger.db'), linked);
      await (await openLedger(linked)).close();
      expect(statSync(join(dir, 'volume', 'ledger.db')).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in a folder it made keeps that folder out of git; a folder there before is left as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-gitignore-'));
    try {
      await (await openLedger(join(dir, 'data', 'nested', 'payform.db'))).close();
      // The ledger's own folder, which it made (its parents too, whose content is the shop's).
      expect(readFileSync(join(dir, 'data', 'nested', '.gitignore'), 'utf8')).toMatch(/^# Made by payform .*\n\*\n$/u);
      expect(existsSync(join(dir, 'data', '.gitignore'))).toBe(false);
      await (await openLedger(join(dir, 'beside.db'))).close();
      expect(existsSync(join(dir, '.gitignore'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('that cannot be written is refused at open, naming the file and the fix, and left unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-readonly-'));
    try {
      const path = join(dir, 'ledger.db');
      await (await openLedger(path)).close();
      // What SQLite does with a file its user may not write: it opens it read-only.
      const readOnly = new Database(path, { readonly: true });
      expect(() => checkWritable(readOnly, path)).toThrow(`${path} cannot be written (attempt to write a readonly database): give the companion's user write access to the file and its folder, where SQLite keeps the -wal and -shm files`);
      expect(readOnly.open).toBe(false);
      const writable = new Database(path);
      expect(() => checkWritable(writable, path)).not.toThrow();
      expect(writable.inTransaction).toBe(false);
      writable.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is written ahead (WAL) and syncs the WAL at every commit that wrote, so a commit outlives a power loss', () =>
    onLedgerFile(async (dialect, commits) => {
      const db = new Kysely<never>({ dialect });
      try {
        expect(await pragma(db, 'journal_mode')).toBe('wal');
        // 1 is NORMAL: SQLite leaves the sync to the handle, which makes it after each commit.
        expect(await pragma(db, 'synchronous')).toBe(1);
        expect(await pragma(db, 'foreign_keys')).toBe(1);
        await sql.raw('create table answers (id text primary key)').execute(db);
        await sql.raw("insert into answers values ('a1')").execute(db);
        await db.transaction().execute(async (trx) => {
          await sql.raw("insert into answers values ('a2')").execute(trx);
          await sql.raw("insert into answers values ('a3')").execute(trx);
        });
        expect(commits()).toEqual(['synced', 'synced', 'synced']);
        // What writes nothing has nothing to sync: a read, a transaction that only read, one rolled back.
        await sql.raw('select id from answers').execute(db);
        await db.transaction().execute((trx) => sql.raw('select id from answers').execute(trx));
        const undone = db.transaction().execute(async (trx) => {
          await sql.raw("insert into answers values ('a4')").execute(trx);
          throw new Error('undone');
        });
        await expect(undone).rejects.toThrow('undone');
        expect(commits()).toEqual([]);
      } finally {
        await db.destroy();
      }
    }));

  it('gives each row as an object of its columns: a repeated name its last value, even `__proto__` a key', () =>
    onLedgerFile(async (dialect) => {
      const db = new Kysely<never>({ dialect });
      try {
        await sql.raw("create table answers (id text primary key, amount integer, note text)").execute(db);
        await sql.raw("insert into answers values ('a1', 1010, null), ('a2', 5, 'x')").execute(db);
        const { rows } = await sql.raw(`select id, amount, note, amount as id, 'p' as "__proto__", 'it''s' as "a ""quoted"" name" from answers order by 1`).execute(db);
        expect(rows).toEqual([
          { id: 1010, amount: 1010, note: null, ['__proto__']: 'p', 'a "quoted" name': "it's" },
          { id: 5, amount: 5, note: 'x', ['__proto__']: 'p', 'a "quoted" name': "it's" },
        ]);
        expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
        // UPDATE … RETURNING reads rows as well; a statement without rows still counts its changes.
        const { rows: returned } = await sql.raw("update answers set note = 'y' where id = 'a1' returning id, note").execute(db);
        expect(returned).toEqual([{ id: 'a1', note: 'y' }]);
        const updated = await sql.raw("update answers set note = 'z'").execute(db);
        expect(updated.numAffectedRows).toBe(2n);
      } finally {
        await db.destroy();
      }
    }));

  it('commits a relaxed record without a sync, and every other commit synced, even after a failure', () =>
    onAnswersTable(async (db, dialect, commits) => {
      const insert = (on: Kysely<LedgerTables>, id: string) => sql.raw(`insert into answers values ('${id}')`).execute(on);
      await recordedLightly(db, dialect, async (connection) => {
        await insert(connection, 'a1');
        await insert(connection, 'a2');
      });
      expect(commits()).toEqual(['unsynced', 'unsynced']);
      await insert(db, 'a3');
      expect(commits()).toEqual(['synced']);
      await expect(recordedLightly(db, dialect, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
      await insert(db, 'a4');
      expect(commits()).toEqual(['synced']);
    }));

  it("decides a transaction's sync at its commit: a transaction marked light is not synced, the next one is", () =>
    onAnswersTable(async (db, dialect, commits) => {
      await db.transaction().execute(async (trx) => {
        await sql.raw("insert into answers values ('a1')").execute(trx);
        dialect.commitLightly();
      });
      await db.transaction().execute((trx) => sql.raw("insert into answers values ('a2')").execute(trx));
      // Marked outside a transaction, or in one rolled back: no later commit goes unsynced.
      dialect.commitLightly();
      await expect(
        db.transaction().execute(async () => {
          dialect.commitLightly();
          throw new Error('undone');
        }),
      ).rejects.toThrow('undone');
      await sql.raw("insert into answers values ('a3')").execute(db);
      expect(commits()).toEqual(['unsynced', 'synced', 'synced']);
    }));

  it('leaves no mark of a transaction SQLite itself undid on the next one: its commit is synced', () =>
    onAnswersTable(async (db, dialect, commits) => {
      // A statement that ends its own transaction, as a COMMIT on a full disk does.
      await sql.raw("create trigger undo before insert on answers when new.id = 'undo' begin select raise(rollback, 'undone by the trigger'); end").execute(db);
      commits();
      const undone = db.transaction().execute(async (trx) => {
        await sql.raw("insert into answers values ('a1')").execute(trx);
        dialect.commitLightly();
        await sql.raw("insert into answers values ('undo')").execute(trx);
      });
      await expect(undone).rejects.toThrow('undone by the trigger');
      await db.transaction().execute((trx) => sql.raw("insert into answers values ('a2')").execute(trx));
      expect(commits()).toEqual(['synced']);
      expect((await sql.raw<{ id: string }>('select id from answers').execute(db)).rows).toEqual([{ id: 'a2' }]);
    }));

  it('syncs the WAL beside the file a symbolic link leads to, where SQLite writes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-sqlite-'));
    const seen: string[] = [];
    try {
      mkdirSync(join(dir, 'real'));
      writeFileSync(join(dir, 'real', 'ledger.db'), '');
      symlinkSync(join(dir, 'real', 'ledger.db'), join(dir, 'ledger.db'));
      const db = new Kysely<never>({ dialect: await sqliteDialect(join(dir, 'ledger.db'), { onCommit: ({ synced }) => void seen.push(synced ? 'synced' : 'unsynced') }) });
      try {
        await sql.raw('create table answers (id text primary key)').execute(db);
        await sql.raw("insert into answers values ('a1')").execute(db);
        expect(seen).toEqual(['synced', 'synced']);
      } finally {
        await db.destroy();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a commit once its WAL is synced, and no other query of the process reads it before', () =>
    onAnswersTable(async (db, dialect, commits) => {
      // Both asked at once: the read waits for the connection, which the write holds until its
      // sync ends, so the read comes after the commit is on the disk.
      const seen: string[] = [];
      const written = sql.raw("insert into answers values ('a1')").execute(db).then(() => seen.push(`written: ${commits().join()}`));
      const read = sql.raw('select id from answers').execute(db).then(({ rows }) => seen.push(`read ${rows.length}: ${commits().join()}`));
      await Promise.all([written, read]);
      expect(seen).toEqual(['written: synced', 'read 1: ']);
    }));

  it("syncs a fast disk's WAL on the event loop, and a slow one's on the thread pool, as the disk turns", () =>
    onAnswersTable(async (db, _dialect, commits) => {
      const disk = fakeDisk();
      try {
        const insert = (id: string) => sql.raw(`insert into answers values ('${id}')`).execute(db);
        // The table's own commit met the real disk, however loaded: its time is forgotten first.
        for (let i = 0; i < 30; i += 1) await insert(`settling ${i}`);
        disk.counts.here = disk.counts.aside = 0;
        for (let i = 0; i < 5; i += 1) await insert(`fast ${i}`);
        // A thread woken for a 0.15 ms sync costs more than it saves.
        expect(disk.counts).toEqual({ here: 5, aside: 0 });
        disk.hereMs = 5;
        for (let i = 0; i < 5; i += 1) await insert(`slow ${i}`);
        // A few slow syncs in a row move the average past 2 ms: the rest leave the event loop.
        expect(disk.counts.here).toBeGreaterThanOrEqual(6);
        expect(disk.counts.aside).toBeGreaterThan(0);
        // Fast again (the pool's syncs here answer at the next turn): back on the event loop.
        disk.hereMs = 0;
        const { here } = disk.counts;
        for (let i = 0; i < 30; i += 1) await insert(`fast again ${i}`);
        expect(disk.counts.here).toBeGreaterThan(here);
        expect(commits()).toEqual(Array(70).fill('synced'));
      } finally {
        disk.restore();
      }
    }));

  it("syncs a slow disk's WAL off the event loop: timers run meanwhile, and the commit is answered, and read, once synced", () =>
    onSlowDisk(async (db, disk, commits) => {
      const seen: string[] = [];
      const written = sql.raw("insert into answers values ('a1')").execute(db).then(() => seen.push('written'));
      const read = sql.raw("select id from answers where id = 'a1'").execute(db).then(({ rows }) => seen.push(`read ${rows.length}`));
      await disk.started;
      // The disk is busy and the event loop is not: a timer fires, nothing is answered yet.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([]);
      expect(commits()).toEqual([]);
      disk.release();
      await Promise.all([written, read]);
      expect(seen).toEqual(['written', 'read 1']);
      expect(commits()).toEqual(['synced']);
    }));

  it('fails the commit whose sync a slow disk refused, and every statement after it, as an outage', () =>
    onSlowDisk(async (db, disk, commits) => {
      const committed = db.transaction().execute((trx) => sql.raw("insert into answers values ('a1')").execute(trx));
      const waiting = sql.raw('select id from answers').execute(db);
      await disk.started;
      disk.failWith(new Error('input/output error'));
      await expect(committed).rejects.toThrow(LedgerNotDurable);
      await expect(committed).rejects.toMatchObject({ code: 'PAYFORM_LEDGER_NOT_DURABLE', cause: { code: 'EIO' } });
      // The read that waited for the connection is refused too: nothing after the failed sync is trusted.
      const refused = await waiting.catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LedgerNotDurable);
      expect(isLedgerUnavailable(refused)).toBe(true);
      expect(commits()).toEqual([]);
    }));

  it("waits for another process's lock on the file with the event loop free, then writes", () =>
    onSharedFile(async (db, browser) => {
      // A database browser, a backup or another companion holds the write lock a moment.
      browser.exec('BEGIN IMMEDIATE');
      let ticks = 0;
      const ticking = setInterval(() => (ticks += 1), 5);
      const written = sql.raw("insert into answers values ('a1')").execute(db);
      const read = sql.raw('select id from answers').execute(db);
      await new Promise((resolve) => setTimeout(resolve, 300));
      clearInterval(ticking);
      // SQLite's own busy handler slept on the event loop: not a timer would have fired.
      expect(ticks).toBeGreaterThan(10);
      browser.exec('COMMIT');
      await written;
      // The read waited behind the write for the one connection, and sees it.
      expect((await read).rows).toEqual([{ id: 'a1' }]);
    }));

  it('gives a write up as an outage when the lock is held past its wait, those queued behind it at once, and takes the next once it is free', () =>
    onSharedFile(async (db, browser) => {
      browser.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      const write = (id: string) => db.transaction().execute((trx) => sql.raw(`insert into answers values ('${id}')`).execute(trx));
      const ended = (id: string): Promise<{ at: number; error?: unknown }> =>
        write(id).then(
          () => ({ at: performance.now() - started }),
          (error: unknown) => ({ at: performance.now() - started, error }),
        );
      // Three requests' writes meet the lock, a read among them (WAL: it gets through); each
      // waits for the one connection in turn.
      const [first, read, ...queued] = await Promise.all([ended('a1'), sql.raw('select id from answers').execute(db), ended('a2'), ended('a3')]);
      expect(first.at).toBeGreaterThanOrEqual(LOCK_WAIT_MS - 10);
      expect(read.rows).toEqual([]);
      for (const refused of [first, ...queued]) {
        expect(refused.error).toMatchObject({ code: 'SQLITE_BUSY' });
        expect(isLedgerUnavailable(refused.error)).toBe(true);
      }
      // Not a wait of their own each: refused as soon as their turn came.
      expect(Math.max(...queued.map((refused) => refused.at))).toBeLessThan(first.at + LOCK_WAIT_MS / 2);
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      /** Writes `id` while the lock is held, frees it a moment later: the write waited for it. */
      const waitsForLock = async (id: string) => {
        const waited = write(id);
        await pause(LOCK_WAIT_MS / 10);
        browser.exec('COMMIT');
        await waited;
      };
      // A wait later, the lock held still, a write waits for it again.
      await pause(LOCK_WAIT_MS);
      await waitsForLock('a4');
      // And so does one after a write got through.
      browser.exec('BEGIN IMMEDIATE');
      await waitsForLock('a5');
      expect((await sql.raw('select id from answers order by id').execute(db)).rows).toEqual([{ id: 'a4' }, { id: 'a5' }]);
    }, LOCK_WAIT_MS));

  it('takes no more work once the WAL cannot be synced: that commit and every later statement fail as an outage', () =>
    onLedgerFile(async (dialect, commits, dir) => {
      const db = new Kysely<LedgerTables>({ dialect });
      try {
        await sql.raw('create table answers (id text primary key)').execute(db);
        // The WAL gone from under the open file: SQLite writes on, the sync cannot reach it.
        rmSync(join(dir, 'ledger.db-wal'));
        const committed = db.transaction().execute((trx) => sql.raw("insert into answers values ('a1')").execute(trx));
        await expect(committed).rejects.toThrow(LedgerNotDurable);
        await expect(committed).rejects.toMatchObject({ code: 'PAYFORM_LEDGER_NOT_DURABLE', cause: { code: 'ENOENT' } });
        const later = sql.raw('select id from answers').execute(db);
        await expect(later).rejects.toThrow(LedgerNotDurable);
        // An outage, as a stopped database is: the companion answers 503 and a retry, not 500.
        const refused = await later.catch((error: unknown) => error);
        expect(isLedgerUnavailable(refused)).toBe(true);
        // Each refusal an error of its own, so each is counted; each says why and which file.
        const again = await sql.raw('select id from answers').execute(db).catch((error: unknown) => error);
        expect(again).not.toBe(refused);
        for (const error of [refused, again]) expect(error).toMatchObject({ cause: { code: 'ENOENT' }, ledgerFile: join(realpathSync(dir), 'ledger.db') });
        expect(commits()).toEqual(['synced']);
      } finally {
        await db.destroy().catch(() => undefined);
      }
    }));

  it('commits a webhook that changes nothing the ledger holds without a sync, and one that changes something synced', () =>
    onLedger(async (ledger, commits) => {
      const payment = await claimedPayment(ledger);
      const { orderId } = payment;
      const event = (status: 'pending' | 'success', extra: Record<string, unknown> = {}) => gatewayEvent({ method: 'purchase', status, orderId, amount: 1000, currency: 'XTS' }, extra);
      commits();
      // The payment steps forward: news, synced before the delivery is answered.
      expect(await ledger.ingestEvent(event('pending'))).toMatchObject({ isNew: true, advanced: true });
      expect(commits()).toEqual(['synced']);
      // The pay call's answer, recorded first (relaxed: the gateway tells it again).
      await ledger.advancePayment(orderId, { status: 'success', statusCode: '1000' }, { relaxed: true });
      expect(commits()).toEqual(['unsynced']);
      // Its webhook finds the payment as it says: stored and refreshed, not synced.
      const success = event('success');
      expect(await ledger.ingestEvent(success)).toMatchObject({ isNew: true, advanced: false, event: { outcome: 'applied' } });
      expect(commits()).toEqual(['unsynced']);
      // A late pending finds it past that: stale, not synced; a repeat writes nothing at all.
      expect(await ledger.ingestEvent(event('pending', { late: true }))).toMatchObject({ isNew: true, event: { outcome: 'stale' } });
      expect(await ledger.ingestEvent(success)).toMatchObject({ isNew: false });
      expect(commits()).toEqual(['unsynced']);
      // One for no order this ledger knows is kept for a person: synced.
      expect(await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: 'unknown-order' }))).toMatchObject({ event: { outcome: 'unmatched' } });
      expect(commits()).toEqual(['synced']);
      expect((await ledger.getPayment(orderId))?.status).toBe('success');
    }));

  it('syncs a webhook that fills in a detail the recorded answer lacked, and not one that repeats it', () =>
    onLedger(async (ledger, commits) => {
      const success = (orderId: string, details: Partial<GatewayEvent> = {}) => gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS', statusCode: '1000', ...details });
      const recorded = async (details: Record<string, string> = {}) => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'success', statusCode: '1000', ccMask: '424242******4242', ...details }, { relaxed: true });
        commits();
        return orderId;
      };
      // The gateway's receipt and card token, which the pay answer did not carry: news, synced.
      const filled = await recorded();
      expect(await ledger.ingestEvent(success(filled, { ccMask: '424242******4242', receiptUrl: 'https://gateway.example/receipt/1', ccToken: 'tok_1' }))).toMatchObject({ isNew: true, advanced: false });
      expect(commits()).toEqual(['synced']);
      expect(await ledger.getPayment(filled)).toMatchObject({ receiptUrl: 'https://gateway.example/receipt/1', ccToken: 'tok_1' });
      // The same details again, or fewer: nothing new, not synced.
      const repeated = await recorded({ receiptUrl: 'https://gateway.example/receipt/2' });
      await ledger.ingestEvent(success(repeated, { ccMask: '424242******4242', receiptUrl: 'https://gateway.example/receipt/2' }));
      expect(commits()).toEqual(['unsynced']);
      // Another value for a detail it holds is news too.
      const changed = await recorded({ receiptUrl: 'https://gateway.example/receipt/3' });
      await ledger.ingestEvent(success(changed, { receiptUrl: 'https://gateway.example/receipt/3b' }));
      expect(commits()).toEqual(['synced']);
    }));

  it('answers a write on a full disk as an outage naming the file, reads on, and writes again once space is freed', async () => {
    const disk = mountSmallDisk();
    const file = join(realpathSync(disk.dir), 'ledger.db');
    const ledger = await openLedger(file);
    try {
      const { orderId } = await claimedPayment(ledger);
      disk.fill();
      const refused = await claimedPayment(ledger).catch((error: unknown) => error);
      // The driver's own error, from a disk that really is full: an outage (503, try again), not a fault.
      expect(refused).toMatchObject({ code: 'SQLITE_FULL', ledgerFile: file });
      expect(isLedgerUnavailable(refused)).toBe(true);
      expect(isLedgerFault(refused)).toBe(false);
      // Reads still work: only a commit tells whether the disk takes writes (the outage's probe).
      expect((await ledger.getPayment(orderId))?.orderId).toBe(orderId);
      await expect(ledger.probeWrite()).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      disk.free();
      await ledger.probeWrite();
      expect((await claimedPayment(ledger)).status).toBe('init');
    } finally {
      await ledger.close().catch(() => undefined);
      disk.dispose();
    }
  });

  it('fails a webhook whose commit could not be synced as an outage, and takes no more work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-sqlite-'));
    const ledger = await openLedger(join(dir, 'ledger.db'));
    try {
      const { orderId } = await claimedPayment(ledger);
      // The WAL gone from under the open file: the group's COMMIT lands, its sync cannot.
      rmSync(join(dir, 'ledger.db-wal'));
      const ingest = ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS' }));
      await expect(ingest).rejects.toThrow(LedgerNotDurable);
      expect(isLedgerUnavailable(await ingest.catch((error: unknown) => error))).toBe(true);
      await expect(ledger.getPayment(orderId)).rejects.toThrow(LedgerNotDurable);
    } finally {
      await ledger.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
