// Captures and refunds the gateway made that the ledger did not ask for: made in its portal, or a
// request the ledger ended as never sent that reached the gateway after all. Recorded as the
// gateway has them, because they happened; flagged on the payment when they contradict what the
// merchant was told — refunds past what was paid, or an operation it was told never happened.
import { lockPayment } from './context.js';
import type { LedgerContext, LedgerDb } from './context.js';
import { LedgerNotFound } from './errors.js';
import { gatewayOperationInput, parseInput } from './input.js';
import { orderTotals, overCaptured, refundedPastPaid } from './money-rules.js';
import { insertOperation, operationsOf } from './operations.js';
import { flagDiscrepancy } from './discrepancies.js';
import { reportOf } from './payments.js';
import { toPayment } from './rows.js';
import type { GatewayOperation, GatewayOperationRecord, Operation, Payment, DiscrepancyReport } from './types.js';

/**
 * A reservation of this kind and amount that the ledger ended after reads of the order state
 * did not show it (never sent): failed here, with neither the gateway's operation id nor its code.
 */
async function endedAsNeverSent(trx: LedgerDb, operation: Operation): Promise<Operation['id'] | undefined> {
  const row = await trx
    .selectFrom('operations')
    .select('id')
    .where('order_id', '=', operation.orderId)
    .where('kind', '=', operation.kind)
    .where('amount', '=', operation.amount)
    .where('origin', '=', 'merchant')
    .where('status', '=', 'failure')
    .where('operation_id', 'is', null)
    .where('status_code', 'is', null)
    .where('absent_reads', '>', 0)
    .orderBy('created_at')
    .executeTakeFirst();
  return row?.id;
}

/**
 * A capture or refund just moved money (it advanced to success): flags the payment when the
 * order's refunds now go past what was paid, its captures past what was authorised, or when the
 * gateway made it unasked and it matches a reservation ended as never sent — the merchant was
 * told that one never happened and may have made it again. Each such report with new figures (a
 * further refund past what was paid: its new total) is added to the discrepancy. The payment as
 * flagged, or undefined (nothing to flag, or that report noted already).
 */
export async function checkMovedMoney(ctx: LedgerContext, trx: LedgerDb, payment: Payment, operation: Operation): Promise<Payment | undefined> {
  if (operation.status !== 'success' || operation.kind === 'void') return undefined;
  const refunded = operation.kind === 'refund' ? await refundedIfPastPaid(ctx, trx, payment) : undefined;
  const captured = operation.kind === 'capture' && operation.origin === 'gateway' ? await capturedIfPastAuthorised(ctx, trx, payment) : undefined;
  const unsent = operation.origin === 'gateway' ? await endedAsNeverSent(trx, operation) : undefined;
  if (refunded === undefined && captured === undefined && unsent === undefined) return undefined;
  const report: Omit<DiscrepancyReport, 'notedAt'> = {
    ...reportOf({ status: payment.status }),
    ...(refunded !== undefined ? { refunded } : {}),
    ...(captured !== undefined ? { captured } : {}),
    ...(unsent !== undefined ? { lateOperation: { reservation: unsent, operation: operation.id, kind: operation.kind, amount: operation.amount } } : {}),
  };
  return flagDiscrepancy(ctx, trx, payment, report);
}

/** What the order's successful refunds add up to, when that is past what was paid. */
async function refundedIfPastPaid(ctx: LedgerContext, trx: LedgerDb, payment: Payment): Promise<number | undefined> {
  const operations = await operationsOf(ctx, trx, payment.orderId);
  return refundedPastPaid(payment, operations) > 0 ? orderTotals(payment, operations).refunded : undefined;
}

/** What the order's successful captures add up to, when unasked ones took them past what was authorised. */
async function capturedIfPastAuthorised(ctx: LedgerContext, trx: LedgerDb, payment: Payment): Promise<number | undefined> {
  const operations = await operationsOf(ctx, trx, payment.orderId);
  return overCaptured(payment, operations) > 0 ? orderTotals(payment, operations).captured : undefined;
}

/**
 * An operation the order state shows that none of the ledger's accounts for. Under the order's
 * lock, so instances reading at once record it once: not when its operation id is held already,
 * nor (an entry without an id) when the ledger has as many of this kind and amount that may be
 * at the gateway as the gateway shows (`shown`).
 */
export async function recordGatewayOperation(ctx: LedgerContext, orderId: string, input: GatewayOperation): Promise<GatewayOperationRecord> {
  const { shown, ...record } = parseInput(gatewayOperationInput, input);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await lockPayment(ctx, trx, orderId);
    if (!row) throw new LedgerNotFound('order', orderId);
    const operations = await operationsOf(ctx, trx, orderId);
    const known = record.operationId
      ? operations.some((operation) => operation.operationId === record.operationId)
      : operations.filter((operation) => operation.kind === record.kind && operation.amount === record.amount && mayBeAtGateway(operation)).length >= shown;
    if (known) return { operation: undefined, flagged: undefined };
    const payment = toPayment(row);
    const operation = await insertOperation(ctx, trx, payment, { ...record, origin: 'gateway' });
    return { operation, flagged: await checkMovedMoney(ctx, trx, payment, operation) };
  });
}

/** Not failed here without the gateway's word (an operation id or a decline code). */
function mayBeAtGateway(operation: Operation): boolean {
  return operation.status !== 'failure' || operation.operationId !== null || operation.statusCode !== null;
}
