/**
 * The database drivers are optional peer dependencies of @payform/companion: a merchant installs
 * the one its PAYFORM_DATABASE_URL needs (better-sqlite3 for a file, pg for PostgreSQL). Each is loaded
 * when a ledger first needs it, so the other is never required, and a missing one stops the
 * start at once with the package to install.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type Pg from 'pg';
import { MissingDriverError } from './missing-driver.js';

async function load<T>(driver: string, database: string, importer: () => Promise<{ default: T }>): Promise<T> {
  try {
    return (await importer()).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new MissingDriverError(driver, database);
    throw error;
  }
}

export function loadSqlite(): Promise<typeof BetterSqlite3> {
  return load('better-sqlite3', 'A SQLite ledger (PAYFORM_DATABASE_URL a file path or :memory:)', () => import('better-sqlite3'));
}

export function loadPostgres(): Promise<typeof Pg> {
  return load('pg', 'A PostgreSQL ledger (PAYFORM_DATABASE_URL postgres://…)', () => import('pg'));
}
