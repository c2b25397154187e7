// The ledger's own domain types. Amounts are integer minor units; timestamps are epoch
// milliseconds (UTC). The ledger does not import the gateway client: the companion maps
// between the wire shapes and these.

/** `lookup`: a card verification — nothing is paid; it saves the card for its customer. */
export type PaymentMethod = 'purchase' | 'auth' | 'lookup';
export type PaymentMode = 'direct' | 'hosted';
export type PaymentStatus = 'init' | 'pending' | 'success' | 'failure';
export type OperationKind = 'capture' | 'void' | 'refund';
export type OperationStatus = 'pending' | 'success' | 'failure';

/** One sub-merchant's part of a split payment, capture or refund. */
export interface SplitShare {
  readonly subMerchantId: string;
  readonly amount: number;
}

/** Customer data as the gateway names it (without the `customer_` prefix). */
export interface CustomerDetails {
  readonly fname?: string;
  readonly lname?: string;
  readonly patronym?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly ip?: string;
  readonly country?: string;
  readonly birthday?: string;
  readonly city?: string;
  readonly lang?: string;
  readonly taxId?: string;
}

// ---------------------------------------------------------------- checkout sessions

export interface NewCheckoutSession {
  readonly amount: number;
  readonly currency: string;
  readonly description: string;
  readonly method: PaymentMethod;
  /** ≤ 32 characters of [A-Za-z0-9._:-]; generated when omitted. */
  readonly orderId?: string;
  /** When given, the shares add up to `amount`. */
  readonly split?: readonly SplitShare[];
  readonly customer?: CustomerDetails;
  readonly customerId?: string;
  /**
   * A charge of this saved card of `customerId`'s: the session is paid with it alone, also by
   * whoever holds its 3-D Secure link after a failed challenge.
   */
  readonly cardId?: string;
  /**
   * Whether a successful payment keeps the card for `customerId` (the customer's consent to a
   * stored credential). Defaults to true; false links the payment to the customer alone.
   */
  readonly saveCard?: boolean;
  readonly returnUrl?: string;
  /** Defaults to both modes. */
  readonly allowedModes?: readonly PaymentMode[];
  /** Lifetime; 30 minutes when omitted. */
  readonly ttlSeconds?: number;
  /**
   * Whether the customer may ask for more time as the end nears (WCAG 2.2.1), 10 minutes at a
   * time, up to 20 hours after the session opened (Ledger.extendSession). Defaults to true; false
   * when the end is essential (seats or stock held for that long).
   */
  readonly extendable?: boolean;
}

/**
 * What Ledger.extendSession did: `extended`, with the session as it is now; otherwise why not,
 * the session left as it was — `early` (more than 3 minutes left), `fixed` (opened with
 * `extendable: false`), `limit` (at 20 hours after it opened), `in_flight` / `paid` (an attempt
 * holds it), `closed`, `expired`.
 */
export type SessionExtension =
  | { readonly extended: true; readonly session: CheckoutSession }
  | { readonly extended: false; readonly reason: 'early' | 'fixed' | 'limit' | 'in_flight' | 'paid' | 'closed' | 'expired' };

/** What Ledger.reopenCharge did: `closed` and `taken` leave the session as it was. */
export type ChargeReopening = 'reopened' | 'closed' | 'taken';

/**
 * open: payable · processing: an attempt is in flight (init/pending) · paid: an attempt
 * succeeded · closed: the merchant closed it, or the companion did when the gateway refused a
 * checkout's own terms · expired: past `expiresAt` with nothing in flight.
 */
export type SessionStatus = 'open' | 'processing' | 'paid' | 'closed' | 'expired';

export interface CheckoutSession {
  /** 256-bit random capability token (base64url, 43 characters). */
  readonly id: string;
  readonly orderId: string;
  readonly amount: number;
  readonly currency: string;
  readonly description: string;
  readonly method: PaymentMethod;
  readonly split: readonly SplitShare[] | null;
  readonly customer: CustomerDetails;
  readonly customerId: string | null;
  /** The saved card the session may be paid with alone (a charge's), or null. */
  readonly cardId: string | null;
  readonly returnUrl: string | null;
  readonly allowedModes: readonly PaymentMode[];
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly closedAt: number | null;
  readonly status: SessionStatus;
  /** The attempt in flight or, when none is, the latest one. */
  readonly payment: Payment | null;
}

