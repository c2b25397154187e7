// Webhook events: stored once (the primary key is the hash of the raw `data` field), and
// applied in the same transaction that stores them, so an event is either not stored or stored
// with its effect — a crash between the two cannot leave a duplicate that is never applied.
// This is the hottest write path (budget: 5,000 events/s on SQLite): one INSERT and the guarded
// UPDATE of the payment.
import { hash } from 'node:crypto';
import { sql } from 'kysely';
import type { Compilable, ExpressionBuilder, Kysely, QueryCreator, SqlBool } from 'kysely';
import { lockPayment, lockingRead } from './context.js';
import type { LedgerContext, LedgerDb } from './context.js';
import { sharedTransactions } from './group-commit.js';
import type { Batch, Batched } from './group-commit.js';
import { LedgerConflict } from './errors.js';
import { gatewayEventInput, parseInput } from './input.js';
import { insertOperation, progressOperation } from './operations.js';
import { flagDiscrepancy } from './discrepancies.js';
import { fullFormAmount } from './money-rules.js';
import { addsNothingTo, guardedUpdate, progressPayment, recalledAnswer, reportOf, samePayment, updateArgs } from './payments.js';
import { paymentProgression } from './progression.js';
import type { UpdateArgs } from './payments.js';
import { oncePerLedger, prepareQuery } from './prepared.js';
import type { SlotOf } from './prepared.js';
import { toPayment, toStoredEvent } from './rows.js';
import type { LedgerTables, PaymentRow, WebhookEventRow } from './schema.js';
import { checkMovedMoney } from './unasked-operations.js';
import type { EventIngest, EventOutcome, GatewayEvent, Operation, OperationKind, OperationStatus, Payment, PaymentStatus, PaymentUpdate, RestatedOperation, StoredEvent } from './types.js';
import { EVENT_COLUMNS, PAYMENT_COLUMNS } from './columns.js';

/** What an event says, without the raw payload: enough to apply it again later. */
type EventFacts = Omit<GatewayEvent, 'data' | 'body'>;

interface Effect {
  readonly outcome: EventOutcome;
  readonly advanced: boolean;
  readonly flagged?: boolean;
  readonly payment: Payment | null;
  readonly operation: Operation | null;
  /** The event changed nothing the ledger holds but its own row (changedNothing); absent: it may have. */
  readonly quiet?: boolean;
}

const unmatched: Effect = { outcome: 'unmatched', advanced: false, payment: null, operation: null };

const paymentMethods = new Set(['purchase', 'auth', 'lookup']);
const paymentStatuses = new Set<string>(['init', 'pending', 'success', 'failure']);
const operationKinds = new Set<string>(['capture', 'void', 'refund']);
const operationStatuses = new Set<string>(['pending', 'success', 'failure']);

export function eventId(data: string): string {
  // One-shot: no Hash object for each webhook.
  return hash('sha256', data, 'hex');
}

/**
 * What a payment's event says of it, as the ledger's update: the facts themselves (a payment
 * method and status, isPaymentEvent checked). The update's readers take its fields by name
 * (updateArgs, the mismatch checks), so the facts' other fields — the order id, no operation
 * id — are never read as the payment's; a copy without them cost more than the UPDATE's own
 * JavaScript.
 */
function paymentUpdateOf(facts: EventFacts): PaymentUpdate {
  return facts as unknown as PaymentUpdate;
}

function isPaymentEvent(facts: EventFacts): boolean {
  return paymentMethods.has(facts.method) && paymentStatuses.has(facts.status);
}

/** `from` 'updated': the forward step was tried already, with the event's insert. */
async function applyPaymentEvent(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts, from: 'advanced' | 'updated' = 'advanced'): Promise<Effect> {
  const update = paymentUpdateOf(facts);
  const known = from === 'advanced' ? recalledAnswer(ctx, facts.orderId, facts.status) : undefined;
  const result = await progressPayment(ctx, trx, facts.orderId, update, known ? 'updated-first' : from);
  // No such order, or an event about another payment under its order id — another method or
  // payment id — (or this one with other figures: then noted on the payment, unless noted already).
  if (!result) return unmatched;
  if (result.progress === 'flagged') return { ...unmatched, flagged: true, payment: result.payment };
  // Held as paid otherwise: kept for the person who settles the payment, as one that contradicts it.
  if (result.progress === 'mismatch' || result.progress === 'held') return unmatched;
  // A refresh merges the event's details: it is news unless the payment held them all already.
  const quiet = result.progress === 'stale' || (result.progress === 'updated' && known !== undefined && addsNothingTo(known, update));
  return { outcome: result.progress === 'stale' ? 'stale' : 'applied', advanced: result.progress === 'advanced', payment: result.payment, operation: null, quiet };
}

