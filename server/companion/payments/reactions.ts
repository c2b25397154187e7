/**
 * What follows a status change, whoever noticed it first (the gateway's answer, a webhook, an
 * order-state read, the reconciler): the customer's card is kept for next time, the back
 * office's feed hears of it, and the merchant's `onPaymentEvent` hook is told. A decline counts
 * toward the companion's decline rate and, when the pay request's client is known, against that
 * client's network (its pay limits read it). The ledger's
 * forward-only updates report a step once, across instances, so each change arrives here once;
 * what the hook was not told, reconciliation tells again (merchant-notices.ts).
 */
import { latestReport } from '../../ledger/index.js';
import type { Ledger, Operation, Payment, PaymentProgress } from '../../ledger/index.js';
import { ClientDeclines } from '../checkout/client-declines.js';
import { UNKNOWN_CLIENT } from '../http/client-address.js';
import type { Logger } from '../log/logger.js';
import { paymentOutcome } from '../operator/metrics.js';
import type { CompanionMetrics } from '../operator/metrics.js';
import type { ChangeFeed } from './change-feed.js';
import { DeclineRate } from './decline-rate.js';
import type { MerchantNotices } from './merchant-notices.js';
import { discrepancyChange, operationChange, paymentChange } from './payment-change.js';
import type { ChangeSource } from './payment-change.js';

export type { ChangeSource, PaymentChange, PaymentEventHook } from './payment-change.js';

/** Attempts awaiting their decision, at most: as many as the declines hold networks. */
const AWAITING_KEPT = 100_000;

interface ReactionDeps {
  readonly ledger: Ledger;
  readonly feed: ChangeFeed;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly notices: MerchantNotices;
  readonly metrics?: CompanionMetrics;
}

export class PaymentReactions {
  readonly #deps: ReactionDeps;
  /** The declines of each client network lately: checkout/pay-limits.ts cools one down past its allowance. */
  readonly declines: ClientDeclines;
  readonly #rate: DeclineRate;
  /**
   * The client of each customer's attempt whose decision is still to come (sent, a 3-D Secure
   * challenge, the hosted page), by order id: the decision counts against it once, whichever way
   * it arrives — the answer, a webhook, a read, reconciliation. Bounded like the declines; in
   * this process.
   */
  readonly #awaiting = new Map<string, string>();

