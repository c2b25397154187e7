// Telling the merchant (the companion's `onPaymentEvent` hook) at least once. The statement that
// moves a payment or operation forward, or flags a discrepancy, also marks it due — no extra
// statement on the webhook path — and a change not told yet survives a failed hook and a process
// that died before calling it. The mark is the time reconciliation may tell it next; a change
// first leaves its maker the grace below to tell it, and a claim leases the row the same way, so
// two tellers do not call the hook for one row at once.
import { sql } from 'kysely';
import type { Expression } from 'kysely';
import type { LedgerContext } from './context.js';
import { sharedTransactions } from './group-commit.js';
import { noticeClaimInput, noticeDropInput, noticeRetryInput, parseInput } from './input.js';
import { oncePerLedger, prepareQuery } from './prepared.js';
import { isStatus } from './progression.js';
import { toOperations } from './operations.js';
import { toPayment } from './rows.js';
import type { OperationRow, PaymentRow } from './schema.js';
import type { DueNotice, NoticeClaim, NoticeState, Operation, Payment } from './types.js';
import { OPERATION_COLUMNS, PAYMENT_COLUMNS } from './columns.js';

/** How long whoever made a change has to tell it before reconciliation may tell it instead. */
export const NOTICE_GRACE_MS = 60_000;

/** When a change made at `now` is due for reconciliation to tell, if its maker has not. */
export function noticeDueAt(now: number): number {
  return now + NOTICE_GRACE_MS;
}

/** The mark a change sets in the statement that makes it. */
export function noticeDue(now: number): { notice_due_at: number; notice_attempts: number } {
  return { notice_due_at: noticeDueAt(now), notice_attempts: 0 };
}

/**
 * Takes the payments and operations due now (oldest mark first) and leases them: their mark moves
 * `leaseMs` ahead and their attempt is counted, in one UPDATE per table that takes only rows still
 * due, so concurrent claims — on other instances too — never take the same row. PostgreSQL skips
 * rows another claim is taking instead of waiting for them.
 */
export async function claimNotices(ctx: LedgerContext, input: NoticeClaim): Promise<DueNotice[]> {
  const { limit, leaseMs, kind } = parseInput(noticeClaimInput, input);
  const payments = kind === 'operation' ? [] : ((await claimIn(ctx, 'payments', limit, leaseMs)) as PaymentRow[]);
  const operations = kind === 'payment' ? [] : ((await claimIn(ctx, 'operations', limit, leaseMs)) as OperationRow[]);
  const read = await toOperations(ctx.db, operations);
  return [
    ...payments.map((row): DueNotice => ({ kind: 'payment', payment: toPayment(row), attempt: row.notice_attempts })),
    ...operations.map((row, index): DueNotice => ({ kind: 'operation', operation: read[index]!, attempt: row.notice_attempts })),
  ];
}

const keyOf = { payments: 'order_id', operations: 'id' } as const;
const columnsOf = { payments: PAYMENT_COLUMNS, operations: OPERATION_COLUMNS } as const;

