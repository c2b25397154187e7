/**
 * Secondary operations on the wire: capture, split capture, void, refund and split refund
 * (interface endpoints 3–7) and the secondary operation response object.
 *
 * Requests are strict objects: `amount` sent instead of `refund_amount` would otherwise be
 * dropped and turn a partial refund into a full one.
 */
import * as z from 'zod';
import { checkCurrencyPrecision, checkSplitAmounts, SplitPayments } from './amounts.js';
import {
  Comment, Currency, Fee, LimitInfo, Mode, RequestAmount, ResponseAmount, SecondaryMethod,
  SecondaryOrderId, Status, StatusCodeField, Timestamp, Url, Uuid,
} from './primitives.js';

const operationTarget = {
  pos_id: Uuid,
  order_id: SecondaryOrderId,
  order_currency: Currency,
  comment: Comment.optional(),
  server_url: Url.optional(),
};

/** POST /api/v1/capture — charge_amount omitted captures the full reserved amount. */
export const CaptureRequest = z
  .strictObject({ ...operationTarget, charge_amount: RequestAmount.optional() })
  .superRefine((request, ctx) => checkCurrencyPrecision(ctx, 'charge_amount', request.charge_amount, request.order_currency));
export type CaptureRequest = z.infer<typeof CaptureRequest>;

/**
 * POST /api/v1/split/capture. The interface does not say which of charge_amount and split are
 * required: payform requires `split` (a split capture without one is a plain capture) and
 * treats charge_amount like capture's — omitted for the full amount, else equal to the split sum.
 */
export const SplitCaptureRequest = z
  .strictObject({ ...operationTarget, charge_amount: RequestAmount.optional(), split: SplitPayments })
  .superRefine((request, ctx) =>
    checkSplitAmounts(ctx, 'charge_amount', request.charge_amount, request.order_currency, request.split),
  );
export type SplitCaptureRequest = z.infer<typeof SplitCaptureRequest>;

/** POST /api/v1/void — cancels a successful auth. */
export const VoidRequest = z.strictObject(operationTarget);
export type VoidRequest = z.infer<typeof VoidRequest>;

export const ReceiptDelivery = z.enum(['email', 'sms', 'viber', 'none']);

/** POST /api/v1/refund — refund_amount omitted refunds the full amount. */
export const RefundRequest = z
  .strictObject({
    ...operationTarget,
    refund_amount: RequestAmount.optional(),
    f_receipt_delivery: ReceiptDelivery.optional(),
  })
  .superRefine((request, ctx) => checkCurrencyPrecision(ctx, 'refund_amount', request.refund_amount, request.order_currency));
export type RefundRequest = z.infer<typeof RefundRequest>;

/** POST /api/v1/split/refund — note `currency`, not `order_currency`, and a required amount. */
export const SplitRefundRequest = z
  .strictObject({
    pos_id: Uuid,
    order_id: SecondaryOrderId,
    currency: Currency,
    refund_amount: RequestAmount,
    comment: Comment.optional(),
    server_url: Url.optional(),
    split: SplitPayments,
  })
  .superRefine((request, ctx) =>
    checkSplitAmounts(ctx, 'refund_amount', request.refund_amount, request.currency, request.split),
  );
export type SplitRefundRequest = z.infer<typeof SplitRefundRequest>;

const nullableText = z.string().nullish();

/** Fields of the secondary operation object, shared by responses and webhooks. */
export const operationFields = {
  operation_id: Uuid,
  payment_id: Uuid,
  /** The PRIMARY payment's order_id. */
  order_id: z.string(),
  transaction_id: Uuid.nullish(),
  pos_id: Uuid.nullish(),
  mode: Mode,
  method: SecondaryMethod,
  amount: ResponseAmount,
  currency: Currency.optional(),
  /** The full-capture response names the currency `order_currency`. */
  order_currency: Currency.optional(),
  status: Status,
  status_code: StatusCodeField,
  status_description: nullableText,
  created_at: Timestamp,
  /** Most secondary responses. */
  processing_time: Timestamp.nullish(),
  /** The same field in refund responses and in webhooks. */
  processed_at: Timestamp.nullish(),
  fee: Fee,
  comment: nullableText,
  receipt_url: nullableText,
  /** Split refunds: commission by marketplace and sub-merchants; its shape is not shown. */
  split_fee: z.unknown().optional(),
  limit_info: LimitInfo,
};

/** Either spelling of the currency must be present. */
export function requireOperationCurrency(
  operation: { currency?: string | undefined; order_currency?: string | undefined },
  ctx: Pick<z.core.$RefinementCtx, 'addIssue'>,
): void {
  if (operation.currency === undefined && operation.order_currency === undefined) {
    ctx.addIssue({ code: 'custom', path: ['currency'], message: 'is required (or order_currency)' });
  }
}

/** The secondary operation response object (capture, void, refund and their split forms). */
export const OperationResponse = z.looseObject(operationFields).superRefine(requireOperationCurrency);
export type OperationResponse = z.infer<typeof OperationResponse>;
