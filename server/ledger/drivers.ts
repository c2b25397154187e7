/**
 * The database drivers are optional peer dependencies of @payform/companion: a merchant installs
 * the one its PAYFORM_DATABASE_URL needs (better-sqlite3 for a file, pg for PostgreSQL). Each is loaded
 * when a ledger first needs it, so the other is never required, and a missing one stops the
 * start at once with the package to install.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type Pg from 'pg';
import { rebuildStep, unfitRelease } from './driver-releases.js';
import type { Driver } from './driver-releases.js';
import { MissingDriverError } from './missing-driver.js';

/** Each driver's release, read once a process: it does not change under a running one, and a process may open many ledgers. */
const releases = new Map<string, Promise<string | undefined>>();

async function load<T>(driver: Driver, database: string, importer: () => Promise<{ default: T }>, from: string): Promise<T> {
  // Before the import: a release that crashes this Node gives no error to catch afterwards.
  const key = `${driver} ${from}`;
  if (!releases.has(key)) releases.set(key, unfitRelease(driver, from));
  const unfit = await releases.get(key);
  if (unfit) throw new Error(unfit);
  try {
    return (await importer()).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new MissingDriverError(driver, database);
    throw error;
  }
}

/** `from`: where the driver's release is looked up (a test's project; else beside this module, as the import finds it). */
export function loadSqlite(from = import.meta.url): Promise<typeof BetterSqlite3> {
  return load('better-sqlite3', 'A SQLite ledger (PAYFORM_DATABASE_URL a file path or :memory:)', () => import('better-sqlite3'), from);
}

export function loadPostgres(from = import.meta.url): Promise<typeof Pg> {
  return load('pg', 'A PostgreSQL ledger (PAYFORM_DATABASE_URL postgres://…)', () => import('pg'), from);
}

/**
 * better-sqlite3 installed without its native module (an install with --ignore-scripts, a build
 * that failed) or with one built for another Node.js: its own error lists a dozen paths tried, or
 * a NODE_MODULE_VERSION, and says nothing of the fix.
 */
export function sqliteBuildProblem(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  if (message.startsWith('Could not locate the bindings file')) {
    return `better-sqlite3 is installed without its native module (it was never built: an install with --ignore-scripts, or a build that failed): ${rebuildStep()}, which downloads a prebuilt one or compiles it (python3, make and a C++ compiler)`;
  }
  if (message.includes('NODE_MODULE_VERSION')) {
    return `better-sqlite3's native module was built for another Node.js than this one (${process.version}): ${rebuildStep()}`;
  }
  return undefined;
}
