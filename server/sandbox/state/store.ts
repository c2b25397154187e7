/**
 * The sandbox's memory: orders by project and order_id, and the indexes the pages and receipt
 * links use. In memory only — POST /_sandbox/reset (or a new sandbox) starts from nothing.
 */
import type { Operation, Order, Payment, RecurringCharge } from './records.js';

/** A transaction a receipt can be made for, found by its receipt link or transaction_id. */
export type ReceiptSubject =
  | { readonly kind: 'payment'; readonly order: Order; readonly payment: Payment }
  | { readonly kind: 'operation'; readonly order: Order; readonly operation: Operation }
  | { readonly kind: 'charge'; readonly order: Order; readonly charge: RecurringCharge };

export class SandboxStore {
  readonly #orders = new Map<string, Order>();
  readonly #checkouts = new Map<string, Order>();
  readonly #challenges = new Map<string, Order>();
  readonly #payments = new Map<string, Order>();
  readonly #receipts = new Map<string, ReceiptSubject>();
  #creditReferences = 0;

  order(posId: string, orderId: string): Order | undefined {
    return this.#orders.get(orderKey(posId, orderId));
  }

  /** Every order of a project, oldest first. */
  orders(posId: string): Order[] {
    return [...this.#orders.values()].filter((order) => order.posId === posId);
  }

  addOrder(payment: Payment): Order {
    const order: Order = { posId: payment.posId, orderId: payment.orderId, payment, operations: [], recurring: undefined };
    this.#orders.set(orderKey(payment.posId, payment.orderId), order);
    this.#payments.set(payment.id, order);
    this.#receipts.set(payment.receiptKey, { kind: 'payment', order, payment });
    return order;
  }

  addOperation(order: Order, operation: Operation): void {
    order.operations.push(operation);
    this.#receipts.set(operation.receiptKey, { kind: 'operation', order, operation });
  }

  addCharge(order: Order, charge: RecurringCharge): void {
    order.recurring?.charges.push(charge);
    this.#receipts.set(charge.receiptKey, { kind: 'charge', order, charge });
  }

  byPaymentId(paymentId: string): Order | undefined {
    return this.#payments.get(paymentId);
  }

  openCheckout(checkoutId: string, order: Order): void {
    this.#checkouts.set(checkoutId, order);
  }

  byCheckout(checkoutId: string): Order | undefined {
    return this.#checkouts.get(checkoutId);
  }

  openChallenge(challengeId: string, order: Order): void {
    this.#challenges.set(challengeId, order);
  }

  byChallenge(challengeId: string): Order | undefined {
    return this.#challenges.get(challengeId);
  }

  byReceiptKey(receiptKey: string): ReceiptSubject | undefined {
    return this.#receipts.get(receiptKey);
  }

  /**
   * Numbers for the credit references of one request, each call the next: a new number for every
   * reference issued, reissues included. `issue: false` (a HEAD) numbers them as the next issue
   * would, without using a number up.
   */
  creditReferenceNumbers({ issue }: { readonly issue: boolean }): () => number {
    if (issue) return () => (this.#creditReferences += 1);
    let last = this.#creditReferences;
    return () => (last += 1);
  }

  clear(): void {
    for (const order of this.#orders.values()) order.payment.timer?.cancel();
    this.#orders.clear();
    this.#checkouts.clear();
    this.#challenges.clear();
    this.#payments.clear();
    this.#receipts.clear();
    this.#creditReferences = 0;
  }
}

// order_id is merchant text; a newline cannot occur in a UUID, so the key is unambiguous.
function orderKey(posId: string, orderId: string): string {
  return `${posId}\n${orderId}`;
}
