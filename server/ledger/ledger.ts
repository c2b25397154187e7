// The ledger: one interface over SQLite (default) and PostgreSQL, chosen by the URL.
import { resolve as resolvePath } from 'node:path';
import { Kysely } from 'kysely';
import { readBacklog } from './backlog.js';
import { clearAbsentOperation, clearAbsentPayment, countAbsentOperation, countAbsentPayment } from './absence.js';
import { eraseCustomer } from './erasure.js';
import { eraseAgedCustomerDetails } from './retention.js';
import { deleteCard, findCard, listCards, markSavedCardPayment, saveCard, savePaymentCard, cardholderOf } from './cards.js';
import type { PaidAttempt } from './cards.js';
import type { LedgerContext } from './context.js';
import { InvalidLedgerInput, LedgerNotFound } from './errors.js';
import { ingestEvent, retryEvent, reviewEvent } from './events.js';
import { settleDiscrepancy } from './held-orders.js';
import { adminTokenStartedAt, claimGateway, clockOffset, claimPointOfSale, probeWrite, readLedgerId, recordAdminTokenCheck, recordSharedSettings, recordTokenHolder, tokenHolders } from './owner.js';
import { claimIdempotencyKey, endIdempotencyLease, readUnscopedKeys, releaseIdempotencyKey, storeIdempotentAnswer, sweepIdempotencyKeys } from './idempotency.js';
import type { IdempotencyClaim, IdempotencyRequest, StoredAnswer } from './idempotency.js';
import { giveUpInput, overCapturePercent, parseInput, paymentUpdateInput, schemaName } from './input.js';
import { TablePrefixPlugin } from './table-names.js';
import { LedgerMoved, moveOf } from './ledger-moved.js';
import { SCHEMA_PARAMETERS, unreadUrlParameters } from './url-parameters.js';
import { startIndexBuilds } from './index-builds.js';
import type { IndexBuilds, LedgerLog } from './index-builds.js';
import { migrateToLatest } from './migrate.js';
import { FIRST_MIGRATION } from './migrations.js';
import { observedDialect } from './observed.js';
import type { StatementObserver } from './observed.js';
import { findOperationByRequestKey, getOperation, markOperationChecked, operationsOf, reserveOperation, totalsOf, totalsOfOrders } from './operations.js';
import { claimNotices, dropNotices, noticeFailed, noticeTold, paymentNoticeRetried } from './notices.js';
import { getPayment, markPaymentChecked, noteRecordedAnswer, progressPayment } from './payments.js';
import { giveUpPayment } from './give-up.js';
import { ensureSchema, postgresDialect, STATEMENT_TIMEOUT_MS } from './postgres.js';
import type { LedgerPostgresDialect } from './postgres.js';
import { listMovements } from './movements.js';
import { descriptionsOfOrders, getOrder, listEvents, listOrders, listStalePayments, listUnsettledOperations, listWaitingEvents, moneyTotals, paymentStats } from './reports.js';
import type { LedgerTables } from './schema.js';
import { claimPayAttempt, closeSession, createSession, extendSession, findSessionOfOrder, isEndFixed, getSession, reopenCharge, takesAnotherAttempt } from './sessions.js';
import { sweepAbandonedSessions } from './session-sweep.js';
import { settleOperation } from './settlement.js';
import { recordedLightly, sqliteDialect } from './sqlite.js';
import type { InternalOpenOptions } from './sqlite.js';
import type { CommitObserver } from './durability.js';
import { recordGatewayOperation } from './unasked-operations.js';
import type {
  AbsenceCount,
  AbsentRead,
  ChargeReopening,
  CheckoutSession,
  CustomerDetails,
  DueNotice,
  EventIngest,
  EventListQuery,
  EventPage,
  GatewayEvent,
  GatewayOperation,
  GatewayOperationRecord,
  LedgerBacklog,
  NewCheckoutSession,
  NewSavedCard,
  NoticeClaim,
  NoticeState,
  Operation,
  OperationProgress,
  OperationRequest,
  OperationResult,
  OrderDetail,
  OrderListQuery,
  OrderPage,
  OrderTotals,
  PayAttemptClaim,
  PayAttemptRequest,
  Payment,
  PaymentProgress,
  PaymentUpdate,
  SavedCard,
  SessionExtension,
  StaleQuery,
  StatsBucket,
  StatsQuery,
  MoneyTotalsQuery,
  MovementPage,
  MovementQuery,
  CurrencyTotals,
  AgedErasure,
  AgedErasureQuery,
  CustomerErasure,
  ErasureRequest,
  StoredEvent,
} from './types.js';