export interface PayAttemptRequest {
  readonly mode: PaymentMode;
  /** The customer data this attempt sends (session data merged with what the payer typed). */
  readonly customer?: CustomerDetails;
}

export type PayAttemptRefusal = 'in_flight' | 'paid' | 'closed' | 'expired' | 'retry_unavailable';

export type PayAttemptClaim =
  /**
   * `resent`: the attempt is one the gateway never showed (ended as never sent), taken up again
   * under its order id — a duplicate-order answer to it may be its first send, landed late.
   */
  | { readonly claimed: true; readonly payment: Payment; readonly resent: boolean }
  | { readonly claimed: false; readonly reason: PayAttemptRefusal; readonly payment: Payment | null };

// ---------------------------------------------------------------- payments (one per order_id)

/** What the gateway told about a payment (create response, webhook or order state). */
export interface PaymentDetails {
  readonly statusCode?: string;
  readonly statusDescription?: string;
  readonly paymentId?: string;
  readonly gatewayOrderId?: string;
  readonly billingOrderId?: string;
  readonly transactionId?: string;
  readonly ccMask?: string;
  readonly cardBrand?: string;
  readonly ccToken?: string;
  readonly ccTokenExpiration?: string;
  readonly userActionUrl?: string;
  readonly checkoutUrl?: string;
  readonly receiptUrl?: string;
}

/**
 * What the gateway says the payment is. When given, it must be this payment: an update whose
 * amount or currency differs, or whose payment id is not the one stored, describes another
 * payment under the same order id and is not applied (progress `mismatch`).
 */
export interface ReportedPayment {
  /** A purchase or an auth: an event of the other method is about another payment. */
  readonly method?: PaymentMethod;
  /** Minor units of `currency`; 0 when the gateway named none that could be read (zero, negative, too long). */
  readonly amount?: number;
  readonly currency?: string;
  /**
   * What was actually paid, when the payer could change it (alternative methods on the hosted
   * page): minor units of `paidCurrency`. It must be the payment's amount too.
   */
  readonly paidAmount?: number;
  readonly paidCurrency?: string;
}

/**
 * One report of the gateway's that contradicts the order: a success with other figures than the
 * order's (paid short, another amount or currency), refunds or captures past what was paid or
 * authorised, an operation made after it was ended as never sent, a settled one restated, a post
 * that could not be read.
 */
export interface DiscrepancyReport {
  /** What the gateway reported. */
  readonly status: PaymentStatus;
  readonly amount: number | null;
  readonly currency: string | null;
  readonly paidAmount: number | null;
  readonly paidCurrency: string | null;
  readonly paymentId: string | null;
  /**
   * Set when the gateway reported refunds of the order past what was paid (refunds the ledger
   * never asked for): what they add up to, in minor units of the payment's currency.
   */
  readonly refunded?: number;
  /**
   * Set when the gateway reported captures of an auth past its authorised amount that the
   * ledger never asked for: what the order's captures add up to, in minor units. Only the
   * authorised amount of them can be refunded.
   */
  readonly captured?: number;
  /**
   * Set when the gateway made a capture or refund the ledger had ended as never sent (the
   * merchant was told it never happened, and may have made it again): `reservation` is the one
   * so ended, `operation` the one recorded as the gateway made it (`origin: 'gateway'`).
   */
  readonly lateOperation?: { readonly reservation: string; readonly operation: string; readonly kind: OperationKind; readonly amount: number };
  /**
   * Set when the gateway reported a capture or refund the ledger holds as settled again, as a
   * success of another amount: the books keep `recorded`, the gateway said `reported`.
   */
  readonly restatedOperation?: RestatedOperation;
  /**
   * Set when what the gateway sent could not be read (a signed webhook of no readable amount or
   * shape): its figures are unknown, so `amount` and the rest are null.
   */
  readonly unreadable?: true;
  /**
   * Set for a further charge of a recurring payment (another transaction than the payment's):
   * its transaction id, which tells one charge from another of the same figures.
   */
  readonly transactionId?: string;
  /** When the ledger noted it (epoch ms). */
  readonly notedAt: number;
}

/**
 * What the gateway reported that contradicts the order: the payment is held where it was — never
 * a plain success that would fulfil the order — for a person to settle with the customer or at
 * the gateway. The first report is the discrepancy itself, where it always was; each distinct one
 * after it is added to `later` (a repeat of one kept changes nothing), so the order reads whole.
 */
