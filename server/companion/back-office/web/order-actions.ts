// Which secondary operations the back office offers on an order.
import { units } from './money.js';
import type { OrderDetail } from './admin-api.js';
import type { OperationAction } from './operation-dialog.js';
import { pageConfig } from './page-config.js';

/** Paid to sellers in shares (a split purchase, or a capture split): part of it is refunded per seller. */
export const isSplitPaid = ({ order, operations }: OrderDetail): boolean =>
  order.split !== null || operations.some((operation) => operation.kind === 'capture' && operation.split);

/** The actions that apply to the order now (the companion checks them again). */
export function applicableActions(detail: OrderDetail): OperationAction[] {
  const { order, totals } = detail;
  // An unpaid hosted page may be cancelled; not one the gateway reported paid otherwise (held).
  if (order.status === 'init') return order.mode === 'hosted' && order.discrepancy === null ? ['cancel'] : [];
  if (order.status !== 'success') return [];
  const captured = units(totals.captured) + units(totals.capture_pending) > 0;
  const refundable = units(totals.refundable) > 0;
  const splitPaid = isSplitPaid(detail);
  const actions: OperationAction[] = [];
  if (order.method === 'auth' && !totals.voided && units(totals.capturable) > 0) {
    actions.push('capture');
    // Shared between sellers only when the back office was given them (backOffice.subMerchants).
    if (pageConfig().subMerchants.length > 0) actions.push('split-capture');
  }
  if (order.method === 'auth' && !totals.voided && !captured) actions.push('void');
  if (refundable) actions.push('refund');
  if (refundable && splitPaid) actions.push('split-refund');
  return actions;
}