export interface Ledger {
  readonly dialect: 'sqlite' | 'postgres';
  /** The migrations this open ran on a ledger of an earlier version, in order; none for a new or up-to-date one. */
  readonly upgradedNow: readonly string[];
  /** True when this open made the ledger: the file or schema held none before (a first start — or a path that changed). */
  readonly createdNow: boolean;
  /** A random id the ledger's first open recorded: every instance on the same file or PostgreSQL schema reads the same, any other ledger another (owner.ts). */
  readonly id: string;

  // Checkout sessions
  createSession(input: NewCheckoutSession): Promise<CheckoutSession>;
  getSession(id: string): Promise<CheckoutSession | undefined>;
  /** The session whose order id this is (an order nobody has paid yet has no payment row). */
  findSessionOfOrder(orderId: string): Promise<CheckoutSession | undefined>;
  closeSession(id: string): Promise<CheckoutSession>;
  /**
   * Readies a saved-card charge's session for the merchant's retry while the gateway holds no
   * payment of it (no attempt, or none answered with a payment and the latest one it made none
   * of): its lifetime starts over. `closed` (the merchant closed it) and `taken` change nothing.
   */
  reopenCharge(sessionId: string, ttlSeconds?: number): Promise<ChargeReopening>;
  /** More time for the customer to pay an open session (sessions.ts extendSession); LedgerNotFound for an unknown id. */
  extendSession(sessionId: string): Promise<SessionExtension>;
  /** Whether the session was opened with `extendable: false` (false for an unknown id). */
  isSessionEndFixed(sessionId: string): Promise<boolean>;
  /** Starts the session's next attempt (payment row in `init`) unless one is in flight or paid. */
  claimPayAttempt(sessionId: string, request: PayAttemptRequest): Promise<PayAttemptClaim>;
  /**
   * False when `payment` (the session's latest attempt, or one the caller just ended) failed and
   * the session takes no other after it (its attempts used up): claimPayAttempt would refuse
   * `retry_unavailable`. Reads the ledger only from the tenth attempt on.
   */
  takesAnotherAttempt(session: Pick<CheckoutSession, 'id' | 'payment'>): Promise<boolean>;

  // Payments
  getPayment(orderId: string): Promise<Payment | undefined>;
  /**
   * Forward-only: a stale update (e.g. pending after success) is ignored and says so.
   * `relaxed`: the update only repeats what the gateway holds and will tell again (its answer
   * to a call claimed first, its order state); on SQLite its commit does not wait for the disk.
   */
  advancePayment(orderId: string, update: PaymentUpdate, options?: { readonly relaxed?: boolean }): Promise<PaymentProgress>;
  /**
   * Reconciliation's give-up: ends as a failure (`Never reached the gateway`) an attempt in flight
   * last sent at `lastSentBefore` or earlier, under its row's lock — never one sent again since.
   * Undefined when there is no such attempt.
   */
  giveUpPayment(orderId: string, lastSentBefore: number): Promise<PaymentProgress | undefined>;
  /** The reconciler looked at it: it leaves the stale list for a while. */
  markPaymentChecked(orderId: string): Promise<void>;
  /**
   * The order's state, read at `read.readAt`, has no such order: counted once per spacing while
   * the attempt is `init`; the window's last read ends it as never sent (`unsentAt`), freeing
   * its session to send it again under the same order id. Undefined when the read did not count.
   */
  countAbsentPayment(orderId: string, read: AbsentRead): Promise<AbsenceCount | undefined>;
  /** The gateway showed the order: the count starts over and the attempt is not unsent. */
  clearAbsentPayment(orderId: string): Promise<void>;

