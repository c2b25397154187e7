// The shared ledger suite on SQLite: in memory and in a WAL file; and how the file is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { observedDialect } from './observed.js';
import { DurabilityNotRestored, recordedLightly, sqliteDialect } from './sqlite.js';
import type { LedgerSqliteDialect } from './sqlite.js';
import type { LedgerTables } from './schema.js';
import { describeLedgerContract } from './testing/contract.js';
import { fileBackend, memoryBackend } from './testing/databases.js';

describeLedgerContract(memoryBackend);
describeLedgerContract(fileBackend);

/** The value of `pragma name` on `db` (or on a connection of it). */
const pragma = async (db: Kysely<never>, name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0] as unknown;

/** Runs `test` on a fresh ledger file's dialect, then removes the file's folder. */
async function onLedgerFile(test: (dialect: LedgerSqliteDialect, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-sqlite-'));
  try {
    await test(await sqliteDialect(join(dir, 'ledger.db')), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a SQLite ledger file', () => {
  it('is written ahead (WAL) and synced at every commit, so a commit outlives a power loss', () =>
    onLedgerFile(async (dialect) => {
      const db = new Kysely<never>({ dialect });
      try {
        expect(await pragma(db, 'journal_mode')).toBe('wal');
        // 2 is FULL: NORMAL (1) syncs the WAL only at checkpoints.
        expect(await pragma(db, 'synchronous')).toBe(2);
        expect(await pragma(db, 'foreign_keys')).toBe(1);
      } finally {
        await db.destroy();
      }
    }));

  it('commits a relaxed record without a sync, and every other commit synced again, even after a failure', () =>
    onLedgerFile(async (dialect) => {
      const db = new Kysely<LedgerTables>({ dialect });
      const synchronous = (on: Kysely<LedgerTables>) => pragma(on as never, 'synchronous');
      try {
        // 1 is NORMAL: in the WAL, not synced.
        expect(await recordedLightly(db, dialect, (connection) => synchronous(connection))).toBe(1);
        expect(await synchronous(db)).toBe(2);
        await expect(recordedLightly(db, dialect, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
        expect(await synchronous(db)).toBe(2);
      } finally {
        await db.destroy();
      }
    }));

  it('does not go on relaxed when setting synchronous = FULL back fails: the file is opened afresh, loudly', () =>
    onLedgerFile(async (dialect) => {
      let failRestore = true;
      // The restore is refused once, as a driver error would refuse it.
      const refusing = observedDialect(dialect, (statement) => {
        if (failRestore && statement === 'pragma synchronous = FULL') {
          failRestore = false;
          throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        }
      });
      const db = new Kysely<LedgerTables>({ dialect: refusing });
      const synchronous = (on = db) => pragma(on as never, 'synchronous');
      try {
        await sql.raw('create table answers (id text primary key)').execute(db);
        const recorded = recordedLightly(db, dialect, (connection) => sql.raw("insert into answers values ('a1')").execute(connection));
        await expect(recorded).rejects.toThrow(DurabilityNotRestored);
        await expect(recorded).rejects.toMatchObject({ cause: { code: 'SQLITE_IOERR' } });
        // The next commit is synced again, and what the relaxed record wrote stays.
        expect(await synchronous()).toBe(2);
        expect((await sql.raw('select id from answers').execute(db)).rows).toEqual([{ id: 'a1' }]);
        expect(await recordedLightly(db, dialect, (connection) => synchronous(connection))).toBe(1);
        expect(await synchronous()).toBe(2);
      } finally {
        await db.destroy();
      }
    }));

  it('runs no statement on the old connection when the file cannot be opened again', () =>
    onLedgerFile(async (dialect, dir) => {
      const refusing = observedDialect(dialect, (statement) => {
        if (statement === 'pragma synchronous = FULL') throw new Error('disk I/O error');
      });
      const db = new Kysely<LedgerTables>({ dialect: refusing });
      try {
        // Gone from under the connection, the file cannot be opened again.
        rmSync(dir, { recursive: true, force: true });
        await expect(recordedLightly(db, dialect, async () => undefined)).rejects.toThrow(DurabilityNotRestored);
        await expect(sql.raw('pragma synchronous').execute(db)).rejects.toThrow('could not be opened again');
      } finally {
        await db.destroy();
      }
    }));
});
