/**
 * What every route group reads from `c.var`: the companion's services, built once by
 * createCompanion, and the request's logger.
 */
import type { HttpBindings } from '@hono/node-server';
import type { GatewayClient } from '@payform/gateway';
import type { Ledger } from '../ledger/index.js';
import type { DirectPayments } from './checkout/direct-payments.js';
import type { HostedCheckouts } from './checkout/hosted-checkouts.js';
import type { KnownSessions } from './checkout/session-terms.js';
import type { CompanionOptions } from './config.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { TokenHolders } from './http/token-holders.js';
import type { Logger } from './log/logger.js';
import type { LedgerOutage } from './operator/ledger-outage.js';
import type { CompanionMetrics } from './operator/metrics.js';
import type { SavedCardCharges } from './merchant/saved-card-charges.js';
import type { SecondaryOperations } from './merchant/secondary-operations.js';
import type { ChangeFeed } from './payments/change-feed.js';
import type { OrderStateSync } from './payments/order-state.js';
import type { PaymentReactions } from './payments/reactions.js';

/** What the payment flows (direct, hosted, secondary operations) work with. */
export interface PaymentFlowDeps {
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  readonly orderState: OrderStateSync;
  readonly reactions: PaymentReactions;
  readonly options: CompanionOptions;
  readonly logger: Logger;
  readonly clock: () => number;
  /** The level of a payment's own line about the gateway failing it (GatewayTrouble). */
  readonly gatewayTrouble: { readonly paymentLineLevel: 'warn' | 'info' };
}

export interface CompanionServices {
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  readonly options: CompanionOptions;
  readonly gatewayTrouble: PaymentFlowDeps['gatewayTrouble'];
  readonly logger: Logger;
  readonly clock: () => number;
  readonly feed: ChangeFeed;
  readonly reactions: PaymentReactions;
  readonly orderState: OrderStateSync;
  readonly directPayments: DirectPayments;
  /** The terms of sessions this process opened or showed: a pay call of one skips a read. */
  readonly knownSessions: KnownSessions;
  readonly hostedCheckouts: HostedCheckouts;
  readonly operations: SecondaryOperations;
  readonly charges: SavedCardCharges;
  readonly payLimits: { readonly perSession: RateLimiter; readonly perClient: RateLimiter };
  /** Wrong admin tokens per client (see requireAdminToken). */
  readonly wrongAdminTokens: RateLimiter;
  /** Clients that sent the right token lately: past that limit they still pass. */
  readonly tokenHolders: TokenHolders;
  readonly metrics: CompanionMetrics;
  /** The database's outages: logged once, answered 503, probed until it is back. */
  readonly outage: LedgerOutage;
  /**
   * Draining: the instance is stopping and takes no new work; foreignLedger: the ledger was handed
   * to another point of sale and it takes no payments (readyz 503 for both).
   */
  readonly readiness: { readonly draining: boolean; readonly foreignLedger: boolean };
}

/**
 * What a host passes as `app.fetch(request, env)`'s second argument: Node's request and response
 * under @hono/node-server (absent in app.request() tests), or — where there is no Node socket —
 * the client's IP address as the host knows it (Bun's `server.requestIP`, Deno's `remoteAddr`).
 */
export interface CompanionBindings extends Partial<HttpBindings> {
  readonly clientAddress?: string;
}

export interface CompanionEnv {
  Bindings: CompanionBindings;
  Variables: {
    services: CompanionServices;
    logger: Logger;
    /**
     * This request's id, on its answer (X-Request-Id) and its log lines (answerHeaders). Not
     * `requestId`: routed into a Hono host, the context is the host's, and hono/request-id keeps
     * the host's own id under that name.
     */
    payformRequestId: string;
    /**
     * Under an Idempotency-Key, its digest (keyedOrderId): the order id a session or charge sent
     * without one takes, and what a capture, void or refund reservation keeps as its request key.
     */
    keyedOrderId?: string;
    /**
     * The order this request concerns, once known: its request line names it beside the request
     * id, so an answer's X-Request-Id (a 503 a proxy logged) leads to that order's lines, which
     * name it. Set, not read from an async scope: Node 20's AsyncLocalStorage puts a hook on
     * every promise (performance-history.md, "Seventeenth round").
     */
    payformOrderId?: string;
  };
}