async function claimIn(ctx: LedgerContext, table: keyof typeof keyOf, limit: number, leaseMs: number) {
  const now = ctx.now();
  const key = keyOf[table];
  // The due rows picked once, in a materialized CTE: as an IN subquery, PostgreSQL may run the
  // pick again for each row it updates (a semi-join rescanned), each rescan skipping the row just
  // moved past `now`, so a claim of one leased them all while its caller told only the first.
  return ctx.db
    .with(
      (cte) => cte('due').materialized(),
      (db) =>
        db
          .selectFrom(table)
          .select(key)
          .where('notice_due_at', '<=', now)
          // An operation waits for its payment's change: a refund told before the success it
          // refunds (told again later, the hook having failed) would have the goods shipped.
          .$if(table === 'operations', (q) => q.where(({ exists, not }) => not(exists(untoldPayment(ctx, sql.ref('operations.order_id'))))))
          .orderBy('notice_due_at')
          .limit(limit)
          .$if(ctx.dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
    )
    .updateTable(table)
    .set((eb) => ({ notice_due_at: now + leaseMs, notice_attempts: eb('notice_attempts', '+', 1) }))
    .where(key, 'in', (eb) => eb.selectFrom('due').select(key))
    .where('notice_due_at', '<=', now)
    .returning(columnsOf[table] as never)
    .execute();
}

/** The payment `orderId` names while it has a change not told yet (its mark set). */
function untoldPayment(ctx: LedgerContext, orderId: string | Expression<string>) {
  return ctx.db.selectFrom('payments').select('order_id').where('order_id', '=', orderId).where('notice_due_at', 'is not', null);
}

/** Whether a pass took up the payment's change and it is not told yet (its attempts counted). */
export async function paymentNoticeRetried(ctx: LedgerContext, orderId: string): Promise<boolean> {
  return (await untoldPayment(ctx, orderId).where('notice_attempts', '>', 0).executeTakeFirst()) !== undefined;
}

/** `report`: a flagged payment's discrepancy as told, as stored (JSON text). */
type Remark = { key: string; status: string; report: string | null; dueAt: number | null };

/**
 * The UPDATE that moves a told row's mark, for each kind of row, cleared or moved (a cleared
 * mark also starts its attempts over), a payment flagged or not: prepared once per database,
 * since one follows every change the hook is told of. A flagged payment's must still hold the
 * discrepancy told, every report of it: one noted since is news, and stays due.
 */
const remarks = oncePerLedger((ctx: LedgerContext) => {
  const remark = (table: keyof typeof keyOf, clears: boolean, flagged?: boolean) =>
    prepareQuery<Remark, never>((slot) =>
      ctx.db
        .updateTable(table)
        .set({ notice_due_at: slot('dueAt'), ...(clears ? { notice_attempts: sql.lit(0) } : {}) })
        .where('notice_due_at', 'is not', null)
        .where(keyOf[table], '=', slot('key'))
        .where(isStatus(slot('status')))
        .$if(flagged !== undefined, (q) => (flagged ? q.where('mismatch_report', '=', slot('report')) : q.where('mismatch_report', 'is', null))),
    );
  return {
    payment: { told: { flagged: remark('payments', true, true), plain: remark('payments', true, false) }, failed: { flagged: remark('payments', false, true), plain: remark('payments', false, false) } },
    operation: { told: remark('operations', true), failed: remark('operations', false) },
  };
});

/**
 * Moves the mark of the row still in the state told (and still marked); whether it did. It
 * follows every webhook the hook is told of, so it shares the events' commits; alone, its
 * commit does not wait for the disk (on SQLite a synced commit of its own would cost each told
 * change a second sync): a mark a power cut brings back only tells the merchant again, which
 * at least once allows.
 */
function remark(ctx: LedgerContext, told: NoticeState, dueAt: number | null): Promise<boolean> {
  const step = dueAt === null ? 'told' : 'failed';
  const prepared = remarks(ctx);
  const [update, key] = told.kind === 'payment' ? [prepared.payment[step][told.discrepancy ? 'flagged' : 'plain'], told.orderId] : [prepared.operation[step], told.id];
  // The text as stored: rows.ts parses it, and JSON.stringify gives the same text back.
  const report = told.kind === 'payment' && told.discrepancy ? JSON.stringify(told.discrepancy) : null;
  // Keyed by its order, as the order's webhooks are: a group takes its orders' locks in key order.
  return sharedTransactions(ctx)(async (trx) => (await update(trx, { key, status: told.status, report, dueAt })).numAffectedRows! > 0n, told.orderId, { relaxed: true });
}

/**
 * The merchant was told `told`: the mark is cleared — unless the row has changed since (a newer
 * step, a discrepancy or a further report of one), which stays due. Whether it cleared one.
 */
export function noticeTold(ctx: LedgerContext, told: NoticeState): Promise<boolean> {
  return remark(ctx, told, null);
}

/** Telling `told` failed: it is due again at `retryAt`, unless the row has changed (or was told) since. */
export async function noticeFailed(ctx: LedgerContext, told: NoticeState, retryAt: number): Promise<boolean> {
  return remark(ctx, told, parseInput(noticeRetryInput, { retryAt }).retryAt);
}

/**
 * There is no one to tell: the marks due since before `dueBefore` are cleared (how many). Younger
 * ones stay for an instance that has a hook — one started after this one in a rolling deploy.
 */
export async function dropNotices(ctx: LedgerContext, dueBefore: number): Promise<number> {
  const before = parseInput(noticeDropInput, { dueBefore }).dueBefore;
  let dropped = 0n;
  for (const table of ['payments', 'operations'] as const) {
    const result = await ctx.db.updateTable(table).set({ notice_due_at: null, notice_attempts: 0 }).where('notice_due_at', '<', before).executeTakeFirst();
    dropped += result.numUpdatedRows;
  }
  return Number(dropped);
}

/** The state a payment change tells. */
export function paymentNotice(payment: Payment): NoticeState {
  return { kind: 'payment', orderId: payment.orderId, status: payment.status, discrepancy: payment.discrepancy };
}

/** The state an operation change tells. */
export function operationNotice(operation: Operation): NoticeState {
  return { kind: 'operation', id: operation.id, orderId: operation.orderId, status: operation.status };
}
