// Payments, one per order id, moved forward only.
import { sql } from 'kysely';
import type { ExpressionBuilder, QueryCreator, SqlBool } from 'kysely';
import type { LedgerContext, LedgerDb } from './context.js';
import { LedgerNotFound } from './errors.js';
import { flagDiscrepancy, heldForWhatWasPaid } from './discrepancies.js';
import { noticeDueAt } from './notices.js';
import { oncePerLedger, prepareQuery } from './prepared.js';
import type { PreparedQuery, SlotOf } from './prepared.js';
import { paymentProgression, progressTo } from './progression.js';
import type { StepOrder } from './progression.js';
import { toPayment } from './rows.js';
import type { LedgerTables, PaymentDetailColumns, PaymentRow } from './schema.js';
import type { DiscrepancyReport, Payment, PaymentDetails, PaymentMethod, PaymentProgress, PaymentStatus, PaymentUpdate } from './types.js';
import { PAYMENT_COLUMNS } from './columns.js';

type Step = 'advanced' | 'updated';

/** Read on every pay answer, return and order-state check: prepared once per database. */
const paymentByOrder = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<{ orderId: string }, PaymentRow>((slot) => ctx.db.selectFrom('payments').select(PAYMENT_COLUMNS).where('order_id', '=', slot('orderId'))),
);

export async function getPayment(ctx: LedgerContext, db: LedgerDb, orderId: string): Promise<Payment | undefined> {
  const row = (await paymentByOrder(ctx)(db, { orderId })).rows[0];
  return row && toPayment(row);
}

const detailColumns = [
  'status_code',
  'status_description',
  'payment_id',
  'gateway_order_id',
  'billing_order_id',
  'transaction_id',
  'cc_mask',
  'card_brand',
  'user_action_url',
  'checkout_url',
  'receipt_url',
] as const satisfies readonly (keyof PaymentDetailColumns)[];

const cardTokenColumns = ['cc_token', 'cc_token_expiration'] as const satisfies readonly (keyof PaymentDetailColumns)[];

/** SQL: the payment's order is one whose customer's details were erased (erasure.ts). */
const erased = sql<SqlBool>`exists (select 1 from ${sql.table('erased_orders')} as e where e.order_id = ${sql.ref('payments.order_id')})`;

export type UpdateArgs = { [K in keyof PaymentDetailColumns]: PaymentDetailColumns[K] | null } & {
  orderId: string;
  status: PaymentStatus;
  /** What the gateway says the payment is; null when the update does not say. */
  method: PaymentMethod | null;
  amount: number | null;
  currency: string | null;
  paidAmount: number | null;
  paidCurrency: string | null;
  rank: number;
  now: number;
  /** `now` when the new status is final; kept once set. */
  finalizedAt: number | null;
  /** The merchant's notice of a step (see notices.ts). */
  noticeDueAt: number;
  /**
   * 1: the update may move a payment held for a discrepancy. 0 for a success that does not say
   * what was paid: it moves a held one only while the hold is `heldAs` (its stored text), which
   * progressPayment read and found not about what was paid (heldForWhatWasPaid).
   */
  movesHeld: 0 | 1;
  heldAs: string | null;
};

/**
 * The guarded UPDATE, one per guard. A detail the update leaves out (null) keeps its stored
 * value, but for a success's status code and description, which are its own. It applies only to
 * the payment the update describes: the same method, amount and currency when it names them,
 * and no other payment id than the one stored. A step forward
 * moves a payment held for a discrepancy only when `movesHeld`, or while its hold is `heldAs`.
 *
 * The refresh of a status leaves `status` out of its SET: its guard holds it equal already, and
 * SQLite rewrites the entries of every index that names a column the SET lists, whatever the
 * value — the status list's and the one-live-attempt index's (a random page each), about 40 %
 * of a refresh's own cost, on the usual webhook (the pay answer recorded it first).
 */
export function guardedUpdate(db: QueryCreator<LedgerTables>, step: Step, slot: SlotOf<UpdateArgs>) {
  // A success's code and words are its own, or none: one the gateway sent without a code is not
  // left with its pending step's (2122, "Awaiting 3-D Secure"). A failure without one keeps the
  // last: a null code on a failure is what marks one the gateway never decided (reports.ts).
  const successOwn = (column: 'status_code' | 'status_description') =>
    sql<string | null>`case when ${slot('status')} = 'success' then ${slot(column)} else coalesce(${slot(column)}, ${sql.ref(column)}) end`;
  return db
    .updateTable('payments')
    .set((eb) => ({
      ...Object.fromEntries(detailColumns.map((column) => [column, eb.fn.coalesce(eb.val(slot(column)), eb.ref(column))])),
      // The card token is the customer's: an order whose details were erased never takes one back.
      ...Object.fromEntries(cardTokenColumns.map((column) => [column, sql<string | null>`case when ${erased} then null else coalesce(${slot(column)}, ${sql.ref(column)}) end`])),
      ...(step === 'advanced' ? { status: slot('status'), status_code: successOwn('status_code'), status_description: successOwn('status_description') } : {}),
      updated_at: slot('now'),
      last_seen_at: slot('now'),
      finalized_at: eb.fn.coalesce(eb.ref('finalized_at'), eb.val(slot('finalizedAt'))),
      // A step is news for the merchant; a refresh of the same status is not.
      ...(step === 'advanced' ? { notice_due_at: slot('noticeDueAt'), notice_attempts: eb.lit(0) } : {}),
    }))
    .where('order_id', '=', slot('orderId'))
    .where(step === 'advanced' ? paymentProgression.forward(slot('rank')) : paymentProgression.same(slot('status')))
    .where(samePayment(slot))
    // Only a step can make a held payment a success; a refresh of its status still merges details.
    .$if(step === 'advanced', (q) => q.where((eb) => eb.or([eb('mismatch_report', 'is', null), eb(eb.val(slot('movesHeld')), '=', eb.lit(1)), eb('mismatch_report', '=', slot('heldAs'))])))
    .returning(PAYMENT_COLUMNS);
}