export interface PaymentDiscrepancy extends DiscrepancyReport {
  /** Distinct reports after the first, oldest first: at most LATER_REPORTS_KEPT (discrepancies.ts). */
  readonly later?: readonly DiscrepancyReport[];
  /** Set when more distinct reports came than `later` keeps: those a webhook brought stay among the order's webhook events, unmatched. */
  readonly laterTruncated?: true;
  /**
   * How many reports past those kept came to a settled order and held it again: not noted, but
   * counted, so the discrepancy's version moves and its settlement is one of what was read.
   */
  readonly reopenedPastKept?: number;
  /**
   * Set while a person's settlement covers every report kept: the order is no longer held.
   * A later report moves it to `settledBefore`, and the order is held again.
   */
  readonly settled?: DiscrepancySettlement;
  /** Settlements a later report reopened, oldest first. */
  readonly settledBefore?: readonly DiscrepancySettlement[];
}

/** A person settled a held order (with the customer, or at the gateway) and said how. */
export interface DiscrepancySettlement {
  /** When it was marked settled (epoch ms). */
  readonly settledAt: number;
  /** What the person did, in their words. */
  readonly note: string;
  /** The discrepancy's version it settled (discrepancyVersion: its reports, and its truncation). */
  readonly version: number;
}

/** A settled operation (`operation`, its `id`) told again with another amount, in minor units. */
export interface RestatedOperation {
  readonly operation: string;
  readonly kind: OperationKind;
  readonly recorded: number;
  readonly reported: number;
}

export interface PaymentUpdate extends PaymentDetails, ReportedPayment {
  readonly status: PaymentStatus;
}

export interface Payment {
  readonly orderId: string;
  readonly sessionId: string;
  /** 1 for the session's first attempt; later attempts carry `:<attempt>` in their order id. */
  readonly attempt: number;
  /**
   * The order id every attempt of the session shares — the merchant's own, when the session was
   * opened with one: the first attempt's `orderId`, a later one's without its `:<attempt>`. What
   * a shop fulfils; `orderId` is the attempt's, to capture, refund or look up.
   */
  readonly sessionOrderId: string;
  readonly mode: PaymentMode;
  readonly method: PaymentMethod;
  readonly amount: number;
  readonly currency: string;
  readonly split: readonly SplitShare[] | null;
  readonly status: PaymentStatus;
  readonly statusCode: string | null;
  readonly statusDescription: string | null;
  readonly paymentId: string | null;
  readonly gatewayOrderId: string | null;
  readonly billingOrderId: string | null;
  readonly transactionId: string | null;
  readonly ccMask: string | null;
  readonly cardBrand: string | null;
  readonly ccToken: string | null;
  /** When the token ends, as the gateway wrote it (`2030-12-31T23:59:59`, its time, no zone): not epoch milliseconds. */
  readonly ccTokenExpiration: string | null;
  readonly userActionUrl: string | null;
  /** The hosted checkout page, kept so a second click gets the same page. */
  readonly checkoutUrl: string | null;
  readonly receiptUrl: string | null;
  readonly customer: CustomerDetails;
  readonly customerId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Last time the gateway was heard from about this payment or it was checked. */
  readonly lastSeenAt: number;
  readonly finalizedAt: number | null;
  /** Set once the gateway reported it a success with other figures; such a payment is held. */
  readonly discrepancy: PaymentDiscrepancy | null;
  /**
   * When it was ended as never sent: the gateway answered "no such order" to every read of a
   * window. It stays `init` and no longer holds its session, whose next attempt sends it again
   * under this same order id (so a first send landing late cannot pay a second time).
   */
  readonly unsentAt: number | null;
  /** Reads in a row whose answer did not show it (the never-sent window counts them). */
  readonly absentReads: number;
}

/**
 * advanced: the status moved forward · updated: same status, details refreshed ·
 * stale: the update was older than what is stored and changed nothing.
 */
export type Progress = 'advanced' | 'updated' | 'stale';

