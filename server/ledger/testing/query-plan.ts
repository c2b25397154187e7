// What SQLite plans for a statement the ledger sent (EXPLAIN QUERY PLAN), for the tests that
// hold a read to its index: each `?` bound to 0 unless `parameters` say otherwise.
import type Database from 'better-sqlite3';

/** The plan's lines, one per step ("SEARCH p USING INDEX …"), joined by newlines. */
export function queryPlan(db: Database.Database, statement: string, parameters: readonly unknown[] = (statement.match(/\?/g) ?? []).map(() => 0)): string {
  return db
    .prepare(`explain query plan ${statement}`)
    .all(...parameters)
    .map((row) => (row as { detail: string }).detail)
    .join('\n');
}
