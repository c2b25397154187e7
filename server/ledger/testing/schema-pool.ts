// Migrated PostgreSQL schemas, kept for the next test instead of dropped. Creating a schema and
// running every migration in it, then dropping it, costs the server about 0.35 s of CPU: with
// hundreds of PostgreSQL ledgers a run, that was a fifth of the whole Vitest run's CPU. Emptying
// the tables (DELETE: TRUNCATE makes new files, 30× the CPU) costs under a millisecond.
//
// The pool is a table of the test database, so every Vitest worker and every later run shares
// it; a claim takes a row under SKIP LOCKED, so no schema is ever handed to two tests. A schema
// is pooled under its migrations' fingerprint (names and code): after a migration changes,
// older schemas are dropped rather than reused. A run that dies leaves its claimed schemas
// behind, as dropping did.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../migrations.js';
import { LEDGER_TABLES, stored } from '../table-names.js';

const POOL = 'public.payform_test_schemas';

/** What the pooled schemas were migrated with: a schema of another fingerprint is not reused. */
const FINGERPRINT = createHash('sha256')
  .update(JSON.stringify(Object.entries(migrations).map(([name, migration]) => [name, String(migration.up), String(migration.down)])))
  .digest('hex')
  .slice(0, 16);

/** Children before their parents (operations → payments → checkout_sessions). */
const EMPTY_TABLES = [...LEDGER_TABLES].reverse().map(stored);

export function freshSchemaName(): string {
  return `ledger_test_${randomBytes(8).toString('hex')}`;
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function withAdmin<T>(url: string, use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await admin(url).connect();
  try {
    return await use(client);
  } finally {
    client.release();
  }
}

export function dropSchema(url: string, schema: string): Promise<void> {
  return withClient(url, async (client) => {
    await client.query(`drop schema if exists ${schema} cascade`);
  });
}

/**
 * Drops a test's own database, ending its connections. PostgreSQL 15 refuses WITH (FORCE) to a
 * role without pg_signal_backend while an autovacuum worker (a process of no role) is in it, as
 * one can be soon after a companion's migrations: then the role's own sessions are ended, and a
 * plain DROP stops the worker itself.
 */
export function dropDatabase(url: string, database: string): Promise<void> {
  return withClient(url, async (client) => {
    try {
      await client.query(`drop database if exists ${database} with (force)`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42501') throw error;
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and usename = current_user and pid <> pg_backend_pid()', [database]);
      await client.query(`drop database if exists ${database}`);
    }
  });
}

/**
 * One connection per process and database for claims and releases: a new PostgreSQL backend
 * costs the server ~25 ms of CPU on this machine. It closes once idle, letting the process exit.
 */
const admins = new Map<string, pg.Pool>();

function admin(url: string): pg.Pool {
  let pool = admins.get(url);
  if (!pool) {
    pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 2_000, allowExitOnIdle: true });
    pool.on('error', () => {}); // an idle connection the server dropped: the pool replaces it
    admins.set(url, pool);
  }
  return pool;
}

/** The pool's table exists, and schemas of other fingerprints are gone: once per process and database. */
const prepared = new Map<string, Promise<void>>();

function preparePool(url: string): Promise<void> {
  let done = prepared.get(url);
  if (!done) {
    done = withAdmin(url, async (client) => {
      try {
        await client.query(`create table if not exists ${POOL} (schema text primary key, fingerprint text not null)`);
      } catch (error) {
        // Two workers creating it at once: the loser's catalog insert collides; the table is there.
        if ((error as { code?: string }).code !== '23505') throw error;
      }
      const { rows } = await client.query<{ schema: string }>(`delete from ${POOL} where fingerprint <> $1 returning schema`, [FINGERPRINT]);
      for (const { schema } of rows) await client.query(`drop schema if exists ${schema} cascade`);
    });
    prepared.set(url, done);
  }
  return done;
}

/** A migrated, empty schema from the pool, or a fresh name (the ledger migrates it on open). */
export async function claimSchema(url: string): Promise<string> {
  await preparePool(url);
  const { rows } = await withAdmin(url, (client) =>
    client.query<{ schema: string }>(
      `delete from ${POOL} where schema = (select schema from ${POOL} where fingerprint = $1 limit 1 for update skip locked) returning schema`,
      [FINGERPRINT],
    ),
  );
  return rows[0]?.schema ?? freshSchemaName();
}

/**
 * Empties a schema the test is done with (its ledgers closed) and pools it. One that cannot be
 * emptied — a test changed its tables — is dropped instead.
 */
export async function releaseSchema(url: string, schema: string): Promise<void> {
  await withAdmin(url, async (client) => {
    try {
      await client.query(EMPTY_TABLES.map((table) => `delete from ${schema}.${table};`).join(' '));
      await client.query(`insert into ${POOL} (schema, fingerprint) values ($1, $2)`, [schema, FINGERPRINT]);
    } catch {
      await client.query(`drop schema if exists ${schema} cascade`);
    }
  });
}