export interface PaymentProgress {
  /**
   * `mismatch`: the update describes another payment (see ReportedPayment); nothing changed.
   * `flagged`: it reported this payment a success with other figures, noted just now in the
   * payment's discrepancy (a report not noted before); the status did not change.
   * `held`: a success that does not say what was paid, of a payment held as paid otherwise
   * (short, say): nothing changed; a person settles it.
   */
  readonly progress: Progress | 'mismatch' | 'flagged' | 'held';
  readonly payment: Payment;
}

// ---------------------------------------------------------------- secondary operations

export interface OperationRequest {
  readonly kind: OperationKind;
  /** Omitted: everything that remains (the full refundable amount, the rest of the reserve). */
  readonly amount?: number;
  readonly comment?: string;
  readonly split?: readonly SplitShare[];
  /** Captures only: how far above the reserve the project lets a capture go, in percent. */
  readonly overCapturePercent?: number;
  /**
   * The merchant request's own name for it (a digest of its Idempotency-Key): a retry of a
   * request whose instance died finds what it reserved (Ledger.findOperationByRequestKey).
   */
  readonly requestKey?: string;
}

export interface OperationResult {
  readonly status: OperationStatus;
  readonly operationId?: string;
  /** The gateway's transaction for the operation (a refund's receipt is fetched by it). */
  readonly transactionId?: string;
  /** The actual amount when the gateway reports one. */
  readonly amount?: number;
  readonly statusCode?: string;
  readonly statusDescription?: string;
  readonly receiptUrl?: string;
}

/** A capture, void or refund the gateway's order state shows that none of the ledger's accounts for. */
export interface GatewayOperation extends OperationResult {
  readonly kind: OperationKind;
  readonly amount: number;
  /** How many entries of this kind and amount the order state shows. */
  readonly shown: number;
}

export interface GatewayOperationRecord {
  /** Undefined when the ledger had it already (another instance recorded it meanwhile). */
  readonly operation: Operation | undefined;
  /** The payment, when recording it flagged its discrepancy. */
  readonly flagged: Payment | undefined;
}

/** merchant: reserved here before the gateway was asked · gateway: first learned from the gateway (a webhook, the order state). */
export type OperationOrigin = 'merchant' | 'gateway';

export interface Operation {
  /** The ledger's id (the reservation); `operationId` is the gateway's once known. */
  readonly id: string;
  readonly orderId: string;
  readonly kind: OperationKind;
  /** Minor units of `currency`, its payment's. */
  readonly amount: number;
  readonly currency: string;
  readonly status: OperationStatus;
  readonly operationId: string | null;
  /** The gateway's transaction for it, once its answer or webhook named one. */
  readonly transactionId: string | null;
  readonly statusCode: string | null;
  readonly statusDescription: string | null;
  readonly comment: string | null;
  readonly split: readonly SplitShare[] | null;
  readonly receiptUrl: string | null;
  readonly origin: OperationOrigin;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Last time the gateway was heard from about this operation or it was checked. */
  readonly lastSeenAt: number;
  readonly settledAt: number | null;
}

export interface OperationProgress {
  readonly progress: Progress;
  readonly operation: Operation;
}

/** Money already moved or reserved on one order. */
export interface OrderTotals {
  readonly captured: number;
  readonly capturePending: number;
  readonly refunded: number;
  readonly refundPending: number;
  readonly voided: boolean;
  readonly refundable: number;
  /**
   * What one capture may take: the reserve (plus `overCapturePercent`) while the auth is not
   * captured yet; 0 once a capture is made or under way (one capture per auth).
   */
  readonly capturable: number;
}

// ---------------------------------------------------------------- webhook events

/** A verified webhook as the companion decoded it. */
export interface GatewayEvent extends PaymentDetails {
  /** The payment's or operation's currency, as the event names it. */
  readonly currency?: string;
  /** Primary events: what was actually paid (ReportedPayment). */
  readonly paidAmount?: number;
  readonly paidCurrency?: string;
  /** The `data` form field exactly as received: its hash is the event's identity. */
  readonly data: string;
  /** The decoded JSON text, kept whole (unknown fields included). */
  readonly body: string;
  readonly method: string;
  readonly status: string;
  readonly orderId: string;
  /** Secondary events (capture, void, refund). */
  readonly operationId?: string;
  /** Minor units; 0 when the event names an amount that could not be read (never applied as one). */
  readonly amount?: number;
  /**
   * The point of sale the event names, when it is not the companion's: the event is kept and
   * listed `unmatched`, never applied — also when it is tried again.
   */
  readonly otherPosId?: string;
  /**
   * Set for a signed post the companion could not read as an event (an amount like 1e-9, a
   * field of the wrong type): kept `unmatched`, never applied — also when tried again — and its
   * order's payment, when there is one, flagged once (status as the post names it, its
   * figures unknown: amount and the rest null, `unreadable` set).
   */
  readonly unreadable?: true;
  /**
   * Set for an event that carries `recurring` (a subscription set up at the gateway): a further
   * charge — another transaction than the payment's — is kept `unmatched` and flags the payment
   * with its figures, since the ledger records one payment an order; a re-send of the payment's
   * own transaction applies as any event.
   */
  readonly recurring?: true;
}