/** SQL: the stored payment is the one the update describes (its method, figures and payment id, where it names them). */
export function samePayment(slot: SlotOf<UpdateArgs>) {
  return (eb: ExpressionBuilder<LedgerTables, 'payments'>) =>
    eb.and([
      eb('method', '=', eb.fn.coalesce(eb.val(slot('method')), eb.ref('method'))),
      eb('amount', '=', eb.fn.coalesce(eb.val(slot('amount')), eb.ref('amount'))),
      eb('currency', '=', eb.fn.coalesce(eb.val(slot('currency')), eb.ref('currency'))),
      eb('amount', '=', eb.fn.coalesce(eb.val(slot('paidAmount')), eb.ref('amount'))),
      eb('currency', '=', eb.fn.coalesce(eb.val(slot('paidCurrency')), eb.ref('currency'))),
      eb.or([eb('payment_id', 'is', null), eb('payment_id', '=', eb.fn.coalesce(eb.val(slot('payment_id')), eb.ref('payment_id')))]),
    ]);
}

/** Prepared once per database: it runs for every webhook. */
function prepareUpdate(db: LedgerDb, step: Step): PreparedQuery<UpdateArgs, PaymentRow> {
  return prepareQuery<UpdateArgs, PaymentRow>((slot) => guardedUpdate(db, step, slot));
}

const updates = oncePerLedger((ctx: LedgerContext) => ({ advanced: prepareUpdate(ctx.db, 'advanced'), updated: prepareUpdate(ctx.db, 'updated') }));

/**
 * Applies what the gateway said about a payment: a forward step, a refresh of the same status
 * (details merged; what the update omits is kept), nothing when it is stale — or nothing when it
 * describes another payment (`mismatch`), or when it is a success silent on what was paid of a
 * payment held as paid otherwise (`held`). Undefined when the order is unknown. `from`: which
 * guarded UPDATE to try first (progressTo).
 */
export async function progressPayment(ctx: LedgerContext, db: LedgerDb, orderId: string, update: PaymentUpdate, from: StepOrder = 'advanced'): Promise<PaymentProgress | undefined> {
  const prepared = updates(ctx);
  const args = updateArgs(ctx, orderId, update);
  const { progress, row } = await progressTo(async (step) => (await prepared[step](db, args)).rows[0], from);
  if (row) return { progress, payment: toPayment(row) };
  const payment = await getPayment(ctx, db, orderId);
  if (!payment) return undefined;
  if (isAnotherPayment(payment, update) || figuresDiffer(payment, update)) {
    // Another payment id or method is another payment: not this one's business. A success of
    // this one (or one the gateway names no id for) with other figures means money moved that
    // does not match the order: held, each distinct report noted, for a person to settle.
    const flagged = update.status === 'success' && !isAnotherPayment(payment, update) ? await flagDiscrepancy(ctx, db, payment, reportOf(update)) : undefined;
    return flagged ? { progress: 'flagged', payment: flagged } : { progress: 'mismatch', payment };
  }
  if (update.status === 'success' && payment.status === 'failure' && payment.paymentId === null) {
    // Ended failed with no word of the gateway's (never sent, its order id taken, a ledger restored
    // from before its payment), yet the gateway took the money: a contradiction, held for a person
    // rather than dropped as stale.
    const flagged = await flagDiscrepancy(ctx, db, payment, reportOf(update));
    return flagged ? { progress: 'flagged', payment: flagged } : { progress: 'mismatch', payment };
  }
  if (payment.discrepancy && !args.movesHeld && paymentProgression.rank(update.status) > paymentProgression.rank(payment.status)) {
    // The step met the hold. Held for something else (an unreadable post, a refund past what was
    // paid), the gateway's word on the payment still moves it — while the hold is the one read:
    // a report noted meanwhile by another writer is weighed again, from the start.
    if (heldForWhatWasPaid(payment)) return { progress: 'held', payment };
    const stepped = (await prepared.advanced(db, { ...args, heldAs: JSON.stringify(payment.discrepancy) })).rows[0];
    return stepped ? { progress: 'advanced', payment: toPayment(stepped) } : progressPayment(ctx, db, orderId, update, from);
  }
  return { progress, payment };
}

