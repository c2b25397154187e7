// Runs the ledger's migrations on open (Kysely's Migrator: versions recorded in
// `ledger_migration`; on PostgreSQL under an advisory lock, on SQLite in an IMMEDIATE
// transaction), so any number of instances may start at once. On PostgreSQL some indexes of the
// payments table are built after that transaction, in the background (index-builds.ts).
import { sql, Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import { FIRST_MIGRATION, migrations, UNPREFIXED_TABLES } from './migrations.js';
import type { LedgerTables } from './schema.js';

async function currentSchema(db: Kysely<LedgerTables>, wanted: string | undefined): Promise<string> {
  const { rows } = await sql<{ schema: string | null; path: string }>`select current_schema() as schema, current_setting('search_path') as path`.execute(db);
  const schema = rows[0]?.schema;
  if (schema && wanted !== undefined && schema !== wanted) {
    // The connection's options never reached the server: a pooler told to ignore them
    // (PgBouncer's ignore_startup_parameters = options). The ledger would be another schema's.
    throw new Error(
      `ledger: asked for schema ${wanted}, but the server's search_path is ${rows[0]?.path ?? '(none)'}: the connection's options (-c search_path=…) did not reach PostgreSQL, as when a pooler such as PgBouncer ignores them. ` +
        `Set the schema on the database role instead (ALTER ROLE <user> SET search_path = ${wanted}) and leave it out of the URL and the schema option, or connect to PostgreSQL directly`,
    );
  }
  if (!schema) {
    // A search_path naming a schema not created yet (a URL's options=-c search_path=payform).
    const path = rows[0]?.path ?? '';
    throw new Error(`ledger: the search_path (${path}) names no schema of this database: create the ledger's (CREATE SCHEMA ${/^[a-z_][a-z0-9_]*$/.test(path) ? path : 'payform'}), or name one that exists in the URL's options=-c search_path=…`);
  }
  return schema;
}

/** How the ledger gets a place of its own, for a refusal of a place that holds another's tables. */
function ownPlace(dialect: 'sqlite' | 'postgres'): string {
  return dialect === 'postgres'
    ? 'Give the ledger a schema of its own: create it (CREATE SCHEMA payform) and name it in the URL, ' +
        'PAYFORM_DATABASE_URL=postgres://…/<database>?options=-c%20search_path%3Dpayform (openLedger: its schema option, which creates it)'
    : 'Give the ledger a file of its own: PAYFORM_DATABASE_URL=./data/payform.db, or another path no other program writes';
}

/**
 * A new ledger's place (no `ledger_migration` there yet) that already holds a table of a name
 * its first migrations create is refused before anything is created: migrated, the first one
 * fails half-way, leaving its version tables behind in the shop's schema. One catalog read.
 */
async function refuseTakenNames(db: Kysely<LedgerTables>, dialect: 'sqlite' | 'postgres', schema: string | undefined): Promise<void> {
  const names = sql.join([...UNPREFIXED_TABLES, 'ledger_migration']);
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} and c.relname in (${names})`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where name in (${names})`.execute(db);
  const present = new Set(rows.map(({ name }) => name));
  // An existing ledger (0.2's tables are unprefixed): its migrations take it from where it is.
  if (present.has('ledger_migration')) return;
  const taken = UNPREFIXED_TABLES.filter((name) => present.has(name));
  if (taken.length === 0) return;
  const place = dialect === 'postgres' ? `schema "${schema}"` : 'the database';
  const tables = taken.length > 1 ? `tables named ${taken.join(', ')}` : `a table named ${taken[0]}`;
  throw new Error(`ledger: migration ${FIRST_MIGRATION} cannot run: ${place} already has ${tables}, which the ledger's first migrations create (nothing was created). ${ownPlace(dialect)}`);
}

/**
 * Brings the ledger's schema up to date: the migrations it ran, in order (all of them for a new
 * ledger), and on PostgreSQL the schema it is in. `wantedSchema`: the one asked for (the schema
 * option), refused if it is not in force.
 */
export async function migrateToLatest(db: Kysely<LedgerTables>, dialect: 'sqlite' | 'postgres', wantedSchema?: string): Promise<{ ran: string[]; schema?: string }> {
  // Kysely finds its own tables by introspection (on PostgreSQL, of the ledger's schema only:
  // postgres.ts) and names them with this schema.
  const migrationTableSchema = dialect === 'postgres' ? await currentSchema(db, wantedSchema) : undefined;
  await refuseTakenNames(db, dialect, migrationTableSchema);
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
    // Another name of theirs taken (an index, a sequence): the same way out.
    const taken = (error as { code?: unknown }).code === '42P07' || /\b(table|index) \S+ already exists/.test(reason) ? `. ${ownPlace(dialect)}` : '';
    throw new Error(`ledger: migration ${failed ?? '(setup)'} failed: ${reason}${taken}`, { cause: error });
  }
  const ran = (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  return migrationTableSchema ? { ran, schema: migrationTableSchema } : { ran };
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
