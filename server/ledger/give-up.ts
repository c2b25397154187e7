// Reconciliation's last word on an attempt the gateway never showed: ended for good, unless it
// was sent again meanwhile.
import { gatewayAnswered, LOST_AT_GATEWAY, NEVER_REACHED } from './attempts.js';
import { lockPayment } from './context.js';
import type { LedgerContext } from './context.js';
import { noteRecordedAnswer, progressPayment } from './payments.js';
import { toPayment } from './rows.js';
import type { PaymentProgress } from './types.js';

/**
 * Ends as a failure an attempt in flight last sent at `lastSentBefore` or earlier: the gateway
 * has not shown it since — NEVER_REACHED, or LOST_AT_GATEWAY when it had answered it. Without a
 * status code: a pending step's (2119, "Awaiting 3-D Secure") is no decision, and a failure the
 * gateway never decided is one without a code (reports and metrics read it so, not as a decline).
 * Read under the row's lock, so a resend — a customer's or a merchant's, which starts the attempt
 * afresh under its order id — and the give-up never both win: one sent again after the caller read
 * it is left to its own send. Undefined when the order is unknown or not such an attempt (any more).
 */
export async function giveUpPayment(ctx: LedgerContext, orderId: string, lastSentBefore: number): Promise<PaymentProgress | undefined> {
  const progressed = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockPayment(ctx, trx, orderId);
    if (!row || (row.status !== 'init' && row.status !== 'pending') || row.updated_at > lastSentBefore) return undefined;
    const statusDescription = gatewayAnswered(toPayment(row)) ? LOST_AT_GATEWAY : NEVER_REACHED;
    const progress = await progressPayment(ctx, trx, orderId, { status: 'failure', statusDescription });
    if (progress?.progress !== 'advanced' || progress.payment.statusCode === null) return progress;
    // The guarded update keeps a failure's last code (a decline's own words may come without one): not this one's.
    await trx.updateTable('payments').set({ status_code: null }).where('order_id', '=', orderId).execute();
    return { ...progress, payment: { ...progress.payment, statusCode: null } };
  });
  if (progressed) noteRecordedAnswer(ctx, progressed.payment);
  return progressed;
}
