// Secondary operations (capture, void, refund and their split variants) as reservations:
// reserve under the order's lock (limits count what is still pending), call the gateway, then
// settle with its answer — success keeps the reservation, failure releases it.
import { randomUUID } from 'node:crypto';
import { lockPayment } from './context.js';
import type { LedgerContext, LedgerDb } from './context.js';
import { LedgerNotFound } from './errors.js';
import { operationRequestInput, parseInput } from './input.js';
import { decideOperation, orderTotals } from './money-rules.js';
import { noticeDue } from './notices.js';
import { operationProgression, progressTo } from './progression.js';
import { operationResultColumns, toJson, toOperation, toPayment } from './rows.js';
import type { OperationRow } from './schema.js';
import type { Operation, OperationOrigin, OperationProgress, OperationRequest, OperationResult, OrderTotals, Payment } from './types.js';
import { OPERATION_COLUMNS } from './columns.js';
import { getPayment } from './payments.js';
import { oncePerLedger, prepareQuery } from './prepared.js';

/** Order ids one read of operationsOfOrders takes: a page of the list (at most 200) is one statement. */
const ORDERS_PER_READ = 500;

/** An order's operations, oldest first: read under the order's lock by every operation and its webhook, prepared once per database. */
const operationsByOrder = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<{ orderId: string }, OperationRow>((slot) => ctx.db.selectFrom('operations').select(OPERATION_COLUMNS).where('order_id', '=', slot('orderId')).orderBy('created_at').orderBy('id')),
);

export async function operationsOf(ctx: LedgerContext, db: LedgerDb, orderId: string): Promise<Operation[]> {
  return toOperations(db, (await operationsByOrder(ctx)(db, { orderId })).rows);
}

/**
 * The rows as operations, each with its currency: a row an instance from before migration 0024
 * inserted during a rolling upgrade has none, and takes its payment's — one read for those rows'
 * orders, none in the usual case.
 */
export async function toOperations(db: LedgerDb, rows: readonly OperationRow[]): Promise<Operation[]> {
  const missing = [...new Set(rows.filter((row) => row.currency === null).map((row) => row.order_id))];
  const paid =
    missing.length === 0 ? [] : await db.selectFrom('payments').select(['order_id', 'currency']).where('order_id', 'in', missing).execute();
  const currencies = new Map(paid.map((payment) => [payment.order_id, payment.currency]));
  return rows.map((row) => toOperation(row, row.currency ?? currencies.get(row.order_id) ?? ''));
}

/** One row as toOperations reads it. */
const toOperationOf = async (db: LedgerDb, row: OperationRow): Promise<Operation> => (await toOperations(db, [row]))[0]!;

/** The operations of every order in `orderIds`, by order id (oldest first): one statement per 500 orders. */
export async function operationsOfOrders(db: LedgerDb, orderIds: readonly string[]): Promise<Map<string, Operation[]>> {
  const ids = [...new Set(orderIds)];
  const byOrder = new Map<string, Operation[]>(ids.map((id) => [id, []]));
  for (let start = 0; start < ids.length; start += ORDERS_PER_READ) {
    const rows = await db
      .selectFrom('operations')
      .select(OPERATION_COLUMNS)
      .where('order_id', 'in', ids.slice(start, start + ORDERS_PER_READ))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const operation of await toOperations(db, rows)) byOrder.get(operation.orderId)?.push(operation);
  }
  return byOrder;
}

/**
 * The reservation the merchant request with this key made on the order, if it made one: its
 * latest, since a key the gateway's "not now" freed (a 503 it never took) reserves again.
 */
export async function findOperationByRequestKey(db: LedgerDb, orderId: string, requestKey: string): Promise<Operation | undefined> {
  const row = await db
    .selectFrom('operations')
    .select(OPERATION_COLUMNS)
    .where('order_id', '=', orderId)
    .where('request_key', '=', requestKey)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && toOperationOf(db, row);
}

