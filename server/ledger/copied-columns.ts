// What a copy of the ledger carries of each table (ledger-copy.ts): the PostgreSQL schema's
// columns, each checked against the SQLite file's, and each value against its column's type —
// SQLite keeps any value in any column, PostgreSQL only what the type takes. Checked here, a bad
// value is named by its row and column (never shown: it may be a card token).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { LedgerTables } from './schema.js';
import { LEDGER_TABLES, stored } from './table-names.js';
import type { LedgerTable } from './table-names.js';

/** The column types the ledger's schema uses: a value of each goes as it is (BIGINT as a JS number, as the ledger reads it). */
type CarriedType = 'text' | 'bigint' | 'integer';

export interface CopiedColumn {
  readonly name: string;
  readonly type: CarriedType;
}

const CARRIED: ReadonlySet<string> = new Set<CarriedType>(['text', 'bigint', 'integer']);
const INTEGER_RANGE = 2 ** 31;

/**
 * Each table's columns as `target` has them, in its order. Refused: a column the two sides do
 * not share (added or dropped by hand: its values would be lost), a type the copy does not know,
 * or one PostgreSQL fills itself (a sequence would need setting after the copy; the ledger has none).
 */
export async function copiedColumns(file: Kysely<LedgerTables>, target: Kysely<LedgerTables>): Promise<Map<LedgerTable, CopiedColumn[]>> {
  const { rows } = await sql<{ table: string; name: string; type: string; filled: boolean }>`
    select table_name as table, column_name as name, data_type as type,
      coalesce(column_default like 'nextval(%', false) or is_identity = 'YES' or is_generated <> 'NEVER' as filled
    from information_schema.columns
    where table_schema = current_schema() and table_name in (${sql.join(LEDGER_TABLES.map(stored))})
    order by table_name, ordinal_position`.execute(target);
  const columns = new Map<LedgerTable, CopiedColumn[]>();
  for (const table of LEDGER_TABLES) {
    const own = rows.filter((row) => row.table === stored(table));
    for (const { name, type, filled } of own) {
      if (!CARRIED.has(type) || filled) throw new Error(`${stored(table)}.${name} is ${type}${filled ? ', filled by PostgreSQL itself' : ''}: the copy carries plain text and integer columns only`);
    }
    const inFile = (await sql<{ name: string }>`select name from pragma_table_info(${stored(table)})`.execute(file)).rows.map(({ name }) => name);
    const names = own.map(({ name }) => name);
    const unshared = [...inFile.filter((name) => !names.includes(name)), ...names.filter((name) => !inFile.includes(name))];
    if (unshared.length > 0) {
      throw new Error(`${stored(table)} has columns in one database only (${unshared.join(', ')}), though both are at this version's schema: a column added or dropped by hand; undo it, then copy again`);
    }
    columns.set(table, own.map(({ name, type }) => ({ name, type: type as CarriedType })));
  }
  return columns;
}

/** `value` as `column` takes it, or a refusal naming `row()` and the column. */
export function carriedValue(value: unknown, column: CopiedColumn, row: () => string): unknown {
  if (value === null) return null;
  const fits =
    column.type === 'text'
      ? typeof value === 'string' && !value.includes('\0')
      : Number.isSafeInteger(value) && (column.type === 'bigint' || Math.abs(value as number) < INTEGER_RANGE || value === -INTEGER_RANGE);
  if (fits) return value;
  throw new Error(`${row()}: ${column.name} holds ${kindOf(value)}, which PostgreSQL's ${column.type} column does not take. Nothing was copied: correct that row in the SQLite file, then copy again`);
}

/** What a value is, never the value itself. */
function kindOf(value: unknown): string {
  if (typeof value === 'string') return value.includes('\0') ? 'text with a NUL character' : 'text';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer out of its range' : 'a fraction';
  if (typeof value === 'bigint') return 'an integer out of its range';
  if (value instanceof Uint8Array) return 'a blob';
  return `a ${typeof value}`;
}
