// Checkout sessions and the pay-attempt claim: one attempt in flight per session, whatever
// the number of clicks, tabs or instances.
import { randomBytes, randomUUID } from 'node:crypto';
import { holdsCardNumber } from '@payform/card';
import { sql } from 'kysely';
import type { Compilable, Kysely, QueryCreator, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import { holdsSession, isUnsent, noPaymentAmong, NOT_SENT_REASON } from './attempts.js';
import { lockingRead } from './context.js';
import type { LedgerContext, LedgerDb } from './context.js';
import { InvalidLedgerInput, LedgerConflict, LedgerNotFound } from './errors.js';
import { newSessionInput, parseInput, payAttemptInput, sessionLifetime } from './input.js';
import { oncePerLedger, prepareQuery } from './prepared.js';
import type { SlotOf } from './prepared.js';
import { toJson, toPayment, toSession } from './rows.js';
import type { CheckoutSessionRow, PaymentRow } from './schema.js';
import type { ChargeReopening, CheckoutSession, SessionExtension, NewCheckoutSession, PayAttemptClaim, PayAttemptRefusal, PayAttemptRequest, Payment, PaymentMode } from './types.js';
import { PAYMENT_COLUMNS, SESSION_COLUMNS } from './columns.js';

const DEFAULT_TTL_SECONDS = 30 * 60;
/** What one extension gives: the customer told two minutes before the end gets ten more. */
export const EXTENSION_MS = 10 * 60_000;
/** How long after it opened a session may be extended to: past 20 hours WCAG 2.2.1 asks for no extension. */
export const EXTENDED_LIFE_MS = 20 * 3_600_000;
const MAX_ORDER_ID_LENGTH = 32;
/**
 * Attempts a session takes at most. A customer declined a few times starts over; a card tester
 * who holds one session would otherwise try a card every few seconds for its whole life.
 */
export const MAX_ATTEMPTS_PER_SESSION = 10;
/**
 * Attempts of a session in all, those the gateway never received included (refused credentials,
 * the gateway away): a bound on its order ids, which a customer clicking through an outage does
 * not reach.
 */
const MAX_TRIES_PER_SESSION = 30;

/** 256 random bits: the id is the capability a browser holds. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** 20 random hex characters: room for the `:<attempt>` suffix of retries within 32. */
const randomOrderHex = () => randomUUID().replaceAll('-', '').slice(0, 20);

/**
 * An order id this ledger makes: 20 hex characters, never all digits, and never one the masks
 * that keep card numbers out of logs and stored gateway bodies would hide from the very person
 * searching for it: twenty digits may hold a Luhn-valid run (one id in 12,000), and so may a
 * card number's length of digits with a few letters around it (`ed678388087942659907`, about one
 * in 80,000), which the recogniser takes as a card number written so.
 */
export function newOrderId(draw: () => string = randomOrderHex): string {
  for (;;) {
    const id = draw();
    if (/[a-f]/.test(id) && !holdsCardNumber(id)) return id;
  }
}

/** Whether `orderId` has newOrderId's form: 20 hex characters, a letter among them. */
export function isNewOrderId(orderId: string): boolean {
  return /^[0-9a-f]{20}$/.test(orderId) && /[a-f]/.test(orderId);
}

/**
 * Every column of a session row with its SQL type, for the prepared INSERTs that open one (an
 * INSERT … SELECT casts each value: PostgreSQL cannot tell a parameter's type there).
 */
const sessionTypes = {
  id: 'text',
  order_id: 'text',
  amount: 'bigint',
  currency: 'text',
  description: 'text',
  method: 'text',
  split: 'text',
  customer: 'text',
  customer_id: 'text',
  return_url: 'text',
  allowed_modes: 'text',
  card_id: 'text',
  created_at: 'bigint',
  expires_at: 'bigint',
  closed_at: 'bigint',
} as const satisfies Record<keyof CheckoutSessionRow, 'text' | 'bigint'>;
const sessionColumns = Object.keys(sessionTypes) as (keyof CheckoutSessionRow)[];

type BySession = { sessionId: string };

/** A payment column as the session read names it beside the session's own (both have order_id, amount…). */
const ATTEMPT_PREFIX = 'attempt__';

/** The session row and, under prefixed names, its latest attempt's (all null when there is none). */
type SessionWithAttemptRow = CheckoutSessionRow & Record<string, unknown>;

/**
 * The pay path's statements, prepared once per database: every payment reads its session and
 * claims an attempt, and building these with Kysely each time cost more than running them.
 */
const statements = oncePerLedger((ctx: LedgerContext) => ({
  // One statement, one snapshot: a session is read on every pay call, return and page view.
  sessionWithAttempt: prepareQuery<BySession, SessionWithAttemptRow>((slot) => sessionWithAttempt(ctx, slot('sessionId')) as never),
  // The claim's read: the same, the session row locked (PostgreSQL cannot lock an outer join's
  // nullable side; the session's lock serialises its attempts anyway).
  lockedSessionWithAttempt: prepareQuery<BySession, SessionWithAttemptRow>((slot) => sessionWithAttempt(ctx, slot('sessionId')).$call(lockingRead(ctx, 's')) as never),
  latestAttempt: prepareQuery<BySession, PaymentRow>((slot) =>
    ctx.db.selectFrom('payments').select(PAYMENT_COLUMNS).where('session_id', '=', slot('sessionId')).orderBy('attempt', 'desc').limit(sql.lit(1)),
  ),
  insertSession: prepareQuery<CheckoutSessionRow, never>((slot) =>
    ctx.db
      .insertInto('checkout_sessions')
      .values(Object.fromEntries(sessionColumns.map((column) => [column, slot(column)])) as unknown as CheckoutSessionRow)
      .onConflict((oc) => oc.doNothing()),
  ),
  // A merchant's order id must not be one a payment already carries (an attempt's `:n` id): the
  // session goes in only when none does, the look-up inside the INSERT.
  insertSessionOfOrder: prepareQuery<CheckoutSessionRow, never>((slot) =>
    ctx.db
      .insertInto('checkout_sessions')
      .columns(sessionColumns)
      .expression(
        ctx.db
          .selectNoFrom(sessionColumns.map((column) => sql`cast(${slot(column)} as ${sql.raw(sessionTypes[column])})`.as(column)))
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payments').select(sql.lit(1).as('one')).where('order_id', '=', slot('order_id'))))),
      )
      .onConflict((oc) => oc.doNothing()),
  ),
  insertPayment: prepareQuery<PaymentRow, never>((slot) =>
    ctx.db
      .insertInto('payments')
      .values(Object.fromEntries(PAYMENT_COLUMNS.map((column) => [column, slot(column)])) as unknown as PaymentRow)
      .onConflict((oc) => oc.doNothing()),
  ),
}));

/** What the one-statement claim takes: `customer` as stored (JSON), or null for the session's. */
interface ClaimArgs {
  readonly sessionId: string;
  readonly mode: PaymentMode;
  readonly customer: string | null;
  readonly now: number;
}

/**
 * The usual claim as one statement, which commits itself: the session's latest attempt read and
 * the next attempt inserted in `init` — when the session is open, allows the mode and holds no
 * attempt (it has none yet, or the last one failed). It returns the row it inserted. Anything
 * else inserts nothing and goes the transaction's way, which says why: an attempt in flight,
 * paid or never sent, a closed or expired session, a mode not allowed, an order id too long.
 * So does a claim that lost a race: the unique attempt numbers (and the one live attempt a
 * session may hold) refuse its row. The transaction costs five round trips on PostgreSQL and
 * four statements on SQLite; this, one.
 *
 * PostgreSQL locks the session row first (a CTE), and a statement that waited for that lock
 * still reads the attempts as they were when it began: it numbers its attempt as the winner did,
 * and is refused as above. On SQLite a writing statement takes the database's write lock before
 * it reads anything, as BEGIN IMMEDIATE does, so what it reads is current.
 */
function claimNextAttempt(ctx: LedgerContext, slot: SlotOf<ClaimArgs>) {
  // Built loosely typed: Kysely's types do not follow an INSERT fed by raw expressions.
  type Loose = Record<string, Record<string, unknown>>;
  const db = ctx.db as unknown as Kysely<Loose>;
  const now = sql<number>`cast(${slot('now')} as bigint)`;
  const next = sql<number>`coalesce(latest.attempt, 0) + 1`;
  const orderId = sql<string>`case when latest.attempt is null then s.order_id else s.order_id || ':' || cast(latest.attempt + 1 as text) end`;
  const values: { readonly [K in keyof PaymentRow]-?: RawBuilder<unknown> } = {
    order_id: orderId,
    session_id: sql`s.id`,
    attempt: next,
    mode: sql`cast(${slot('mode')} as text)`,
    method: sql`s.method`,
    amount: sql`s.amount`,
    currency: sql`s.currency`,
    split: sql`s.split`,
    status: sql.lit('init'),
    status_code: sql`null`,
    status_description: sql`null`,
    payment_id: sql`null`,
    gateway_order_id: sql`null`,
    billing_order_id: sql`null`,
    transaction_id: sql`null`,
    cc_mask: sql`null`,
    card_brand: sql`null`,
    cc_token: sql`null`,
    cc_token_expiration: sql`null`,
    user_action_url: sql`null`,
    checkout_url: sql`null`,
    receipt_url: sql`null`,
    customer: sql`coalesce(cast(${slot('customer')} as text), s.customer)`,
    customer_id: sql`s.customer_id`,
    created_at: now,
    updated_at: now,
    last_seen_at: now,
    finalized_at: sql`null`,
    mismatch_report: sql`null`,
    notice_due_at: sql`null`,
    notice_attempts: sql.lit(0),
    absent_reads: sql.lit(0),
    absent_read_at: sql`null`,
    unsent_at: sql`null`,
  };
  const modeAllowed =
    ctx.dialect === 'postgres'
      ? sql<SqlBool>`cast(s.allowed_modes as jsonb) @> jsonb_build_array(cast(${slot('mode')} as text))`
      : sql<SqlBool>`exists (select 1 from json_each(s.allowed_modes) where value = ${slot('mode')})`;
  const latest = (qc: QueryCreator<Loose>) =>
    qc.selectFrom('payments').select(['attempt', 'status', 'mismatch_report']).where('session_id', '=', slot('sessionId')).orderBy('attempt', 'desc').limit(sql.lit(1));
  // A failed attempt the gateway reported paid (held, not settled yet) still holds its session (holdsSession).
  const settledIfHeld =
    ctx.dialect === 'postgres'
      ? sql<SqlBool>`(latest.mismatch_report is null or (cast(latest.mismatch_report as jsonb) -> 'settled') is not null)`
      : sql<SqlBool>`(latest.mismatch_report is null or json_extract(latest.mismatch_report, '$.settled') is not null)`;
  // The session (`s`) beside its latest attempt, if any: the row of the next attempt, when one may start.
  const nextAttempt = (query: SelectQueryBuilder<Loose, string, object>) =>
    query
      .select(PAYMENT_COLUMNS.map((column) => values[column].as(column)))
      .where(sql<SqlBool>`s.closed_at is null`)
      .where(sql<SqlBool>`s.expires_at > ${now}`)
      .where(sql<SqlBool>`(latest.status is null or (latest.status = 'failure' and ${settledIfHeld}))`)
      .where(modeAllowed)
      .where(sql<SqlBool>`length(${orderId}) <= ${sql.lit(MAX_ORDER_ID_LENGTH)}`)
      .where(sql<SqlBool>`(latest.attempt is null or latest.attempt < ${sql.lit(MAX_ATTEMPTS_PER_SESSION)})`);
  if (ctx.dialect === 'sqlite') {
    return db
      .insertInto('payments')
      .columns(PAYMENT_COLUMNS as never)
      .expression(
        nextAttempt(
          db
            .selectFrom('checkout_sessions as s')
            .leftJoin(latest(db).as('latest'), (join) => join.onTrue())
            .where('s.id', '=', slot('sessionId')) as never,
        ),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(PAYMENT_COLUMNS) as unknown as Compilable<PaymentRow>;
  }
  return db
    .with('s', (qc) => qc.selectFrom('checkout_sessions').select(SESSION_COLUMNS).where('id', '=', slot('sessionId')).forUpdate())
    .with('latest', (qc) => latest(qc))
    .with('claimed', (qc) =>
      qc
        .insertInto('payments')
        .columns(PAYMENT_COLUMNS as never)
        .expression(nextAttempt(qc.selectFrom('s').leftJoin('latest', (join) => join.onTrue()) as never))
        .onConflict((oc) => oc.doNothing())
        .returning(PAYMENT_COLUMNS) as never,
    )
    .selectFrom('claimed')
    .select(PAYMENT_COLUMNS as never) as unknown as Compilable<PaymentRow>;
}

/** The one-statement claim, prepared once per ledger. */
const claimNext = oncePerLedger((ctx: LedgerContext) => prepareQuery<ClaimArgs, PaymentRow>((slot) => claimNextAttempt(ctx, slot)));

function sessionWithAttempt(ctx: LedgerContext, sessionId: string) {
  return ctx.db
    .selectFrom('checkout_sessions as s')
    .leftJoin('payments as p', (join) =>
      join
        .onRef('p.session_id', '=', 's.id')
        .on('p.attempt', '=', (eb) => eb.selectFrom('payments as latest').select((max) => max.fn.max('latest.attempt').as('attempt')).whereRef('latest.session_id', '=', 's.id')),
    )
    .select(SESSION_COLUMNS.map((column) => `s.${column}` as const))
    .select(PAYMENT_COLUMNS.map((column) => sql.ref(`p.${column}`).as(`${ATTEMPT_PREFIX}${column}`)))
    .where('s.id', '=', sessionId);
}

/**
 * Whether the session's attempt number `attempt` is one too many. Only attempts the gateway
 * received count toward MAX_ATTEMPTS_PER_SESSION: one it never got (a failure without the
 * gateway's status code, ended for NOT_SENT_REASON) tested no card, and a gateway outage must
 * not use up the checkout of a customer who clicked through it. A refusal of the card's fields
 * did reach the gateway: it counts.
 */
async function attemptsUsedUp(db: LedgerDb, sessionId: string, attempt: number): Promise<boolean> {
  if (attempt <= MAX_ATTEMPTS_PER_SESSION) return false;
  if (attempt > MAX_TRIES_PER_SESSION) return true;
  const { received } = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number | string>().as('received'))
    .where('session_id', '=', sessionId)
    .where((eb) => eb.not(eb.and([eb('status', '=', 'failure'), eb('status_code', 'is', null), eb('status_description', 'like', `${NOT_SENT_REASON}%`)])))
    .executeTakeFirstOrThrow();
  return Number(received) >= MAX_ATTEMPTS_PER_SESSION;
}

/**
 * Whether the session takes another attempt after `payment` (its latest, or one a pay answer is
 * about), once that ended in failure: not when the failures used up its attempts (a session's own
 * order id, at most 28 characters, always leaves room for the last one's suffix). A read for the
 * customer's view; claimPayAttempt decides under the session's lock.
 */
export async function takesAnotherAttempt(ctx: LedgerContext, session: Pick<CheckoutSession, 'id' | 'payment'>): Promise<boolean> {
  const latest = session.payment;
  return latest?.status !== 'failure' || !(await attemptsUsedUp(ctx.db, session.id, latest.attempt + 1));
}

async function latestAttempt(ctx: LedgerContext, db: LedgerDb, sessionId: string): Promise<Payment | null> {
  const row = (await statements(ctx).latestAttempt(db, { sessionId })).rows[0];
  return row ? toPayment(row) : null;
}

export async function createSession(ctx: LedgerContext, input: NewCheckoutSession): Promise<CheckoutSession> {
  const session = parseInput(newSessionInput, input);
  const now = ctx.now();
  const row: CheckoutSessionRow = {
    id: newSessionId(),
    order_id: session.orderId ?? newOrderId(),
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    method: session.method,
    split: toJson(session.split),
    customer: JSON.stringify(session.customer ?? {}),
    customer_id: session.customerId ?? null,
    card_id: session.cardId ?? null,
    return_url: session.returnUrl ?? null,
    allowed_modes: JSON.stringify([...new Set(session.allowedModes ?? ['direct', 'hosted'])]),
    created_at: now,
    expires_at: now + (session.ttlSeconds ?? DEFAULT_TTL_SECONDS) * 1000,
    closed_at: null,
  };
  const prepared = statements(ctx);
  // An order id made here is 76 random bits: no payment carries it yet.
  const insert = session.orderId === undefined ? prepared.insertSession : prepared.insertSessionOfOrder;
  const opened = async (db: LedgerDb) => {
    if (!(await insert(db, row)).numAffectedRows) throw new LedgerConflict('order_id_taken', `order id ${row.order_id} is already used`);
  };
  if (session.saveCard === false || session.extendable === false) {
    // Together: a session without its mark would keep the card the customer did not consent to,
    // or give more time to pay than the merchant holds the goods for.
    await ctx.db.transaction().execute(async (trx) => {
      await opened(trx);
      if (session.saveCard === false) await trx.insertInto('no_card_sessions').values({ session_id: row.id }).execute();
      if (session.extendable === false) await trx.insertInto('fixed_end_sessions').values({ session_id: row.id }).execute();
    });
  } else {
    await opened(ctx.db);
  }
  return toSession(row, null, now);
}

export async function getSession(ctx: LedgerContext, id: string): Promise<CheckoutSession | undefined> {
  const row = (await statements(ctx).sessionWithAttempt(ctx.db, { sessionId: id })).rows[0];
  return row && toSession(row, attemptOf(row), ctx.now());
}

/** Each payment column beside the name the session read gives it, named once. */
const attemptColumns = PAYMENT_COLUMNS.map((column) => [column, `${ATTEMPT_PREFIX}${column}`] as const);

/** The latest attempt read beside its session, or null. */
function attemptOf(row: SessionWithAttemptRow): Payment | null {
  if (row[`${ATTEMPT_PREFIX}order_id`] == null) return null;
  const payment: Record<string, unknown> = {};
  for (const [column, name] of attemptColumns) payment[column] = row[name];
  return toPayment(payment as unknown as PaymentRow);
}

/** The session that handed out `orderId`, whether or not anyone has paid it yet. */
export async function findSessionOfOrder(ctx: LedgerContext, orderId: string): Promise<CheckoutSession | undefined> {
  const row = await ctx.db.selectFrom('checkout_sessions').select('id').where('order_id', '=', orderId).executeTakeFirst();
  return row && getSession(ctx, row.id);
}

/** No further attempts; one already in flight is left to finish. */
export async function closeSession(ctx: LedgerContext, id: string): Promise<CheckoutSession> {
  await ctx.db.updateTable('checkout_sessions').set({ closed_at: ctx.now() }).where('id', '=', id).where('closed_at', 'is', null).execute();
  const session = await getSession(ctx, id);
  if (!session) throw new LedgerNotFound('session', id);
  return session;
}

/**
 * Makes a saved-card charge's session take the merchant's retry while the gateway holds no
 * payment of it (noPaymentAmong its attempts): its lifetime starts over from now, so the retry
 * the next day, or after a fix at the gateway, is claimed as its next attempt (or the unsent one
 * sent again). `closed` when the merchant closed it, `taken` when it is not such a charge (any
 * more): it keeps its order id.
 */
export async function reopenCharge(ctx: LedgerContext, sessionId: string, ttlSeconds = DEFAULT_TTL_SECONDS): Promise<ChargeReopening> {
  const lifetimeMs = parseInput(sessionLifetime, ttlSeconds) * 1000;
  return ctx.db.transaction().execute(async (trx) => {
    // Locked as a claim locks it: a claim waits, and this reads the attempts as they are.
    const session = await trx.selectFrom('checkout_sessions').select(['card_id', 'closed_at']).where('id', '=', sessionId).$call(lockingRead(ctx)).executeTakeFirst();
    if (!session?.card_id) return 'taken';
    if (session.closed_at !== null) return 'closed';
    const attempts = await trx.selectFrom('payments').select(PAYMENT_COLUMNS).where('session_id', '=', sessionId).orderBy('attempt').execute();
    if (!noPaymentAmong(attempts.map(toPayment))) return 'taken';
    await trx.updateTable('checkout_sessions').set({ expires_at: ctx.now() + lifetimeMs }).where('id', '=', sessionId).execute();
    return 'reopened';
  });
}

/**
 * Gives the customer more time to pay, once its end is near (EXTENDABLE_WITHIN_MS): the session
 * ends EXTENSION_MS from now, or 20 hours after it opened if that comes first. Asked for early,
 * or of a session that cannot be extended, it is refused on a plain read, taking no write lock:
 * a page asking again and again costs reads, and moves the end at most once in seven minutes.
 * Extended under the session's lock, as a claim takes it: an attempt claimed meanwhile holds the
 * session, and it is not extended.
 */
export async function extendSession(ctx: LedgerContext, sessionId: string): Promise<SessionExtension> {
  const read = await extendableSession(ctx, ctx.db, sessionId, false);
  if ('extended' in read) return read;
  return ctx.db.transaction().execute(async (trx) => {
    const session = await extendableSession(ctx, trx, sessionId, true);
    if ('extended' in session) return session;
    const end = extendedEnd(ctx, session);
    await trx.updateTable('checkout_sessions').set({ expires_at: end }).where('id', '=', sessionId).execute();
    return { extended: true, session: { ...session, expiresAt: end } };
  });
}

/** How near its end a session must be to be extended: the widget offers it two minutes before. */
export const EXTENDABLE_WITHIN_MS = 3 * 60_000;

type ExtensionRefusal = Extract<SessionExtension, { extended: false }>;

/** The session's end once extended now: never sooner than it is. */
const extendedEnd = (ctx: LedgerContext, session: CheckoutSession): number =>
  Math.max(session.expiresAt, Math.min(session.createdAt + EXTENDED_LIFE_MS, ctx.now() + EXTENSION_MS));

/** The session, when it may be extended now, else why not (`locked`: read under its lock, in the extension's transaction). */
async function extendableSession(ctx: LedgerContext, db: LedgerDb, sessionId: string, locked: boolean): Promise<CheckoutSession | ExtensionRefusal> {
  const refused = (reason: ExtensionRefusal['reason']): ExtensionRefusal => ({ extended: false, reason });
  const prepared = statements(ctx);
  const row = (await (locked ? prepared.lockedSessionWithAttempt : prepared.sessionWithAttempt)(db, { sessionId })).rows[0];
  if (!row) throw new LedgerNotFound('session', sessionId);
  // PostgreSQL: a read that waited for the session's lock sees the attempts as they were when it
  // began (a claim committed meanwhile is missing): read again, as claimPayAttempt does.
  const latest = locked && ctx.dialect === 'postgres' ? await latestAttempt(ctx, db, sessionId) : attemptOf(row);
  const session = toSession(row, latest, ctx.now());
  if (session.status !== 'open') return refused(session.status === 'processing' ? 'in_flight' : session.status);
  if (session.expiresAt - ctx.now() > EXTENDABLE_WITHIN_MS) return refused('early');
  if (extendedEnd(ctx, session) <= session.expiresAt) return refused('limit');
  if (await isEndFixed(db, sessionId)) return refused('fixed');
  return session;
}

/** Whether the session was opened with `extendable: false`. */
export async function isEndFixed(db: LedgerDb, sessionId: string): Promise<boolean> {
  return (await db.selectFrom('fixed_end_sessions').select('session_id').where('session_id', '=', sessionId).executeTakeFirst()) !== undefined;
}

function refusal(reason: PayAttemptRefusal, payment: Payment | null): PayAttemptClaim {
  return { claimed: false, reason, payment };
}

/** The refusal an attempt in flight (or paid) imposes on a new one. */
function refusalByLiveAttempt(latest: Payment | null): PayAttemptClaim | undefined {
  if (!latest || !holdsSession(latest)) return undefined;
  return refusal(latest.status === 'success' ? 'paid' : 'in_flight', latest);
}

/**
 * Takes up again an attempt ended as never sent, under its own order id: at the gateway an order
 * id pays once, so its first send landing late and this one cannot both pay. Undefined when it
 * moved on meanwhile (a late webhook, another instance's claim).
 */
async function resend(ctx: LedgerContext, trx: LedgerDb, unsent: Payment, mode: PaymentMode, customer: string): Promise<Payment | undefined> {
  const now = ctx.now();
  // A pending one the gateway lost starts over as a new send: nothing of its first send is its.
  const row = await trx
    .updateTable('payments')
    .set({
      mode, customer, status: 'init', status_code: null, status_description: null, payment_id: null, user_action_url: null, checkout_url: null,
      unsent_at: null, absent_reads: 0, absent_read_at: null, updated_at: now, last_seen_at: now,
    })
    .where('order_id', '=', unsent.orderId)
    .where('status', 'in', ['init', 'pending'])
    .where('unsent_at', 'is not', null)
    .returning(PAYMENT_COLUMNS)
    .executeTakeFirst();
  return row && toPayment(row);
}

/**
 * Atomically starts the session's next payment attempt: inserts its payment row in `init`
 * (the gateway is called only after this succeeds). Refused while an attempt is in flight or
 * paid — the caller answers with that attempt instead of creating another. The session row is
 * locked for the check (FOR UPDATE / BEGIN IMMEDIATE) and a partial unique index on live
 * attempts backs it in the database itself.
 */
export async function claimPayAttempt(ctx: LedgerContext, sessionId: string, request: PayAttemptRequest): Promise<PayAttemptClaim> {
  const { mode, customer } = parseInput(payAttemptInput, request);
  const args = { sessionId, mode, customer: customer ? JSON.stringify(customer) : null, now: ctx.now() };
  const claimed = (await claimNext(ctx)(ctx.db, args)).rows[0];
  if (claimed) return { claimed: true, payment: toPayment(claimed), resent: false };
  return ctx.db.transaction().execute(async (trx) => {
    const prepared = statements(ctx);
    const session = (await prepared.lockedSessionWithAttempt(trx, { sessionId })).rows[0];
    if (!session) throw new LedgerNotFound('session', sessionId);
    if (!(JSON.parse(session.allowed_modes) as string[]).includes(mode)) throw new InvalidLedgerInput('mode', `this session does not allow ${mode}`);
    // PostgreSQL: a statement that waited for the session's lock still sees the attempts as they
    // were when it began (a claim committed meanwhile is missing), so they are read again under
    // the lock. SQLite's BEGIN IMMEDIATE took the write lock before the read: it is current.
    const latest = ctx.dialect === 'postgres' ? await latestAttempt(ctx, trx, sessionId) : attemptOf(session);
    const live = refusalByLiveAttempt(latest);
    if (live) return live;
    const now = ctx.now();
    if (session.closed_at !== null) return refusal('closed', latest);
    if (session.expires_at <= now) return refusal('expired', latest);
    if (latest && isUnsent(latest)) {
      const resent = await resend(ctx, trx, latest, mode, customer ? JSON.stringify(customer) : session.customer);
      if (resent) return { claimed: true, payment: resent, resent: true };
      return refusalByLiveAttempt(await latestAttempt(ctx, trx, sessionId)) ?? refusal('retry_unavailable', latest);
    }
    // The gateway refuses a used order_id even after a failure, so a retry gets its own. The
    // colon is the ledger's: no session's order id has one, so a retry's cannot be taken.
    const attempt = (latest?.attempt ?? 0) + 1;
    const orderId = attempt === 1 ? session.order_id : `${session.order_id}:${attempt}`;
    if (orderId.length > MAX_ORDER_ID_LENGTH || (await attemptsUsedUp(trx, sessionId, attempt))) return refusal('retry_unavailable', latest);
    const row: PaymentRow = {
      order_id: orderId,
      session_id: sessionId,
      attempt,
      mode,
      method: session.method,
      amount: session.amount,
      currency: session.currency,
      split: session.split,
      status: 'init',
      status_code: null,
      status_description: null,
      payment_id: null,
      gateway_order_id: null,
      billing_order_id: null,
      transaction_id: null,
      cc_mask: null,
      card_brand: null,
      cc_token: null,
      cc_token_expiration: null,
      user_action_url: null,
      checkout_url: null,
      receipt_url: null,
      customer: customer ? JSON.stringify(customer) : session.customer,
      customer_id: session.customer_id,
      created_at: now,
      updated_at: now,
      last_seen_at: now,
      finalized_at: null,
      mismatch_report: null,
      notice_due_at: null,
      notice_attempts: 0,
      absent_reads: 0,
      absent_read_at: null,
      unsent_at: null,
    };
    const inserted = await prepared.insertPayment(trx, row);
    if (!inserted.numAffectedRows) {
      // Only reachable without the row lock's protection, e.g. the order id taken elsewhere.
      const winner = await latestAttempt(ctx, trx, sessionId);
      return refusalByLiveAttempt(winner) ?? refusal('retry_unavailable', winner);
    }
    return { claimed: true, payment: toPayment(row), resent: false };
  });
}
