/**
 * Webhook events: the JSON inside the `data` form field. The `method` field tells the kind.
 * Unknown fields are kept: the gateway adds parameters at its discretion.
 */
import * as z from 'zod';
import { OperationResponse } from './operation.js';
import { paymentFields } from './payment.js';
import { LimitInfo, PrimaryMethod } from './primitives.js';

/** purchase, auth, credit, p2p and lookup events. */
export const PaymentEvent = z.looseObject({
  ...paymentFields,
  method: PrimaryMethod,
  payway: z.string().nullish(),
  limit_info: LimitInfo,
});
export type PaymentEvent = z.infer<typeof PaymentEvent>;

/** capture, void and refund events: the operation object itself; order_id is the primary's. */
export const OperationEvent = OperationResponse;
export type OperationEvent = z.infer<typeof OperationEvent>;

export const WebhookEvent = z.discriminatedUnion('method', [PaymentEvent, OperationEvent]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
