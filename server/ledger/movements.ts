// The ledger's money as an accountant's journal: each sale, capture and refund dated by when it
// was made, not by when its order was. A month closed on these figures keeps them, but for what
// was still pending at its close (it counts once it succeeds, on the day it was begun): a refund made
// in November of an October order is November's (reports.ts moneyTotals dates it by its order).
//
// A sale is a purchase that succeeded, dated by its payment (the gateway decides it then); a
// capture of an auth and a refund count once they succeed, each dated by its own creation (the
// merchant's request, or when the ledger learned of one made at the gateway). A void moves no
// money, and an auth not captured is a reserve: neither is a movement.
import { sql } from 'kysely';
import type { SqlBool } from 'kysely';
import type { LedgerContext } from './context.js';
import { CurrencySums, periodWindows } from './period-windows.js';
import { movementListInput, parseInput } from './input.js';
import { pageOf, pageRequest } from './keyset.js';
import type { PagePosition } from './keyset.js';
import type { CurrencyTotals, Movement, MovementKind, MovementPage, MovementQuery } from './types.js';

/**
 * A movement's place in the journal: its time, then sales before operations, then its row's key.
 * The cursor's key is `0:<order id>` for a sale, `1:<operation id>` for a capture or refund.
 */
const SALE = '0';
const OPERATION = '1';

/** The movements made in [from, to), oldest first, paged by cursor: two reads a page, each by an index. */
export async function listMovements(ctx: LedgerContext, input: MovementQuery): Promise<MovementPage> {
  const query = parseInput(movementListInput, input);
  const page = pageRequest('movements', query);
  const position = page.position && { time: page.position.time, branch: page.position.key.slice(0, 1), key: page.position.key.slice(2) };
  const [sales, operations] = await Promise.all([readSales(ctx, query, page.limit + 1, position), readOperations(ctx, query, page.limit + 1, position)]);
  // Each read is in its database's order; merged by time, sales first at a tie (a stable sort).
  const merged = [...sales, ...operations].sort((a, b) => a.movement.at - b.movement.at || a.branch.localeCompare(b.branch));
  const { items, nextCursor } = pageOf(merged, page, ({ movement, branch, key }): PagePosition => ({ time: movement.at, key: `${branch}:${key}` }));
  return { movements: items.map(({ movement }) => movement), nextCursor };
}

interface Position {
  readonly time: number;
  readonly branch: string;
  readonly key: string;
}

interface Read {
  readonly movement: Movement;
  readonly branch: string;
  readonly key: string;
}

// A literal, not a parameter: the period's sales are a range of the (status, created_at) index.
const succeeded = (column: string) => sql<SqlBool>`${sql.ref(column)} = 'success'`;
// Never served by the index leading with status (isStatus in progression.ts): the period's
// operations are a range of their (created_at, id) index (0023), however many succeeded before.
const operationSucceeded = sql<SqlBool>`(o.status = 'success') is true`;

async function readSales(ctx: LedgerContext, query: { from: number; to: number }, limit: number, position: Position | undefined): Promise<Read[]> {
  const rows = await ctx.db
    .selectFrom('payments as p')
    .leftJoin('checkout_sessions as s', 's.id', 'p.session_id')
    .select(['p.order_id', 'p.created_at', 'p.currency', 'p.amount', 'p.payment_id', 'p.transaction_id', 's.description'])
    .where(succeeded('p.status'))
    .where(sql<SqlBool>`p.method = 'purchase'`)
    .where('p.created_at', '>=', query.from)
    .where('p.created_at', '<', query.to)
    .$if(position !== undefined, (q) =>
      position!.branch === SALE
        ? q.where(sql<SqlBool>`(p.created_at, p.order_id) > (${position!.time}, ${position!.key})`)
        : q.where('p.created_at', '>', position!.time),
    )
    .orderBy('p.created_at')
    .orderBy('p.order_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    branch: SALE,
    key: row.order_id,
    movement: {
      at: Number(row.created_at), kind: 'sale', orderId: row.order_id, currency: row.currency, amount: Number(row.amount), orderCreatedAt: Number(row.created_at),
      paymentId: row.payment_id, operationId: null, transactionId: row.transaction_id, origin: null, description: row.description,
    },
  }));
}

