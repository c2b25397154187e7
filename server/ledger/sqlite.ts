// SQLite specifics, kept here so the queries stay one implementation.
// - Every transaction is BEGIN IMMEDIATE: it takes the write lock before its first read, so a
//   read-check-write (a refund limit, a pay claim) cannot interleave with another process's
//   writes, and a waiting writer honours busy_timeout instead of failing on a stale snapshot.
// - DDL runs in those transactions too (SQLite supports it), so two processes opening one file
//   migrate one after the other.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CompiledQuery, SqliteAdapter, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type Database from 'better-sqlite3';
import { loadSqlite } from './drivers.js';
import type { DatabaseConnection, DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler, SqliteDatabase } from 'kysely';
import type { LedgerTables } from './schema.js';

const STATEMENT_CACHE_SIZE = 256;

/**
 * The one handle on the file, as Kysely's driver uses it. Kysely prepares every query afresh;
 * compiling the SQL costs about as much as running it, and the ledger's queries are a small
 * fixed set, so the prepared statements are kept. `reopen` swaps in a fresh handle, set up as
 * the first was, under the same object (Kysely's connection holds this one).
 */
class LedgerSqliteDatabase implements SqliteDatabase {
  #database: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** Why reopening failed: no statement runs on the handle that could not be trusted. */
  #unopened: unknown;

  constructor(private readonly open: () => Database.Database) {
    this.#database = open();
  }

  prepare(sql: string): Database.Statement {
    if (this.#unopened !== undefined) throw new Error('the SQLite ledger file could not be opened again after its connection lost synchronous = FULL', { cause: this.#unopened });
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#database.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.#database.close();
  }

  /** Closes the handle (rolling back whatever it had open) and opens the file again. */
  reopen(): void {
    this.#statements.clear();
    try {
      this.#database.close();
    } catch {
      // The old handle's settings are what is not to be trusted: it is replaced all the same.
    }
    try {
      this.#database = this.open();
    } catch (error) {
      this.#unopened = error;
    }
  }
}

class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class LedgerSqliteDialect implements Dialect {
  constructor(private readonly database: LedgerSqliteDatabase) {}
  createDriver(): Driver {
    return new ImmediateTransactionDriver({ database: this.database });
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
  /** A fresh handle on the file, set up as at the start (synchronous = FULL among the rest). */
  reopen(): void {
    this.database.reopen();
  }
}

const RELAXED = CompiledQuery.raw('pragma synchronous = NORMAL');
const DURABLE = CompiledQuery.raw('pragma synchronous = FULL');

/** The relaxed record committed, but its connection could not be made to sync again. */
export class DurabilityNotRestored extends Error {
  constructor(cause: unknown) {
    super('a record committed with synchronous = NORMAL, then the connection could not be set back to synchronous = FULL: it was closed and the file opened again', { cause });
    this.name = 'DurabilityNotRestored';
  }
}

/**
 * Runs `work` on the one connection with synchronous = NORMAL, then back to FULL: its commit
 * is in the WAL (safe from a crash of the process) but not synced, so a power cut or an OS
 * crash in the next moments may undo it — until the next FULL commit, whose sync covers the
 * WAL written before it. Only for what the gateway holds and says again: the answer to a pay
 * call (its webhook follows, the reconciler reads an attempt left open), never a claim made
 * before calling the gateway. It saves the pay call one of its two syncs of the disk.
 * Kysely lends the connection to this work alone, so no other commit runs relaxed. Should
 * setting FULL back fail, the connection is not used again relaxed and unnoticed: the file is
 * opened afresh (FULL, as at the start) before the connection is lent to anyone else, and the
 * call fails with DurabilityNotRestored (its cause the driver's error); if the file cannot be
 * opened again, every later statement fails.
 */
export function recordedLightly<T>(db: Kysely<LedgerTables>, dialect: LedgerSqliteDialect, work: (db: Kysely<LedgerTables>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await connection.executeQuery(RELAXED);
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await work(connection) };
    } catch (error) {
      outcome = { error };
    }
    try {
      await connection.executeQuery(DURABLE);
    } catch (error) {
      dialect.reopen();
      throw new DurabilityNotRestored(error);
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  });
}

/** `location` is a file path or `:memory:`. */
export async function sqliteDialect(location: string): Promise<LedgerSqliteDialect> {
  const Sqlite = await loadSqlite();
  const inMemory = location === ':memory:';
  if (!inMemory) mkdirSync(dirname(location), { recursive: true });
  const open = () => {
    const database = new Sqlite(location);
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    if (!inMemory) {
      database.pragma('journal_mode = WAL');
      // FULL syncs the WAL at every commit, so a commit survives an OS crash or power loss too:
      // a pay claim committed before the gateway is called must never be forgotten (NORMAL could
      // drop the last commits, and with them the proof that a payment was taken — a double
      // charge). Webhooks pay little for it: group commit shares one sync among the events that
      // arrive together (npm run bench: 0–8 % fewer events/s through the route; a lone commit
      // waits about 0.3 ms more on the development machine's disk).
      database.pragma('synchronous = FULL');
    }
    return database;
  };
  return new LedgerSqliteDialect(new LedgerSqliteDatabase(open));
}