  constructor(deps: ReactionDeps) {
    this.#deps = deps;
    this.declines = new ClientDeclines(deps.clock);
    this.#rate = new DeclineRate({ logger: deps.logger, clock: deps.clock, busiest: () => this.declines.busiest(5) });
    deps.metrics?.watchDeclineBurst(() => this.#rate.bursting);
  }

  /**
   * A payment's status moved forward. `client`: the address of the pay request the gateway just
   * answered, as the companion derives it (trusted proxies' X-Forwarded-For): logged, so an
   * operator can tie declines to where they came from.
   */
  async paymentAdvanced(payment: Payment, source: ChangeSource, client?: string): Promise<void> {
    const { feed, logger, clock } = this.#deps;
    logger.info('payment status changed', { order_id: payment.orderId, status: payment.status, status_code: payment.statusCode, source, client });
    this.#deps.metrics?.paymentFinished(payment);
    this.#decided(payment, client);
    if (payment.status === 'success') await this.#keepCard(payment);
    feed.publish({ kind: 'payment', orderId: payment.orderId, status: payment.status, source, at: clock() });
    await this.#deps.notices.tell(paymentChange(payment, source));
  }

  /** An attempt ended as never sent, once across instances: counted as not sent, and decided for the decline counts (no card tried). */
  attemptUnsent(payment: Payment): void {
    this.#deps.metrics?.paymentUnsent(payment);
    if (this.#awaiting.size > 0) this.#awaiting.delete(payment.orderId);
  }

  /**
   * A payment the gateway had answered, given up on at the first read that missed it (the gateway
   * away for longer than the give-up time, then back without it): not ended as never sent before,
   * so neither counted nor said as lost yet (order-state.ts says it there).
   */
  givenUpLost(payment: Payment): void {
    this.#deps.metrics?.paymentForgotten();
    this.#deps.logger.error(
      'the gateway no longer knows a payment it acknowledged, and the give-up time has passed: ended as a failure. The gateway at PAYFORM_GATEWAY_BASE_URL was restarted without its payments (a sandbox) or is not the one that took it: check this payment (its payment_id, or a hosted page\'s order_id) at the gateway that took it before fulfilling the order or letting its customer pay again',
      { order_id: payment.orderId, payment_id: payment.paymentId },
    );
  }

  /** What a ledger update of a payment calls for: the status moved on, or a discrepancy was noted. */
  async paymentProgressed(progress: PaymentProgress, source: ChangeSource, client?: string): Promise<void> {
    if (progress.progress === 'advanced') await this.paymentAdvanced(progress.payment, source, client);
    if (progress.progress === 'flagged') await this.discrepancyNoted(progress.payment, source);
    // The webhook told the status first, without the client: the answer still says who paid.
    if (client !== undefined && (progress.progress === 'updated' || progress.progress === 'stale')) this.#answeredLate(progress.payment, client);
  }

  /** The gateway's answer to a pay request came after a webhook had told its status. */
  #answeredLate(payment: Payment, client: string): void {
    this.#deps.logger.info('a pay attempt was answered as a webhook had already told', { order_id: payment.orderId, status: payment.status, status_code: payment.statusCode, client });
    // The webhook counted it against the client kept for it (#awaiting), unless it came to another instance.
    if (this.#awaiting.has(payment.orderId)) this.#decided(payment, client);
  }

  /**
   * A customer's attempt from `client` awaits its decision (sent, or its hosted page opened): see
   * #awaiting. `client` is UNKNOWN_CLIENT when the host passed no address.
   */
  awaitDecision(orderId: string, client: string): void {
    if (this.#awaiting.size >= AWAITING_KEPT) this.#awaiting.delete(this.#awaiting.keys().next().value!);
    this.#awaiting.set(orderId, client);
  }

  /**
   * A customer's attempt counts toward the decline rate, and toward its client network's record,
   * once decided: answered at once, or after a 3-D Secure challenge or on the hosted page, by
   * whatever brings the decision. Not a merchant's saved-card charge (no client: a night's
   * renewals decline often, and are no card testing).
   */
  #decided(payment: Payment, client: string | undefined): void {
    const outcome = paymentOutcome(payment);
    if (outcome === undefined) {
      if (client !== undefined) this.awaitDecision(payment.orderId, client);
      return;
    }
    const from = client ?? this.#awaiting.get(payment.orderId);
    if (this.#awaiting.size > 0) this.#awaiting.delete(payment.orderId);
    if (from === undefined || (outcome !== 'success' && outcome !== 'failure')) return;
    this.#rate.decided(outcome === 'failure');
    if (from === UNKNOWN_CLIENT) return;
    if (outcome === 'failure') this.declines.note(from);
    else this.declines.paid(from);
  }

  /** The gateway reported what contradicts the order (other figures, money moved past it); it is held. */
  async discrepancyNoted(payment: Payment, source: ChangeSource): Promise<void> {
    const { feed, logger, clock } = this.#deps;
    const change = discrepancyChange(payment, source);
    const noted = payment.discrepancy;
    if (!change || !noted) return;
    this.#deps.metrics?.discrepancyNoted();
    // The report just noted; the payment's discrepancy keeps the ones before it.
    const reported = latestReport(noted);
    logger.error('the gateway reports what contradicts the order (see reported); it is held for review', {
      order_id: payment.orderId,
      amount: payment.amount,
      currency: payment.currency,
      reported,
      source,
    });
    feed.publish({ kind: 'discrepancy', orderId: payment.orderId, status: change.status, source, at: clock() });
    await this.#deps.notices.tell(change);
  }

  /** A capture, void or refund was settled (or first heard of). */
  async operationAdvanced(operation: Operation, source: ChangeSource): Promise<void> {
    const { feed, logger, clock } = this.#deps;
    logger.info('operation status changed', { order_id: operation.orderId, operation: operation.kind, status: operation.status, source });
    feed.publish({
      kind: 'operation',
      orderId: operation.orderId,
      status: operation.status,
      operationId: operation.id,
      operationKind: operation.kind,
      source,
      at: clock(),
    });
    await this.#deps.notices.tell(operationChange(operation, source));
  }

  /**
   * A successful payment of a known customer leaves its token for the next checkout, unless its
   * session said the customer gave no consent to keep the card (`save_card: false`).
   */
  async #keepCard(payment: Payment): Promise<void> {
    if (!payment.customerId || !payment.ccToken || !payment.ccMask) return;
    try {
      await this.#deps.ledger.savePaymentCard(payment, {
        customerId: payment.customerId,
        ccToken: payment.ccToken,
        ccMask: payment.ccMask,
        ...(payment.cardBrand ? { brand: payment.cardBrand } : {}),
        ...(payment.ccTokenExpiration ? { tokenExpiration: payment.ccTokenExpiration } : {}),
      });
    } catch (error) {
      this.#deps.logger.error('could not keep the card of a successful payment', { order_id: payment.orderId, err: error });
    }
  }

}