  // Secondary operations
  /** Checks the money rules under the order's lock and reserves the amount as `pending`. */
  reserveOperation(orderId: string, request: OperationRequest): Promise<Operation>;
  /** The gateway's answer: success keeps the reservation, failure releases it. */
  settleOperation(id: string, result: OperationResult): Promise<OperationProgress>;
  getOperation(id: string): Promise<Operation | undefined>;
  /** The order's operations, oldest first: `getOrder` without the payment and the events. */
  listOperations(orderId: string): Promise<Operation[]>;
  /** The reservation a merchant request made on the order, by its `requestKey` (OperationRequest). */
  findOperationByRequestKey(orderId: string, requestKey: string): Promise<Operation | undefined>;
  /** The reconciler looked at a pending reservation: it leaves the unsettled list for a while. */
  markOperationChecked(id: string): Promise<void>;
  /** The order's state, read at `read.readAt`, does not show this reservation: counted as a payment's. */
  countAbsentOperation(id: string, read: AbsentRead): Promise<AbsenceCount | undefined>;
  /** The gateway may be showing the reservation: the count starts over. */
  clearAbsentOperation(id: string): Promise<void>;
  /**
   * Records, once, a capture, void or refund the order state shows and no operation of the
   * ledger accounts for; flags the payment when it contradicts what the merchant was told.
   */
  recordGatewayOperation(orderId: string, operation: GatewayOperation): Promise<GatewayOperationRecord>;
  refundableAmount(orderId: string): Promise<number>;
  capturableAmount(orderId: string, overCapturePercent?: number): Promise<number>;
  /**
   * The totals of payments this ledger listed (a page of `listOrders`), by order id, as
   * `getOrder` has them — `capturable` with `overCapturePercent`, as `capturableAmount` — their
   * operations read in one statement for the page, none for an empty one.
   */
  totalsOfOrders(payments: readonly Payment[], overCapturePercent?: number): Promise<Map<string, OrderTotals>>;

  // Webhooks
  /** Stores a verified event once (by the hash of its raw data) and applies it, atomically. */
  ingestEvent(event: GatewayEvent): Promise<EventIngest>;
  /** Applies a stored event that is still waiting (parked, unmatched) if it applies now. */
  retryEvent(id: string): Promise<EventIngest | undefined>;
  /** A person settled an unmatched event elsewhere: it stops waiting (reviewEvent in events.ts). */
  reviewEvent(id: string): Promise<StoredEvent | undefined>;
  /**
   * A person settled a held order, with the customer or at the gateway, and says how; `version`
   * is its discrepancy's as they read it (settleDiscrepancy in held-orders.ts).
   */
  settleDiscrepancy(orderId: string, settlement: { note: string; version: number }): Promise<Payment | undefined>;

  // Saved cards
  saveCard(card: NewSavedCard): Promise<SavedCard>;
  /**
   * The card of a session's successful payment, unless the session was opened with `saveCard: false`
   * (then undefined); a saved card's payment (markSavedCardPayment) refreshes it only while it is saved.
   */
  savePaymentCard(payment: PaidAttempt, card: NewSavedCard): Promise<SavedCard | undefined>;
  /** The attempt `orderId` pays with a saved card: marked before it is sent. */
  markSavedCardPayment(orderId: string): Promise<void>;
  listCards(customerId: string): Promise<SavedCard[]>;
  findCard(customerId: string, idOrToken: string): Promise<SavedCard | undefined>;
  deleteCard(customerId: string, cardId: string): Promise<void>;
  /**
   * Erases a customer's personal data (erasure.ts): the details of their orders, sessions and
   * orders' webhook events; their saved cards, by `customerId`. The orders stay, with their money.
   * LedgerConflict `payment_in_flight`, nothing erased, while an order of theirs is undecided.
   */
  eraseCustomer(request: ErasureRequest): Promise<CustomerErasure>;
  /**
   * Erases the customer's details of the decided orders created before `createdBefore`, as
   * eraseCustomer erases an order, looking at `limit` orders at most from where the last call
   * stopped; the undecided ones are looked at again until they are decided (retention.ts). Saved
   * cards stay. Cheap when nothing is due.
   */
  eraseAgedCustomerDetails(query: AgedErasureQuery): Promise<AgedErasure>;
  /**
   * The customer details last paid with this card of the customer's (by its gateway token); the
   * name, e-mail and phone they lack from the customer's latest successful payment that had them.
   */
  cardholderOf(customerId: string, ccToken: string): Promise<CustomerDetails | undefined>;

  // Back office
  listOrders(query?: OrderListQuery): Promise<OrderPage>;
  /** What each payment listed sold (its checkout session's description), by order id: one read for the page. */
  descriptionsOfOrders(payments: readonly Payment[]): Promise<Map<string, string>>;
  getOrder(orderId: string): Promise<OrderDetail | undefined>;
  /** Webhook events by waiting outcome (unmatched, parked), newest first, paged like the orders. */
  listEvents(query: EventListQuery): Promise<EventPage>;
  paymentStats(query: StatsQuery): Promise<StatsBucket[]>;
  /** What the payments created in [from, to) came to, per currency: paid, refunded, net (or what moved in it: `datedBy`). */
  moneyTotals(query: MoneyTotalsQuery): Promise<CurrencyTotals[]>;
  /** Each sale, capture and refund made in [from, to), oldest first, paged: an accountant's journal. */
  listMovements(query: MovementQuery): Promise<MovementPage>;

