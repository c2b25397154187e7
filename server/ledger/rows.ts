// Stored rows → the ledger's domain objects (JSON columns parsed, nothing else changed).
import type { CheckoutSessionRow, OperationRow, PaymentRow, SavedCardRow, WebhookEventRow } from './schema.js';
import type { CheckoutSession, CustomerDetails, Operation, Payment, PaymentMode, SavedCard, SessionStatus, SplitShare, StoredEvent } from './types.js';

export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parseSplit(text: string | null): readonly SplitShare[] | null {
  return text === null ? null : (JSON.parse(text) as SplitShare[]);
}

export function toPayment(row: PaymentRow): Payment {
  return { ...row, split: parseSplit(row.split), customer: JSON.parse(row.customer) as CustomerDetails };
}

export function toOperation(row: OperationRow): Operation {
  return { ...row, split: parseSplit(row.split) };
}

export function toStoredEvent(row: WebhookEventRow): StoredEvent {
  const { facts: _facts, ...event } = row;
  return event;
}

export function toSavedCard(row: SavedCardRow): SavedCard {
  return { ...row };
}

function sessionStatus(row: CheckoutSessionRow, payment: Payment | null, now: number): SessionStatus {
  if (payment?.status === 'success') return 'paid';
  if (payment && payment.status !== 'failure') return 'processing';
  if (row.closedAt !== null) return 'closed';
  return row.expiresAt <= now ? 'expired' : 'open';
}

/** `payment` is the session's live attempt or, when none is live, its latest. */
export function toSession(row: CheckoutSessionRow, payment: Payment | null, now: number): CheckoutSession {
  return {
    ...row,
    split: parseSplit(row.split),
    customer: JSON.parse(row.customer) as CustomerDetails,
    allowedModes: JSON.parse(row.allowedModes) as PaymentMode[],
    status: sessionStatus(row, payment, now),
    payment,
  };
}
