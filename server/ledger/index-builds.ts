// PostgreSQL's online indexes (ONLINE_INDEXES: 0018's order search, 0020's currency, 0021's session expiry and 0023's operations by date on a ledger of
// ONLINE_BUILD_PAYMENTS or more), built in the background once the ledger is open. A build
// takes minutes on a million payments, and CREATE INDEX CONCURRENTLY also waits for every
// transaction older than it in the whole database: the instance takes payments meanwhile, and
// a search by e-mail or amount reads the table until its index is there.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { ONLINE_INDEXES } from './migrations.js';
import type { OnlineIndex } from './migrations.js';
import type { LedgerTables } from './schema.js';
import { stored } from './table-names.js';

/** Where the ledger says what it does by itself (the companion's logger fits). */
export interface LedgerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * `built`: every online index is there and valid. `building`: this instance builds one.
 * `waiting`: another instance builds them (this one takes over if that one stops).
 * `failed`: the last build failed, and is tried again. `stopped`: the ledger was closed first.
 */
export type IndexBuildState = 'built' | 'building' | 'waiting' | 'failed' | 'stopped';

export interface IndexBuilds {
  readonly state: IndexBuildState;
  /** Resolves once every online index is built and valid (by any instance), or the ledger closed. */
  readonly settled: Promise<void>;
  /** Cancels a build in progress (left invalid: the next start drops it and builds it again). */
  stop(): Promise<void>;
}

export interface IndexBuildOptions {
  /** The ledger's pool: the looks at the catalog and the claim, and a build's cancel. */
  readonly db: Kysely<LedgerTables>;
  /** The schema the ledger's tables are in. */
  readonly schema: string;
  /** A connection of the builder's own, without the ledger's statement deadline; destroyed after. */
  readonly openBuilder: () => Promise<Kysely<unknown>>;
  /** Whether the ledger's server connections are a transaction pooler's (pooler.ts): no session setting is sent then. */
  readonly transactionPooled: () => boolean;
  readonly log: LedgerLog;
  /** How long a build may wait for other transactions before the ones it waits for are named (default 30 s). */
  readonly warnAfterMs?: number;
}

/** The builder is handed the unprefixed pool (its catalog reads name tables themselves). */
const SETTINGS = sql.table(stored('ledger_settings'));
/** The ledger setting that says which instance builds the online indexes, and since when. */
const BUILDER_KEY = 'online_index_build';
/** A builder's claim, renewed before each build: past this, with no build running, another takes over. */
const CLAIM_MS = 10_000;
/** How often an instance whose builds another makes looks again. */
const LOOK_MS = 1_000;
const WARN_AFTER_MS = 30_000;
/** How often a build past WARN_AFTER_MS looks for the transactions it waits for (pg_blocking_pids takes the lock manager's state). */
const BLOCKERS_LOOK_MS = 5_000;
/** After a failure: the first retry, doubled up to the last. */
const RETRY_MS = [60_000, 30 * 60_000] as const;
/** How long a close waits for a cancelled build to end (it ends at once once cancelled). */
const STOP_MS = 5_000;
const CANCEL_AGAIN_MS = 100;
/**
 * A build's session runs without the deadlines a role or the server may set (a managed service's,
 * or the advice for a transaction pooler): the build waits for every older transaction, for as
 * long as they last, and that wait counts against each (lock_timeout: its wait for their
 * snapshots is a lock's). transaction_timeout where the server has it (PostgreSQL 17). Set
 * before each statement on its connection: a new one replaces a connection that dropped. Not
 * behind a transaction pooler: the statements could run on another server session than the SET,
 * which would reach another client.
 */
const WITHOUT_DEADLINES = `select set_config(name, '0', false) from pg_settings where name in ('statement_timeout', 'lock_timeout', 'transaction_timeout')`;

/**
 * Starts building the online indexes not built and valid, unless there are none (one catalog
 * read, before it resolves). Every start checks them, so a build a crash or a cancel
 * interrupted (an invalid index) is dropped and built again.
 *
 * One instance builds at a time. A second build queued on the table's lock would end the first
 * (PostgreSQL's deadlock detector gives up the build that waits for it, at its very end), and
 * no lock can be held across the builds: an advisory one is a session's (lost behind a
 * transaction pooler), a transaction's would need a second connection. So the builder claims a
 * ledger setting, renewed before each build; the others look again every second, and take over
 * a claim older than CLAIM_MS when no build holds the table (a builder that crashed).
 */
export async function startIndexBuilds(options: IndexBuildOptions): Promise<IndexBuilds | undefined> {
  if ((await onlineIndexesDue(options.db, options.schema)).length === 0) return undefined;
  return new BackgroundBuilds(options);
}

class BackgroundBuilds implements IndexBuilds {
  state: IndexBuildState = 'waiting';
  readonly settled: Promise<void>;
  /** This instance's claim, and the tag of its statements in pg_stat_activity (found to be named or cancelled). */
  readonly #me = randomUUID();
  readonly #stopping = new AbortController();
  readonly #options: IndexBuildOptions;
  #building = false;

