// SQLite specifics, kept here so the queries stay one implementation.
// - Every transaction is BEGIN IMMEDIATE: it takes the write lock before its first read, so a
//   read-check-write (a refund limit, a pay claim) cannot interleave with another process's
//   writes, and a waiting writer waits for the lock (SyncedConnection, off the event loop)
//   instead of failing on a stale snapshot.
// - DDL runs in those transactions too (SQLite supports it), so two processes opening one file
//   migrate one after the other.
// - Durability is decided at each commit, here, below Kysely (see LedgerSqliteDatabase).
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, SqliteAdapter, SqliteDriver, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type Database from 'better-sqlite3';
import { DAMAGED_CODES, STORAGE_CODES } from './availability.js';
import { loadSqlite, sqliteBuildProblem } from './drivers.js';
import { fileFaultRefusal, fullDiskRefusal } from './file-faults.js';
import { FileWatch, removeLeftovers, takeBackSaved } from './file-gone.js';
import { FolderWatch } from './ledger-folder.js';
import type { LedgerLog } from './index-builds.js';
import type { CompiledQuery as Query, DatabaseConnection, DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler, QueryResult, SqliteDatabase, SqliteStatement } from 'kysely';
import { LedgerNotDurable } from './durability.js';
import type { CommitObserver } from './durability.js';
import type { LedgerTables } from './schema.js';

const STATEMENT_CACHE_SIZE = 256;

/**
 * A disk whose syncs take longer than this, lately, is synced on libuv's thread pool instead of
 * the event loop. Handing a sync to a thread costs about 50 µs of CPU on a small VM (waking the
 * thread, then the event loop), which a fast disk's sync (0.15 ms here) does not repay; and an
 * event loop left free while the disk works wakes for each request as it comes, where one that
 * waited reads the ones that came meanwhile in one turn (a webhook group's 1–1.5 ms syncs, sent
 * aside, cost the bench's route about 140 µs of CPU a delivery). A networked or busy volume's
 * syncs, of several milliseconds, would stop the whole companion each time.
 */
const SLOW_SYNC_MS = 2;
/** The weight of the latest sync in the moving average: a few slow ones in a row move it. */
const SYNC_WEIGHT = 0.2;

/** A statement as Kysely's driver runs it, and whether it only reads. */
interface WatchedStatement extends SqliteStatement {
  readonly readsOnly: boolean;
}

/**
 * The one handle on the file, as Kysely's driver uses it. Kysely prepares every query afresh;
 * compiling the SQL costs about as much as running it, and the ledger's queries are a small
 * fixed set, so the prepared statements are kept.
 *
 * The file runs with synchronous = NORMAL, and this handle syncs the WAL itself (fdatasync,
 * what FULL does inside SQLite) after each commit that wrote — a COMMIT, or a write outside a
 * transaction. On a fast disk it syncs before the statement returns; on one whose syncs take
 * over SLOW_SYNC_MS it syncs on libuv's thread pool, the companion reading the next requests
 * meanwhile. Either way the statement's caller is answered once the sync has ended, and the one
 * connection stays held until then (SyncedConnection), so no other query of this process sees
 * the commit before it is on the disk. (Another process on the same file may read it in that
 * moment, where FULL would have synced first; whatever that process writes is synced in turn,
 * and its sync covers this commit too.) The sync is left out only when the work in hand said so:
 * `lightly` work (no commit of it waits), or an open transaction whose commit was marked light
 * by `commitLightly` — decided after its statements ran, which `pragma synchronous` cannot be
 * (SQLite refuses to change it inside a transaction). What is left unsynced is in the WAL, safe
 * from a crash of the process; a power cut or an OS crash may undo it until the next synced
 * commit, whose sync covers the whole WAL written before it.
 */
