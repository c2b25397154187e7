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
import { maskedText } from '../http/masked-text.js';
import { PaymentView } from './views.js';

export const SettleDiscrepancyRequest = z.strictObject({
  // Masked as it is read: kept and shown to every operator, so a card number never lands in it.
  // What else a note must be (something visible, no controls) is the ledger's rule, said by it.
  note: maskedText(z.string().trim(), SETTLEMENT_NOTE_MAX).describe('How it was settled: with the customer, at the gateway, what was refunded. Something visible, line breaks and tabs the only control characters'),
  version: z.int('must be a whole number').min(1, 'must be at least 1').describe('The discrepancy’s `version` as read: a report that came since is refused (409 discrepancy_changed), not settled unseen'),
});

export const SettledOrder = z.object({ order: PaymentView });
export type SettledOrder = z.output<typeof SettledOrder>;