async function applyOperationEvent(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  const payment = await lockPayment(ctx, trx, facts.orderId);
  if (!payment || !facts.operationId) return unmatched;
  const kind = facts.method as OperationKind;
  // An operation in another currency is not on this order's payment, nor is a capture or void
  // of a purchase; one of no readable amount is no figure to record — but a decline names none
  // (amount 0): nothing moved, and it is known by its operation id.
  if (facts.currency !== undefined && facts.currency !== payment.currency) return unmatched;
  if ((kind !== 'refund' && payment.method !== 'auth') || (facts.amount === 0 && !isDecline(facts))) return unmatched;
  const paid = toPayment(payment);
  return checkMoney(ctx, trx, paid, await applyOperation(ctx, trx, paid, kind, facts.operationId, facts));
}

/**
 * A capture or refund that moved money may contradict what the merchant was told — refunds past
 * what was paid (made in the gateway's portal), or one it was told never happened: recorded as
 * they happened, and the payment flagged — each distinct report once — for a person to look at
 * (unasked-operations.ts).
 */
async function checkMoney(ctx: LedgerContext, trx: LedgerDb, payment: Payment, effect: Effect): Promise<Effect> {
  if (!effect.advanced || !effect.operation) return effect;
  const flagged = await checkMovedMoney(ctx, trx, payment, effect.operation);
  return flagged ? { ...effect, flagged: true, payment: flagged } : effect;
}

