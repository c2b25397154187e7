// Where a pass over an index of (a time, a unique key) stopped — the session sweep's, the erasure
// by age's — kept in ledger_settings under the pass's name as `<time> <key>`. A pass reads from
// there on, so what it has passed is never read again; holding the row for its transaction makes
// instances passing at once take turns (PostgreSQL's row lock; SQLite's write lock does it alone).
import type { LedgerDb } from './context.js';

export interface PassPosition {
  readonly at: number;
  readonly key: string;
}

/** Before every row. */
const START: PassPosition = { at: -1, key: '' };

export function samePosition(a: PassPosition, b: PassPosition): boolean {
  return a.at === b.at && a.key === b.key;
}

/** Where the pass `name` stopped (START before its first). */
export async function readPassCursor(db: LedgerDb, name: string): Promise<PassPosition> {
  const row = await db.selectFrom('ledger_settings').select('value').where('key', '=', name).executeTakeFirst();
  return positionOf(row?.value);
}

/** Where the pass `name` stopped, its row locked until the transaction ends (made at the first pass). */
export async function holdPassCursor(trx: LedgerDb, name: string): Promise<PassPosition> {
  const row = await trx
    .insertInto('ledger_settings')
    .values({ key: name, value: '' })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('ledger_settings.value') }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return positionOf(row.value);
}

/** Moves the pass `name` on to `to`, in the transaction that holds it. */
export async function movePassCursor(trx: LedgerDb, name: string, to: PassPosition): Promise<void> {
  await trx.updateTable('ledger_settings').set({ value: `${to.at} ${to.key}` }).where('key', '=', name).execute();
}

function positionOf(value: string | undefined): PassPosition {
  const space = value?.indexOf(' ') ?? -1;
  if (!value || space < 0) return START;
  return { at: Number(value.slice(0, space)), key: value.slice(space + 1) };
}
