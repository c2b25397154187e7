// Row types of the ledger's tables as Kysely sees them. Column names are snake_case in SQL and
// camelCase here (CamelCasePlugin). BIGINT columns arrive as numbers on both databases (the
// PostgreSQL pool parses int8). JSON columns are TEXT on both, parsed in the row mappers.
import type { EventOutcome, OperationKind, OperationOrigin, OperationStatus, PaymentMethod, PaymentMode, PaymentStatus } from './types.js';

export interface CheckoutSessionRow {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  description: string;
  method: PaymentMethod;
  split: string | null;
  customer: string;
  customerId: string | null;
  returnUrl: string | null;
  allowedModes: string;
  createdAt: number;
  expiresAt: number;
  closedAt: number | null;
}

export interface PaymentRow {
  orderId: string;
  sessionId: string;
  attempt: number;
  mode: PaymentMode;
  method: PaymentMethod;
  amount: number;
  currency: string;
  split: string | null;
  status: PaymentStatus;
  statusCode: string | null;
  statusDescription: string | null;
  paymentId: string | null;
  gatewayOrderId: string | null;
  billingOrderId: string | null;
  transactionId: string | null;
  ccMask: string | null;
  cardBrand: string | null;
  ccToken: string | null;
  ccTokenExpiration: string | null;
  userActionUrl: string | null;
  checkoutUrl: string | null;
  receiptUrl: string | null;
  customer: string;
  customerId: string | null;
  createdAt: number;
  updatedAt: number;
  lastSeenAt: number;
  finalizedAt: number | null;
}

export interface OperationRow {
  id: string;
  orderId: string;
  kind: OperationKind;
  amount: number;
  status: OperationStatus;
  operationId: string | null;
  statusCode: string | null;
  statusDescription: string | null;
  comment: string | null;
  split: string | null;
  receiptUrl: string | null;
  origin: OperationOrigin;
  createdAt: number;
  updatedAt: number;
  settledAt: number | null;
}

export interface WebhookEventRow {
  id: string;
  method: string;
  status: string;
  orderId: string;
  operationId: string | null;
  paymentId: string | null;
  body: string;
  /** The event as the companion parsed it (JSON), so a parked event can be applied later. */
  facts: string;
  receivedAt: number;
  appliedAt: number | null;
  outcome: EventOutcome;
}

export interface SavedCardRow {
  id: string;
  customerId: string;
  ccToken: string;
  ccMask: string;
  brand: string | null;
  tokenExpiration: string | null;
  createdAt: number;
  lastUsedAt: number;
}

export interface LedgerTables {
  checkoutSessions: CheckoutSessionRow;
  payments: PaymentRow;
  operations: OperationRow;
  webhookEvents: WebhookEventRow;
  savedCards: SavedCardRow;
}