async function applyOperation(ctx: LedgerContext, trx: LedgerDb, payment: Payment, kind: OperationKind, operationId: string, facts: EventFacts): Promise<Effect> {
  const status = facts.status as OperationStatus;
  const result = {
    status,
    operationId,
    transactionId: facts.transactionId,
    amount: facts.amount,
    statusCode: facts.statusCode,
    statusDescription: facts.statusDescription,
    receiptUrl: facts.receiptUrl,
  };
  const known = await trx.selectFrom('operations').select(['id', 'order_id', 'status', 'amount']).where('operation_id', '=', operationId).executeTakeFirst();
  if (known) {
    if (known.order_id !== facts.orderId) return unmatched;
    // A success with other figures than the one recorded is not this operation as the books
    // hold it: kept, unmatched, and the books stay as they are; the payment is flagged for a
    // person to look at, as a payment paid with other figures is.
    if (known.status === 'success' && status === 'success' && facts.amount !== undefined && facts.amount !== Number(known.amount)) {
      return flagRestated(ctx, trx, payment, { operation: known.id, kind, recorded: Number(known.amount), reported: facts.amount });
    }
    const progressed = await progressOperation(ctx, trx, known.id, result);
    const outcome = progressed?.progress === 'stale' ? 'stale' : 'applied';
    return { outcome, advanced: progressed?.progress === 'advanced', payment: null, operation: progressed?.operation ?? null, quiet: outcome === 'stale' };
  }
  if (facts.amount === undefined) return unmatched;
  // A decline says no amount (the gateway writes 0): it is known by its kind alone, and only a
  // failure settled with the gateway's code — its own, when it names one — can be its.
  const decline = isDecline(facts);
  // A reservation sent in the full form is made of what the gateway holds: its event may say
  // another amount than the ledger reserved (an operation made at the gateway never reached it).
  const fullForm = decline ? undefined : fullFormAmount(payment, kind);
  const withoutId = (status: 'pending' | 'settled') =>
    trx
      .selectFrom('operations')
      .select('id')
      .where('order_id', '=', facts.orderId)
      .where('kind', '=', kind)
      .$if(!decline, (q) =>
        q.where((eb) =>
          status === 'pending' && fullForm !== undefined && fullForm !== facts.amount
            ? eb.or([eb('amount', '=', facts.amount!), eb.and([eb('amount', '=', fullForm), eb('split', 'is', null)])])
            : eb('amount', '=', facts.amount!),
        ),
      )
      // Without an id: the ledger's reservations, and operations recorded from the order state.
      .where('operation_id', 'is', null)
      .$if(status === 'pending', (q) => q.where('status', '=', 'pending'))
      // Settled from the order state (whose entries carry no operation id): a success, or a
      // decline with the gateway's code — not a failure ended here, which never got there.
      .$if(status === 'settled', (q) =>
        q.where((eb) => {
          const declined = eb.and([eb('status', '=', 'failure'), eb('status_code', 'is not', null)]);
          return decline ? declined : eb.or([eb('status', '=', 'success'), declined]);
        }),
      )
      .$if(status === 'settled' && decline && facts.statusCode !== undefined, (q) => q.where('status_code', '=', facts.statusCode!))
      .orderBy('created_at')
      .limit(2)
      .execute();
  // A reservation of this kind and amount has not learnt its operation id yet: the event is
  // probably its own. Wait for its settlement (which applies waiting events) rather than guess
  // between reservations.
  if ((await withoutId('pending')).length > 0) return { outcome: 'parked', advanced: false, payment: null, operation: null };
  // One already settled from the order state is this event's operation: it takes the id. Of
  // two declines alike, which is whose cannot be told (their webhooks may cross): the event is
  // kept for a person rather than give one the other's id and description.
  const candidates = await withoutId('settled');
  if (decline && candidates.length > 1) return unmatched;
  const settled = candidates[0];
  if (settled) {
    const progressed = await progressOperation(ctx, trx, settled.id, result);
    return { outcome: progressed?.progress === 'stale' ? 'stale' : 'applied', advanced: progressed?.progress === 'advanced', payment: null, operation: progressed?.operation ?? null };
  }
  // A decline of no operation this ledger holds moved no money: kept for a person, nothing recorded.
  if (decline) return unmatched;
  // An operation this ledger never reserved (made elsewhere, e.g. in the gateway's portal):
  // recorded as the gateway reports it, limits or not, because it happened.
  const operation = await insertOperation(ctx, trx, payment, { ...result, kind, amount: facts.amount, origin: 'gateway' });
  return { outcome: 'applied', advanced: true, payment: null, operation };
}

/** A declined capture, void or refund: status failure, and no amount (the gateway writes 0). */
function isDecline(facts: EventFacts): boolean {
  return facts.status === 'failure' && facts.amount === 0;
}

/** A settled operation the gateway reported again with another amount: flagged on its payment (a repeat changes nothing). */
async function flagRestated(ctx: LedgerContext, trx: LedgerDb, payment: Payment, restated: RestatedOperation): Promise<Effect> {
  const report = { ...reportOf({ status: payment.status }), restatedOperation: restated };
  const flagged = await flagDiscrepancy(ctx, trx, payment, report);
  return flagged ? { ...unmatched, flagged: true, payment: flagged } : unmatched;
}

/**
 * A post the companion could not read says something happened to the order, but not what: the
 * payment is held for a person to look at (flagged; a repeat changes nothing), nothing is applied.
 */
async function flagUnreadable(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  const row = await lockPayment(ctx, trx, facts.orderId);
  if (!row) return unmatched;
  const payment = toPayment(row);
  const status = paymentStatuses.has(facts.status) ? (facts.status as PaymentStatus) : payment.status;
  const report = { ...reportOf({ status }), unreadable: true as const };
  const flagged = await flagDiscrepancy(ctx, trx, payment, report);
  return flagged ? { ...unmatched, flagged: true, payment: flagged } : unmatched;
}

/**
 * An event of a recurring payment: a re-send of the payment's own transaction applies as any
 * event; a further charge (another transaction) is not this payment, and the ledger records one
 * an order — it flags the payment with the charge's figures for a person, nothing is applied.
 */
