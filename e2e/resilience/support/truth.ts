/**
 * The companion's ledger held against the sandbox's truth, order by order: the same payment
 * status, the same successful captures, voids and refunds (kind and amount), nothing pending,
 * nothing the gateway holds missing from the ledger — and, from the hook's record of every
 * change, no final state ever left again.
 */
import type { Stack } from '../../../server/companion/test/stack.js';
import type { PaymentChange } from '../../../server/companion/payments/reactions.js';
import type { Ledger, OrderDetail } from '../../../server/ledger/index.js';
import type { Order } from '../../../server/sandbox/state/records.js';

export async function allOrders(ledger: Ledger): Promise<OrderDetail[]> {
  const details: OrderDetail[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledger.listOrders({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const payment of page.orders) details.push((await ledger.getOrder(payment.orderId))!);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return details;
}

const operationKey = (kind: string, amount: number) => `${kind} ${amount}`;

/** Every difference between the ledger and the sandbox, as sentences (empty when they agree). */
export async function differencesFromTruth(stack: Stack): Promise<string[]> {
  const { gateway } = stack.sandbox.sandbox;
  const posId = gateway.defaultProject.posId;
  const differences: string[] = [];
  const ledgerOrders = await allOrders(stack.ledger);
  const known = new Set(ledgerOrders.map((detail) => detail.payment.orderId));

  for (const detail of ledgerOrders) {
    const { payment } = detail;
    const order: Order | undefined = gateway.store.order(posId, payment.orderId);
    if (!order) {
      // Never reached the gateway: it may only be a failure, with nothing done to it.
      if (payment.status !== 'failure') differences.push(`${payment.orderId}: ${payment.status} in the ledger, unknown at the gateway`);
      continue;
    }
    if (payment.status !== order.payment.status) differences.push(`${payment.orderId}: ${payment.status} in the ledger, ${order.payment.status} at the gateway`);
    const pending = detail.operations.filter((operation) => operation.status === 'pending');
    if (pending.length > 0) differences.push(`${payment.orderId}: ${pending.length} operation(s) still pending in the ledger`);
    const ours = detail.operations.filter((operation) => operation.status === 'success').map((operation) => operationKey(operation.kind, operation.amount)).sort();
    const theirs = order.operations.filter((operation) => operation.status === 'success').map((operation) => operationKey(operation.method, operation.amount)).sort();
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) differences.push(`${payment.orderId}: operations ${JSON.stringify(ours)} in the ledger, ${JSON.stringify(theirs)} at the gateway`);
  }
  for (const order of gateway.store.orders(posId)) {
    if (!known.has(order.orderId)) differences.push(`${order.orderId}: ${order.payment.status} at the gateway, missing from the ledger`);
  }
  return differences;
}

const FINAL = new Set(['success', 'failure']);

/** Changes reported after a final one for the same payment or operation, or reported twice. */
export function regressions(changes: readonly PaymentChange[]): string[] {
  const found: string[] = [];
  const seen = new Map<string, string[]>();
  for (const change of changes) {
    const key = change.kind === 'operation' ? `operation ${change.operation.id}` : `${change.kind} ${change.orderId}`;
    const statuses = seen.get(key) ?? [];
    if (statuses.some((status) => FINAL.has(status))) found.push(`${key}: ${change.status} reported after ${statuses.join(' → ')}`);
    if (statuses.includes(change.status)) found.push(`${key}: ${change.status} reported twice`);
    seen.set(key, [...statuses, change.status]);
  }
  return found;
}