/**
 * applied: changed a payment or operation · stale: older than what is stored, no effect ·
 * parked: a secondary event waiting for its reservation to learn its operation id ·
 * unmatched: no known order, a kind the ledger does not track, another payment than the
 * ledger's under that order id (another method, amount, currency or payment id), an amount that
 * could not be read, or another point of sale.
 */
export type EventOutcome = 'applied' | 'stale' | 'parked' | 'unmatched';

export interface StoredEvent {
  /** SHA-256 (hex) of the raw `data` field. */
  readonly id: string;
  readonly method: string;
  readonly status: string;
  readonly orderId: string;
  readonly operationId: string | null;
  readonly paymentId: string | null;
  readonly body: string;
  readonly receivedAt: number;
  /** When it was processed (applied or found stale); null while parked or unmatched. */
  readonly appliedAt: number | null;
  /** When the ledger last tried to apply it: on arrival, a re-delivery or a retry. */
  readonly triedAt: number;
  readonly outcome: EventOutcome;
  /** When a person marked it reviewed (an unmatched event settled elsewhere); null otherwise. */
  readonly reviewedAt: number | null;
}

/** An event the ledger could not apply (yet): the outcomes the back office lists. */
export type WaitingOutcome = Extract<EventOutcome, 'parked' | 'unmatched'>;

/** A stored event as the back office lists it, with the money it names when it names it. */
export interface ListedEvent extends StoredEvent {
  /** Minor units of `currency`; null when the event names no amount (none readable) or no currency to count it in. */
  readonly amount: number | null;
  readonly currency: string | null;
}

export interface EventIngest {
  /** False when this exact event was stored before. */
  readonly isNew: boolean;
  readonly event: StoredEvent;
  /** Set when the event moved a payment's status forward (fulfil orders on this). */
  readonly advanced: boolean;
  /**
   * Set when the event flagged the payment's discrepancy: reported paid with other figures, or
   * a refund that took the order's refunds past what was paid.
   */
  readonly flagged: boolean;
  /** The payment the event moved or flagged. */
  readonly payment: Payment | null;
  readonly operation: Operation | null;
}

// ---------------------------------------------------------------- saved cards

export interface NewSavedCard {
  readonly customerId: string;
  readonly ccToken: string;
  readonly ccMask: string;
  readonly brand?: string;
  readonly tokenExpiration?: string;
}

export interface SavedCard {
  readonly id: string;
  readonly customerId: string;
  readonly ccToken: string;
  readonly ccMask: string;
  readonly brand: string | null;
  readonly tokenExpiration: string | null;
  readonly createdAt: number;
  readonly lastUsedAt: number;
}

// ---------------------------------------------------------------- reads