async function applyRecurring(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  const row = await lockPayment(ctx, trx, facts.orderId);
  if (!row) return unmatched;
  const payment = toPayment(row);
  // A payment whose transaction is not known yet (its webhook is the first news of it) takes this one's.
  const another = facts.transactionId !== undefined && payment.transactionId !== null && facts.transactionId !== payment.transactionId;
  if (!another) return applyPaymentEvent(ctx, trx, facts);
  const flagged = await flagDiscrepancy(ctx, trx, payment, { ...reportOf(paymentUpdateOf(facts)), transactionId: facts.transactionId });
  return flagged ? { ...unmatched, flagged: true, payment: flagged } : unmatched;
}

function applyEvent(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  // Addressed to another point of sale: whatever it says, not about this ledger's payments.
  if (facts.otherPosId !== undefined) return Promise.resolve(unmatched);
  if (facts.unreadable) return flagUnreadable(ctx, trx, facts);
  if (facts.recurring) return applyRecurring(ctx, trx, facts);
  if (isPaymentEvent(facts)) return applyPaymentEvent(ctx, trx, facts);
  if (operationKinds.has(facts.method) && operationStatuses.has(facts.status)) return applyOperationEvent(ctx, trx, facts);
  return Promise.resolve(unmatched);
}

function processedAt(ctx: LedgerContext, outcome: EventOutcome): number | null {
  return outcome === 'applied' || outcome === 'stale' ? ctx.now() : null;
}

/** An event's outcome written over the foreseen one (a stale or parked event), prepared once per database. */
const updateOutcome = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<Pick<WebhookEventRow, 'id' | 'outcome' | 'applied_at' | 'tried_at'>, never>((slot) =>
    ctx.db.updateTable('webhook_events').set({ outcome: slot('outcome'), applied_at: slot('applied_at'), tried_at: slot('tried_at') }).where('id', '=', slot('id')),
  ),
);

async function recordOutcome(ctx: LedgerContext, trx: LedgerDb, stored: StoredEvent, effect: Effect): Promise<StoredEvent> {
  const appliedAt = processedAt(ctx, effect.outcome);
  const triedAt = ctx.now();
  await updateOutcome(ctx)(trx, { id: stored.id, outcome: effect.outcome, applied_at: appliedAt, tried_at: triedAt });
  return { ...stored, outcome: effect.outcome, appliedAt, triedAt };
}

/** An event's row, the one column list of every statement that stores one. */
const eventColumns = [
  'id',
  'method',
  'status',
  'order_id',
  'operation_id',
  'payment_id',
  'body',
  'facts',
  'received_at',
  'applied_at',
  'tried_at',
  'outcome',
] as const satisfies readonly (keyof WebhookEventRow)[];

/** INSERT … ON CONFLICT (id) DO NOTHING, prepared once per database. */
const insertEvent = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<WebhookEventRow, never>((slot) =>
    ctx.db
      .insertInto('webhook_events')
      .values(Object.fromEntries(eventColumns.map((column) => [column, slot(column)])) as unknown as WebhookEventRow)
      .onConflict((oc) => oc.column('id').doNothing()),
  ),
);

/** The stored event, read as it is (no lock), prepared once per database. */
const selectEvent = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<{ id: string }, WebhookEventRow>((slot) => ctx.db.selectFrom('webhook_events').select(EVENT_COLUMNS).where('id', '=', slot('id'))),
);

/** A payment's event on its way into a batch: its row, and the guarded forward step's values. */
interface AdvancingEvent {
  readonly row: WebhookEventRow;
  readonly args: UpdateArgs;
}

type SqlType = 'text' | 'bigint' | 'integer';

/** Every value of the forward step, with its PostgreSQL type (json_to_recordset's column list). */
const argTypes: { readonly [K in keyof UpdateArgs]-?: SqlType } = {
  status_code: 'text',
  status_description: 'text',
  payment_id: 'text',
  gateway_order_id: 'text',
  billing_order_id: 'text',
  transaction_id: 'text',
  cc_mask: 'text',
  card_brand: 'text',
  cc_token: 'text',
  cc_token_expiration: 'text',
  user_action_url: 'text',
  checkout_url: 'text',
  receipt_url: 'text',
  orderId: 'text',
  status: 'text',
  method: 'text',
  amount: 'bigint',
  currency: 'text',
  paidAmount: 'bigint',
  paidCurrency: 'text',
  rank: 'integer',
  now: 'bigint',
  finalizedAt: 'bigint',
  noticeDueAt: 'bigint',
  movesHeld: 'integer',
  heldAs: 'text',
};

