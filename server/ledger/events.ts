// Webhook events: stored once (the primary key is the hash of the raw `data` field), and
// applied in the same transaction that stores them, so an event is either not stored or stored
// with its effect — a crash between the two cannot leave a duplicate that is never applied.
// This is the hottest write path (budget: 5,000 events/s on SQLite): one INSERT and the guarded
// UPDATE of the payment.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Compilable, SqlBool } from 'kysely';
import { lockPayment, lockingRead } from './context.js';
import type { LedgerContext, LedgerDb } from './context.js';
import { sharedTransactions } from './group-commit.js';
import { gatewayEventInput, parseInput } from './input.js';
import { insertOperation, progressOperation } from './operations.js';
import { flagDiscrepancy, guardedUpdate, progressPayment, updateArgs } from './payments.js';
import type { UpdateArgs } from './payments.js';
import { oncePerLedger, prepareQuery } from './prepared.js';
import type { SlotOf } from './prepared.js';
import { toPayment, toStoredEvent } from './rows.js';
import type { PaymentRow, WebhookEventRow } from './schema.js';
import { checkMovedMoney } from './unasked-operations.js';
import type { EventIngest, EventOutcome, GatewayEvent, Operation, OperationKind, OperationStatus, Payment, PaymentMethod, PaymentStatus, PaymentUpdate, StoredEvent } from './types.js';

/** What an event says, without the raw payload: enough to apply it again later. */
type EventFacts = Omit<GatewayEvent, 'data' | 'body'>;

interface Effect {
  readonly outcome: EventOutcome;
  readonly advanced: boolean;
  readonly flagged?: boolean;
  readonly payment: Payment | null;
  readonly operation: Operation | null;
}

const unmatched: Effect = { outcome: 'unmatched', advanced: false, payment: null, operation: null };

const paymentMethods = new Set(['purchase', 'auth', 'lookup']);
const paymentStatuses = new Set<string>(['init', 'pending', 'success', 'failure']);
const operationKinds = new Set<string>(['capture', 'void', 'refund']);
const operationStatuses = new Set<string>(['pending', 'success', 'failure']);

