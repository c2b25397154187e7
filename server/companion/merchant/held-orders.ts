/**
 * A person settles a held order (the gateway reported what contradicts it) with the customer or
 * at the gateway, and says how:
 *
 *   POST /api/orders/:order_id/settle-discrepancy   { note, version }
 *
 * The reports stay as they came; the order leaves the held list until the gateway reports again.
 */
import * as z from 'zod';
import { SETTLEMENT_NOTE_MAX } from '../../ledger/index.js';
import { PaymentView } from './views.js';

export const SettleDiscrepancyRequest = z.strictObject({
  // What a note must be, and its masking, are the ledger's (discrepancySettlementInput), so a
  // mounted host calling it gets them too: refused by it, the field is named as here.
  note: z
    .string()
    .describe(
      `How it was settled: with the customer, at the gateway, what was refunded. At most ${SETTLEMENT_NOTE_MAX} characters, something visible, line breaks and tabs the only control characters; a card number in it is kept as [card number]`,
    ),
  version: z.int({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a whole number') }).min(1, 'must be at least 1').describe('The discrepancy’s `version` as read: a report that came since is refused (409 discrepancy_changed), not settled unseen'),
});

export const SettledOrder = z.object({ order: PaymentView });
export type SettledOrder = z.output<typeof SettledOrder>;
