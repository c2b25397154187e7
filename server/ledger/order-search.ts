// The order list's search. Each filter but the card's last four and the kind has an index that
// reads its matches newest first (0018, 0020, the status's and the held payments'); a search
// reads one of them and checks its other filters on the rows it reads. When those match few of
// them (a last four nobody paid with), the read goes on down the index, up to the whole ledger.
// On PostgreSQL the database does that while the event loop serves others. On SQLite it is one
// synchronous call, so the index is read there in windows, with a turn of the event loop between
// them: a payment or a webhook waits for a window, never for the whole search.
import { setImmediate as loopTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import type { z } from 'zod';
import type { LedgerContext } from './context.js';
import type { orderListInput } from './input.js';
import { after, newestFirst, upTo } from './keyset.js';
import type { PageRequest } from './keyset.js';
import { UNSETTLED } from './discrepancies.js';
import { CUSTOMER_EMAIL } from './migrations.js';
import { emailSpellings } from './email-domain.js';
import type { LedgerTables, PaymentRow } from './schema.js';
import { PAYMENT_COLUMNS } from './columns.js';

/**
 * Index entries a window reads: a few at first, for a page of common matches, then doubling up to
 * a few milliseconds of SQLite's time however rare the matches are (2–5 ms for the last four on a
 * small VM). Larger windows cost the search less (fewer statements) and the others more.
 */
export const WINDOW_ROWS = { first: 256, most: 4096 } as const;

export type OrderSearch = z.output<typeof orderListInput>;
type Condition = (eb: ExpressionBuilder<LedgerTables, 'payments'>) => Expression<SqlBool>;
type Filter = Exclude<keyof OrderSearch, 'limit' | 'cursor'>;

/**
 * The filters whose index leads a window's read, the one likely to match fewest first: a
 * customer's orders by the merchant's id or by e-mail, the few held ones, an amount, a currency, a status. The date range is read
 * by each of those indexes (and by the list's own) after its first column.
 */
const LEADING: readonly Filter[] = ['customerId', 'email', 'held', 'amount', 'currency', 'status'];
const RANGE: readonly Filter[] = ['createdFrom', 'createdTo'];

/**
 * The query's filters as conditions on a payment, in the order the SQL has them. With `only`, the
 * other filters' columns are read as `+column`, which no SQLite index serves: a window's read then
 * walks `only`'s index between the window's ends, not another index (a status's, ten times as
 * many entries) between the same ends.
 */
function conditionsOf(ctx: LedgerContext, query: OrderSearch, only?: Filter): Map<Filter, Condition> {
  const { status, kind, sessionId, customerId, held, email, cardLastFour, amount, currency, createdFrom, createdTo } = query;
  const indexed = (filter: Filter, operand: RawBuilder<unknown>) => (only === undefined || filter === only ? operand : sql`+${operand}`);
  const conditions = new Map<Filter, Condition>();
  if (status !== undefined) conditions.set('status', (eb) => eb(indexed('status', sql.ref('status')), '=', status));
  if (kind !== undefined) conditions.set('kind', (eb) => eb('method', kind === 'verifications' ? '=' : '<>', 'lookup'));
  if (sessionId !== undefined) conditions.set('sessionId', (eb) => eb('session_id', '=', sessionId));
  if (customerId !== undefined) conditions.set('customerId', (eb) => eb(indexed('customerId', sql.ref('customer_id')), '=', customerId));
  // The held payments' index, then whether a person settled each (few rows, read whole).
  if (held === true) conditions.set('held', (eb) => eb.and([eb(indexed('held', sql.ref('mismatch_report')), 'is not', null), sql<SqlBool>`${sql.raw(UNSETTLED[ctx.dialect])}`]));
  // Lower-cased by the database, as its index is: SQLite's lower() leaves all but ASCII as it
  // is, so JavaScript's would miss an address such as "Олена@…" even typed exactly.
  // Either spelling of an internationalised domain (email-domain.ts): rows of before it was kept as written too.
  if (email !== undefined) conditions.set('email', (eb) => eb(indexed('email', sql.raw(CUSTOMER_EMAIL[ctx.dialect])), 'in', loweredSpellings(email)));
  // Digits only (checked): a LIKE pattern of them has no wildcard but the leading one.
  if (cardLastFour !== undefined) conditions.set('cardLastFour', (eb) => eb('cc_mask', 'like', `%${cardLastFour}`));
  if (amount !== undefined) conditions.set('amount', (eb) => eb(indexed('amount', sql.ref('amount')), '=', amount));
  if (currency !== undefined) conditions.set('currency', (eb) => eb(indexed('currency', sql.ref('currency')), '=', currency));
  if (createdFrom !== undefined) conditions.set('createdFrom', (eb) => eb('created_at', '>=', createdFrom));
  if (createdTo !== undefined) conditions.set('createdTo', (eb) => eb('created_at', '<', createdTo));
  return conditions;
}

/**
 * A customer's e-mail as the ledger finds it (CUSTOMER_EMAIL, its index's expression): each of
 * its spellings (email-domain.ts), lowered by the database as the index is.
 */
export const loweredSpellings = (email: string) => emailSpellings(email).map((spelling) => sql<string>`lower(${spelling})`);

/** The filter whose index a search reads: the one likely to match fewest of those given. */
const leadingOf = (conditions: ReadonlyMap<Filter, Condition>): Filter | undefined => LEADING.find((filter) => conditions.has(filter));

const meeting = (conditions: Iterable<Condition>) => <O>(query: SelectQueryBuilder<LedgerTables, 'payments', O>) =>
  [...conditions].reduce((narrowed, condition) => narrowed.where(condition), query);

/** The page's payments, and one more if there is a next page (`newestFirst`). */
export function searchOrders(ctx: LedgerContext, query: OrderSearch, page: PageRequest): Promise<PaymentRow[]> {
  const conditions = conditionsOf(ctx, query);
  const leading = leadingOf(conditions);
  // A session's attempts are a handful, found by its own index.
  const checkedOnRows = !conditions.has('sessionId') && [...conditions.keys()].some((filter) => filter !== leading && !RANGE.includes(filter));
  return ctx.dialect === 'sqlite' && checkedOnRows ? ordersInWindows(ctx, query, page) : matchingOrders(ctx, query, page);
}

/** One read of the page, whatever the filters: the database walks the index as far as it takes. */
export function matchingOrders(ctx: LedgerContext, query: OrderSearch, page: PageRequest): Promise<PaymentRow[]> {
  return ctx.db.selectFrom('payments').select(PAYMENT_COLUMNS).$call(meeting(conditionsOf(ctx, query).values())).$call(newestFirst('created_at', 'order_id', page)).execute();
}

/**
 * The same rows as `matchingOrders`, read a window of entries of the leading filter's index at a
 * time (of the list's own with none): where the window ends, then the matches in it, until the
 * page (and one more) is found or the index ends. Consecutive windows, each from where the last
 * ended, so a row written meanwhile is found or not as by a page read a moment later.
 */
export async function ordersInWindows(ctx: LedgerContext, query: OrderSearch, page: PageRequest, rows: { readonly first: number; readonly most: number } = WINDOW_ROWS): Promise<PaymentRow[]> {
  const leading = leadingOf(conditionsOf(ctx, query));
  const conditions = conditionsOf(ctx, query, leading);
  const checked = [...conditions].filter(([filter]) => !RANGE.includes(filter)).map(([, condition]) => condition);
  // The dates as positions of the index (no order id sorts before ''): as conditions of their
  // own, SQLite would bound the read by them instead of the window, and read from the range's end
  // at every window.
  const { createdFrom, createdTo } = query;
  const oldest = createdFrom === undefined ? undefined : { time: createdFrom, key: '' };
  let position = createdTo !== undefined && (page.position === undefined || page.position.time >= createdTo) ? { time: createdTo, key: '' } : page.position;
  const found: PaymentRow[] = [];
  for (let windowRows = rows.first; ; windowRows = Math.min(2 * windowRows, rows.most)) {
    // Read off the index alone (its entries hold created_at and order_id).
    const end = await ctx.db
      .selectFrom('payments')
      .select(['created_at', 'order_id'])
      .$if(leading !== undefined, (q) => q.where(conditions.get(leading!)!))
      .$call(after('created_at', 'order_id', position))
      .$if(oldest !== undefined, (q) => q.$call(upTo('created_at', 'order_id', oldest!)))
      .orderBy('created_at', 'desc')
      .orderBy('order_id', 'desc')
      .limit(1)
      .offset(windowRows - 1)
      .executeTakeFirst();
    const window = end && { time: end.created_at, key: end.order_id };
    const bottom = window ?? oldest;
    found.push(
      ...(await ctx.db
        .selectFrom('payments')
        .select(PAYMENT_COLUMNS)
        .$call(meeting(checked))
        .$if(bottom !== undefined, (q) => q.$call(upTo('created_at', 'order_id', bottom!)))
        .$call(newestFirst('created_at', 'order_id', { limit: page.limit - found.length, position }))
        .execute()),
    );
    if (found.length > page.limit || window === undefined) return found;
    position = window;
    await loopTurn();
  }
}
