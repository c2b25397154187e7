/**
 * Reads the gateway's state of an order and brings the ledger up to it: the payment's status
 * and the captures, voids and refunds still waiting for an answer. This is how the companion
 * learns an outcome it did not get — after a timeout or a 5xx, on the customer's return, and in
 * reconciliation — without ever sending a payment or refund a second time.
 */
import { NotFoundError } from '@payform/gateway';
import type { GatewayClient, OrderOperation, RequestOptions } from '@payform/gateway';
import type { Ledger, Payment } from '../../ledger/index.js';
import { operationResult, paymentUpdate } from './gateway-facts.js';
import { matchOperations } from './operation-matching.js';
import type { Logger } from '../log/logger.js';
import type { ChangeSource, PaymentReactions } from './reactions.js';

/** How long an order-state read or a cancel may take while someone waits for the answer. */
export const RECOVERY_READ_MS = 5_000;

export type OrderRefresh =
  /** The gateway does not know the order. */
  | { readonly found: false }
  | {
      readonly found: true;
      readonly entries: readonly OrderOperation[];
      readonly payment: Payment | undefined;
      /** Ledger ids of the reservations the gateway shows, whatever their status there. */
      readonly shown: ReadonlySet<string>;
    };

interface OrderStateDeps {
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  readonly reactions: PaymentReactions;
  readonly logger: Logger;
  readonly sandboxOrigin: string | undefined;
}

export class OrderStateSync {
  readonly #deps: OrderStateDeps;

  constructor(deps: OrderStateDeps) {
    this.#deps = deps;
  }

  /** Gateway errors other than "not found" propagate: the state is then simply unknown. */
  async refresh(orderId: string, source: ChangeSource, options: RequestOptions = {}): Promise<OrderRefresh> {
    const { ledger, gateway } = this.#deps;
    const payment = await ledger.getPayment(orderId);
    let entries: OrderOperation[];
    try {
      // The ledger knows the order's currency; the gateway's entries need not name it.
      entries = await gateway.orders.get(orderId, { ...options, ...(payment ? { currency: payment.currency } : {}) });
    } catch (error) {
      if (error instanceof NotFoundError) return { found: false };
      throw error;
    }
    if (!payment) return { found: true, entries, payment: undefined, shown: new Set() };
    const updated = await this.#applyPayment(payment, entries, source);
    const shown = await this.#settleOperations(orderId, entries, source);
    return { found: true, entries, payment: updated, shown };
  }

  /**
   * The entry of the payment's method — the one naming its payment id, else its amount — is
   * applied; the ledger refuses it when it describes another payment (another amount, currency
   * or payment id), which is then only logged.
   */
  /**
   * The order's state read while a customer or the merchant waits for an answer that was lost:
   * a short timeout, and undefined (logged) when it cannot be read now — reconciliation settles
   * it later.
   */
  async readWhileWaiting(orderId: string): Promise<OrderRefresh | undefined> {
    try {
      return await this.refresh(orderId, 'order_state', { timeoutMs: RECOVERY_READ_MS });
    } catch (error) {
      this.#deps.logger.warn('the order state could not be read; reconciliation will settle it', { order_id: orderId, err: error });
      return undefined;
    }
  }

  async #applyPayment(payment: Payment, entries: readonly OrderOperation[], source: ChangeSource): Promise<Payment> {
    const candidates = entries.filter((candidate) => candidate.method === payment.method);
    const entry =
      candidates.find((candidate) => payment.paymentId !== null && candidate.payment_id === payment.paymentId) ??
      candidates.find((candidate) => candidate.amount === payment.amount) ??
      candidates[0];
    if (!entry) return payment;
    const progress = await this.#deps.ledger.advancePayment(payment.orderId, paymentUpdate(entry, this.#deps.sandboxOrigin));
    await this.#deps.reactions.paymentProgressed(progress, source);
    if (progress.progress === 'mismatch') this.#deps.logger.warn('the order state shows another payment under this order id; not applied', { order_id: payment.orderId });
    return progress.payment;
  }

  /**
   * Pending reservations meet the gateway's operations (by operation id, else by kind, amount
   * and time: see operation-matching.ts) and take what the gateway says of them. Returns the
   * reservations the gateway may be showing.
   */
  async #settleOperations(orderId: string, entries: readonly OrderOperation[], source: ChangeSource): Promise<ReadonlySet<string>> {
    const { ledger, reactions } = this.#deps;
    const operations = (await ledger.getOrder(orderId))?.operations ?? [];
    const { settling, shown } = matchOperations(operations, entries);
    for (const [id, entry] of settling) {
      const settled = await ledger.settleOperation(id, operationResult(entry));
      if (settled.progress === 'advanced') await reactions.operationAdvanced(settled.operation, source);
    }
    return shown;
  }
}