export function eventId(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** What a payment's event says of it, as the ledger's update. */
function paymentUpdateOf(facts: EventFacts): PaymentUpdate {
  const { method, status, orderId: _orderId, operationId: _operationId, otherPosId: _otherPosId, unreadable: _unreadable, ...details } = facts;
  return { ...details, method: method as PaymentMethod, status: status as PaymentStatus };
}

function isPaymentEvent(facts: EventFacts): boolean {
  return paymentMethods.has(facts.method) && paymentStatuses.has(facts.status);
}

/** `from` 'updated': the forward step was tried already, with the event's insert. */
async function applyPaymentEvent(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts, from: 'advanced' | 'updated' = 'advanced'): Promise<Effect> {
  const result = await progressPayment(ctx, trx, facts.orderId, paymentUpdateOf(facts), from);
  // No such order, or an event about another payment under its order id — another method or
  // payment id — (or this one with other figures: then flagged on the payment, once).
  if (!result) return unmatched;
  if (result.progress === 'flagged') return { ...unmatched, flagged: true, payment: result.payment };
  if (result.progress === 'mismatch') return unmatched;
  return advancedOr(result.progress, result.payment);
}

function advancedOr(progress: 'advanced' | 'updated' | 'stale', payment: Payment): Effect {
  return { outcome: progress === 'stale' ? 'stale' : 'applied', advanced: progress === 'advanced', payment, operation: null };
}

async function applyOperationEvent(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  const payment = await lockPayment(ctx, trx, facts.orderId);
  if (!payment || !facts.operationId) return unmatched;
  const kind = facts.method as OperationKind;
  // An operation in another currency is not on this order's payment, nor is a capture or void
  // of a purchase; one of no readable amount is no figure to record.
  if (facts.currency !== undefined && facts.currency !== payment.currency) return unmatched;
  if ((kind !== 'refund' && payment.method !== 'auth') || facts.amount === 0) return unmatched;
  return checkMoney(ctx, trx, toPayment(payment), await applyOperation(ctx, trx, kind, facts.operationId, facts));
}

/**
 * A capture or refund that moved money may contradict what the merchant was told — refunds past
 * what was paid (made in the gateway's portal), or one it was told never happened: recorded as
 * they happened, and the payment flagged — once — for a person to look at (unasked-operations.ts).
 */
async function checkMoney(ctx: LedgerContext, trx: LedgerDb, payment: Payment, effect: Effect): Promise<Effect> {
  if (!effect.advanced || !effect.operation) return effect;
  const flagged = await checkMovedMoney(ctx, trx, payment, effect.operation);
  return flagged ? { ...effect, flagged: true, payment: flagged } : effect;
}

async function applyOperation(ctx: LedgerContext, trx: LedgerDb, kind: OperationKind, operationId: string, facts: EventFacts): Promise<Effect> {
  const status = facts.status as OperationStatus;
  const result = { status, operationId, amount: facts.amount, statusCode: facts.statusCode, statusDescription: facts.statusDescription, receiptUrl: facts.receiptUrl };
  const known = await trx.selectFrom('operations').select(['id', 'order_id']).where('operation_id', '=', operationId).executeTakeFirst();
  if (known) {
    if (known.order_id !== facts.orderId) return unmatched;
    const progressed = await progressOperation(ctx, trx, known.id, result);
    const outcome = progressed?.progress === 'stale' ? 'stale' : 'applied';
    return { outcome, advanced: progressed?.progress === 'advanced', payment: null, operation: progressed?.operation ?? null };
  }
  if (facts.amount === undefined) return unmatched;
  const withoutId = (status: 'pending' | 'settled') =>
    trx
      .selectFrom('operations')
      .select('id')
      .where('order_id', '=', facts.orderId)
      .where('kind', '=', kind)
      .where('amount', '=', facts.amount!)
      // Without an id: the ledger's reservations, and operations recorded from the order state.
      .where('operation_id', 'is', null)
      .$if(status === 'pending', (q) => q.where('status', '=', 'pending'))
      // Settled from the order state (whose entries carry no operation id): a success, or a
      // decline with the gateway's code — not a failure ended here, which never got there.
      .$if(status === 'settled', (q) => q.where((eb) => eb.or([eb('status', '=', 'success'), eb.and([eb('status', '=', 'failure'), eb('status_code', 'is not', null)])])))
      .orderBy('created_at')
      .executeTakeFirst();
  // A reservation of this kind and amount has not learnt its operation id yet: the event is
  // probably its own. Wait for its settlement (which applies waiting events) rather than guess
  // between reservations.
  if (await withoutId('pending')) return { outcome: 'parked', advanced: false, payment: null, operation: null };
  // One already settled from the order state is this event's operation: it takes the id.
  const settled = await withoutId('settled');
  if (settled) {
    const progressed = await progressOperation(ctx, trx, settled.id, result);
    return { outcome: progressed?.progress === 'stale' ? 'stale' : 'applied', advanced: progressed?.progress === 'advanced', payment: null, operation: progressed?.operation ?? null };
  }
  // An operation this ledger never reserved (made elsewhere, e.g. in the gateway's portal):
  // recorded as the gateway reports it, limits or not, because it happened.
  const operation = await insertOperation(ctx, trx, facts.orderId, { ...result, kind, amount: facts.amount, origin: 'gateway' });
  return { outcome: 'applied', advanced: true, payment: null, operation };
}

/**
 * A post the companion could not read says something happened to the order, but not what: the
 * payment is held for a person to look at (flagged once), nothing is applied.
 */
async function flagUnreadable(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  const row = await lockPayment(ctx, trx, facts.orderId);
  if (!row) return unmatched;
  const payment = toPayment(row);
  const status = paymentStatuses.has(facts.status) ? (facts.status as PaymentStatus) : payment.status;
  const report = { status, amount: 0, currency: null, paidAmount: null, paidCurrency: null, paymentId: null };
  const flagged = await flagDiscrepancy(ctx, trx, payment.orderId, report);
  return flagged ? { ...unmatched, flagged: true, payment: flagged } : unmatched;
}

function applyEvent(ctx: LedgerContext, trx: LedgerDb, facts: EventFacts): Promise<Effect> {
  // Addressed to another point of sale: whatever it says, not about this ledger's payments.
  if (facts.otherPosId !== undefined) return Promise.resolve(unmatched);
  if (facts.unreadable) return flagUnreadable(ctx, trx, facts);
  if (isPaymentEvent(facts)) return applyPaymentEvent(ctx, trx, facts);
  if (operationKinds.has(facts.method) && operationStatuses.has(facts.status)) return applyOperationEvent(ctx, trx, facts);
  return Promise.resolve(unmatched);
}

function processedAt(ctx: LedgerContext, outcome: EventOutcome): number | null {
  return outcome === 'applied' || outcome === 'stale' ? ctx.now() : null;
}

async function recordOutcome(ctx: LedgerContext, trx: LedgerDb, stored: StoredEvent, effect: Effect): Promise<StoredEvent> {
  const appliedAt = processedAt(ctx, effect.outcome);
  const triedAt = ctx.now();
  await trx.updateTable('webhook_events').set({ outcome: effect.outcome, applied_at: appliedAt, tried_at: triedAt }).where('id', '=', stored.id).execute();
  return { ...stored, outcome: effect.outcome, appliedAt, triedAt };
}

/** INSERT … ON CONFLICT (id) DO NOTHING, prepared once per database. */
const insertEvent = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<WebhookEventRow, never>((slot) =>
    ctx.db
      .insertInto('webhook_events')
      .values({
        id: slot('id'),
        method: slot('method'),
        status: slot('status'),
        order_id: slot('order_id'),
        operation_id: slot('operation_id'),
        payment_id: slot('payment_id'),
        body: slot('body'),
        facts: slot('facts'),
        received_at: slot('received_at'),
        applied_at: slot('applied_at'),
        tried_at: slot('received_at'),
        outcome: slot('outcome'),
      })
      .onConflict((oc) => oc.column('id').doNothing()),
  ),
);