const eventTypes: { readonly [K in (typeof eventColumns)[number]]-?: SqlType } = {
  id: 'text',
  method: 'text',
  status: 'text',
  order_id: 'text',
  operation_id: 'text',
  payment_id: 'text',
  body: 'text',
  facts: 'text',
  received_at: 'bigint',
  applied_at: 'bigint',
  tried_at: 'bigint',
  outcome: 'text',
};

/**
 * The batch's rows, read from one JSON parameter (`[{ row, args }, …]`) into columns named
 * apart from the payments' (`arg_…`, `event_…`), so the guarded UPDATE's bare column names
 * still mean the payment's.
 *
 * The WHERE, always true, is for the planner: it guesses a set-returning function at 100 rows,
 * and plans once per connection (a prepared statement's generic plan) — often while the tables
 * are still small. Joining 100 rows to a small table, it scans the table whole and keeps that
 * plan as the table grows. An equality of two expressions it knows nothing of is guessed at
 * 0.5 % of the rows (`x = x` it would read as `x is not null`): one row, looked up by the
 * primary keys, as the one-event statements are.
 */
function batchRows(events: unknown) {
  const fields = (of: 'row' | 'args', types: Record<string, SqlType>, prefix: string) =>
    Object.entries(types).map(([name, type]) => `(b.${of} ->> '${name}')::${type} as "${prefix}${name}"`);
  const columns = [...fields('args', argTypes, 'arg_'), ...fields('row', eventTypes, 'event_')].join(', ');
  return sql<Record<string, unknown>>`(select ${sql.raw(columns)} from jsonb_array_elements(${events}::jsonb) as e(value), lateral (select (e.value -> 'row') as row, (e.value -> 'args') as args) as b where (b.row ->> 'id') = (b.row ->> 'id') || '')`;
}

/** What the batch statement says of each of its events: the payment as its step left it (or as it was, stale), or the event as stored before. */
interface BatchResult {
  readonly batch_id: string;
  readonly advanced: PaymentRow | null;
  readonly updated: PaymentRow | null;
  readonly behind: PaymentRow | null;
  readonly seen: WebhookEventRow | null;
}

/**
 * PostgreSQL, the usual payment events of a group in one statement, outside any transaction.
 * For each new event (one an order): its payment's guarded step — forward, else a refresh of
 * the same status — or, when the payment is this one but already past it, nothing (stale: a
 * status only moves forward, so that stays true without a lock). The three never hold
 * together. Each event is stored with what it did, and nothing else: what none of them covers
 * (another payment, an unknown order) goes the ordinary way. A plain INSERT: an event stored
 * meanwhile by another writer fails the whole statement, and its events go the ordinary way.
 * Each event stored before is read too: a repeat of one applied is settled here.
 */