  constructor(options: IndexBuildOptions) {
    this.#options = options;
    this.settled = this.#run().catch((error: unknown) => options.log.error(`ledger: the online index builds stopped: ${reasonOf(error)}`));
  }

  async stop(): Promise<void> {
    if (this.state === 'built' || this.#stopping.signal.aborted) return;
    this.#stopping.abort();
    const giveUpAt = Date.now() + STOP_MS;
    let ended = false;
    void this.settled.then(() => (ended = true));
    // A build waiting for another transaction would wait on past the close. Cancelled again
    // until it ends: one on its way to the server is not in pg_stat_activity yet.
    while (!ended && Date.now() < giveUpAt) {
      if (this.#building) await sql`select pg_cancel_backend(pid) from pg_stat_activity where query like ${`${this.#tag}%`} and pid <> pg_backend_pid()`.execute(this.#options.db).catch(() => undefined);
      await Promise.race([this.settled, sleep(CANCEL_AGAIN_MS, undefined, { ref: false })]);
    }
  }

  get #tag(): string {
    return `/* payform ledger index build ${this.#me} */`;
  }

  async #run(): Promise<void> {
    const { db, schema, log } = this.#options;
    const signal = this.#stopping.signal;
    let builder: Kysely<unknown> | undefined;
    let failures = 0;
    let toldWaiting = false;
    try {
      while (!signal.aborted) {
        try {
          const [next] = await onlineIndexesDue(db, schema);
          if (!next) {
            this.state = 'built';
            return;
          }
          if (!(await claimBuilds(db, this.#me))) {
            if (!toldWaiting) log.info(`ledger: another instance builds the index ${next.index.name} (migration ${next.index.migration}); this one takes over if that one stops`);
            toldWaiting = true;
            this.state = 'waiting';
            await pause(LOOK_MS, signal);
            continue;
          }
          log.info(
            `ledger: building the index ${next.index.name} (migration ${next.index.migration}) in the background with CREATE INDEX CONCURRENTLY; payments are taken meanwhile, and a search it serves reads the whole table until it is built`,
          );
          this.state = 'building';
          builder ??= await this.#options.openBuilder();
          const started = Date.now();
          // An invalid one of its name, from a build that did not end (a crash, a cancel, a close).
          if (next.present) await this.#build(builder, next.index, `drop index concurrently if exists ${quoted(schema)}.${next.index.name}`);
          await this.#build(builder, next.index, `create index concurrently if not exists ${next.index.name} on ${next.index.table} ${next.index.columns}`);
          log.info(`ledger: built the index ${next.index.name} (migration ${next.index.migration}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          failures = 0;
        } catch (error) {
          if (signal.aborted) return;
          const retryMs = Math.min(RETRY_MS[0] * 2 ** failures, RETRY_MS[1]);
          failures += 1;
          this.state = 'failed';
          log.error(`${failureOf(error)}; tried again in ${retryMs / 60_000} min (or at the next start)`);
          // Another instance may take over meanwhile.
          await this.#release();
          await pause(retryMs, signal);
        }
      }
    } finally {
      if (this.state !== 'built') this.state = 'stopped';
      await this.#release();
      await builder?.destroy().catch(() => undefined);
    }
  }

  /** Runs a build's statement, naming the transactions it waits for once it has waited long. */
  async #build(builder: Kysely<unknown>, index: OnlineIndex, statement: string): Promise<void> {
    // The ledger closed while the builder's connection opened, or between two statements.
    if (this.#stopping.signal.aborted) throw new Error('the ledger closed');
    this.#building = true;
    const since = Date.now();
    const named = new Set<number>();
    try {
      const pooled = this.#options.transactionPooled();
      const running = builder
        .connection()
        .execute(async (session) => {
          if (!pooled) await sql.raw(WITHOUT_DEADLINES).execute(session);
          await sql.raw(`${this.#tag} ${statement}`).execute(session);
        })
        .catch(buildFailed(index, pooled));
      const ended = running.then(
        () => true,
        () => true,
      );
      let nextLook = since + (this.#options.warnAfterMs ?? WARN_AFTER_MS);
      while (!(await Promise.race([ended, sleep(Math.max(nextLook - Date.now(), 0), false, { ref: false })]))) {
        await this.#nameBlockers(index, since, named).catch(() => undefined);
        nextLook = Date.now() + BLOCKERS_LOOK_MS;
      }
      await running;
    } finally {
      this.#building = false;
    }
  }

  /** Warns once of each transaction the build waits for: who it is, never what it runs. */
  async #nameBlockers(index: OnlineIndex, since: number, named: Set<number>): Promise<void> {
    const { rows } = await sql<{ pid: number; state: string | null; application: string | null; open_s: number | null }>`
      select b.pid, b.state, b.application_name as application, round(extract(epoch from clock_timestamp() - b.xact_start))::int as open_s
      from pg_stat_activity a cross join lateral unnest(pg_blocking_pids(a.pid)) as blocker(pid) join pg_stat_activity b on b.pid = blocker.pid
      where a.query like ${`${this.#tag}%`} and a.pid <> pg_backend_pid()`.execute(this.#options.db);
    for (const { pid, state, application, open_s } of rows) {
      if (named.has(pid)) continue;
      named.add(pid);
      const who = [`pid ${pid}`, `application_name "${application ?? ''}"`, `state ${state ?? 'unknown'}`, ...(open_s === null ? [] : [`transaction open for ${open_s} s`])].join(', ');
      this.#options.log.warn(
        `ledger: the build of the index ${index.name} has waited ${Math.round((Date.now() - since) / 1000)} s for a transaction to end (${who}): CREATE INDEX CONCURRENTLY waits for every transaction older than it in the database. ` +
          `Payments are taken meanwhile; end that transaction (SELECT pg_terminate_backend(${pid})) or let it finish`,
      );
    }
  }

  async #release(): Promise<void> {
    await sql`delete from ${SETTINGS} where key = ${BUILDER_KEY} and value like ${`${this.#me} %`}`.execute(this.#options.db).catch(() => undefined);
  }
}

/** Waits `ms`, or less if the ledger closes. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal, ref: false }).catch(() => undefined);
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Takes or renews the builder's claim (`<instance> <server time in ms>`), in one statement:
 * whether this instance builds now. Another's is taken over only when stale and no session
 * holds the tables' SHARE UPDATE EXCLUSIVE lock, as a build does to its end.
 */
async function claimBuilds(db: Kysely<LedgerTables>, me: string): Promise<boolean> {
  const tables = [...new Set(ONLINE_INDEXES.map(({ table }) => table))];
  const now = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  const { rows } = await sql<{ key: string }>`insert into ${SETTINGS} as s (key, value) values (${BUILDER_KEY}, ${me} || ' ' || ${now})
    on conflict (key) do update set value = excluded.value
    where s.value like ${`${me} %`}
      or (split_part(s.value, ' ', 2)::bigint < ${now} - ${CLAIM_MS}
        and not exists (select 1 from pg_locks l where l.relation = any (${tables}::regclass[]) and l.mode = 'ShareUpdateExclusiveLock' and l.granted))
    returning s.key`.execute(db);
  return rows.length > 0;
}

/** The online indexes not built and valid, each with whether an invalid one of its name is there. */
async function onlineIndexesDue(db: Kysely<LedgerTables>, schema: string): Promise<{ index: OnlineIndex; present: boolean }[]> {
  const names = sql.join(ONLINE_INDEXES.map(({ name }) => name));
  const { rows } = await sql<{ name: string; valid: boolean }>`select c.relname as name, i.indisvalid as valid
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${schema} and c.relname in (${names})`.execute(db);
  const found = new Map(rows.map(({ name, valid }) => [name, valid]));
  return ONLINE_INDEXES.filter(({ name }) => found.get(name) !== true).map((index) => ({ index, present: found.has(index.name) }));
}

class BuildFailed extends Error {}

/** A build's failure, said with the index and its migration (the database's words kept), and what to do when a deadline cut it short. */
function buildFailed(index: OnlineIndex, pooled: boolean): (error: unknown) => never {
  return (error) => {
    const setting = deadlineOf(error);
    const fix = setting === undefined ? '' : pooled ? pooledDeadline(setting) : missedPooler(setting);
    throw new BuildFailed(`ledger: migration ${index.migration} failed building the index ${index.name} (CREATE INDEX CONCURRENTLY, payments still written meanwhile): ${reasonOf(error)}${fix}`, { cause: error });
  };
}

/**
 * The setting whose deadline ended the statement, if one did. A cancel another session asked for
 * (57014 too) is said by the database's words alone.
 */
function deadlineOf(error: unknown): string | undefined {
  const { code } = error as { code?: unknown };
  if (code === '57014') return /user request/i.test(reasonOf(error)) ? undefined : 'statement_timeout';
  if (code === '55P03' && /lock timeout/i.test(reasonOf(error))) return 'lock_timeout';
  return code === '25P04' ? 'transaction_timeout' : undefined;
}

/** What lets a build through a transaction pooler finish, where its own session cannot be told. */
function deadlineFixes(setting: string): string {
  return (
    `connect one instance's ledger to PostgreSQL directly, not through the pooler, until the indexes are built (a build there runs without deadlines), ` +
    `or clear the role's ${setting} meanwhile (ALTER ROLE <user> SET ${setting} = 0, set back once built; it reaches the server connections the pooler opens from then on)`
  );
}

function pooledDeadline(setting: string): string {
  return `. Behind a pooler in transaction mode the build cannot lift the role's ${setting} for its own session (the pooler could run a SET on another client's): ${deadlineFixes(setting)}`;
}

function missedPooler(setting: string): string {
  return `. The build had set its session's ${setting} to 0, so a pooler in transaction mode the ledger did not detect likely ran the build on another server session (say so with ?pgbouncer=true in the URL): ${deadlineFixes(setting)}`;
}

function failureOf(error: unknown): string {
  return error instanceof BuildFailed ? error.message : `ledger: the background index builds failed: ${reasonOf(error)}`;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
