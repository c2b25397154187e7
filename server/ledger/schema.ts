// Row types of the ledger's tables as Kysely sees them: the SQL names, snake_case. The row
// mappers in rows.ts turn them into the domain's camelCase objects (explicitly: a name-mapping
// plugin costs more per query than SQLite takes to run it). BIGINT columns arrive as numbers on
// both databases (the PostgreSQL pool parses int8). JSON columns are TEXT on both.
import type { EventOutcome, OperationKind, OperationOrigin, OperationStatus, PaymentMethod, PaymentMode, PaymentStatus } from './types.js';

export interface CheckoutSessionRow {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  description: string;
  method: PaymentMethod;
  split: string | null;
  customer: string;
  customer_id: string | null;
  return_url: string | null;
  allowed_modes: string;
  card_id: string | null;
  created_at: number;
  expires_at: number;
  closed_at: number | null;
}

/** What the gateway tells about a payment, as columns. */
export interface PaymentDetailColumns {
  status_code: string | null;
  status_description: string | null;
  payment_id: string | null;
  gateway_order_id: string | null;
  billing_order_id: string | null;
  transaction_id: string | null;
  cc_mask: string | null;
  card_brand: string | null;
  cc_token: string | null;
  cc_token_expiration: string | null;
  user_action_url: string | null;
  checkout_url: string | null;
  receipt_url: string | null;
}

/**
 * Whether the merchant's hook has been told the row's current state: null when it has (or there
 * was nothing to tell), else when reconciliation may tell it next (see notices.ts).
 */
interface NoticeColumns {
  notice_due_at: number | null;
  /** Failed tellings since the last change. */
  notice_attempts: number;
}

/** The gateway's "not there" answers to order-state reads, counted once per spacing (absence.ts). */
interface AbsenceColumns {
  absent_reads: number;
  /** When the last counted read was sent. */
  absent_read_at: number | null;
}

export interface PaymentRow extends PaymentDetailColumns, NoticeColumns, AbsenceColumns {
  order_id: string;
  session_id: string;
  attempt: number;
  mode: PaymentMode;
  method: PaymentMethod;
  amount: number;
  currency: string;
  split: string | null;
  status: PaymentStatus;
  customer: string;
  customer_id: string | null;
  created_at: number;
  updated_at: number;
  last_seen_at: number;
  finalized_at: number | null;
  /** JSON of a PaymentDiscrepancy, or null. */
  mismatch_report: string | null;
  /** Ended as never sent (the gateway never showed it): the session may send it again. */
  unsent_at: number | null;
}

export interface OperationRow extends NoticeColumns, AbsenceColumns {
  id: string;
  order_id: string;
  kind: OperationKind;
  amount: number;
  /**
   * Its payment's (migration 0024): an amount is read with its currency, wherever it goes alone.
   * Null in a row an earlier instance inserted during a rolling upgrade: read as its payment's (toOperations).
   */
  currency: string | null;
  status: OperationStatus;
  operation_id: string | null;
  transaction_id: string | null;
  status_code: string | null;
  status_description: string | null;
  comment: string | null;
  split: string | null;
  receipt_url: string | null;
  origin: OperationOrigin;
  /** The merchant request that reserved it (a digest of its Idempotency-Key), when it had one. */
  request_key: string | null;
  created_at: number;
  updated_at: number;
  /** Last time the gateway was heard from about it or the reconciler checked it. */
  last_seen_at: number;
  settled_at: number | null;
}

export interface WebhookEventRow {
  id: string;
  method: string;
  status: string;
  order_id: string;
  operation_id: string | null;
  payment_id: string | null;
  body: string;
  /** The event as the companion parsed it (JSON), so a parked event can be applied later. */
  facts: string;
  received_at: number;
  applied_at: number | null;
  /** When the ledger last tried to apply it (on arrival, a re-delivery or a retry). */
  tried_at: number;
  outcome: EventOutcome;
  /** When a person marked an unmatched event reviewed (settled elsewhere): no longer waiting. */
  reviewed_at: number | null;
}

export interface SavedCardRow {
  id: string;
  customer_id: string;
  cc_token: string;
  cc_mask: string;
  brand: string | null;
  token_expiration: string | null;
  created_at: number;
  last_used_at: number;
}

/**
 * A merchant request's Idempotency-Key: who holds it (`claim_id`, while `in_progress`, until
 * `locked_until`) and, once `done`, the answer to give again. Only a keyed hash of the request is
 * kept, never its body.
 */
export interface IdempotencyKeyRow {
  /** Whose key it is: one of the merchant credential's (a keyed hash of it), '' for keys kept from before scopes. */
  scope: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  state: 'in_progress' | 'done';
  claim_id: string;
  locked_until: number | null;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: number;
  expires_at: number;
}

export interface LedgerSettingRow {
  key: string;
  value: string;
}

/** A session whose payments keep no card for its customer (opened with `saveCard: false`). */
export interface NoCardSessionRow {
  session_id: string;
}

/**
 * An attempt paid with a customer's saved card (migration 0025): its success refreshes that card
 * while it is saved, and never saves it again once the customer deleted it meanwhile.
 */
export interface SavedCardPaymentRow {
  order_id: string;
}

/** An order whose customer's details were erased (migration 0026, erasure.ts): what comes about it later keeps none. */
export interface ErasedOrderRow {
  order_id: string;
  erased_at: number;
}

/** An order the erasure by age passed by undecided, and when it was last looked at (migration 0027, retention.ts). */
export interface RetentionWaitRow {
  order_id: string;
  checked_at: number;
}

/** A session opened with `extendable: false` (migration 0022). */
export interface FixedEndSessionRow {
  session_id: string;
}

export interface LedgerTables {
  checkout_sessions: CheckoutSessionRow;
  payments: PaymentRow;
  operations: OperationRow;
  webhook_events: WebhookEventRow;
  saved_cards: SavedCardRow;
  idempotency_keys: IdempotencyKeyRow;
  ledger_settings: LedgerSettingRow;
  no_card_sessions: NoCardSessionRow;
  saved_card_payments: SavedCardPaymentRow;
  fixed_end_sessions: FixedEndSessionRow;
  erased_orders: ErasedOrderRow;
  retention_waits: RetentionWaitRow;
}