export interface OrderListQuery {
  readonly status?: PaymentStatus;
  /** `payments`: purchases and auths; `verifications`: lookups; both when omitted. */
  readonly kind?: 'payments' | 'verifications';
  /** The attempts of one checkout session. */
  readonly sessionId?: string;
  /** true: only payments held for a discrepancy no person has settled (`discrepancy` set, `discrepancy.settled` not). */
  readonly held?: boolean;
  // What a customer says on the phone: every one given must match.
  /** The customer's e-mail, whole (case aside). */
  readonly email?: string;
  /** The merchant's customer id the orders were opened under (sessions and saved-card charges with one). */
  readonly customerId?: string;
  /** The card's last four digits, read off the stored mask. */
  readonly cardLastFour?: string;
  /** Integer minor units, as the order was created. */
  readonly amount?: number;
  /** ISO 4217: that currency's orders alone (with `amount`, that amount in it). */
  readonly currency?: string;
  /** Created at or after (epoch milliseconds). */
  readonly createdFrom?: number;
  /** Created before (epoch milliseconds). */
  readonly createdTo?: number;
  /** 1–200, default 50. */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export interface OrderPage {
  readonly orders: readonly Payment[];
  readonly nextCursor: string | null;
}

export interface EventListQuery {
  readonly outcome: WaitingOutcome;
  /** 1–200, default 50. */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export interface EventPage {
  readonly events: readonly ListedEvent[];
  readonly nextCursor: string | null;
}

export interface OrderDetail {
  readonly payment: Payment;
  readonly operations: readonly Operation[];
  readonly events: readonly StoredEvent[];
  readonly totals: OrderTotals;
  /** When the customer's details were last erased from the order (eraseCustomer); null when never. */
  readonly customerErasedAt: number | null;
}

export interface StatsQuery {
  readonly from: number;
  readonly to: number;
  readonly bucket: 'hour' | 'day';
  /** Where day buckets start: minutes east of UTC (UTC+2 → 120), the same all period long. */
  readonly utcOffsetMinutes?: number;
  /** Or an IANA time zone (`Europe/Kyiv`): days start at each of its local midnights, across clock changes. */
  readonly timeZone?: string;
}

export interface StatsBucket {
  readonly start: number;
  readonly total: number;
  readonly succeeded: number;
  /** Declined: the gateway decided against the payment. */
  readonly failed: number;
  readonly inFlight: number;
  /**
   * Attempts the gateway never decided: not sent (unreachable, credentials or a field refused),
   * never reached it, or ended as never sent and waiting to be sent again. The merchant's
   * trouble, not the customer's: neither failed nor in flight.
   */
  readonly notSent: number;
  /**
   * Cancelled before it was paid (the gateway's 6007): an unpaid hosted payment the merchant, or
   * reconciliation once its session expired, cancelled — or one the gateway let expire unpaid
   * (4149). An abandoned checkout, not a decline (ABANDONED_CODES).
   */
  readonly cancelled: number;
}

/** Whose personal data to erase (Ledger.eraseCustomer): an e-mail's (any case and spelling of its domain), a customer id's, or both. */
export interface ErasureRequest {
  readonly email?: string;
  readonly customerId?: string;
}

/** What an erasure emptied: the orders' details, the sessions', the webhook events' customer fields; the saved cards it deleted. */
export interface CustomerErasure {
  readonly orderIds: readonly string[];
  readonly sessions: number;
  readonly events: number;
  readonly cards: number;
  /** The merchant's customer ids on the orders found, but the one asked for: cards saved under them were not deleted. */
  readonly otherCustomerIds: readonly string[];
  /** SQLite: its write-ahead log, held by another connection reading the file, still has the pages as they were. */
  readonly walKept: boolean;
}

/** Whose details the erasure by age erases (Ledger.eraseAgedCustomerDetails): the decided orders created before `createdBefore`, `limit` looked at at most (1–10,000). */
export interface AgedErasureQuery {
  readonly createdBefore: number;
  readonly limit: number;
}

/** What one pass of the erasure by age erased: the orders, their sessions' and events' details; the orders it passed by undecided, to look at again. */
export interface AgedErasure {
  readonly orderIds: readonly string[];
  readonly sessions: number;
  readonly events: number;
  readonly undecided: number;
}

/** The payments created in [from, to), as the money they came to (Ledger.moneyTotals). */
export interface MoneyTotalsQuery {
  readonly from: number;
  readonly to: number;
  /**
   * `order` (the default): each order's money in the period its order was created in, its later
   * refunds too. `movement`: each sale, capture and refund in the period it was made
   * (movements.ts), so a closed period changes only by what was pending at its close.
   */
  readonly datedBy?: 'order' | 'movement';
}

/** A sale (a purchase that succeeded), an auth's capture, or a refund: money that moved. */
export type MovementKind = 'sale' | 'capture' | 'refund';

/** One line of the journal (Ledger.listMovements), integer minor units. */
export interface Movement {
  /** When it was made: a sale's payment, a capture's or refund's request (or when the ledger learned of one made at the gateway). */
  readonly at: number;
  readonly kind: MovementKind;
  readonly orderId: string;
  readonly currency: string;
  /** Signed: a refund is negative, so a period's lines add up to its net. */
  readonly amount: number;
  readonly orderCreatedAt: number;
  /** The gateway's payment of the order. */
  readonly paymentId: string | null;
  /** The gateway's operation: a capture's or refund's; null for a sale. */
  readonly operationId: string | null;
  readonly transactionId: string | null;
  /** Who made a capture or refund: the merchant through the ledger, or someone at the gateway; null for a sale. */
  readonly origin: OperationOrigin | null;
  /** What was sold: the checkout session's description. */
  readonly description: string | null;
}

export interface MovementQuery {
  readonly from: number;
  readonly to: number;
  readonly limit?: number;
  readonly cursor?: string;
}

export interface MovementPage {
  /** Oldest first. */
  readonly movements: Movement[];
  readonly nextCursor: string | null;
}

/**
 * The money of one currency's payments (never summed across currencies), integer minor units:
 * `paid` is what customers paid — purchases that succeeded and the successful captures of auths
 * (an auth not captured is a reserve, not income; not OrderTotals' `captured`, an auth's
 * captures alone) —, `refunded` the successful refunds (partial ones as made), `net` the
 * difference. Pending operations count for nothing yet.
 */
export interface CurrencyTotals {
  readonly currency: string;
  readonly paid: number;
  readonly refunded: number;
  readonly net: number;
}

/** What is still waiting (Ledger.backlog): the gauges an operator watches. */
export interface LedgerBacklog {
  /** Payments in `init` or `pending`: not yet answered for good by the gateway (not those held for a discrepancy, a person’s). */
  readonly unfinishedPayments: number;
  /** When the oldest of them was created (epoch ms); undefined when there is none. */
  readonly oldestUnfinishedPaymentAt: number | undefined;
  /** Captures, voids and refunds reserved and not yet answered. */
  readonly unsettledOperations: number;
  /** Webhook events stored and waiting for their reservation (retried by reconciliation). */
  readonly parkedEvents: number;
  /** Webhook events that match no order, kept for a person to see. */
  readonly unmatchedEvents: number;
  /** Payments held for a discrepancy no person has settled yet. */
  readonly heldPayments: number;
}

export interface StaleQuery {
  /** How long without news counts as stale. */
  readonly quietForMs: number;
  /**
   * How long without news counts as stale for one the gateway has already answered "not there"
   * for and that is still within its window (see AbsentRead); default `quietForMs`.
   */
  readonly absentQuietForMs?: number;
  /** Default 100. */
  readonly limit?: number;
}

/**
 * A read of an order's state that did not show an attempt or reservation. Reads are counted at
 * most once per `spacingMs` (by when they were sent); the `reads`-th ends it as never sent.
 */
export interface AbsentRead {
  /** When the read was sent (epoch ms): only what existed before it can be missing from it. */
  readonly readAt: number;
  readonly reads: number;
  readonly spacingMs: number;
}

/** What counting an absent read did; undefined when it did not count (too soon, settled, shown). */
export interface AbsenceCount {
  /** Counted reads so far. */
  readonly reads: number;
  /** This read completed the window: the attempt or reservation never reached the gateway. */
  readonly neverSent: boolean;
}

// ---------------------------------------------------------------- merchant notices

/**
 * A payment's or operation's state as the merchant's hook was told it. Statuses only move
 * forward and a discrepancy only gains reports, so the state names the change: a notice clears
 * the mark only while the row is still in the state told — for a payment, with the discrepancy
 * as told (none, or every report it then held).
 */
export type NoticeState =
  | { readonly kind: 'payment'; readonly orderId: string; readonly status: PaymentStatus; readonly discrepancy: PaymentDiscrepancy | null }
  | { readonly kind: 'operation'; readonly id: string; readonly orderId: string; readonly status: OperationStatus };

/** A payment or operation whose current state the merchant has not been told, claimed to tell it now. */
export type DueNotice =
  | { readonly kind: 'payment'; readonly payment: Payment; readonly attempt: number }
  | { readonly kind: 'operation'; readonly operation: Operation; readonly attempt: number };

export interface NoticeClaim {
  /** At most this many payments, and this many operations. */
  readonly limit: number;
  /** Only payments, or only operations; both by default. */
  readonly kind?: DueNotice['kind'];
  /** No other claim takes them for this long (the hook's time to answer). */
  readonly leaseMs: number;
}
