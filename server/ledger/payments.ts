// Payments, one per order id, moved forward only.
import type { LedgerContext, LedgerDb } from './context.js';
import { LedgerNotFound } from './errors.js';
import { paymentProgression, progressTo } from './progression.js';
import { toPayment } from './rows.js';
import type { Payment, PaymentProgress, PaymentUpdate } from './types.js';

export async function getPayment(db: LedgerDb, orderId: string): Promise<Payment | undefined> {
  const row = await db.selectFrom('payments').selectAll().where('orderId', '=', orderId).executeTakeFirst();
  return row && toPayment(row);
}

/**
 * Applies what the gateway said about a payment: a forward step, a refresh of the same status
 * (details merged; what the update omits is kept) or nothing when it is stale. Undefined when
 * the order is unknown.
 */
export async function progressPayment(ctx: LedgerContext, db: LedgerDb, orderId: string, update: PaymentUpdate): Promise<PaymentProgress | undefined> {
  const now = ctx.now();
  const { status, ...details } = update;
  const finalizes = paymentProgression.isFinal(status);
  const { progress, row } = await progressTo(paymentProgression, status, (guard, step) =>
    db
      .updateTable('payments')
      .set({ ...details, status, updatedAt: now, lastSeenAt: now, ...(step === 'advanced' && finalizes ? { finalizedAt: now } : {}) })
      .where('orderId', '=', orderId)
      .where(guard)
      .returningAll()
      .executeTakeFirst(),
  );
  const payment = row ? toPayment(row) : await getPayment(db, orderId);
  return payment && { progress, payment };
}

export async function markPaymentChecked(ctx: LedgerContext, orderId: string): Promise<void> {
  const result = await ctx.db.updateTable('payments').set({ lastSeenAt: ctx.now() }).where('orderId', '=', orderId).executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new LedgerNotFound('order', orderId);
}
