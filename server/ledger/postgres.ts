// PostgreSQL specifics, kept here so the queries stay one implementation.
import type pg from 'pg';
import { PostgresDialect } from 'kysely';
import type { Dialect } from 'kysely';
import { loadPostgres } from './drivers.js';

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

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export interface PostgresOptions {
  /** Schema for every table (created if missing); the server's search_path when omitted. */
  readonly schema?: string;
  readonly poolSize?: number;
}

export async function postgresDialect(url: string, options: PostgresOptions): Promise<Dialect> {
  const driver = await loadPostgres();
  const pool = new driver.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: typesOf(driver),
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client whose server connection drops emits 'error' on the pool; the pool discards
  // that client by itself, and without a listener Node would end the process.
  pool.on('error', () => {});
  return new PostgresDialect({ pool });
}

export async function ensureSchema(url: string, schema: string): Promise<void> {
  const driver = await loadPostgres();
  const client = new driver.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema if not exists ${schema}`);
  } catch (error) {
    // Two instances creating it at the same moment: one wins, the other sees a unique violation.
    if ((error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}
