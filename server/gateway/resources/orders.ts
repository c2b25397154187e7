/**
 * An order's state as the gateway knows it, and the webhook re-send. After OutcomeUnknownError
 * these reads tell what really happened; never create or capture again before reading.
 */
import { toOrderOperation, toOrderState } from '../objects.js';
import type { OrderOperation } from '../objects.js';
import { fetchJson } from '../replies.js';
import { wireParams } from '../requests.js';
import type { RequestOptions } from '../transport.js';
import { OrderOperationParams, OrderOperationResponse, OrderParams, OrderStateResponse, ResendWebhookQuery } from '../wire/order.js';
import type { Method } from '../wire/primitives.js';
import { routes } from '../wire/routes.js';
import type { GatewayContext } from './context.js';

export class Orders {
  readonly #gateway: GatewayContext;

  constructor(gateway: GatewayContext) {
    this.#gateway = gateway;
  }

  /** GET …/orders/<order_id> — every operation on the order (payment, captures, refunds …). */
  async get(orderId: string, options: RequestOptions = {}): Promise<OrderOperation[]> {
    const params = wireParams(OrderParams, { pos_id: this.#gateway.posId, order_id: orderId });
    return fetchJson(this.#gateway.transport, { route: routes.order, params, ...options }, OrderStateResponse, toOrderState);
  }

  /** GET …/orders/<order_id>/<operation> — that one operation. */
  async getOperation(orderId: string, operation: Method, options: RequestOptions = {}): Promise<OrderOperation> {
    return this.#operation(orderId, operation, undefined, options);
  }

  /**
   * GET …/orders/<order_id>/<operation>?callback=true — the gateway delivers that webhook again
   * (receivers tolerate duplicates, so a retried re-send is harmless). For a recurring payment,
   * `transactionId` picks one of its transactions; by default the latest.
   */
  async resendWebhook(
    orderId: string,
    operation: Method,
    resend: { transactionId?: string } = {},
    options: RequestOptions = {},
  ): Promise<OrderOperation> {
    const query = wireParams(ResendWebhookQuery, { callback: 'true', transactionId: resend.transactionId });
    return this.#operation(orderId, operation, query, options);
  }

  #operation(orderId: string, operation: Method, query: ResendWebhookQuery | undefined, options: RequestOptions) {
    const params = wireParams(OrderOperationParams, { pos_id: this.#gateway.posId, order_id: orderId, operation });
    const call = { route: routes.orderOperation, params, query, ...options };
    return fetchJson(this.#gateway.transport, call, OrderOperationResponse, (entry) => toOrderOperation(entry));
  }
}
