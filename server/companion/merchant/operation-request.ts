/**
 * Bodies of the merchant's secondary operations. Amounts are integer minor units of the order's
 * currency (checked against it once the order is read); omitted, they mean "all that is left"
 * (the whole reserve, which a split capture's shares must make; the refundable amount), or for
 * a split refund the sum of its shares.
 */
import * as z from 'zod';
import { BIDI_CONTROLS, Comment as WireComment } from '@payform/gateway/wire';
import { Amount, checkSplitTotal } from '../http/amounts.js';
import { maskedText } from '../http/masked-text.js';
import { SplitShares } from '../http/split-shares.js';

/**
 * Masked as it is read: stored, and sent to the gateway, which prints a refund's on the
 * customer's receipt. An override or isolate would show it reordered there and in the back
 * office, as it would a settlement's note.
 */
const Comment = maskedText(
  WireComment.refine((comment) => !BIDI_CONTROLS.test(comment), { error: 'must not hold bidirectional overrides or isolates (U+202A–202E, U+2066–2069): they would show it reordered' }),
  2048,
);

export const CaptureRequest = z.strictObject({ amount: Amount.optional(), comment: Comment.optional() });
export const VoidRequest = z.strictObject({ comment: Comment.optional() });
export const RefundRequest = z.strictObject({
  amount: Amount.optional(),
  comment: Comment.optional(),
  f_receipt_delivery: z.enum(['email', 'sms', 'viber', 'none']).optional(),
});
/**
 * The shares name each sub-merchant once and, when the total is given, add up to it — checked
 * here, before anything is reserved.
 */
const Split = z.strictObject({ amount: Amount.optional(), split: SplitShares, comment: Comment.optional() }).superRefine((request, ctx) => {
  checkSplitTotal(ctx, 'amount', request.amount, request.split);
  const subMerchants = request.split.map((share) => share.sub_merchant_id.toLowerCase());
  if (new Set(subMerchants).size !== subMerchants.length) ctx.addIssue({ code: 'custom', path: ['split'], message: 'must name each sub-merchant once' });
});
export const SplitCaptureRequest = Split;
export const SplitRefundRequest = Split;
export const ResendRequest = z.strictObject({
  operation: z.enum(['purchase', 'auth', 'lookup', 'capture', 'void', 'refund']).optional(),
  transaction_id: z.guid({ error: 'must be a UUID' }).optional().describe('One transaction’s webhook (a recurring charge’s, a split’s); the gateway’s ids are UUIDs'),
});

export type OperationBody = z.output<typeof RefundRequest> & { readonly split?: z.output<typeof SplitShares> };