const advancingBatch = oncePerLedger((ctx: LedgerContext) => {
  const statement = prepareQuery<{ events: string }, BatchResult>((slot) => {
    const arg = ((name: string) => sql.ref(`batch.arg_${name}`)) as unknown as SlotOf<UpdateArgs>;
    const batchRef = (column: string) => sql.ref<string>(`batch.${column}`);
    // Built loosely typed: Kysely's types do not follow a CTE made of raw SQL.
    const db = ctx.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    type Creator = QueryCreator<LedgerTables>;
    const unknownEvent = ({ not, exists, selectFrom }: ExpressionBuilder<LedgerTables, 'payments'>) =>
      not(exists(selectFrom('webhook_events as known').select(sql.lit(1).as('one')).where('known.id', '=', batchRef('event_id'))));
    // The steps read the events not stored yet (`fresh`) under the batch's name, so each event
    // is looked up in webhook_events once rather than by each step: a fifth of the statement.
    const step = (qc: Creator, step: 'advanced' | 'updated') =>
      guardedUpdate(qc, step, arg)
        .from('fresh as batch' as never)
        .clearReturning()
        .returning(PAYMENT_COLUMNS.map((column) => `payments.${column}` as const))
        .returning(batchRef('event_id').as('event_id'));
    const behind = (qc: Creator) =>
      (qc as unknown as typeof db)
        .selectFrom('payments')
        .innerJoin('fresh as batch', 'batch.arg_orderId', 'payments.order_id')
        .where(sql<SqlBool>`not (${paymentProgression.forward(arg('rank'))}) and not (${paymentProgression.same(arg('status'))})`)
        .where(samePayment(arg) as never)
        // Ended failed without the gateway's word, then reported paid: the ordinary way, which holds it (progressPayment).
        .where(sql<SqlBool>`not (${sql.ref('payments.status')} = 'failure' and ${sql.ref('payments.payment_id')} is null and ${arg('status')} = 'success')`)
        .select(PAYMENT_COLUMNS.map((column) => `payments.${column}` as const))
        .select(batchRef('event_id').as('event_id'));
    const outcomeOf = (from: string, outcome: EventOutcome) => (qc: Creator) => (qc as unknown as typeof db).selectFrom(from).select([`${from}.event_id`, sql.lit(outcome).as('outcome')]);
    const joined = (alias: string) => sql.raw(alias);
    return db
      .with('batch', () => batchRows(slot('events')))
      // eslint-disable-next-line no-restricted-syntax -- the batch CTE's own columns, made by this statement
      .with('fresh', (qc) => (qc as unknown as typeof db).selectFrom('batch').selectAll().where(unknownEvent as never))
      .with('advanced', (qc) => step(qc as Creator, 'advanced'))
      .with('updated', (qc) => step(qc as Creator, 'updated'))
      .with('behind', (qc) => behind(qc as Creator))
      .with('stored', (qc) =>
        qc
          .insertInto('webhook_events')
          .columns([...eventColumns])
          .expression(
            qc
              .selectFrom('batch')
              .innerJoin(
                (sub) => outcomeOf('advanced', 'applied')(sub as never).unionAll(outcomeOf('updated', 'applied')(sub as never)).unionAll(outcomeOf('behind', 'stale')(sub as never)).as('took'),
                'took.event_id',
                'batch.event_id',
              )
              .select(eventColumns.map((column) => (column === 'outcome' ? sql.ref<string>('took.outcome') : batchRef(`event_${column}`)).as(column))),
          )
          .returning('id'),
      )
      .selectFrom('batch')
      .leftJoin('advanced', 'advanced.event_id', 'batch.event_id')
      .leftJoin('updated', 'updated.event_id', 'batch.event_id')
      .leftJoin('behind', 'behind.event_id', 'batch.event_id')
      .leftJoin('webhook_events as seen', 'seen.id', 'batch.event_id')
      .select([
        batchRef('event_id').as('batch_id'),
        ...(['advanced', 'updated', 'behind', 'seen'] as const).map((alias) => sql`to_json(${joined(alias)})`.as(alias)),
      ]) as unknown as Compilable<BatchResult>;
  });
  return {
    async run(db, items): Promise<readonly (EventIngest | undefined)[]> {
      const { rows } = await statement(db, { events: JSON.stringify(items) });
      const results = new Map(rows.map((result) => [result.batch_id, result]));
      return items.map(({ row }) => {
        const result = results.get(row.id);
        if (!result) return undefined;
        const moved = result.advanced ?? result.updated;
        if (moved) return { isNew: true, event: toStoredEvent(row), advanced: moved === result.advanced, flagged: false, payment: toPayment(moved), operation: null };
        if (result.behind) return { isNew: true, event: { ...toStoredEvent(row), outcome: 'stale' }, advanced: false, flagged: false, payment: toPayment(result.behind), operation: null };
        // Stored before and applied: a repeat, nothing to do (as applyStored would find).
        if (result.seen && result.seen.applied_at !== null) return unchanged(toStoredEvent(result.seen));
        return undefined;
      });
    },
  } satisfies Batch<AdvancingEvent>;
});

/**
 * What an event will most likely come to: stored with it, so that the usual event costs no
 * second write. One for another point of sale, or unreadable, is never applied.
 */
