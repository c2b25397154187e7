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
 * Kysely prepares every query afresh; compiling the SQL costs about as much as running it,
 * and the ledger's queries are a small fixed set, so keep the prepared statements.
 */
function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
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

class LedgerSqliteDialect implements Dialect {
  constructor(private readonly database: SqliteDatabase) {}
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
}

const RELAXED = CompiledQuery.raw('pragma synchronous = NORMAL');
const DURABLE = CompiledQuery.raw('pragma synchronous = FULL');

/**
 * Runs `work` on the one connection with synchronous = NORMAL, then back to FULL: its commit
 * is in the WAL (safe from a crash of the process) but not synced, so a power cut or an OS
 * crash in the next moments may undo it — until the next FULL commit, whose sync covers the
 * WAL written before it. Only for what the gateway holds and says again: the answer to a pay
 * call (its webhook follows, the reconciler reads an attempt left open), never a claim made
 * before calling the gateway. It saves the pay call one of its two syncs of the disk.
 * Kysely lends the connection to this work alone, so no other commit runs relaxed.
 */
export function recordedLightly<T>(db: Kysely<LedgerTables>, work: (db: Kysely<LedgerTables>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await connection.executeQuery(RELAXED);
    try {
      return await work(connection);
    } finally {
      await connection.executeQuery(DURABLE);
    }
  });
}

/** `location` is a file path or `:memory:`. */
export async function sqliteDialect(location: string): Promise<Dialect> {
  const Sqlite = await loadSqlite();
  const inMemory = location === ':memory:';
  if (!inMemory) mkdirSync(dirname(location), { recursive: true });
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
  return new LedgerSqliteDialect(withStatementCache(database));
}
