// Every statement the ledger sends, told to an observer as it goes: on SQLite one statement, on
// PostgreSQL one round trip (a transaction's BEGIN and COMMIT, a savepoint, each query). The
// count per payment is what the statement-count tests pin (and what metrics may report); it is
// taken below Kysely, at the connection, so BEGIN, COMMIT and savepoints are counted too.
// A ledger opened without an observer does not go through here at all.
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, QueryResult } from 'kysely';

/** Told the SQL of each statement before it is sent. */
export type StatementObserver = (sql: string) => void;

/**
 * Kysely sends every statement through a connection's executeQuery or streamQuery — the
 * drivers' BEGIN, COMMIT and savepoints too, given this connection — so those are observed;
 * releasing gets the driver's own connection back.
 */
function observedDriver(driver: Driver, observe: StatementObserver): Driver {
  const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
  return {
    init: () => driver.init(),
    async acquireConnection() {
      const connection = await driver.acquireConnection();
      const observed: DatabaseConnection = {
        executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
          observe(query.sql);
          return connection.executeQuery<R>(query);
        },
        streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
          observe(query.sql);
          return connection.streamQuery<R>(query, chunkSize);
        },
      };
      originals.set(observed, connection);
      return observed;
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    ...(driver.savepoint && { savepoint: driver.savepoint.bind(driver) }),
    ...(driver.rollbackToSavepoint && { rollbackToSavepoint: driver.rollbackToSavepoint.bind(driver) }),
    ...(driver.releaseSavepoint && { releaseSavepoint: driver.releaseSavepoint.bind(driver) }),
    releaseConnection: (connection) => driver.releaseConnection(originals.get(connection) ?? connection),
    destroy: () => driver.destroy(),
  };
}

/** `dialect` with every statement told to `observe` first. */
export function observedDialect(dialect: Dialect, observe: StatementObserver): Dialect {
  return {
    createDriver: () => observedDriver(dialect.createDriver(), observe),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: Kysely<unknown>) => dialect.createIntrospector(db),
  };
}