/** The stored event, read as it is (no lock), prepared once per database. */
const selectEvent = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<{ id: string }, WebhookEventRow>((slot) => ctx.db.selectFrom('webhook_events').selectAll().where('id', '=', slot('id'))),
);

/** The event's row, its slots named apart from the payment update's. */
type EventSlots = { [K in keyof WebhookEventRow as `event_${K}`]: WebhookEventRow[K] };

type StoredAndMoved = { stored_id: string } & ({ [K in keyof PaymentRow]: PaymentRow[K] } | { [K in keyof PaymentRow]: null });

/**
 * PostgreSQL, a payment's event: the insert and the forward step in one statement, one round
 * trip instead of two. The payment moves only if the event was new; a row comes back only if
 * it was (with the payment's columns if it moved, nulls if not).
 */
const storeAndAdvance = oncePerLedger((ctx: LedgerContext) =>
  prepareQuery<UpdateArgs & EventSlots, StoredAndMoved>(
    (slot) =>
      ctx.db
        .with('stored', (db) =>
          db
            .insertInto('webhook_events')
            .values({
              id: slot('event_id'),
              method: slot('event_method'),
              status: slot('event_status'),
              order_id: slot('event_order_id'),
              operation_id: slot('event_operation_id'),
              payment_id: slot('event_payment_id'),
              body: slot('event_body'),
              facts: slot('event_facts'),
              received_at: slot('event_received_at'),
              applied_at: slot('event_applied_at'),
              tried_at: slot('event_received_at'),
              outcome: slot('event_outcome'),
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .returning('id'),
        )
        .with('moved', (db) => guardedUpdate(db, 'advanced', slot as SlotOf<UpdateArgs>).where(sql<SqlBool>`exists (select 1 from stored)`))
        .selectFrom('stored')
        .leftJoin('moved', (join) => join.onTrue())
        .selectAll('moved')
        .select('stored.id as stored_id') as unknown as Compilable<StoredAndMoved>,
  ),
);

/** Stores a new payment event and tries its forward step (PostgreSQL); undefined when it was stored before. */
async function storeAdvancing(ctx: LedgerContext, trx: LedgerDb, row: WebhookEventRow, facts: EventFacts): Promise<{ moved?: PaymentRow } | undefined> {
  const event = Object.fromEntries(Object.entries(row).map(([key, value]) => [`event_${key}`, value])) as EventSlots;
  const { rows } = await storeAndAdvance(ctx)(trx, { ...updateArgs(ctx, facts.orderId, paymentUpdateOf(facts)), ...event });
  const first = rows[0];
  if (!first) return undefined;
  return first.order_id === null ? {} : { moved: first as PaymentRow };
}

/**
 * What an event will most likely come to: stored with it, so that the usual event costs no
 * second write. One for another point of sale, or unreadable, is never applied.
 */
function expectedOutcome(facts: EventFacts): EventOutcome {
  return facts.otherPosId !== undefined || facts.unreadable ? 'unmatched' : 'applied';
}

/**
 * The hot path: store the event (its outcome foreseen), then apply it — two statements. Stored
 * first, a repeat is known before anything is applied, so nothing has to be undone and the
 * repeat is settled in this same transaction. An outcome other than the foreseen one (stale,
 * parked, …) is written over it.
 */
async function ingestOnce(ctx: LedgerContext, trx: LedgerDb, id: string, body: string, facts: EventFacts): Promise<EventIngest> {
  const now = ctx.now();
  const expected = expectedOutcome(facts);
  const row: WebhookEventRow = {
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
  };
  let effect: Effect;
  if (ctx.dialect === 'postgres' && expected === 'applied' && isPaymentEvent(facts)) {
    const stored = await storeAdvancing(ctx, trx, row, facts);
    if (!stored) return applyStored(ctx, trx, id, facts);
    effect = stored.moved ? advancedOr('advanced', toPayment(stored.moved)) : await applyPaymentEvent(ctx, trx, facts, 'updated');
  } else {
    const inserted = await insertEvent(ctx)(trx, row);
    if (!inserted.numAffectedRows) return applyStored(ctx, trx, id, facts);
    effect = await applyEvent(ctx, trx, facts);
  }
  const event = effect.outcome === expected ? toStoredEvent(row) : await recordOutcome(ctx, trx, toStoredEvent(row), effect);
  return { isNew: true, event, advanced: effect.advanced, flagged: effect.flagged ?? false, payment: effect.payment, operation: effect.operation };
}

function unchanged(stored: StoredEvent): EventIngest {
  return { isNew: false, event: stored, advanced: false, flagged: false, payment: null, operation: null };
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
    stored = toStoredEvent(await trx.selectFrom('webhook_events').selectAll().where('id', '=', id).$call(lockingRead(ctx)).executeTakeFirstOrThrow());
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
 * Stores a verified webhook once and applies it forward-only, in one transaction. A duplicate
 * of an event already applied changes nothing; a duplicate of one still parked or unmatched is
 * tried again (so a re-send can complete what a first delivery could not).
 */
export async function ingestEvent(ctx: LedgerContext, input: GatewayEvent): Promise<EventIngest> {
  const { data, body, ...facts } = parseInput(gatewayEventInput, input);
  const id = eventId(data);
  return sharedTransactions(ctx)((trx) => ingestOnce(ctx, trx, id, body, facts), facts.orderId);
}

/** Applies the order's parked secondary events again (after a reservation learnt its operation id). */
export async function reapplyParkedEvents(ctx: LedgerContext, trx: LedgerDb, orderId: string): Promise<void> {
  const rows = await trx
    .selectFrom('webhook_events')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('outcome', '=', 'parked')
    .orderBy('received_at')
    .execute();
  for (const row of rows) {
    await recordOutcome(ctx, trx, toStoredEvent(row), await applyEvent(ctx, trx, JSON.parse(row.facts) as EventFacts));
  }
}

export async function eventsOf(db: LedgerDb, orderId: string): Promise<StoredEvent[]> {
  const rows = await db.selectFrom('webhook_events').selectAll().where('order_id', '=', orderId).orderBy('received_at').orderBy('id').execute();
  return rows.map(toStoredEvent);
}
