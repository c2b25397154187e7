// Databases as earlier versions of the ledger left them, for the tests of upgrades.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { ledgerMigrator } from '../migrate.js';
import type { migrations } from '../migrations.js';

/**
 * Migrates `db` up to and including `last`. On PostgreSQL the migrator is told its schema, as
 * the ledger's is (migrate.ts): it would otherwise find another test's tables.
 */
export async function migratedTo(db: Kysely<unknown>, last: keyof typeof migrations, schema?: string): Promise<void> {
  const { error } = await ledgerMigrator(db, schema).migrateTo(last);
  if (error) throw error;
}

/** A paid order in the tables of 0.2 (no payform_ prefix): session `s1`, order `old-1`, 1000 XTS. */
export async function paidOrderOf02(db: Kysely<unknown>): Promise<void> {
  await sql`insert into checkout_sessions (id, order_id, amount, currency, description, method, customer, allowed_modes, created_at, expires_at)
    values ('s1', 'old-1', 1000, 'XTS', 'Tea', 'purchase', '{}', '["direct"]', 1, 99999999999999)`.execute(db);
  await sql`insert into payments (order_id, session_id, attempt, mode, method, amount, currency, status, customer, created_at, updated_at, last_seen_at)
    values ('old-1', 's1', 1, 'direct', 'purchase', 1000, 'XTS', 'success', '{}', 1, 1, 1)`.execute(db);
}
