// SQLite specifics, kept here so the queries stay one implementation.
// - Every transaction is BEGIN IMMEDIATE: it takes the write lock before its first read, so a
//   read-check-write (a refund limit, a pay claim) cannot interleave with another process's
//   writes, and a waiting writer honours busy_timeout instead of failing on a stale snapshot.
// - DDL runs in those transactions too (SQLite supports it), so two processes opening one file
//   migrate one after the other.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, SqliteAdapter, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { DatabaseConnection, DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler, SqliteDatabase } from 'kysely';

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

/** `location` is a file path or `:memory:`. */
export function sqliteDialect(location: string): Dialect {
  const inMemory = location === ':memory:';
  if (!inMemory) mkdirSync(dirname(location), { recursive: true });
  const database = new Database(location);
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  if (!inMemory) {
    database.pragma('journal_mode = WAL');
    // With WAL, NORMAL syncs at checkpoints rather than at every commit: a committed write
    // survives a crash of the process, and only an OS crash or power loss can drop the last
    // transactions. This is what makes thousands of webhook inserts per second possible.
    database.pragma('synchronous = NORMAL');
  }
  return new LedgerSqliteDialect(withStatementCache(database));
}