class LedgerSqliteDatabase implements SqliteDatabase {
  readonly #database: Database.Database;
  readonly #statements = new Map<string, WatchedStatement>();
  /** The WAL to sync; undefined in memory. */
  readonly #wal: string | undefined;
  /**
   * The WAL, opened at the first commit (SQLite creates it at the first write of a new file; the
   * ledger's first commit is its migration at start) and held: a commit's sync then never needs
   * a file descriptor a busy process may not have.
   */
  #walFd: number | undefined;
  readonly #onCommit: CommitObserver | undefined;
  /** Depth of `lightly` work: its commits are not synced. */
  #light = 0;
  /** The open transaction's commit is not synced (cleared when it ends). */
  #lightCommit = false;
  /** Something was written since the last commit (a statement that is not read-only ran). */
  #wrote = false;
  /** Why a sync failed: no statement runs after it. */
  #notDurable: LedgerNotDurable | undefined;
  /** How long a sync takes, lately (a moving average, ms): it decides where the next one runs. */
  #typicalSyncMs = 0;
  /** The sync the last statement's commit started aside, until its caller takes it (`takeSync`). */
  #syncing: Promise<void> | undefined;
  /** The ledger's path, watched for the file it opened: one no longer there was deleted under it (file-gone.ts). */
  readonly #watch: FileWatch | undefined;
  /** Its folder and -shm file, looked at while idle (ledger-folder.ts). */
  readonly #folder: FolderWatch | undefined;

  constructor(
    database: Database.Database,
    wal: string | undefined,
    onCommit: CommitObserver | undefined,
    /** How long a statement waits for another process's lock on the file (SyncedConnection). */
    readonly lockWaitMs: number,
    /** The file's path as a restart opens it (absolute, links not followed), and where it says what it does. */
    watched?: { readonly location: string; readonly log: LedgerLog },
  ) {
    this.#database = database;
    this.#wal = wal;
    this.#onCommit = onCommit;
    this.#folder = watched && new FolderWatch(this.#file!, watched.log);
    this.#watch =
      watched &&
      new FileWatch(
        database,
        watched.location,
        watched.log,
        (savedTo, saved) => {
          const gone = Object.assign(new Error(`the ledger file ${watched.location} was deleted, moved or replaced while the ledger had it open`), { code: 'ENOENT' });
          this.#notDurable = new LedgerNotDurable(gone, this.#file, { savedTo, saved });
        },
        () => this.#lookAround(),
      );
  }