/** How many orders' recorded answers are remembered (recalledAnswer). */
const ANSWERS_KEPT = 4_096;

/**
 * The payment as this process last recorded it from the gateway's answer (the pay call's, an
 * order state's), on SQLite: the order's webhook most likely says the same — the usual case.
 * Bounded, the oldest forgotten first.
 */
const recordedAnswers = oncePerLedger((_ctx: LedgerContext) => new Map<string, Payment>());

export function noteRecordedAnswer(ctx: LedgerContext, payment: Payment): void {
  if (ctx.dialect !== 'sqlite') return;
  const answers = recordedAnswers(ctx);
  answers.delete(payment.orderId);
  answers.set(payment.orderId, payment);
  if (answers.size > ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
}

/**
 * The payment as its recorded answer left it, when an event of `status` says the same status;
 * used up. Only a hint: the event then tries the refresh of that status first, one UPDATE
 * instead of two (in the event's transaction, which holds SQLite's write lock, the order of the
 * two changes nothing else: progressTo), and addsNothingTo can tell whether it brings news.
 */
export function recalledAnswer(ctx: LedgerContext, orderId: string, status: string): Payment | undefined {
  const answers = ctx.dialect === 'sqlite' ? recordedAnswers(ctx) : undefined;
  const known = answers?.get(orderId);
  if (known?.status !== status) return undefined;
  answers!.delete(orderId);
  return known;
}

/** The details a refresh merges into the stored payment (detailColumns, as the update names them). */
const detailFields = [
  'statusCode',
  'statusDescription',
  'paymentId',
  'gatewayOrderId',
  'billingOrderId',
  'transactionId',
  'ccMask',
  'cardBrand',
  'ccToken',
  'ccTokenExpiration',
  'userActionUrl',
  'checkoutUrl',
  'receiptUrl',
] as const satisfies readonly (keyof PaymentDetails & keyof Payment)[];

/** Whether a refresh by `update` leaves `known` as it was: every detail it gives is one `known` holds. */
export function addsNothingTo(known: Payment, update: PaymentUpdate): boolean {
  return detailFields.every((field) => update[field] == null || update[field] === known[field]);
}

/** The guarded UPDATE's values for `update` of the order's payment. */
export function updateArgs(ctx: LedgerContext, orderId: string, update: PaymentUpdate): UpdateArgs {
  const now = ctx.now();
  const status = update.status;
  // One literal of a fixed shape: a rest and a spread of the update cost more than the UPDATE's
  // own JavaScript on the pay path.
  return {
    status_code: update.statusCode ?? null,
    status_description: update.statusDescription ?? null,
    payment_id: update.paymentId ?? null,
    gateway_order_id: update.gatewayOrderId ?? null,
    billing_order_id: update.billingOrderId ?? null,
    transaction_id: update.transactionId ?? null,
    cc_mask: update.ccMask ?? null,
    card_brand: update.cardBrand ?? null,
    cc_token: update.ccToken ?? null,
    cc_token_expiration: update.ccTokenExpiration ?? null,
    user_action_url: update.userActionUrl ?? null,
    checkout_url: update.checkoutUrl ?? null,
    receipt_url: update.receiptUrl ?? null,
    orderId,
    status,
    method: update.method ?? null,
    amount: update.amount ?? null,
    currency: update.currency ?? null,
    paidAmount: update.paidAmount ?? null,
    paidCurrency: update.paidCurrency ?? null,
    rank: paymentProgression.rank(status),
    now,
    finalizedAt: paymentProgression.isFinal(status) ? now : null,
    noticeDueAt: noticeDueAt(now),
    movesHeld: status !== 'success' || update.paidAmount !== undefined || update.paidCurrency !== undefined ? 1 : 0,
    heldAs: null,
  };
}

function isAnotherPayment(payment: Payment, { paymentId, method }: PaymentUpdate): boolean {
  return (paymentId !== undefined && payment.paymentId !== null && paymentId !== payment.paymentId) || (method !== undefined && method !== payment.method);
}

/** Whether an update gives this payment other figures (amount, currency, what was paid). */
export function figuresDiffer(payment: Payment, update: PaymentUpdate): boolean {
  const { amount, currency, paidAmount, paidCurrency } = update;
  return (
    [amount, paidAmount].some((reported) => reported !== undefined && reported !== payment.amount) ||
    [currency, paidCurrency].some((reported) => reported !== undefined && reported !== payment.currency)
  );
}

/** What an update reported, as a discrepancy notes it; `{ status }` alone for one about the order's operations. */
export function reportOf(update: PaymentUpdate): Omit<DiscrepancyReport, 'notedAt'> {
  return {
    status: update.status,
    amount: update.amount ?? null,
    currency: update.currency ?? null,
    paidAmount: update.paidAmount ?? null,
    paidCurrency: update.paidCurrency ?? null,
    paymentId: update.paymentId ?? null,
  };
}

export async function markPaymentChecked(ctx: LedgerContext, orderId: string): Promise<void> {
  const result = await ctx.db.updateTable('payments').set({ last_seen_at: ctx.now() }).where('order_id', '=', orderId).executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new LedgerNotFound('order', orderId);
}
