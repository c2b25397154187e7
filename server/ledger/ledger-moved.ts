// A SQLite ledger copied into PostgreSQL (ledger-copy.ts) is marked as moved. Without the mark an
// old companion started on the file again took payments that the PostgreSQL fleet never saw, its
// webhooks there stored unmatched, and a nightly backup of the dead file went on succeeding. A
// marked file is refused by a start, a backup and another copy, each naming where the ledger went;
// `reopenLedger` (payform-companion reopen-ledger) takes the mark away.
import { resolve as resolvePath } from 'node:path';
import { Kysely, sql } from 'kysely';
import { sqliteDialect } from './sqlite.js';
import { refuseAbsentLedgerFile } from './sqlite-file-check.js';
import { stored } from './table-names.js';

/** Where the ledger went and when: the target as copy-ledger showed it (password masked, schema named). */
export interface LedgerMove {
  readonly to: string;
  readonly at: string;
}

const MOVED_TO = 'moved_to';
const SETTINGS = stored('ledger_settings');

export class LedgerMoved extends Error {
  constructor(
    readonly file: string,
    readonly move: LedgerMove,
    doing: 'open' | 'back up' | 'copy',
  ) {
    const where = `${file} was copied to ${move.to} by payform-companion copy-ledger on ${move.at}, and the ledger is there now`;
    const instead = {
      open: `so a payment taken on this file would be missing from it: point PAYFORM_DATABASE_URL at that PostgreSQL URL`,
      'back up': `so this file no longer changes: back the PostgreSQL ledger up with pg_dump (of its schema)`,
      copy: `and two copies would be two ledgers under one identity: run the companions on that one`,
    }[doing];
    super(`${where}, ${instead}. To run on this file again instead (what PostgreSQL took since stays there): payform-companion reopen-ledger --from ${file}`);
    this.name = 'LedgerMoved';
  }
}

/** Marks the ledger as moved to `to`, now. */
export async function markMoved(db: Kysely<unknown>, to: string, now = new Date()): Promise<void> {
  const value = JSON.stringify({ to, at: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC` } satisfies LedgerMove);
  await sql`insert into ${sql.table(SETTINGS)} (key, value) values (${MOVED_TO}, ${value}) on conflict (key) do update set value = excluded.value`.execute(db);
}

/**
 * Where the SQLite ledger was moved, if it was; read before any migration, so that a later
 * version refuses a moved file before it writes to it (a file older than the settings table was
 * never moved: a copy brings the file to its version first).
 */
export async function moveOf(db: Kysely<unknown>): Promise<LedgerMove | undefined> {
  const { rows: tables } = await sql`select 1 from sqlite_master where name = ${SETTINGS}`.execute(db);
  if (tables.length === 0) return undefined;
  const { rows } = await sql<{ value: string }>`select value from ${sql.table(SETTINGS)} where key = ${MOVED_TO}`.execute(db);
  return rows[0] && parseMove(rows[0].value);
}

/** The mark as stored, read by a caller holding the file some other way (a backup's read-only handle). */
export function parseMove(value: string): LedgerMove {
  const { to, at } = JSON.parse(value) as Partial<LedgerMove>;
  return { to: String(to), at: String(at) };
}

export const MOVED_MARK_QUERY = `select value from "${SETTINGS}" where key = '${MOVED_TO}'`;

/**
 * Takes the mark away from the ledger in the SQLite file `file`, held alone meanwhile (refused
 * while a companion has it open); what it was, so the caller can say where the ledger had gone.
 */
export async function reopenLedger(file: string): Promise<LedgerMove> {
  refuseAbsentLedgerFile(file, 'reopen');
  const db = new Kysely<unknown>({ dialect: await sqliteDialect(file, { alone: true }) });
  try {
    const move = await moveOf(db);
    if (!move) throw new Error(`${resolvePath(file)} is not marked as moved to PostgreSQL: a companion runs on it as it is, nothing to reopen`);
    await sql`delete from ${sql.table(SETTINGS)} where key = ${MOVED_TO}`.execute(db);
    return move;
  } finally {
    await db.destroy();
  }
}