  // Reconciliation
  listStalePayments(query: StaleQuery): Promise<Payment[]>;
  listUnsettledOperations(query: StaleQuery): Promise<Operation[]>;
  listWaitingEvents(query: StaleQuery): Promise<StoredEvent[]>;
  /** Counts of what is still waiting, for an operator's gauges. */
  backlog(): Promise<LedgerBacklog>;

  // Merchant notices: every step of a payment or operation, and a discrepancy, is marked due
  // (in the statement that makes it) until the merchant's hook is told; see notices.ts.
  /**
   * Payments and operations whose state is due to be told now, leased to this caller for `leaseMs`;
   * an operation only once its payment's change is told (the merchant hears of a payment first).
   */
  claimNotices(claim: NoticeClaim): Promise<DueNotice[]>;
  /** Whether the payment `orderId` has a change a pass took up to tell again, not told yet. */
  paymentNoticeRetried(orderId: string): Promise<boolean>;
  /** The hook was told `state`: its mark is cleared unless the row changed since. Whether it was. */
  noticeTold(state: NoticeState): Promise<boolean>;
  /** Telling `state` failed: it is due again at `retryAt` unless the row changed since. */
  noticeFailed(state: NoticeState, retryAt: number): Promise<boolean>;
  /** No hook to tell: clears the marks due before `dueBefore`; how many there were. */
  dropNotices(dueBefore: number): Promise<number>;

  // Idempotency keys of the merchant API (see idempotency.ts)
  /** Claims the key for this request, or says why not: the stored answer, in use, or reused. */
  claimIdempotencyKey(request: IdempotencyRequest): Promise<IdempotencyClaim>;
  /** Keeps the answer under the claimed key for `lifetimeMs`; false if the claim was lost. */
  storeIdempotentAnswer(key: string, claimId: string, answer: StoredAnswer, lifetimeMs: number): Promise<boolean>;
  /** Frees a claimed key whose request changed nothing. */
  releaseIdempotencyKey(key: string, claimId: string): Promise<void>;
  /** Ends the lease of a claimed key whose request could not be answered: the next request takes it over as interrupted. */
  endIdempotencyLease(key: string, claimId: string): Promise<void>;
  /** Deletes keys past their lifetime; how many. */
  sweepIdempotencyKeys(): Promise<number>;
  /**
   * Deletes up to `limit` (1–10,000) checkout sessions that expired more than 30 days ago with no
   * payment attempt, and their no-card marks; how many (session-sweep.ts).
   */
  sweepAbandonedSessions(limit: number): Promise<number>;

  /** The point of sale whose payments this ledger holds: `posId` if it held none yet, or `handoverFrom`'s (owner.ts). */
  claimPointOfSale(posId: string, handoverFrom?: string): Promise<string>;
  /** The gateway origin this ledger's payments go to: `origin` if none was recorded yet, or when `replace` (owner.ts). */
  claimGateway(origin: string, replace?: boolean): Promise<string>;
  /** Commits a write that changes nothing the ledger answers: whether the database takes writes now (owner.ts). */
  probeWrite(): Promise<void>;
  /** How far this instance's clock is ahead of the database server's, in ms; undefined for SQLite (owner.ts). */
  clockOffset(): Promise<number | undefined>;
  /** Records a keyed hash of an instance's admin token; answers the one recorded before (owner.ts). */
  recordAdminTokenCheck(check: string): Promise<string | undefined>;
  /** When an instance last started with the admin token this keyed hash names, within 30 days (owner.ts). */
  adminTokenStartedAt(check: string): Promise<number | undefined>;
  /** Records the settings instances must agree on, as the companion writes them; answers those recorded before (owner.ts). */
  recordSharedSettings(settings: string): Promise<string | undefined>;
  /** Records that a client (a network's key) sent the right admin token at `at`, for every instance (owner.ts). */
  recordTokenHolder(client: string, at: number): Promise<void>;
  /** The clients that sent the right admin token within the day, as any instance recorded them, each with when (owner.ts). */
  tokenHolders(): Promise<ReadonlyMap<string, number>>;

  close(): Promise<void>;

