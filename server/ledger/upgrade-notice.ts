// What opening an existing ledger upgraded, in the operator's words, for the one line the
// companion logs at start: which migrations ran, what each changed, and what that means for
// instances of an older payform still running on the same ledger.
import type { migrations } from './migrations.js';

type MigrationName = keyof typeof migrations;

/** What each migration changed, as an operator sees it (a new migration needs one to compile). */
const SUMMARIES: Record<MigrationName, string> = {
  '0001_initial': "the ledger's tables",
  '0002_operation_checks': 'operations remember when reconciliation last checked them',
  '0003_event_retries': 'webhook events not applied yet remember their last retry',
  '0004_payment_discrepancies': 'a payment the gateway reports with other figures is held for a person',
  '0005_waiting_event_list': 'an index of the webhook events that apply to nothing',
  '0006_merchant_notices': 'changes not yet told to onPaymentEvent are marked',
  '0007_idempotency_keys': 'answers to Idempotency-Key requests are kept',
  '0008_never_sent': 'attempts the gateway never received are ended',
  '0009_lookup_method': 'card verifications (lookup), and payments found by customer',
  '0010_payform_prefix': 'tables and indexes renamed with the payform_ prefix, rows kept',
  '0011_charge_cards': "a saved card's charge is bound to that card",
  '0012_idempotency_scopes': 'idempotency keys are per merchant credential, kept keys adopted by their retry',
  '0013_operation_request_keys': 'captures, voids and refunds remember the request that made them',
  '0014_held_payments': 'an index of the payments held for a discrepancy',
  '0015_reviewed_events': 'unmatched webhook events may be marked reviewed',
  '0016_ledger_settings': 'the ledger records whose point of sale it holds',
  '0017_operation_transactions': 'captures, voids and refunds keep their gateway transaction',
  '0018_order_search': "indexes to find orders by the customer's e-mail and by amount",
  '0019_card_consent': 'a session may link its payment to a customer without keeping the card (save_card)',
  '0020_orders_by_currency': "an index to list one currency's orders",
  '0021_session_expiry': 'an index of checkout sessions by expiry, for the sweep of those nobody paid',
  '0022_session_extension': 'a customer may ask for more time to pay, unless the session was opened with extendable: false or before this upgrade',
  '0023_movement_dates': 'an index of the captures and refunds made, by date, for the journal of money moved',
  '0024_operation_currency': 'captures, voids and refunds carry their currency (filled from their payments)',
  '0025_saved_card_payments': 'a payment with a saved card the customer deletes meanwhile does not save it again',
  '0026_erased_orders': "an erased customer's orders keep none of their details when webhooks about them come later",
  '0027_erased_order_tokens': "an erased customer's orders take no card token and none of their details from any writer, whenever it writes",
  '0028_retention_waits': 'the erasure of customers\' details by age (personalDataDays) looks again at the orders it found undecided',
};

/**
 * The first migration 0.3 added: a ledger it runs on was 0.2's, whose instances name the tables
 * without the prefix and fail every request once they are renamed.
 */
const FIRST_OF_0_3: MigrationName = '0010_payform_prefix';

/** How each database says a 0.2 instance's table is gone. */
const MISSING_TABLE = { sqlite: 'no such table: payments', postgres: 'relation "payments" does not exist' } as const;

export interface UpgradeNotice {
  readonly level: 'info' | 'warn';
  readonly message: string;
}

/**
 * The start's line for the migrations an open ran on an existing ledger; none for none. The
 * dialect words the error a 0.2 instance then meets, as the operator will find it in its log.
 */
export function upgradeNotice(ran: readonly string[], dialect: 'sqlite' | 'postgres'): UpgradeNotice | undefined {
  if (ran.length === 0) return undefined;
  const changes = ran.map((name) => SUMMARIES[name as MigrationName] ?? name).join('; ');
  const message = `ledger: upgraded to this version's schema, which an older payform cannot open (migrations ${ran.join(', ')}): ${changes}`;
  if (!ran.includes(FIRST_OF_0_3)) return { level: 'info', message };
  // A rolling upgrade from 0.2 (the load balancer still sending to 0.2 instances) fails there
  // from now on: said where the operator looks first, not only in those instances' 500s.
  return {
    level: 'warn',
    message:
      `${message}. A payform 0.2 instance still running on this ledger fails every request from now on (${MISSING_TABLE[dialect]}): ` +
      'stop every 0.2 instance; 0.2 and 0.3 cannot share a ledger, so an upgrade from 0.2 stops them all before the first 0.3 starts (docs/companion.md, "Upgrading from 0.2")',
  };
}
