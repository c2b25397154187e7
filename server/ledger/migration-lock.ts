// The migrations' lock on PostgreSQL, held by their transaction rather than by a session.
// Kysely takes a session-level advisory lock before the migration transaction and lets it go
// after, as three separate round trips: behind a pooler in transaction mode (PgBouncer, the
// pooled endpoints of most hosts) each may run on another server connection, and the lock stays
// with one that the ledger no longer holds: the next start (a restart, a second instance) waits
// on it for up to an hour. A transaction-level lock, taken right after BEGIN on the migration
// transaction's own connection, goes with its COMMIT or ROLLBACK, wherever that runs.
import { CompiledQuery, PostgresAdapter, PostgresDriver } from 'kysely';
import type { DatabaseConnection, Kysely, TransactionSettings } from 'kysely';
import type { LedgerLog } from './index-builds.js';

/** Kysely's own key: an instance of an earlier payform (a session lock) and this one exclude each other. */
const LOCK_KEY = '3853314791062309107';
/** As long as Kysely waits: another instance's migration of a large table takes its time. */
const LOCK_TIMEOUT_MS = 60 * 60 * 1_000;

const TAKE_LOCK = CompiledQuery.raw(`select set_config('lock_timeout', '${LOCK_TIMEOUT_MS}', true), pg_advisory_xact_lock(${LOCK_KEY})`);
/**
 * The lock when it is free; when not, a wait longer than WAIT_SAID_MS is said (an instance
 * waiting in silence looks hung; instances started together wait a moment, which is not news).
 */
const WAIT_SAID_MS = 3_000;
const TRY_LOCK = CompiledQuery.raw(`select pg_try_advisory_xact_lock(${LOCK_KEY}) as taken`);

/** Connections whose next transaction is the migrations' (one set per dialect). */
type Pending = WeakSet<DatabaseConnection>;

async function connectionOf(db: Kysely<unknown>, use: (connection: DatabaseConnection) => void): Promise<void> {
  await db.getExecutor().provideConnection(async (connection) => use(connection));
}

/** Marks the connection the migrator holds; the lock itself comes with its transaction (below). */
export class TransactionLockAdapter extends PostgresAdapter {
  constructor(private readonly pending: Pending) {
    super();
  }

  override acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    return connectionOf(db, (connection) => this.pending.add(connection));
  }

  override releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    return connectionOf(db, (connection) => this.pending.delete(connection));
  }
}

export class TransactionLockDriver extends PostgresDriver {
  constructor(
    config: ConstructorParameters<typeof PostgresDriver>[0],
    private readonly pending: Pending,
    private readonly log: LedgerLog,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(connection, settings);
    if (!this.pending.delete(connection)) return;
    try {
      if ((await connection.executeQuery<{ taken: boolean }>(TRY_LOCK)).rows[0]?.taken) return;
      const said = setTimeout(() => {
        this.log.warn(
          'the ledger: another instance holds the migration lock, bringing the schema up to date (or one stopped mid-way, whose connection PostgreSQL has not ended yet): ' +
            `this one waits for it, up to ${LOCK_TIMEOUT_MS / 60_000} minutes, answering 503 meanwhile; pg_locks shows the holder (locktype advisory, objid of key ${LOCK_KEY})`,
        );
      }, WAIT_SAID_MS);
      try {
        await connection.executeQuery(TAKE_LOCK);
      } finally {
        clearTimeout(said);
      }
    } catch (error) {
      // Kysely rolls back only a transaction whose BEGIN returned.
      await super.rollbackTransaction(connection).catch(() => undefined);
      throw error;
    }
  }
}