  /**
   * PostgreSQL reached through a pooler in transaction mode (PgBouncer's pool_mode =
   * transaction, a host's pooled endpoint): statements are sent unprepared and no server-side
   * statement deadline is set (docs/companion.md, "Behind a connection pooler"). Worth a line
   * in the log at start.
   */
  readonly transactionPooled?: boolean;

  /**
   * PostgreSQL only, while indexes an upgrade left to build after the migrations are being
   * built in the background (index-builds.ts): its state, and a promise of its end.
   */
  readonly indexBuilds?: IndexBuilds;
}

export interface LedgerOptions {
  /** Epoch milliseconds; `Date.now` by default. */
  readonly clock?: () => number;
  /** PostgreSQL only: keep every table in this schema (created if missing). */
  readonly schema?: string;
  /** PostgreSQL only: connections in the pool (default 10). */
  readonly poolSize?: number;
  /**
   * PostgreSQL only: how long a statement may wait for its answer once the schema is migrated
   * before it fails as the database being away (default 5 s); a stalled connection would
   * otherwise hold its request as long as the stall lasts. 0: no limit.
   */
  readonly statementTimeoutMs?: number;
  /**
   * Told the SQL of every statement before it is sent (SQLite) — every round trip on
   * PostgreSQL — BEGIN, COMMIT and savepoints included: for counting them (tests, metrics).
   */
  readonly onStatement?: StatementObserver;
  /** SQLite file only: told of each commit that wrote, whether it was synced to the disk (tests, metrics). */
  readonly onCommit?: CommitObserver;
  /**
   * What the ledger does by itself (PostgreSQL's index builds in the background; a SQLite file deleted
   * under it, saved and taken back at the next start); the console by default.
   */
  readonly log?: LedgerLog;
  /** PostgreSQL only: how long an index build may wait for other transactions before they are named in the log (default 30 s). */
  readonly indexBuildWarnAfterMs?: number;
}

