/**
 * A hosted attempt whose page's address was lost: the gateway's answer to its create never came
 * (and a read of the order could not say), so no customer can reach that page. Told apart from a
 * page being opened right now by its age: unchanged since longer ago than a create's three tries
 * and the read after them (a claim or a send again changes it), no instance is opening it.
 */
import type { Payment } from '../../ledger/index.js';

export function pageLost(payment: Pick<Payment, 'mode' | 'status' | 'checkoutUrl' | 'unsentAt' | 'updatedAt'>, now: number, gatewayTimeoutMs: number): boolean {
  // An attempt ended as never sent is no lost page: a click sends it again, under its order id.
  return payment.mode === 'hosted' && payment.status === 'init' && payment.checkoutUrl === null && payment.unsentAt === null && now - payment.updatedAt >= 4 * gatewayTimeoutMs;
}
