/**
 * Reads the gateway's state of an order and brings the ledger up to it: the payment's status
 * and the captures, voids and refunds still waiting for an answer. This is how the companion
 * learns an outcome it did not get — after a timeout or a 5xx, on the customer's return, and in
 * reconciliation — without ever sending a payment or refund a second time.
 */
import { NotFoundError } from '../../gateway/errors.js';
import type { GatewayClient } from '../../gateway/client.js';
import type { OrderOperation } from '../../gateway/objects.js';
import type { RequestOptions } from '../../gateway/transport.js';
import type { Ledger, Operation, Payment } from '../../ledger/index.js';
import { operationResult, paymentUpdate } from './gateway-facts.js';
import type { ChangeSource, PaymentReactions } from './reactions.js';

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
    let entries: OrderOperation[];
    try {
      entries = await gateway.orders.get(orderId, options);
    } catch (error) {
      if (error instanceof NotFoundError) return { found: false };
      throw error;
    }
    const payment = await ledger.getPayment(orderId);
    if (!payment) return { found: true, entries, payment: undefined, shown: new Set() };
    const updated = await this.#applyPayment(payment, entries, source);
    const shown = await this.#settleOperations(orderId, entries, source);
    return { found: true, entries, payment: updated, shown };
  }

  async #applyPayment(payment: Payment, entries: readonly OrderOperation[], source: ChangeSource): Promise<Payment> {
    const entry = entries.find((candidate) => candidate.method === payment.method);
    if (!entry) return payment;
    const progress = await this.#deps.ledger.advancePayment(payment.orderId, paymentUpdate(entry, this.#deps.sandboxOrigin));
    if (progress.progress === 'advanced') await this.#deps.reactions.paymentAdvanced(progress.payment, source);
    return progress.payment;
  }

  /**
   * Pending reservations meet the gateway's operations: by operation id when the reservation
   * knows it, otherwise the oldest unclaimed operation of the same kind (the same amount first).
   */
  async #settleOperations(orderId: string, entries: readonly OrderOperation[], source: ChangeSource): Promise<Set<string>> {
    const { ledger, reactions } = this.#deps;
    const operations = (await ledger.getOrder(orderId))?.operations ?? [];
    const claimed = new Set(operations.map((operation) => operation.operationId).filter((id) => id !== null));
    const shown = new Set<string>();
    for (const operation of operations.filter((candidate) => candidate.status === 'pending')) {
      const entry = matchEntry(operation, entries, claimed);
      if (!entry) continue;
      shown.add(operation.id);
      const result = operationResult(entry);
      if (result.operationId) claimed.add(result.operationId);
      const settled = await ledger.settleOperation(operation.id, result);
      if (settled.progress === 'advanced') await reactions.operationAdvanced(settled.operation, source);
    }
    return shown;
  }
}

function matchEntry(operation: Operation, entries: readonly OrderOperation[], claimed: ReadonlySet<string>): OrderOperation | undefined {
  const sameKind = entries.filter((entry) => entry.method === operation.kind);
  if (operation.operationId) return sameKind.find((entry) => entry.operation_id === operation.operationId);
  const unclaimed = sameKind.filter((entry) => typeof entry.operation_id === 'string' && !claimed.has(entry.operation_id));
  return unclaimed.find((entry) => entry.amount === operation.amount) ?? unclaimed[0];
}