function ledgerOver(ctx: LedgerContext, migrations: { readonly upgradedNow: readonly string[]; readonly createdNow: boolean }, id: string, indexBuilds: IndexBuilds | undefined): Ledger {
  return {
    dialect: ctx.dialect,
    ...migrations,
    id,
    createSession: (input) => createSession(ctx, input),
    getSession: (id) => getSession(ctx, id),
    findSessionOfOrder: (orderId) => findSessionOfOrder(ctx, orderId),
    closeSession: (id) => closeSession(ctx, id),
    reopenCharge: (id, ttlSeconds) => reopenCharge(ctx, id, ttlSeconds),
    extendSession: (id) => extendSession(ctx, id),
    isSessionEndFixed: (id) => isEndFixed(ctx.db, id),
    claimPayAttempt: (sessionId, request) => claimPayAttempt(ctx, sessionId, request),
    takesAnotherAttempt: (session) => takesAnotherAttempt(ctx, session),
    getPayment: (orderId) => getPayment(ctx, ctx.db, orderId),
    async advancePayment(orderId, update, options) {
      const input = parseInput(paymentUpdateInput, update);
      const progressed = options?.relaxed ? await ctx.lightly((db) => progressPayment(ctx, db, orderId, input)) : await progressPayment(ctx, ctx.db, orderId, input);
      if (!progressed) throw new LedgerNotFound('order', orderId);
      noteRecordedAnswer(ctx, progressed.payment);
      return progressed;
    },
    giveUpPayment: async (orderId, lastSentBefore) => giveUpPayment(ctx, orderId, parseInput(giveUpInput, { lastSentBefore }).lastSentBefore),
    markPaymentChecked: (orderId) => markPaymentChecked(ctx, orderId),
    countAbsentPayment: (orderId, read) => countAbsentPayment(ctx, orderId, read),
    clearAbsentPayment: (orderId) => clearAbsentPayment(ctx, orderId),
    reserveOperation: (orderId, request) => reserveOperation(ctx, orderId, request),
    settleOperation: (id, result) => settleOperation(ctx, id, result),
    getOperation: (id) => getOperation(ctx.db, id),
    listOperations: (orderId) => operationsOf(ctx, ctx.db, orderId),
    findOperationByRequestKey: (orderId, requestKey) => findOperationByRequestKey(ctx.db, orderId, requestKey),
    markOperationChecked: (id) => markOperationChecked(ctx, id),
    countAbsentOperation: (id, read) => countAbsentOperation(ctx, id, read),
    recordGatewayOperation: (orderId, operation) => recordGatewayOperation(ctx, orderId, operation),
    clearAbsentOperation: (id) => clearAbsentOperation(ctx, id),
    refundableAmount: async (orderId) => (await totalsOf(ctx, orderId)).refundable,
    capturableAmount: async (orderId, percent) => (await totalsOf(ctx, orderId, parseInput(overCapturePercent.optional(), percent))).capturable,
    totalsOfOrders: async (payments, percent) => totalsOfOrders(ctx, payments, parseInput(overCapturePercent.optional(), percent)),
    ingestEvent: (event) => ingestEvent(ctx, event),
    retryEvent: (id) => retryEvent(ctx, id),
    reviewEvent: (id) => reviewEvent(ctx, id),
    settleDiscrepancy: (orderId, settlement) => settleDiscrepancy(ctx, orderId, settlement),
    claimPointOfSale: (posId, handoverFrom) => claimPointOfSale(ctx, posId, handoverFrom),
    claimGateway: (origin, replace) => claimGateway(ctx, origin, replace),
    probeWrite: () => probeWrite(ctx),
    clockOffset: () => clockOffset(ctx),
    recordAdminTokenCheck: (check) => recordAdminTokenCheck(ctx, check),
    recordSharedSettings: (settings) => recordSharedSettings(ctx, settings),
    adminTokenStartedAt: (check) => adminTokenStartedAt(ctx, check),
    recordTokenHolder: (client, at) => recordTokenHolder(ctx, client, at),
    tokenHolders: () => tokenHolders(ctx),
    saveCard: (card) => saveCard(ctx, card),
    savePaymentCard: (payment, card) => savePaymentCard(ctx, payment, card),
    markSavedCardPayment: (orderId) => markSavedCardPayment(ctx, orderId),
    listCards: (customerId) => listCards(ctx, customerId),
    findCard: (customerId, idOrToken) => findCard(ctx, customerId, idOrToken),
    deleteCard: (customerId, cardId) => deleteCard(ctx, customerId, cardId),
    eraseCustomer: (request) => eraseCustomer(ctx, request),
    eraseAgedCustomerDetails: (query) => eraseAgedCustomerDetails(ctx, query),
    cardholderOf: (customerId, ccToken) => cardholderOf(ctx, customerId, ccToken),
    listOrders: (query) => listOrders(ctx, query),
    descriptionsOfOrders: (payments) => descriptionsOfOrders(ctx, payments),
    getOrder: (orderId) => getOrder(ctx, orderId),
    listEvents: (query) => listEvents(ctx, query),
    paymentStats: (query) => paymentStats(ctx, query),
    moneyTotals: (query) => moneyTotals(ctx, query),
    listMovements: (query) => listMovements(ctx, query),
    listStalePayments: (query) => listStalePayments(ctx, query),
    listUnsettledOperations: (query) => listUnsettledOperations(ctx, query),
    listWaitingEvents: (query) => listWaitingEvents(ctx, query),
    backlog: () => readBacklog(ctx),
    claimNotices: (claim) => claimNotices(ctx, claim),
    paymentNoticeRetried: (orderId) => paymentNoticeRetried(ctx, orderId),
    noticeTold: (state) => noticeTold(ctx, state),
    noticeFailed: (state, retryAt) => noticeFailed(ctx, state, retryAt),
    dropNotices: (dueBefore) => dropNotices(ctx, dueBefore),
    claimIdempotencyKey: (request) => claimIdempotencyKey(ctx, request),
    storeIdempotentAnswer: (key, claimId, answer, lifetimeMs) => storeIdempotentAnswer(ctx, key, claimId, answer, lifetimeMs),
    releaseIdempotencyKey: (key, claimId) => releaseIdempotencyKey(ctx, key, claimId),
    endIdempotencyLease: (key, claimId) => endIdempotencyLease(ctx, key, claimId),
    sweepIdempotencyKeys: () => sweepIdempotencyKeys(ctx),
    sweepAbandonedSessions: (limit) => sweepAbandonedSessions(ctx, limit),
    ...(indexBuilds ? { indexBuilds } : {}),
    async close() {
      // Before the pool it uses ends: a build waiting on another transaction is cancelled.
      await indexBuilds?.stop();
      await ctx.db.destroy();
    },
  };
}

