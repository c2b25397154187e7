// The SQLite test ledgers are copies of one migrated once per process (databases.ts,
// migratedImage): a copy must be the database the migrations make, or the tests on it check another.
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { fileBackend, memoryBackend, migratedImage, TestClock } from './databases.js';
import type { LedgerBackend, TestLedger } from './databases.js';
import { migrations } from '../migrations.js';

/** All a test could tell two ledgers apart by: schema, header settings, rows — the migrations' times and the ledger's id (its open's, its own) aside. */
function described(db: Database.Database): unknown {
  const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all() as string[];
  return {
    schema: db.prepare('select type, name, tbl_name, sql from sqlite_master order by type, name').all(),
    pragmas: Object.fromEntries(['user_version', 'application_id', 'auto_vacuum', 'encoding', 'page_size', 'freelist_count'].map((name) => [name, db.pragma(name, { simple: true })])),
    rows: Object.fromEntries(
      tables.map((table) => [
        table,
        (db.prepare(`select * from ${table}`).all() as Record<string, unknown>[]).filter(({ key }) => key !== 'ledger_id').map((row) => ({ ...row, ...('timestamp' in row ? { timestamp: 'run' } : {}) })),
      ]),
    ),
  };
}

function lookAt<T>(file: string | Buffer, look: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: typeof file === 'string' && file !== ':memory:' });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

const opened: TestLedger[] = [];
const open = async (backend: LedgerBackend, fromScratch: boolean) => {
  const store = await backend.open(new TestClock(), { fromScratch });
  opened.push(store);
  return store;
};
afterEach(async () => {
  for (const store of opened.splice(0)) await store.dispose();
});

it('copies a SQLite file as the migrations make it: schema, header, rows, WAL, private, an id of its own', async () => {
  const fresh = await open(fileBackend, true);
  const copy = await open(fileBackend, false);
  expect([fresh.ledger.createdNow, copy.ledger.createdNow]).toEqual([true, false]);
  expect(lookAt(copy.file!, described)).toEqual(lookAt(fresh.file!, described));
  for (const store of [fresh, copy]) {
    expect(lookAt(store.file!, (db) => [db.pragma('journal_mode', { simple: true }), db.prepare('select count(*) from ledger_migration').pluck().get()])).toEqual(['wal', Object.keys(migrations).length]);
    expect(statSync(store.file!).mode & 0o777).toBe(0o600);
  }
  // Each copy draws its own id, which a restart reads again (owner.ts).
  const other = await open(fileBackend, false);
  expect(new Set([fresh.ledger.id, copy.ledger.id, other.ledger.id]).size).toBe(3);
  expect((await copy.reopen!()).id).toBe(copy.ledger.id);
});

it('opens a SQLite ledger in memory from the image, as one the migrations make', async () => {
  const fresh = await open(fileBackend, true);
  const image = await migratedImage();
  expect(lookAt(image, described)).toEqual(lookAt(fresh.file!, described));
  // In memory either way: SQLite's journal of a database in memory, not the file's WAL.
  expect(lookAt(image, (db) => db.pragma('journal_mode', { simple: true }))).toBe(lookAt(':memory:', (db) => db.pragma('journal_mode', { simple: true })));
  const [one, two] = [await open(memoryBackend, false), await open(memoryBackend, false)];
  expect([one.ledger.createdNow, (await open(memoryBackend, true)).ledger.createdNow]).toEqual([false, true]);
  // Copies, not one database: what one holds the other does not.
  await one.ledger.saveCard({ customerId: 'cus-1', ccToken: 'tok-1', ccMask: '424242******4242' });
  expect([(await one.ledger.listCards('cus-1')).length, (await two.ledger.listCards('cus-1')).length]).toEqual([1, 0]);
  expect(one.ledger.id).not.toBe(two.ledger.id);
});