function expectedOutcome(facts: EventFacts): EventOutcome {
  return facts.otherPosId !== undefined || facts.unreadable ? 'unmatched' : 'applied';
}

/** The event's row as stored, its outcome foreseen. */
function eventRow(ctx: LedgerContext, id: string, body: string, facts: EventFacts): WebhookEventRow {
  const now = ctx.now();
  const expected = expectedOutcome(facts);
  return {
    id,
    method: facts.method,
    status: facts.status,
    order_id: facts.orderId,
    operation_id: facts.operationId ?? null,
    payment_id: facts.paymentId ?? null,
    body,
    facts: JSON.stringify(facts),
    received_at: now,
    applied_at: expected === 'applied' ? now : null,
    tried_at: now,
    outcome: expected,
    reviewed_at: null,
  };
}

/**
 * The ordinary way: store the event (its outcome foreseen), then apply it — two statements.
 * Stored first, a repeat is known before anything is applied, so nothing has to be undone and
 * the repeat is settled in this same transaction. An outcome other than the foreseen one
 * (stale, parked, …) is written over it.
 */
async function ingestOnce(ctx: LedgerContext, trx: LedgerDb, row: WebhookEventRow, facts: EventFacts): Promise<EventIngest> {
  const inserted = await insertEvent(ctx)(trx, row);
  if (!inserted.numAffectedRows) return applyStored(ctx, trx, row.id, facts);
  const effect = await applyEvent(ctx, trx, facts);
  const event = effect.outcome === row.outcome ? toStoredEvent(row) : await recordOutcome(ctx, trx, toStoredEvent(row), effect);
  return ingested({ isNew: true, event, advanced: effect.advanced, flagged: effect.flagged ?? false, payment: effect.payment, operation: effect.operation }, effect.quiet);
}

/** Deliveries that changed nothing the ledger holds but their event's row (changedNothing). */
const quietDeliveries = new WeakSet<EventIngest>();

function ingested(ingest: EventIngest, quiet = false): EventIngest {
  if (quiet) quietDeliveries.add(ingest);
  return ingest;
}

function unchanged(stored: StoredEvent): EventIngest {
  return ingested({ isNew: false, event: stored, advanced: false, flagged: false, payment: null, operation: null }, true);
}

/** A stored event: nothing to do once applied; otherwise (parked, unmatched) try it again. */
async function applyStored(ctx: LedgerContext, trx: LedgerDb, id: string, facts: EventFacts): Promise<EventIngest> {
  // Once applied, an event stays applied: a repeat of one (nearly every repeat) reads it and is done.
  const seen = toStoredEvent((await selectEvent(ctx)(trx, { id })).rows[0]!);
  if (seen.appliedAt !== null) return unchanged(seen);
  let stored = seen;
  if (ctx.dialect === 'postgres') {
    // Locks in the order every writer takes them — the payment, then its events — so this
    // cannot deadlock with a settlement re-applying the same parked event; then reads it again,
    // as it is under the lock. (On SQLite the transaction holds the database's write lock.)
    await lockPayment(ctx, trx, facts.orderId);
    stored = toStoredEvent(await trx.selectFrom('webhook_events').select(EVENT_COLUMNS).where('id', '=', id).$call(lockingRead(ctx)).executeTakeFirstOrThrow());
    if (stored.appliedAt !== null) return unchanged(stored);
  }
  const effect = await applyEvent(ctx, trx, facts);
  return { isNew: false, event: await recordOutcome(ctx, trx, stored, effect), advanced: effect.advanced, flagged: effect.flagged ?? false, payment: effect.payment, operation: effect.operation };
}

/**
 * Tries a stored event that is not applied yet (parked, unmatched) again, from the facts kept
 * with it: what a re-delivery would do, without waiting for one. Undefined when unknown.
 */
export async function retryEvent(ctx: LedgerContext, id: string): Promise<EventIngest | undefined> {
  const row = await ctx.db.selectFrom('webhook_events').select('facts').where('id', '=', id).executeTakeFirst();
  return row && ctx.db.transaction().execute((trx) => applyStored(ctx, trx, id, JSON.parse(row.facts) as EventFacts));
}

