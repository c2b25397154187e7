// Runs the ledger's migrations on open (Kysely's Migrator: versions recorded in
// `ledger_migration`; on PostgreSQL under an advisory lock, on SQLite in an IMMEDIATE
// transaction), so any number of instances may start at once.
import { sql, Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import { migrations } from './migrations.js';
import type { LedgerTables } from './schema.js';

async function currentSchema(db: Kysely<LedgerTables>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('ledger: PostgreSQL has no current schema (check search_path)');
  return schema;
}

/** Brings the ledger's schema up to date; the migrations it ran, in order (all of them for a new ledger). */
export async function migrateToLatest(db: Kysely<LedgerTables>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  // Kysely finds its own tables by introspection (on PostgreSQL, of the ledger's schema only:
  // postgres.ts) and names them with this schema.
  const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db) : undefined;
  const { error, results } = await ledgerMigrator(db, migrationTableSchema).migrateToLatest();
  if (error) {
    // Kysely calls a ledger that a later payform migrated further "corrupted": it is not, and
    // whoever rolled back should hear that they need the later version, not a backup.
    const later = await migrationsUnknownHere(db).catch(() => []);
    if (later.length > 0) {
      throw new Error(
        `ledger: this database was migrated by a later payform (its migration ${later.at(-1)} is not one this version has): run that version or a later one on it; a ledger is never migrated back`,
        { cause: error },
      );
    }
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    // The database's own words belong in the message: a start-up error is often all that is read.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`ledger: migration ${failed ?? '(setup)'} failed: ${reason}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Kysely's migrator over the ledger's migrations and its version tables (in `schema` on
 * PostgreSQL). The tests of upgrades take it to an earlier version with `migrateTo`.
 */
export function ledgerMigrator<Tables>(db: Kysely<Tables>, migrationTableSchema?: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'ledger_migration',
    migrationLockTableName: 'ledger_migration_lock',
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/** Migrations recorded in the database that this version does not have, in order. */
async function migrationsUnknownHere(db: Kysely<LedgerTables>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ledger_migration order by name`.execute(db);
  return rows.map(({ name }) => name).filter((name) => !Object.hasOwn(migrations, name));
}