export async function getOperation(db: LedgerDb, id: string): Promise<Operation | undefined> {
  const row = await db.selectFrom('operations').select(OPERATION_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toOperationOf(db, row);
}

export interface OperationRecord extends OperationResult {
  readonly kind: Operation['kind'];
  readonly amount: number;
  readonly comment?: string;
  readonly split?: Operation['split'];
  readonly origin: OperationOrigin;
  readonly requestKey?: string;
}

/** Inserts an operation row of `payment` as given; the caller has checked (or deliberately skipped) the limits. */
export async function insertOperation(ctx: LedgerContext, db: LedgerDb, payment: Pick<Payment, 'orderId' | 'currency'>, record: OperationRecord): Promise<Operation> {
  const now = ctx.now();
  const row: OperationRow = {
    id: randomUUID(),
    order_id: payment.orderId,
    kind: record.kind,
    amount: record.amount,
    currency: payment.currency,
    status: record.status,
    operation_id: record.operationId ?? null,
    transaction_id: record.transactionId ?? null,
    status_code: record.statusCode ?? null,
    status_description: record.statusDescription ?? null,
    comment: record.comment ?? null,
    split: toJson(record.split ?? undefined),
    receipt_url: record.receiptUrl ?? null,
    origin: record.origin,
    request_key: record.requestKey ?? null,
    created_at: now,
    updated_at: now,
    last_seen_at: now,
    settled_at: operationProgression.isFinal(record.status) ? now : null,
    absent_reads: 0,
    absent_read_at: null,
    // One the gateway made is news for the merchant; the companion's own reservation is not.
    ...(record.origin === 'gateway' ? noticeDue(now) : { notice_due_at: null, notice_attempts: 0 }),
  };
  await db.insertInto('operations').values(row).execute();
  return toOperation(row, payment.currency);
}

/**
 * Reserves a secondary operation: under the order's lock, checks the money rules against
 * everything settled and still pending, then inserts it as `pending`. Call the gateway only
 * after this resolves.
 */
export async function reserveOperation(ctx: LedgerContext, orderId: string, input: OperationRequest): Promise<Operation> {
  const request = parseInput(operationRequestInput, input);
  return ctx.db.transaction().execute(async (trx) => {
    const payment = await lockPayment(ctx, trx, orderId);
    if (!payment) throw new LedgerNotFound('order', orderId);
    const paid = toPayment(payment);
    const amount = decideOperation(paid, await operationsOf(ctx, trx, orderId), request);
    return insertOperation(ctx, trx, paid, { ...request, amount, status: 'pending', origin: 'merchant' });
  });
}

/** Forward-only: a settled operation never changes status again. Undefined when unknown. */
export async function progressOperation(ctx: LedgerContext, db: LedgerDb, id: string, result: OperationResult): Promise<OperationProgress | undefined> {
  const now = ctx.now();
  const { status, amount, ...details } = result;
  const settles = operationProgression.isFinal(status);
  const { progress, row } = await progressTo((step) =>
    db
      .updateTable('operations')
      .set({
        ...operationResultColumns(details),
        // A step forward is described by its own words: the step before's (a lost answer's)
        // would read as the new status's. A success's code is its own too; a failure without
        // one keeps the last, as a payment's does: a null code marks one the gateway never decided.
        ...(step === 'advanced'
          ? { status_description: details.statusDescription ?? null, ...(status === 'success' ? { status_code: details.statusCode ?? null } : {}) }
          : {}),
        status,
        updated_at: now,
        last_seen_at: now,
        // The gateway's actual amount replaces the reserved one as it succeeds; a settled
        // operation's amount never changes again (events.ts keeps one that says otherwise).
        ...(step === 'advanced' && status === 'success' && amount !== undefined ? { amount } : {}),
        ...(step === 'advanced' && settles ? { settled_at: now } : {}),
        ...(step === 'advanced' ? noticeDue(now) : {}),
      })
      .where('id', '=', id)
      .where(step === 'advanced' ? operationProgression.forward(operationProgression.rank(status)) : operationProgression.same(status))
      .returning(OPERATION_COLUMNS)
      .executeTakeFirst(),
  );
  const operation = row ? await toOperationOf(db, row) : await getOperation(db, id);
  return operation && { progress, operation };
}

/** The reconciler looked at a reservation still pending: it leaves the unsettled list for a while. */
export async function markOperationChecked(ctx: LedgerContext, id: string): Promise<void> {
  const result = await ctx.db.updateTable('operations').set({ last_seen_at: ctx.now() }).where('id', '=', id).executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new LedgerNotFound('operation', id);
}

export async function totalsOf(ctx: LedgerContext, orderId: string, overCapturePercent?: number): Promise<OrderTotals> {
  const payment = await getPayment(ctx, ctx.db, orderId);
  if (!payment) throw new LedgerNotFound('order', orderId);
  return orderTotals(payment, await operationsOf(ctx, ctx.db, orderId), overCapturePercent);
}

/**
 * The totals of payments already read (a page of the list), by order id: their operations in one
 * read (operationsOfOrders), the same rules as one order's (orderTotals).
 */
export async function totalsOfOrders(ctx: LedgerContext, payments: readonly Payment[], overCapturePercent?: number): Promise<Map<string, OrderTotals>> {
  if (payments.length === 0) return new Map();
  const operations = await operationsOfOrders(ctx.db, payments.map((payment) => payment.orderId));
  return new Map(payments.map((payment) => [payment.orderId, orderTotals(payment, operations.get(payment.orderId) ?? [], overCapturePercent)]));
}
