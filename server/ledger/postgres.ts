// PostgreSQL specifics, kept here so the queries stay one implementation.
import type pg from 'pg';
import { createHash } from 'node:crypto';
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, PostgresDialect, PostgresIntrospector, sql } from 'kysely';
import type { DatabaseConnection, DatabaseIntrospector, DatabaseMetadata, DatabaseMetadataOptions, DialectAdapter, Driver, Kysely, PostgresPool, PostgresPoolClient, SchemaMetadata, TableMetadata } from 'kysely';
import { loadPostgres } from './drivers.js';
import type { LedgerLog } from './index-builds.js';
import { TransactionLockAdapter, TransactionLockDriver } from './migration-lock.js';
import { explainRefusedOptions, POOLED_STATEMENT, poolerFlag, sharesBackends } from './pooler.js';

const INT8_OID = 20;

// BIGINT (and COUNT) arrive as strings by default; the ledger's numbers are minor units and
// epoch milliseconds, always within the safe integer range, so parse them as numbers and
// refuse loudly if that ever stops being true.
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} is beyond the safe integer range`);
  return value;
}

function typesOf(driver: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID && format !== 'binary' ? parseInt8 : driver.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

interface ColumnRow {
  table: string;
  is_view: boolean;
  schema: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  comment: string | null;
}

/**
 * Kysely's introspector lists the tables of every schema in the database, calling functions
 * that look each schema and table up by name (has_schema_privilege, pg_get_serial_sequence);
 * when another schema is dropped while that query runs — parallel test files, other tenants
 * of one database — the lookup fails (3F000, 42P01) and so does the ledger's migration, which
 * introspects to find its own tables. This one looks at the ledger's own schema only
 * (current_schema(), from search_path) and joins the catalogs by oid, never by name.
 */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schemas: PostgresIntrospector;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
    this.#schemas = new PostgresIntrospector(db);
  }

  // Names only, read from pg_namespace: nothing to look up.
  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#schemas.getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind = 'v' as is_view, ns.nspname as schema, a.attname as column,
        typ.typname as type, typns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
        a.attidentity <> '' or exists (
          select 1 from pg_catalog.pg_depend d join pg_catalog.pg_class seq on seq.oid = d.objid
          where d.classid = 'pg_catalog.pg_class'::regclass and d.refobjid = c.oid and d.refobjsubid = a.attnum
            and d.deptype in ('a', 'i') and seq.relkind = 'S'
        ) as auto_incrementing,
        col_description(c.oid, a.attnum) as comment
      from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace typns on typns.oid = typ.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && (row.table === DEFAULT_MIGRATION_TABLE || row.table === DEFAULT_MIGRATION_LOCK_TABLE)) continue;
      let table = tables.get(row.table);
      if (!table) tables.set(row.table, (table = { name: row.table, schema: row.schema, isView: row.is_view, columns: [] }));
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

export class LedgerPostgresDialect extends PostgresDialect {
  readonly #pool: PreparingPool;
  /** The connection whose next transaction is the migrations' (migration-lock.ts). */
  readonly #migrating = new WeakSet<DatabaseConnection>();

  readonly #log: LedgerLog;

  constructor(pool: PreparingPool, log: LedgerLog) {
    super({ pool });
    this.#pool = pool;
    this.#log = log;
  }

  override createDriver(): Driver {
    return new TransactionLockDriver({ pool: this.#pool }, this.#migrating, this.#log);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionLockAdapter(this.#migrating);
  }

  /** Whether the server connections are a pooler's, shared between transactions (pooler.ts). */
  get transactionPooled(): boolean {
    return this.#pool.transactionPooled;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }

  /** See PreparingPool.limitStatements. */
  limitStatements(ms: number): void {
    this.#pool.limitStatements(ms);
  }
}

/** node-postgres's words for a statement past its `query_timeout`. */
const QUERY_TIMEOUT = 'Query read timeout';

/** Statement texts named so far; past this many, new texts run unnamed (generated SQL is bounded, but not by us). */
const MAX_NAMED = 512;
// PostgreSQL's "cached plan must not change result type": a named statement whose result a
// migration changed (another instance's, during a rolling upgrade). The ledger's statements name
// their columns (columns.ts), so an added column does not; a column's type changed still would.
const STALE_PLAN = '0A000';

/**
 * Every statement with parameters runs as a named prepared statement: each connection has
 * PostgreSQL parse and plan the ledger's few dozen statements once instead of on every call
 * (the webhook path's guarded UPDATE is long). The same text has the same name on every
 * connection, and in every process (the name is made from the text: two instances behind one
 * pooler never run each other's statement under one name); a plan made stale by a migration
 * gets a new name and is prepared again.
 *
 * Behind a pooler in transaction mode (pooler.ts) a connection here is not one server session:
 * a statement prepared on one is missing on the next, and a SET would change another client's
 * session. There every statement runs unnamed and no session setting is sent.
 */
class PreparingPool implements PostgresPool {
  readonly #pool: pg.Pool;
  readonly #names = new Map<string, string>();
  #generation = 0;
  /** Set once the server connections turn out to be a transaction pooler's (pooler.ts). */
  #pooled = false;
  /** Each statement's deadline (node-postgres's query_timeout), once the migrations ran. */
  #deadline: { query_timeout?: number } = {};
  /** Connections opened with the server's own deadline (statement_timeout), once the migrations ran. */
  readonly #limited = new WeakSet<pg.PoolClient>();
  /** The server's own deadline (statement_timeout) of every connection opened from now on. */
  #statementMs: number | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
    pool.on('connect', (client) => {
      if (this.#statementMs === undefined || this.#pooled) return;
      this.#limited.add(client);
      // Sent before anything the pool lends it for (a client runs its queries in order). A SET,
      // not a startup parameter: PgBouncer refuses startup parameters it does not know.
      client.query(`SET statement_timeout = ${this.#statementMs}`).catch(() => undefined);
    });
  }

  /**
   * From now on a statement without an answer in `ms` fails as the database being away (503),
   * instead of holding its request as long as a lock or a stalled connection (a failover,
   * packets lost) lasts. The server cancels it (statement_timeout, set on every connection opened
   * from now on): a statement given up here only would run on once the lock is free, and a
   * "nothing was written, try again" would have written. This side's own deadline, a second
   * later, is for a server that cannot even be told. Not during the migrations: an index built
   * on a large table takes its time.
   */
  limitStatements(ms: number): void {
    if (ms <= 0) return;
    this.#statementMs = Math.floor(ms);
    this.#deadline = { query_timeout: ms + SERVER_FIRST_MS };
  }

  get transactionPooled(): boolean {
    return this.#pooled;
  }

  /** Looks once, before anything is prepared, for a pooler in transaction mode (pooler.ts), unless the URL said so. */
  async detectPooling(declared: boolean): Promise<void> {
    if (declared || (await sharesBackends(this.#pool))) this.#pooled = true;
  }

  #name(text: string, fresh = false): string | undefined {
    if (this.#pooled) return undefined;
    let name = fresh ? undefined : this.#names.get(text);
    if (name === undefined && (fresh || this.#names.size < MAX_NAMED)) {
      // A stale plan's new name differs from every earlier one of this process.
      if (fresh) this.#generation += 1;
      name = `ledger_${createHash('sha256').update(text).digest('hex').slice(0, 24)}_${this.#generation}`;
      this.#names.set(text, name);
    }
    return name;
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.#pool.connect().catch(explainRefusedOptions);
    // A connection the migrations opened has no server deadline yet. It is given one rather than
    // closed for a new one: a server process costs ~15 ms of CPU to start and more to learn the
    // tables again. RESET ALL first takes back anything a migration set for the session (what
    // the connection was opened with, the schema's search_path included, stays). Queued before
    // anything it is lent for, as on a new connection.
    // A statement past its deadline may still be on its way, and a ROLLBACK queued behind it is
    // dropped unsent: the connection could come back mid-transaction. It is closed instead, which
    // rolls back whatever it held, and never lent again. So is one whose deadline could not be set.
    let overdue = false;
    if (this.#statementMs !== undefined && !this.#pooled && !this.#limited.has(client)) {
      this.#limited.add(client);
      client.query(`RESET ALL; SET statement_timeout = ${this.#statementMs}`).catch(() => (overdue = true));
    }
    const deadline = this.#deadline;
    const timed = <T>(query: Promise<T>): Promise<T> =>
      query.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_TIMEOUT) overdue = true;
        // A session opened read-only (a standby after a failover, default_transaction_read_only)
        // stays so for its life, though the server takes writes again: a new one is asked for.
        if ((error as { code?: string }).code === READ_ONLY_SESSION) overdue = true;
        throw error;
      });
    const named = async (text: string, values: unknown[]) => {
      const name = this.#name(text);
      if (name === undefined) return client.query({ text, values, ...deadline });
      try {
        return await client.query({ name, text, values, ...deadline });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === STALE_PLAN) return client.query({ name: this.#name(text, true)!, text, values, ...deadline });
        // A pooler the look at start missed (other clients kept taking the server connections
        // it watched): named statements stop here. The statement did not run, so it runs again
        // unnamed; inside a transaction, aborted by the refusal, that request alone fails.
        if (code === undefined || !POOLED_STATEMENT.has(code)) throw error;
        this.#pooled = true;
        return client.query({ text, values, ...deadline });
      }
    };
    return {
      // A cursor (Kysely's streaming, which the ledger does not use) goes through as it is.
      query: ((textOrCursor: unknown, values?: readonly unknown[]) =>
        typeof textOrCursor !== 'string'
          ? client.query(textOrCursor as string, values as unknown[])
          : timed(values && values.length > 0 ? named(textOrCursor, [...values]) : client.query({ text: textOrCursor, ...deadline }))) as unknown as PostgresPoolClient['query'],
      release: () => client.release(overdue),
    };
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}

/** SQLSTATE 25006, read_only_sql_transaction: a write in a session that can take none. */
const READ_ONLY_SESSION = '25006';

/** How long a call waits for a connection (a new one, or a free one of the pool). */
const CONNECT_TIMEOUT_MS = 5_000;

/** How long a statement may wait for its answer once the ledger is open (limitStatements). */
export const STATEMENT_TIMEOUT_MS = 5_000;

/** How much longer than the server's deadline this side waits: the server's cancel comes first. */
const SERVER_FIRST_MS = 1_000;

export interface PostgresOptions {
  /** Schema for every table (created if missing); the server's search_path when omitted. */
  readonly schema?: string;
  readonly poolSize?: number;
  /** Where a start waiting on another instance's migration says so. */
  readonly log?: LedgerLog;
}

export async function postgresDialect(url: string, options: PostgresOptions): Promise<LedgerPostgresDialect> {
  const driver = await loadPostgres();
  const pooler = poolerFlag(url);
  const pool = new driver.Pool({
    connectionString: pooler.url,
    max: options.poolSize ?? 10,
    // Without these a request waits for ever when the server is unreachable but the packets
    // are lost rather than refused (a network cut, a failover): each call fails within this
    // time and the companion answers 503 instead of hanging.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    // How an operator finds the companion's connections in pg_stat_activity on a shared server;
    // an application_name in the URL, or PGAPPNAME, names them otherwise.
    fallback_application_name: 'payform',
    types: typesOf(driver),
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client whose server connection drops emits 'error' on the pool; the pool discards
  // that client by itself, and without a listener Node would end the process.
  pool.on('error', () => {});
  // A client handed out to a query is the pool's no longer: when its server connection drops
  // (the database stopped, the network cut) it emits 'error' with nobody listening, and Node
  // would end the process. The query in progress fails by itself (the caller answers 503), and
  // the pool discards the dead client when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  const preparing = new PreparingPool(pool);
  try {
    await preparing.detectPooling(pooler.declared);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new LedgerPostgresDialect(preparing, options.log ?? console);
}

/**
 * Creates the schema the pool's search_path names, through the pool itself: a connection of its
 * own would cost a server process more at every start.
 */
export async function ensureSchema<DB>(db: Kysely<DB>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    // Two instances creating it at the same moment: one wins, the other sees a unique violation.
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}
