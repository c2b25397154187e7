/**
 * Every column of the ledger's tables, named: statements read and return these lists, never `*`.
 * A later release's migration adds columns while this one still runs (a rolling upgrade on one
 * database), and PostgreSQL refuses a prepared statement whose `*` has come to mean more columns
 * ("cached plan must not change result type"); inside a transaction preparing it again cannot mend
 * that, and the request failed. A named list keeps its result; the plan is made again quietly.
 * Each list is checked against its row type: a column missing, or one the type lacks, does not compile.
 */
import type { CheckoutSessionRow, IdempotencyKeyRow, OperationRow, PaymentRow, SavedCardRow, WebhookEventRow } from './schema.js';

/** The keys of `columns`: each of the row type's, and no other. */
function columnsOf<Row>(columns: { readonly [Column in keyof Row]-?: true }): readonly (keyof Row & string)[] {
  return Object.keys(columns) as (keyof Row & string)[];
}

export const PAYMENT_COLUMNS = columnsOf<PaymentRow>({
  order_id: true,
  session_id: true,
  attempt: true,
  mode: true,
  method: true,
  amount: true,
  currency: true,
  split: true,
  status: true,
  status_code: true,
  status_description: true,
  payment_id: true,
  gateway_order_id: true,
  billing_order_id: true,
  transaction_id: true,
  cc_mask: true,
  card_brand: true,
  cc_token: true,
  cc_token_expiration: true,
  user_action_url: true,
  checkout_url: true,
  receipt_url: true,
  customer: true,
  customer_id: true,
  created_at: true,
  updated_at: true,
  last_seen_at: true,
  finalized_at: true,
  mismatch_report: true,
  notice_due_at: true,
  notice_attempts: true,
  absent_reads: true,
  absent_read_at: true,
  unsent_at: true,
});

export const SESSION_COLUMNS = columnsOf<CheckoutSessionRow>({
  id: true,
  order_id: true,
  amount: true,
  currency: true,
  description: true,
  method: true,
  split: true,
  customer: true,
  customer_id: true,
  return_url: true,
  allowed_modes: true,
  card_id: true,
  created_at: true,
  expires_at: true,
  closed_at: true,
});

export const OPERATION_COLUMNS = columnsOf<OperationRow>({
  id: true,
  order_id: true,
  kind: true,
  amount: true,
  currency: true,
  status: true,
  operation_id: true,
  transaction_id: true,
  status_code: true,
  status_description: true,
  comment: true,
  split: true,
  receipt_url: true,
  origin: true,
  request_key: true,
  created_at: true,
  updated_at: true,
  last_seen_at: true,
  settled_at: true,
  notice_due_at: true,
  notice_attempts: true,
  absent_reads: true,
  absent_read_at: true,
});

export const EVENT_COLUMNS = columnsOf<WebhookEventRow>({
  id: true,
  method: true,
  status: true,
  order_id: true,
  operation_id: true,
  payment_id: true,
  body: true,
  facts: true,
  received_at: true,
  applied_at: true,
  tried_at: true,
  outcome: true,
  reviewed_at: true,
});

export const SAVED_CARD_COLUMNS = columnsOf<SavedCardRow>({
  id: true,
  customer_id: true,
  cc_token: true,
  cc_mask: true,
  brand: true,
  token_expiration: true,
  created_at: true,
  last_used_at: true,
});

export const IDEMPOTENCY_KEY_COLUMNS = columnsOf<IdempotencyKeyRow>({
  scope: true,
  key: true,
  method: true,
  path: true,
  fingerprint: true,
  state: true,
  claim_id: true,
  locked_until: true,
  status: true,
  content_type: true,
  body: true,
  created_at: true,
  expires_at: true,
});