async function readOperations(ctx: LedgerContext, query: { from: number; to: number }, limit: number, position: Position | undefined): Promise<Read[]> {
  const rows = await ctx.db
    .selectFrom('operations as o')
    .innerJoin('payments as p', 'p.order_id', 'o.order_id')
    .leftJoin('checkout_sessions as s', 's.id', 'p.session_id')
    .select(['o.id', 'o.kind', 'o.amount', 'o.created_at', 'o.operation_id', 'o.transaction_id', 'o.origin', 'o.order_id', 'p.created_at as order_created_at', 'p.currency', 'p.payment_id', 's.description'])
    .where(operationSucceeded)
    // Only an auth's capture takes money (moneyTotals' rule); a void takes none.
    .where(sql<SqlBool>`(o.kind = 'refund' or (o.kind = 'capture' and p.method = 'auth'))`)
    .where('o.created_at', '>=', query.from)
    .where('o.created_at', '<', query.to)
    .$if(position !== undefined, (q) =>
      position!.branch === OPERATION
        ? q.where(sql<SqlBool>`(o.created_at, o.id) > (${position!.time}, ${position!.key})`)
        : q.where('o.created_at', '>=', position!.time),
    )
    .orderBy('o.created_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const kind: MovementKind = row.kind === 'refund' ? 'refund' : 'capture';
    return {
      branch: OPERATION,
      key: row.id,
      movement: {
        at: Number(row.created_at), kind, orderId: row.order_id, currency: row.currency, amount: kind === 'refund' ? -Number(row.amount) : Number(row.amount),
        orderCreatedAt: Number(row.order_created_at), paymentId: row.payment_id, operationId: row.operation_id, transactionId: row.transaction_id, origin: row.origin,
        description: row.description,
      },
    };
  });
}

/** What the movements made in [from, to) came to, per currency: sales and captures paid, refunds refunded. */
export async function movementTotals(ctx: LedgerContext, from: number, to: number): Promise<CurrencyTotals[]> {
  const sums = new CurrencySums();
  // Each table a window at a time on SQLite (period-windows.ts), side by side on PostgreSQL.
  // PostgreSQL's sum of a bigint is a numeric, read as text.
  const addSales = async () => {
    for await (const window of periodWindows(ctx, 'payments', from, to)) {
      const sales = await ctx.db
        .selectFrom('payments as p')
        .select((eb) => ['p.currency', eb.fn.sum<number | string>('p.amount').as('amount')])
        .where(succeeded('p.status'))
        .where(sql<SqlBool>`p.method = 'purchase'`)
        .where('p.created_at', '>=', window.from)
        .where('p.created_at', '<', window.to)
        .groupBy('p.currency')
        .execute();
      for (const row of sales) sums.add(row.currency, Number(row.amount), 0);
    }
  };
  const addOperations = async () => {
    for await (const window of periodWindows(ctx, 'operations', from, to)) {
      const operations = await ctx.db
        .selectFrom('operations as o')
        .innerJoin('payments as p', 'p.order_id', 'o.order_id')
        .select((eb) => ['p.currency', 'o.kind', eb.fn.sum<number | string>('o.amount').as('amount')])
        .where(operationSucceeded)
        .where(sql<SqlBool>`(o.kind = 'refund' or (o.kind = 'capture' and p.method = 'auth'))`)
        .where('o.created_at', '>=', window.from)
        .where('o.created_at', '<', window.to)
        .groupBy(['p.currency', 'o.kind'])
        .execute();
      for (const row of operations) sums.add(row.currency, row.kind === 'refund' ? 0 : Number(row.amount), row.kind === 'refund' ? Number(row.amount) : 0);
    }
  };
  await Promise.all([addSales(), addOperations()]);
  return sums.totals();
}
