/**
 * Reading an order's state (gateway-notes.md) and re-sending a webhook (interface endpoint 12):
 * the same path family, `/api/v1/pos/<pos_id>/orders/<order_id>[/<operation>]`.
 */
import * as z from 'zod';
import { operationFields } from './operation.js';
import { paymentFields } from './payment.js';
import { Method, OrderId, ResponseAmount, Status, Uuid } from './primitives.js';

export const OrderParams = z.strictObject({ pos_id: Uuid, order_id: OrderId });
export const OrderOperationParams = z.strictObject({ pos_id: Uuid, order_id: OrderId, operation: Method });

/** `?callback=true` turns the one-operation read into the webhook re-send. */
export const ResendWebhookQuery = z.strictObject({
  callback: z.literal('true'),
  transactionId: z.string().min(1).max(256).optional(),
});
export type ResendWebhookQuery = z.infer<typeof ResendWebhookQuery>;

/**
 * One operation of an order — a primary payment or a capture/void/refund. The live service
 * promises only method, status, status_code, amount, created_at and processing_time here, so
 * everything else of both objects is optional.
 */
export const OrderOperationResponse = z
  .object({ ...paymentFields, ...operationFields })
  .partial()
  .extend({ method: Method, status: Status, amount: ResponseAmount })
  .loose();
export type OrderOperationResponse = z.infer<typeof OrderOperationResponse>;

/** Every operation on the order, oldest first. */
export const OrderStateResponse = z.array(OrderOperationResponse);
export type OrderStateResponse = z.infer<typeof OrderStateResponse>;