/**
 * Marks an unmatched event reviewed: a person settled it elsewhere. It stays stored as it came,
 * and a re-delivery is still tried, but it is no longer retried by reconciliation, listed as
 * waiting, nor counted by the operator's gauge. Marking it again changes nothing. Undefined when
 * there is no such event; a conflict when it is not unmatched (applied, or parked waiting for
 * its reservation, which settles it).
 */
export async function reviewEvent(ctx: LedgerContext, id: string): Promise<StoredEvent | undefined> {
  const reviewed = await ctx.db
    .updateTable('webhook_events')
    .set({ reviewed_at: ctx.now() })
    .where('id', '=', id)
    .where('applied_at', 'is', null)
    .where('outcome', '=', 'unmatched')
    .where('reviewed_at', 'is', null)
    .returning(EVENT_COLUMNS)
    .executeTakeFirst();
  if (reviewed) return toStoredEvent(reviewed);
  const stored = await ctx.db.selectFrom('webhook_events').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!stored || stored.reviewed_at !== null) return stored && toStoredEvent(stored);
  throw new LedgerConflict('event_not_unmatched', `The event is ${stored.outcome}: only an unmatched event can be marked reviewed`);
}

/**
 * Stores a verified webhook once and applies it forward-only, in one transaction. A duplicate
 * of an event already applied changes nothing; a duplicate of one still parked or unmatched is
 * tried again (so a re-send can complete what a first delivery could not).
 */
export async function ingestEvent(ctx: LedgerContext, input: GatewayEvent): Promise<EventIngest> {
  const { data, body, ...facts } = parseInput(gatewayEventInput, input);
  const row = eventRow(ctx, eventId(data), body, facts);
  // PostgreSQL: the usual event — a payment's, foreseen applied — goes into its group's one
  // statement; a recurring payment's is weighed against the payment first (applyRecurring).
  const batched =
    ctx.dialect === 'postgres' && row.outcome === 'applied' && isPaymentEvent(facts) && !facts.recurring
      ? { batch: advancingBatch(ctx), item: { row, args: updateArgs(ctx, facts.orderId, paymentUpdateOf(facts)) } satisfies AdvancingEvent }
      : undefined;
  return sharedTransactions(ctx)((trx) => ingestOnce(ctx, trx, row, facts), facts.orderId, { batched: batched as Batched | undefined, relaxed: changedNothing });
}

/**
 * A delivery that changes nothing the ledger holds but its own event row — a repeat of an applied
 * event, a stale one, or one whose payment already is what it says with every detail it gives
 * (the usual webhook: the pay call's answer was recorded first, and this process remembers what
 * it recorded) — commits without waiting for the disk. What it carries is in the ledger already,
 * or the reconciler learns it again from the gateway: lost to a power cut, nothing is. One that
 * moves a payment or operation, flags one, fills in a detail the payment lacked (a receipt, a
 * card token), or is stored parked or unmatched (kept for later, or for a person) is synced
 * before its 200; so is a refresh this process cannot compare (another instance recorded the
 * answer, or a restart came between).
 */
function changedNothing(ingest: EventIngest): boolean {
  return quietDeliveries.has(ingest);
}

/** Applies the order's parked secondary events again (after a reservation learnt its operation id). */
export async function reapplyParkedEvents(ctx: LedgerContext, trx: LedgerDb, orderId: string): Promise<void> {
  const rows = await trx
    .selectFrom('webhook_events')
    .select(EVENT_COLUMNS)
    .where('order_id', '=', orderId)
    .where('outcome', '=', 'parked')
    .orderBy('received_at')
    .execute();
  for (const row of rows) {
    await recordOutcome(ctx, trx, toStoredEvent(row), await applyEvent(ctx, trx, JSON.parse(row.facts) as EventFacts));
  }
}

export async function eventsOf(db: LedgerDb, orderId: string): Promise<StoredEvent[]> {
  const rows = await db.selectFrom('webhook_events').select(EVENT_COLUMNS).where('order_id', '=', orderId).orderBy('received_at').orderBy('id').execute();
  return rows.map(toStoredEvent);
}