  prepare(sql: string): SqliteStatement {
    // Each refused statement its own error, as each refused call of a database that is away: an
    // operator counts them (LedgerOutage), and the same object thrown again would count once.
    if (this.#notDurable) {
      const { cause, savedTo, saved, walGone } = this.#notDurable;
      throw new LedgerNotDurable(cause, this.#file, { savedTo, saved, walGone });
    }
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#watched(this.#database.prepare(sql), sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  get inTransaction(): boolean {
    return this.#database.inTransaction;
  }

  /** Whether the statement prepared for `sql` only reads: another process's write lock never stops it (WAL). */
  readsOnly(sql: string): boolean {
    return this.#statements.get(sql)?.readsOnly ?? false;
  }

  /** The sync of the commit the last statement made, if it made one: its caller waits for it. */
  takeSync(): Promise<void> | undefined {
    const syncing = this.#syncing;
    this.#syncing = undefined;
    return syncing;
  }

  /** Before it closes: its path looked at once more, and what it held saved if its file is gone. */
  async beforeClose(): Promise<void> {
    await this.#watch?.close();
  }

  close(): void {
    this.#database.close();
    // SQLite leaves the WAL and -shm of a file deleted under it; the next file at the path would
    // read them as its own (a backup put back there would get this file's last commits).
    if (this.#watch?.savedTo !== undefined && this.#walFd !== undefined) removeLeftovers(this.#file!, this.#walFd);
    if (this.#walFd !== undefined) closeSync(this.#walFd);
    this.#walFd = undefined;
  }

  /** Runs `work` with every commit it makes unsynced (the caller holds the one connection). */
  async lightly<T>(work: () => Promise<T>): Promise<T> {
    this.#light += 1;
    try {
      return await work();
    } finally {
      this.#light -= 1;
    }
  }

  /** The open transaction's commit need not wait for the disk; outside one, nothing. */
  commitLightly(): void {
    if (this.#database.inTransaction) this.#lightCommit = true;
  }

  /** The statement as Kysely's driver uses it, with the commit it may make synced after it runs. */
  #watched(statement: Database.Statement, sql: string): WatchedStatement {
    const rowOf = statement.reader ? rowMaker(statement.raw(true)) : undefined;
    // SQLite calls BEGIN IMMEDIATE read-write, and a pragma that only reads a setting.
    const writes = !statement.readonly && !/^\s*(begin\b[\w\s]*|pragma\s+\w+\s*)$/i.test(sql);
    // A row statement that touched no row wrote nothing (a repeat's INSERT … DO NOTHING); DDL always writes.
    const rows = /^\s*(insert|replace|update|delete)\b/i.test(sql);
    const rollback = /^\s*rollback\s*$/i.test(sql);
    // A transaction begins with nothing written and nothing marked, whatever the last one left.
    const begins = /^\s*begin\b/i.test(sql);
    const after = <R>(result: R, touched: number | bigint): R => {
      if (begins) this.#forget();
      if (writes && (!rows || touched !== 0)) this.#wrote = true;
      else if (rollback) this.#wrote = false;
      if (!this.#database.inTransaction) this.#committed();
      return result;
    };
    // A statement that failed and left no transaction open ended it undone: a COMMIT that could
    // not write (a full disk), a trigger's RAISE(ROLLBACK). Its marks must not reach the next one.
    const failed = (error: unknown): never => {
      if (!this.#database.inTransaction) this.#forget();
      // A full or read-only disk, a damaged file: the operator is told which file's (availability.ts, LedgerOutage).
      const code = error instanceof Error ? String((error as { code?: unknown }).code) : '';
      if (this.#wal !== undefined && (STORAGE_CODES.test(code) || DAMAGED_CODES.test(code))) Object.assign(error as Error, { ledgerFile: this.#file });
      throw error;
    };
    return {
      reader: statement.reader,
      readsOnly: statement.readonly,
      all: (parameters: ReadonlyArray<unknown>) => {
        let result: unknown[];
        try {
          result = statement.all(parameters) as unknown[][];
        } catch (error) {
          return failed(error);
        }
        if (rowOf) for (let index = 0; index < result.length; index += 1) result[index] = rowOf(result[index] as unknown[]);
        return after(result, result.length);
      },
      run: (parameters: ReadonlyArray<unknown>) => {
        let result: Database.RunResult;
        try {
          result = statement.run(parameters);
        } catch (error) {
          return failed(error);
        }
        return after(result, result.changes);
      },
      // Kysely streams selects only: nothing to commit.
      iterate: function* (parameters: ReadonlyArray<unknown>) {
        for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield rowOf ? rowOf(values) : values;
      },
    } as WatchedStatement;
  }

  /** The ledger file (the WAL's name without -wal). */
  get #file(): string | undefined {
    return this.#wal?.slice(0, -'-wal'.length);
  }

  #forget(): void {
    this.#wrote = false;
    this.#lightCommit = false;
  }

  /** Out of a transaction after a statement: what it wrote is committed; synced unless light. */
  #committed(): void {
    const light = this.#light > 0 || this.#lightCommit;
    this.#lightCommit = false;
    if (!this.#wrote) return;
    this.#wrote = false;
    if (this.#wal === undefined) return;
    if (light) return void this.#onCommit?.({ synced: false });
    if (this.#typicalSyncMs < SLOW_SYNC_MS) return this.#syncHere(this.#wal);
    const syncing = this.#syncAside(this.#wal);
    // Its caller is told of a failure; a statement no caller waits on must not crash the process.
    syncing.catch(() => undefined);
    this.#syncing = syncing;
  }

  /** The WAL synced on this thread, before the statement returns: a fast disk's way. */
  #syncHere(wal: string): void {
    const started = performance.now();
    try {
      fdatasyncSync(this.#walOf(wal));
    } catch (error) {
      throw this.#notSynced(error);
    }
    this.#synced(performance.now() - started);
  }

  /** The WAL synced on libuv's thread pool, its caller answered after it (SyncedConnection): a slow disk's way. */
  async #syncAside(wal: string): Promise<void> {
    const started = performance.now();
    try {
      const fd = this.#walOf(wal);
      await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      throw this.#notSynced(error);
    }
    this.#synced(performance.now() - started);
  }

  /** The WAL's descriptor, once it is known to be the file a restart would read. */
  #walOf(wal: string): number {
    // First the file itself, before the WAL is opened (one stat a synced commit, a group's on the
    // webhook path: about a microsecond): gone with its WAL (`rm -rf` of the folder), only a
    // copy keeps what it held.
    if (this.#watch?.check()) throw this.#notDurable!;
    const fd = (this.#walFd ??= openSync(wal, 'r'));
    // SQLite keeps its WAL while a connection is open; one gone from the folder is no longer
    // the file a restart would read, so syncing what is held would prove nothing. (Closing
    // folds it into the file, which is still there.)
    if (fstatSync(fd).nlink === 0) throw this.#walGone(wal);
    return fd;
  }

  /**
   * The WAL deleted under the open file: what it holds is still readable through the held
   * descriptor, and only until the process ends — a kill, a crash or a power cut loses every
   * commit not yet in the file. So it is written into the file now (a checkpoint, which syncs the
   * file), and the ledger takes no more work: SQLite would go on writing into the deleted log.
   */
  #walGone(wal: string): LedgerNotDurable {
    const deleted = Object.assign(new Error(`the write-ahead log ${wal} was deleted while the ledger had it open`), { code: 'ENOENT' });
    this.#notDurable = new LedgerNotDurable(deleted, this.#file, { walGone: this.#keepDeletedWal(wal) ? 'kept' : 'held' });
    return this.#notDurable;
  }

  /** Whether the deleted WAL's commits are now all in the file. */
  #keepDeletedWal(wal: string): boolean {
    // A WAL at the path again is another process's, and its index with it: not this one's to fold in.
    if (existsSync(wal)) return false;
    try {
      const [result] = this.#database.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      return result !== undefined && result.busy === 0 && result.checkpointed === result.log;
    } catch {
      // Left for the close's checkpoint (SIGTERM), which the error's fix asks for.
      return false;
    }
  }

  /** What the idle look finds beside the file: a WAL deleted while nothing was written, the folder, the -shm. */
  #lookAround(): void {
    if (this.#notDurable === undefined && this.#wal !== undefined && this.#walFd !== undefined && fstatSync(this.#walFd).nlink === 0) this.#walGone(this.#wal);
    this.#folder?.look();
  }

  #synced(tookMs: number): void {
    this.#typicalSyncMs += (tookMs - this.#typicalSyncMs) * SYNC_WEIGHT;
    // After the sync's failure handling: an observer's own error is its caller's, not a disk that refused.
    this.#onCommit?.({ synced: true });
  }

  /** A failed sync may have dropped what it was to write: nothing after it is trusted. */
  #notSynced(error: unknown): LedgerNotDurable {
    if (error instanceof LedgerNotDurable) return error;
    // Said by whoever meets it (the companion's outage line), not by a process warning on stderr
    // beside the log: that was a second line, in another format, for one fault.
    this.#notDurable = new LedgerNotDurable(error, this.#file);
    return this.#notDurable;
  }
}

/**
 * Turns a raw row (its values in column order) into the object better-sqlite3 would have made,
 * with one literal of the statement's columns. better-sqlite3 (on Node 20) builds each row by
 * setting its columns one by one on an empty object, each name interned again and each a step of
 * the object's shape: for the ledger's wide rows (a session read with its latest attempt has 49
 * columns) about twice the time of the array and this literal, whose shape V8 makes once. A
 * repeated name keeps its last value, as there; a column named `__proto__` is a key of its own
 * (there it went to the prototype's setter and was lost).
 */
function rowMaker(statement: Database.Statement): (values: unknown[]) => Record<string, unknown> {
  const fields = statement.columns().map(({ name }, index) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: values[${index}]`);
  // The names are the ledger's own SQL's columns, never a caller's data.
  return new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Record<string, unknown>;
}

/** How long a statement waits for another process's lock on the file before it fails (SQLITE_BUSY, an outage). */
const LOCK_WAIT_MS = 5_000;
/** How long an open that wants the file alone waits for another connection to finish closing it. */
const CLOSING_WAIT_MS = 1_000;
/** The pauses between its tries: short first, as SQLite's own busy handler makes them. */
const LOCK_PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100] as const;
const COMMIT = /^\s*commit\s*$/i;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

/**
 * Kysely's connection, answering a statement that committed once its WAL is synced. Kysely
 * holds the one connection until the answer (a transaction until its COMMIT's), so nothing
 * else of this process runs on the file meanwhile; the event loop is free.
 */
class SyncedConnection implements DatabaseConnection {
  /**
   * Until when a statement meeting another process's lock fails at once (performance.now()):
   * one gave up waiting for it, and no write got through since. Statements queue behind one
   * another for the one connection, and each waiting its own five seconds would keep every
   * request of a locked minute waiting five seconds more than the one before it. It ends after
   * the same wait, so a lock taken again later is waited for as any.
   */
  #lockedOutUntil = 0;

  constructor(
    private readonly connection: DatabaseConnection,
    private readonly database: LedgerSqliteDatabase,
  ) {}

  async executeQuery<R>(query: Query): Promise<QueryResult<R>> {
    const result = await this.#whenUnlocked<R>(query);
    // Most statements commit nothing, or sync in place: no turn of the event loop to wait for.
    const syncing = this.database.takeSync();
    if (syncing) await syncing;
    return result;
  }

  /**
   * The statement, tried again while another process holds the file's lock (a backup, a
   * database browser, another companion writing): SQLite's busy handler would wait as long,
   * but asleep on the event loop, so the whole companion stopped with it. Only a statement that
   * left nothing half done runs again: one outside a transaction (BEGIN IMMEDIATE among them)
   * or a COMMIT; inside BEGIN IMMEDIATE's lock no other writer can come between.
   */
  async #whenUnlocked<R>(query: Query): Promise<QueryResult<R>> {
    let deadline: number | undefined;
    for (let tries = 0; ; tries += 1) {
      // Read before it runs: had SQLite undone a transaction on SQLITE_BUSY, its statement, run
      // again alone, would commit apart from the rest of its work.
      const outside = !this.database.inTransaction;
      try {
        const result = await this.connection.executeQuery<R>(query);
        // A read gets through a lock as well: only a write says it is gone.
        if (this.#lockedOutUntil !== 0 && !this.database.readsOnly(query.sql)) this.#lockedOutUntil = 0;
        return result;
      } catch (error) {
        if (!isBusy(error) || !(outside || COMMIT.test(query.sql))) throw error;
        const now = performance.now();
        if (now < this.#lockedOutUntil) throw error;
        deadline ??= now + this.database.lockWaitMs;
        if (now >= deadline) {
          this.#lockedOutUntil = now + this.database.lockWaitMs;
          throw error;
        }
        await sleep(LOCK_PAUSES_MS[Math.min(tries, LOCK_PAUSES_MS.length - 1)]);
      }
    }
  }

  streamQuery<R>(query: Query, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(query, chunkSize);
  }
}

class ImmediateTransactionDriver extends SqliteDriver {
  #synced: SyncedConnection | undefined;

  constructor(private readonly database: LedgerSqliteDatabase) {
    super({ database });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // SQLite has the one connection: wrapped once.
    const connection = await super.acquireConnection();
    return (this.#synced ??= new SyncedConnection(connection, this.database));
  }

  override async destroy(): Promise<void> {
    // The statement holding the connection ends, and its sync with it (SyncedConnection waits for
    // it), before the WAL's descriptor closes: a sync must never meet a closed or reused one.
    // Kept: nothing runs after. What a ledger whose file was deleted under it holds is saved first.
    await this.acquireConnection();
    await this.database.beforeClose();
    await super.destroy();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  // A transaction SQLite already undid (a COMMIT on a full disk, an I/O error) has nothing to
  // roll back: a ROLLBACK would fail and its error would hide the one that says what happened.
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.database.inTransaction) await super.rollbackTransaction(connection);
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
    return new ImmediateTransactionDriver(this.database);
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
  /** The open transaction's commit need not wait for the disk (LedgerSqliteDatabase). */
  commitLightly(): void {
    this.database.commitLightly();
  }
  /** `work` on the one connection, its commits not waiting for the disk. */
  lightly<T>(work: () => Promise<T>): Promise<T> {
    return this.database.lightly(work);
  }
}

/**
 * Runs `work` on the one connection without syncing its commits: they are in the WAL (safe
 * from a crash of the process) but a power cut or an OS crash in the next moments may undo
 * them — until the next synced commit, whose sync covers the WAL written before it. Only for
 * what the gateway holds and says again: the answer to a pay call (its webhook follows, the
 * reconciler reads an attempt left open), never a claim made before calling the gateway. It
 * saves the pay call one of its two syncs of the disk. Kysely lends the connection to this work
 * alone, so no other work's commit goes unsynced.
 */
export function recordedLightly<T>(db: Kysely<LedgerTables>, dialect: LedgerSqliteDialect, work: (db: Kysely<LedgerTables>) => Promise<T>): Promise<T> {
  return db.connection().execute((connection) => dialect.lightly(() => work(connection)));
}

export interface SqliteOptions {
  /** Told of each commit that wrote, synced or not (tests, metrics). */
  readonly onCommit?: CommitObserver;
  /** How long a statement waits for another process's lock on the file; 5 s unless a test says. */
  readonly lockWaitMs?: number;
  /**
   * Hold the file alone until closed (SQLite's exclusive locking mode, taken at the first read):
   * the open is refused while any other connection has it open — a companion running on it —
   * and nothing else can open it meanwhile. For a copy of the whole ledger (ledger-copy.ts).
   */
  readonly alone?: boolean;
  /** Where the ledger says what it does by itself (a file deleted under it saved, and taken back); the console by default. */
  readonly log?: LedgerLog;
  /** `:memory:` only: better-sqlite3's serialize() of a migrated ledger, which this one starts as a copy of (InternalOpenOptions). */
  readonly memoryImage?: Buffer;
}

/**
 * What openLedger reads beyond LedgerOptions, internal — in neither LedgerOptions nor index.ts:
 * the ledger's own tests open a thousand ledgers a run as copies of one migrated once
 * (testing/databases.ts), where migrating each from nothing cost most of their CPU.
 */
export type InternalOpenOptions = Pick<SqliteOptions, 'memoryImage'>;

/**
 * `mkdir -p`, a level at a time: Node 20's recursive mkdirSync never returns for a path under
 * /proc (mkdir answers ENOENT there while the parent exists), and a database URL pointing there
 * would hang the start instead of naming the problem. Whether it made `directory` itself.
 */
function makeDirectory(directory: string): boolean {
  if (existsSync(directory)) return false;
  makeDirectory(dirname(directory));
  try {
    mkdirSync(directory);
    return true;
  } catch (error) {
    // Another process starting on the same file made it meanwhile, as `recursive` allowed.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * The folder made for a ledger (`./data` in a shop's project) kept out of git: the ledger holds
 * customers' names, e-mail addresses and phones, and a project's `.gitignore` made before it
 * (create-next-app's, say) does not name it, so `git add -A` committed it with its -wal. As
 * Python's venv and pytest do with theirs; a folder that was there before is left as it is.
 */
const KEPT_OUT_OF_GIT = "# Made by payform with its ledger: customers' personal data, never to be committed.\n*\n";

function keepOutOfGit(folder: string): void {
  try {
    writeFileSync(join(folder, '.gitignore'), KEPT_OUT_OF_GIT, { flag: 'wx' });
  } catch {
    // A convenience: a folder that takes no file refuses the ledger next, naming why.
  }
}

/**
 * A new ledger's file made readable by its owner only (0600), whatever the umask: it holds
 * customers' names, e-mail addresses and phones. SQLite gives its -wal and -shm files the
 * file's own permissions. A file that exists is left as its owner set it.
 */
function createPrivately(location: string): void {
  if (existsSync(location)) return;
  try {
    // A symbolic link to a file not made yet: SQLite makes the file it leads to, which 'wx' (no
    // link followed) would not, so that file is the one made here.
    closeSync(openSync(linkedFile(location), 'wx', 0o600));
  } catch (error) {
    // Made meanwhile by another process starting on it.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw fileFaultRefusal(location, error) ?? error;
  }
}

/** The path a chain of symbolic links at `path` leads to (`path` itself when it is none), followed as far as the system would. */
function linkedFile(path: string): string {
  let file = path;
  for (let hops = 0; hops < MAX_LINK_HOPS && lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink(); hops += 1) file = resolve(dirname(file), readlinkSync(file));
  return file;
}

/** Linux's limit on the symbolic links one path may go through (ELOOP past it). */
const MAX_LINK_HOPS = 40;

/**
 * SQLite opens a file it may not write read-only without a word, and an instance would then
 * report ready and fail every payment. A write begun and taken back says so at start instead.
 */
export function checkWritable(database: Database.Database, location: string): void {
  const version = database.pragma('user_version', { simple: true }) as number;
  try {
    database.exec('BEGIN');
    database.pragma(`user_version = ${version}`);
  } catch (error) {
    database.close();
    throw openRefusal(error, location);
  } finally {
    if (database.open && database.inTransaction) database.exec('ROLLBACK');
  }
}

/** `location` is a file path or `:memory:`. */
export async function sqliteDialect(location: string, { onCommit, lockWaitMs = LOCK_WAIT_MS, alone = false, log = console, memoryImage }: SqliteOptions = {}): Promise<LedgerSqliteDialect> {
  const Sqlite = await loadSqlite();
  const inMemory = location === ':memory:';
  if (memoryImage && !inMemory) throw new Error('an image opens a ledger in memory only');
  if (!inMemory) {
    try {
      if (makeDirectory(dirname(location))) keepOutOfGit(dirname(location));
    } catch (error) {
      // mkdir names the folder it tried to make; the refusal names the one in the way.
      throw fileFaultRefusal(location, error) ?? error;
    }
  }
  if (!inMemory) {
    try {
      takeBackSaved(resolve(location), linkedFile(location), log);
    } catch (error) {
      throw fileFaultRefusal(location, error) ?? error;
    }
    createPrivately(location);
  }
  const database = opened(() => new Sqlite(memoryImage ?? location), location);
  database.pragma('foreign_keys = ON');
  // What a write removes — a customer's erased details, a deleted card's token, a swept session —
  // is overwritten with zeros, not left readable in the file's free space (SQLite's default).
  database.pragma('secure_delete = ON');
  // Set before the first read, which takes the lock (setUpFile's).
  if (alone) database.pragma('locking_mode = EXCLUSIVE');
  // At open, SQLite's own wait: nothing else runs yet, and a migration by another companion may
  // hold the file. Alone, only for one closing: a companion running on it never lets go.
  database.pragma(`busy_timeout = ${alone ? CLOSING_WAIT_MS : LOCK_WAIT_MS}`);
  if (!inMemory) opened(() => setUpFile(database, location), location, alone);
  // From here on a locked file is waited for by SyncedConnection, off the event loop.
  database.pragma('busy_timeout = 0');
  // SQLite puts the WAL beside the file a symbolic link leads to, not beside the link.
  const watched = inMemory ? undefined : { location: resolve(location), log };
  return new LedgerSqliteDialect(new LedgerSqliteDatabase(database, inMemory ? undefined : `${realpathSync(location)}-wal`, onCommit, lockWaitMs, watched));
}

/**
 * SQLite's own words for a file it cannot open say neither which file nor what to do
 * ("unable to open database file", "database is locked"): the refusal at start says both.
 */
function opened<T>(open: () => T, location: string, alone = false): T {
  try {
    return open();
  } catch (error) {
    throw openRefusal(error, location, alone);
  }
}

/** The error to start with for one SQLite met opening `location`: said with the file and the fix, or as it came. */
function openRefusal(error: unknown, location: string, alone = false): unknown {
  const build = sqliteBuildProblem(error);
  if (build) return new Error(`${location} cannot be opened: ${build}`, { cause: error });
  const full = fullDiskRefusal(location, error);
  if (full) return full;
  const code = String((error as { code?: unknown }).code);
  const message = (error as Error).message;
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return fileFaultRefusal(location, error) ?? new Error(`${location} cannot be opened (${message}): it must be a file, in a folder the companion's user may write to`, { cause: error });
  }
  if (code.startsWith('SQLITE_READONLY')) {
    // The file's mode and owner, or a read-only file system, when that is what stands in the way.
    return fileFaultRefusal(location, error) ?? new Error(`${location} cannot be written (${message}): give the companion's user write access to the file and its folder, where SQLite keeps the -wal and -shm files`, { cause: error });
  }
  // SQLite's words name neither the file nor the setting; nothing is written to such a file.
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new Error(
      `${location} ${code.startsWith('SQLITE_NOTADB') ? 'is not a SQLite database' : 'is a damaged SQLite database'} (${message}): ` +
        "PAYFORM_DATABASE_URL names another kind of file, or the ledger's file is damaged — point it at the ledger's file, or put the ledger's backup there; the file is left as it is",
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_BUSY') && alone) {
    return new Error(
      `${location} is open in another process — a companion running on it, a database browser, a backup: this needs the file to itself; stop them and try again`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_BUSY')) {
    return new Error(`${location} is locked by another process (${message}): a database browser, a backup, or another companion still migrating it holds it; close it, or wait, and start again`, { cause: error });
  }
  return error;
}

/** WAL, synced commits, and a write tried: what a ledger file needs before it is used. Closed if not. */
function setUpFile(database: Database.Database, location: string): void {
  try {
    const mode = database.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`${location} cannot keep a write-ahead log (SQLite left it in journal mode ${String(mode)}): put the ledger file on a local file system`);
    // Every commit survives an OS crash or power loss too — a pay claim committed before the
    // gateway is called must never be forgotten (lost, it would lose the proof that a payment
    // was taken: a double charge) — because the handle syncs the WAL after each commit itself
    // (LedgerSqliteDatabase), as FULL would, except where the work says it need not. NORMAL
    // leaves that choice to the commit: FULL cannot be set aside inside a transaction. Webhooks
    // pay little for syncing: group commit shares one sync among the events that arrive
    // together, and those that change nothing skip it.
    database.pragma('synchronous = NORMAL');
    checkWritable(database, location);
  } catch (error) {
    if (database.open) database.close();
    throw error;
  }
}
