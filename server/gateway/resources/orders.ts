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

export interface OrderReadOptions extends RequestOptions {
  /**
   * The order's currency, which its amounts are in. The live service promises no currency on
   * order-state entries; without it an entry that names none is unreadable.
   */
  readonly currency?: string;
}

export class Orders {
  readonly #gateway: GatewayContext;

  constructor(gateway: GatewayContext) {
    this.#gateway = gateway;
  }

  /** GET …/orders/<order_id> — every operation on the order (payment, captures, refunds …). */
  async get(orderId: string, options: OrderReadOptions = {}): Promise<OrderOperation[]> {
    const { currency, ...request } = options;
    const params = wireParams(OrderParams, { pos_id: this.#gateway.posId, order_id: orderId });
    return fetchJson(this.#gateway.transport, { route: routes.order, params, ...request }, OrderStateResponse, (entries) => toOrderState(entries, currency));
  }

  /** GET …/orders/<order_id>/<operation> — that one operation. */
  async getOperation(orderId: string, operation: Method, options: OrderReadOptions = {}): Promise<OrderOperation> {
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
    options: OrderReadOptions = {},
  ): Promise<OrderOperation> {
    const query = wireParams(ResendWebhookQuery, { callback: 'true', transactionId: resend.transactionId });
    return this.#operation(orderId, operation, query, options);
  }

  #operation(orderId: string, operation: Method, query: ResendWebhookQuery | undefined, options: OrderReadOptions) {
    const { currency, ...request } = options;
    const params = wireParams(OrderOperationParams, { pos_id: this.#gateway.posId, order_id: orderId, operation });
    const call = { route: routes.orderOperation, params, query, ...request };
    return fetchJson(this.#gateway.transport, call, OrderOperationResponse, (entry) => toOrderOperation(entry, currency));
  }
}
