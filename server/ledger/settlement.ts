// Settling a reservation with the gateway's answer to it.
import { lockPayment } from './context.js';
import type { LedgerContext } from './context.js';
import { LedgerConflict, LedgerNotFound } from './errors.js';
import { reapplyParkedEvents } from './events.js';
import { operationResultInput, parseInput } from './input.js';
import { getOperation, progressOperation } from './operations.js';
import type { OperationProgress, OperationResult } from './types.js';

/**
 * success keeps the reserved money (at the gateway's actual amount), failure releases it,
 * pending only records the gateway's operation id. Runs under the order's lock, then applies
 * any webhook that arrived before this answer and was parked waiting for the operation id.
 */
export async function settleOperation(ctx: LedgerContext, id: string, input: OperationResult): Promise<OperationProgress> {
  const result = parseInput(operationResultInput, input);
  return ctx.db.transaction().execute(async (trx) => {
    const reservation = await trx.selectFrom('operations').select('order_id').where('id', '=', id).executeTakeFirst();
    if (!reservation) throw new LedgerNotFound('operation', id);
    await lockPayment(ctx, trx, reservation.order_id);
    if (result.operationId) {
      const holder = await trx.selectFrom('operations').select('id').where('operation_id', '=', result.operationId).executeTakeFirst();
      if (holder && holder.id !== id) throw new LedgerConflict('operation_id_taken', `operation id ${result.operationId} belongs to another operation`);
    }
    const progressed = await progressOperation(ctx, trx, id, result);
    if (!progressed) throw new LedgerNotFound('operation', id);
    await reapplyParkedEvents(ctx, trx, reservation.order_id);
    // A parked event may have moved this very operation on since: a step forward too, so the
    // caller reacts to it (the merchant's hook, the live feed) as to any other.
    const current = (await getOperation(trx, id)) ?? progressed.operation;
    return { progress: current.status === progressed.operation.status ? progressed.progress : 'advanced', operation: current };
  });
}