function indexBuildOptions(url: string, schema: string, db: Kysely<LedgerTables>, pooling: LedgerPostgresDialect, options: LedgerOptions): Parameters<typeof startIndexBuilds>[0] {
  return {
    db,
    schema,
    // Read at each build: a pooler the look at start missed is found at its first refusal.
    transactionPooled: () => pooling.transactionPooled,
    log: options.log ?? console,
    ...(options.indexBuildWarnAfterMs === undefined ? {} : { warnAfterMs: options.indexBuildWarnAfterMs }),
    // Connected as the ledger's pool is (the schema option, or the URL's own search_path).
    openBuilder: async () => new Kysely<unknown>({ dialect: await postgresDialect(url, { schema: options.schema, poolSize: 1 }) }),
  };
}

/** A URL scheme other than PostgreSQL's (`file:`, `sqlite:`, `mysql:`…); one letter is a Windows drive. */
const OTHER_SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/** A `postgres://` (or `postgresql://`) URL: a PostgreSQL ledger; anything else names an SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** `user:password@host` in what would be a path: a database URL without its scheme. */
const CREDENTIALS = /(?:^|[/\\])[^/\\@:]*:[^/\\@]*@[^/\\]/;
/** What no shell expanded: `~/…`, `$HOME`, `${DATA_DIR}` in a path. */
const UNEXPANDED = /^~(?:[/\\]|$)|\$(?:\{\w+\}|[A-Za-z_]\w*)/;

/**
 * Why `url` names no ledger this can open, or undefined. Each would otherwise open a ledger
 * other than the one meant, without a word: a `file:` or `sqlite:` URL, or a path with quotes
 * or `~` left in it, would be a relative path (a folder named `file:` or `"postgres:` and a new,
 * empty ledger in it); a schema asked for by `?schema=` would be `public`.
 */
