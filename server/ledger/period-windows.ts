// A report's period, read in windows. SQLite runs each statement on the companion's event loop:
// the money of a month of 100,000 payments, summed by one statement, held every payment and
// webhook of the process for about 75 ms (a small VM), a million for most of a second. Cut where
// every few thousandth row of the period was created, each window summed by a statement of its
// own with the event loop and the connection free between them, a payment waits for one window
// at most, as it does for a window of the order search (order-search.ts). PostgreSQL reads in
// processes of its own: the whole period is one window.
import { setImmediate as loopTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { LedgerContext } from './context.js';
import type { CurrencyTotals } from './types.js';
import { WINDOW_ROWS } from './order-search.js';

export interface PeriodWindow {
  readonly from: number;
  readonly to: number;
}

/** The time each table's windows are cut by: a column an index of the table leads with. */
const INDEXED = { payments: 'created_at', operations: 'created_at', checkout_sessions: 'expires_at' } as const;

/**
 * [from, to) as consecutive windows of at most `rows` rows of `table` each, by the index of its
 * time (INDEXED). The windows are read moments apart: a row that changes meanwhile is counted as it was
 * when its window was read, as a report asked a moment earlier or later would count it.
 */
export async function* periodWindows(
  ctx: LedgerContext,
  table: keyof typeof INDEXED,
  from: number,
  to: number,
  { rows = WINDOW_ROWS.most, everywhere = false }: { readonly rows?: number; readonly everywhere?: boolean } = {},
): AsyncGenerator<PeriodWindow> {
  // `everywhere`: a write over the period, which on PostgreSQL too is better a bounded statement
  // at a time than one that may meet the statement deadline after others committed.
  if (ctx.dialect === 'postgres' && !everywhere) {
    yield { from, to };
    return;
  }
  for (let start = from; start < to; ) {
    // Read off the index alone (its entries hold the time).
    const time = sql.ref(INDEXED[table]);
    const next = await ctx.db
      .selectFrom(table)
      .select(sql<number>`${time}`.as('at'))
      .where(time, '>=', start)
      .where(time, '<', to)
      .orderBy(time)
      .limit(1)
      .offset(rows)
      .executeTakeFirst();
    // The rows of one millisecond stay in one window, however many there are.
    const end = next === undefined ? to : Math.max(Number(next.at), start + 1);
    yield { from: start, to: end };
    if (end < to) await loopTurn();
    start = end;
  }
}

/** Money added up per currency, window by window (moneyTotals, movementTotals). */
export class CurrencySums {
  readonly #sums = new Map<string, { paid: number; refunded: number }>();

  add(currency: string, paid: number, refunded: number): void {
    const sum = this.#sums.get(currency) ?? this.#sums.set(currency, { paid: 0, refunded: 0 }).get(currency)!;
    sum.paid += paid;
    sum.refunded += refunded;
  }

  /** Each currency's money, by its code; one that brought none (all declined, reserves not captured) left out. */
  totals(): CurrencyTotals[] {
    return [...this.#sums]
      .filter(([, { paid, refunded }]) => paid !== 0 || refunded !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, { paid, refunded }]) => ({ currency, paid, refunded, net: paid - refunded }));
  }
}
