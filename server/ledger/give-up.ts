// Reconciliation's last word on an attempt the gateway never showed: ended for good, unless it
// was sent again meanwhile.
import { NEVER_REACHED } from './attempts.js';
import { lockPayment } from './context.js';
import type { LedgerContext } from './context.js';
import { noteRecordedAnswer, progressPayment } from './payments.js';
import type { PaymentProgress } from './types.js';

/**
 * Ends as a failure (NEVER_REACHED) an attempt in flight last sent at `lastSentBefore` or
 * earlier: the gateway has not shown it since. Read under the row's lock, so a resend — a
 * customer's or a merchant's, which starts the attempt afresh under its order id — and the give-up
 * never both win: one sent again after the caller read it is left to its own send. Undefined when
 * the order is unknown or not such an attempt (any more).
 */
export async function giveUpPayment(ctx: LedgerContext, orderId: string, lastSentBefore: number): Promise<PaymentProgress | undefined> {
  const progressed = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockPayment(ctx, trx, orderId);
    if (!row || (row.status !== 'init' && row.status !== 'pending') || row.updated_at > lastSentBefore) return undefined;
    return progressPayment(ctx, trx, orderId, { status: 'failure', statusDescription: NEVER_REACHED });
  });
  if (progressed) noteRecordedAnswer(ctx, progressed.payment);
  return progressed;
}