export function ledgerUrlProblem(url: string): string | undefined {
  if (!url) return 'must be a postgres:// URL, a file path or :memory:';
  if (/^["']/.test(url)) return 'starts with a quote, which a .env file for containers (docker --env-file, kubectl) keeps as part of the value: remove the quotes';
  if (isPostgresUrl(url)) return postgresUrlProblem(url);
  // Taken for a path, a mistyped URL would be a new, empty ledger in folders named after it, its
  // password among them and in the log line naming the file.
  if (/^postgres(ql)?[:/]/i.test(url)) return 'is not a PostgreSQL URL as written: it starts postgres:// (or postgresql://), with both slashes and the colon';
  if (CREDENTIALS.test(url)) return 'holds a user and password before an @, as a database URL does, not a file path: a PostgreSQL URL starts postgres://';
  if (UNEXPANDED.test(url)) return 'holds ~ or a $VARIABLE that no shell expanded (env files keep them as written): give the full path';
  // SQLite drops the slash and makes a file of the folder's name where none is.
  if (/[/\\]$/.test(url)) return "ends with a slash, so it names a folder: give the SQLite file's path in it (e.g. ./data/payform.db)";
  const scheme = OTHER_SCHEME.exec(url)?.[1];
  return scheme && `a ${scheme}: URL is not read: give a postgres:// URL, or the SQLite file's path itself (e.g. ./data/payform.db)`;
}

const UNREADABLE =
  'is not a URL that can be read as written: percent-encode special characters of the user name and password (# as %23, / as %2F, ? as %3F, @ as %40), and give a port of 1–65535';

function postgresUrlProblem(url: string): string | undefined {
  // node-postgres reads it as a WHATWG URL, with a host put in when it names none (a Unix
  // socket's `postgres://user@/db?host=/var/run/postgresql`). A `#`, `/` or `?` in the password
  // ends the address early: the driver would fail on a host made of its pieces, or read the
  // password as a port and a path (`shop:2024/Summer!@db`), and then it would be shown in clear.
  const parsed = URL.parse(url) ?? URL.parse(url.replace(/^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)(?=[/?]|$)/i, '$1localhost'));
  if (!parsed || (!parsed.username && url.slice(url.indexOf('//') + 2).includes('@'))) return UNREADABLE;
  // `?schema=public` (Prisma's) asks for what the ledger gets anyway.
  // `?pgbouncer=yes` would be left to the driver, which ignores it: the pooler taken as absent.
  const pooler = parsed.searchParams.get('pgbouncer');
  if (pooler !== null && !/^(true|false)$/i.test(pooler)) return '?pgbouncer= takes true (a pooler in transaction mode is between the ledger and PostgreSQL) or false';
  const schema = [...parsed.searchParams].find(([name, value]) => SCHEMA_PARAMETERS.has(name.toLowerCase()) && value !== 'public')?.[0];
  return schema && `?${schema}= is not read by node-postgres, so the ledger would use the first schema of the search_path (public, most often): choose its schema with ?options=-c%20search_path%3D<schema>`;
}

/** The one schema a URL's `options=-c search_path=…` names, if it names one. */
function searchPathOf(url: string): string | undefined {
  const options = URL.parse(url)?.searchParams.get('options') ?? '';
  return /(?:^|\s)-c\s*search_path=([a-z_][a-z0-9_]*)(?:\s|$)/i.exec(options)?.[1]?.toLowerCase();
}

/**
 * Opens the ledger at `url` — `postgres://…` / `postgresql://…` for PostgreSQL, otherwise a
 * SQLite file path or `:memory:` — and brings its schema up to date before resolving.
 */
const kindOf = (value: unknown): string =>
  value === undefined || value === null ? String(value) : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

export async function openLedger(url: string, options: LedgerOptions = {}): Promise<Ledger> {
  // A JavaScript caller's `openLedger({ url })` would reach SQLite's path check as an object.
  if (typeof url !== 'string') throw new InvalidLedgerInput('url', `must be a string — a postgres:// URL, a file path or :memory: (openLedger('./data/payform.db')) — not ${kindOf(url)}`);
  const problem = ledgerUrlProblem(url);
  if (problem) throw new InvalidLedgerInput('url', problem);
  const postgres = isPostgresUrl(url);
  const schema = options.schema === undefined ? undefined : parseInput(schemaName, options.schema);
  if (schema && !postgres) throw new InvalidLedgerInput('schema', 'applies to PostgreSQL only');
  const { memoryImage } = options as LedgerOptions & InternalOpenOptions;
  if (postgres) for (const warning of unreadUrlParameters(url)) (options.log ?? console).warn(warning);
  const sqlite = postgres ? undefined : await sqliteDialect(url, { onCommit: options.onCommit, log: options.log ?? console, memoryImage });
  const postgresDb = sqlite ? undefined : await postgresDialect(url, { schema, poolSize: options.poolSize, log: options.log ?? console });
  const database = sqlite ?? postgresDb!;
  const dialect = options.onStatement ? observedDialect(database, options.onStatement) : database;
  const db = new Kysely<LedgerTables>({ dialect });
  const kind = postgres ? 'postgres' : 'sqlite';
  let indexBuilds: IndexBuilds | undefined;
  try {
    if (postgres && schema) await ensureSchema(db, schema);
    const move = sqlite && url !== ':memory:' ? await moveOf(db as Kysely<unknown>) : undefined;
    if (move) throw new LedgerMoved(resolvePath(url), move, 'open');
    const migrated = await migrateToLatest(db, kind, schema ?? (postgres ? searchPathOf(url) : undefined));
    // A new ledger runs them all, its first one included.
    const createdNow = migrated.ran[0] === FIRST_MIGRATION;
    const upgradedNow = createdNow ? [] : migrated.ran;
    postgresDb?.limitStatements(options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS);
    // Migrated, its tables carry the payform_ prefix; queries name them without (table-names.ts).
    const prefixed = db.withPlugin(new TablePrefixPlugin());
    const ctx: LedgerContext = {
      db: prefixed,
      dialect: kind,
      now: options.clock ?? Date.now,
      // PostgreSQL could commit asynchronously too, but only inside a transaction: three more round trips.
      lightly: !sqlite || url === ':memory:' ? (work) => work(prefixed) : (work) => recordedLightly(prefixed, sqlite, work),
      commitLightly: sqlite ? () => sqlite.commitLightly() : () => undefined,
    };
    await readUnscopedKeys(ctx);
    // In the background once the ledger is open, on a connection of their own (the ledger's have a
    // statement deadline): payments are taken meanwhile. One catalog read when there are none.
    indexBuilds = postgresDb && migrated.schema ? await startIndexBuilds(indexBuildOptions(url, migrated.schema, db, postgresDb, { ...options, schema })) : undefined;
    const ledger = ledgerOver(ctx, { upgradedNow, createdNow }, await readLedgerId(ctx), indexBuilds);
    // Read when asked: a pooler the look at start missed is found at its first refusal (postgres.ts).
    return postgresDb ? Object.defineProperty(ledger, 'transactionPooled', { get: () => postgresDb.transactionPooled, enumerable: true }) : ledger;
  } catch (error) {
    // Nothing an open that failed opened outlives it: a caller that tries again would leak a pool
    // (and a build waiting on its connection) per try, and the process would not exit.
    await indexBuilds?.stop();
    await db.destroy().catch(() => undefined);
    throw error;
  }
}
