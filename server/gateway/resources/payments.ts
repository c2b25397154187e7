/**
 * Primary payments: create (direct or hosted; purchase, auth or lookup), split purchase, and
 * cancel of an unpaid hosted payment.
 */
import type * as z from 'zod';
import { toPayment } from '../objects.js';
import type { Payment } from '../objects.js';
import type { CheckedAmounts, LooseAmounts, MinorUnits } from '../money.js';
import { sendOnce } from '../outcome.js';
import { readJson, readLocation } from '../replies.js';
import { wireParams, wireRequest } from '../requests.js';
import type { DistributiveOmit, SplitShare } from '../requests.js';
import type { RequestOptions } from '../transport.js';
import type { FieldIssue } from '../wire/issues.js';
import {
  CancelParams, CancelResponse, CreatePaymentRequest, CreditRequest, PaymentResponse, SplitPurchaseRequest, sectorIssues,
} from '../wire/payment.js';
import type { ThreeDsBypass } from '../wire/payment.js';
import { characters, SECONDARY_ORDER_ID_MAX } from '../wire/primitives.js';
import { routes } from '../wire/routes.js';
import type { Route } from '../wire/routes.js';
import type { GatewayContext } from './context.js';

type ClientSide<T> = DistributiveOmit<T, 'pos_id' | 'amount' | 'order_3ds_bypass' | 'split'> & {
  /** Minor units of `currency`. */
  amount: MinorUnits;
  /** Defaults to `supported`, the gateway's default. */
  order_3ds_bypass?: ThreeDsBypass;
};

export type CreatePaymentParams = ClientSide<CreatePaymentRequest>;
export type DirectPaymentParams = Extract<CreatePaymentParams, { mode: 'direct' }>;
export type HostedPaymentParams = Extract<CreatePaymentParams, { mode: 'hosted' }>;

export type SplitPurchaseParams = ClientSide<SplitPurchaseRequest> & { split: SplitShare[] };
export type DirectSplitPurchaseParams = Extract<SplitPurchaseParams, { mode: 'direct' }>;
export type HostedSplitPurchaseParams = Extract<SplitPurchaseParams, { mode: 'hosted' }>;

/**
 * A payout to a card (`method: credit`, direct mode): the recipient's `cc_number` or a `cc_token`,
 * no expiry, security code or 3-D Secure data. Payouts often run on a POS of their own: a client
 * made with its credentials.
 */
export type PayoutParams = Omit<CreditRequest, 'pos_id' | 'mode' | 'method' | 'amount' | 'order_3ds_bypass'> & {
  /** Minor units of `currency`. */
  amount: MinorUnits;
  /** Defaults to `supported`, the gateway's default. */
  order_3ds_bypass?: ThreeDsBypass;
};

/** A hosted payment created: send the customer to `checkout_url`. Keep it — see P-409. */
export interface HostedCheckout {
  readonly order_id: string;
  readonly checkout_url: string;
}


export class Payments {
  readonly #gateway: GatewayContext;

  constructor(gateway: GatewayContext) {
    this.#gateway = gateway;
  }

  /**
   * POST /api/v1/payment. Direct: the payment (maybe pending 2122 with user_action_url). Hosted:
   * the checkout page. `amount` is minor units: a whole literal (24950) or a `MinorUnits`.
   */
  create<const P extends LooseAmounts<DirectPaymentParams>>(params: CheckedAmounts<P, DirectPaymentParams>, options?: RequestOptions): Promise<Payment>;
  create<const P extends LooseAmounts<HostedPaymentParams>>(params: CheckedAmounts<P, HostedPaymentParams>, options?: RequestOptions): Promise<HostedCheckout>;
  create<const P extends LooseAmounts<CreatePaymentParams>>(params: CheckedAmounts<P, CreatePaymentParams>, options?: RequestOptions): Promise<Payment | HostedCheckout>;
  async create(params: object, options: RequestOptions = {}): Promise<Payment | HostedCheckout> {
    return this.#submit('create payment', routes.createPayment, this.#request(CreatePaymentRequest, params), options);
  }

  /** POST /api/v1/split/purchase — shares in minor units, adding up to `amount`. */
  createSplit<const P extends LooseAmounts<DirectSplitPurchaseParams>>(params: CheckedAmounts<P, DirectSplitPurchaseParams>, options?: RequestOptions): Promise<Payment>;
  createSplit<const P extends LooseAmounts<HostedSplitPurchaseParams>>(params: CheckedAmounts<P, HostedSplitPurchaseParams>, options?: RequestOptions): Promise<HostedCheckout>;
  createSplit<const P extends LooseAmounts<SplitPurchaseParams>>(params: CheckedAmounts<P, SplitPurchaseParams>, options?: RequestOptions): Promise<Payment | HostedCheckout>;
  async createSplit(params: object, options: RequestOptions = {}): Promise<Payment | HostedCheckout> {
    return this.#submit('split purchase', routes.splitPurchase, this.#request(SplitPurchaseRequest, params), options);
  }

  /**
   * POST /api/v1/payment with `mode: direct, method: credit` — a payout to the recipient's card.
   * Its webhooks are `credit` events; its receipt and credit reference come from `receipts`.
   */
  async payout<const P extends LooseAmounts<PayoutParams>>(params: CheckedAmounts<P, PayoutParams>, options: RequestOptions = {}): Promise<Payment> {
    const body = wireRequest(CreditRequest, { order_3ds_bypass: 'supported', ...params, mode: 'direct', method: 'credit', pos_id: this.#gateway.posId }, {
      amounts: ['amount'],
      currencyField: 'currency',
    });
    return sendOnce(this.#gateway.transport, 'payout', body.order_id, { route: routes.createPayment, body, ...options }, (reply) =>
      readJson(reply, PaymentResponse, toPayment),
    );
  }

  /** Cancels an unpaid (init) hosted payment; answers the order's payments, the cancelled one failure/6007. */
  async cancel(orderId: string, options: RequestOptions = {}): Promise<Payment[]> {
    const params = wireParams(CancelParams, { pos_id: this.#gateway.posId, order_id: orderId });
    return sendOnce(this.#gateway.transport, 'cancel', orderId, { route: routes.cancel, params, ...options }, (reply) =>
      readJson(reply, CancelResponse, (payments) => payments.map(toPayment)),
    );
  }

  #request(schema: z.ZodType<CreatePaymentRequest | SplitPurchaseRequest>, params: object) {
    const source = { order_3ds_bypass: 'supported', ...params, pos_id: this.#gateway.posId };
    return wireRequest(schema, source, {
      amounts: ['amount'],
      currencyField: 'currency',
      limits: ({ order_id: orderId }) => (typeof orderId === 'string' ? orderIdIssues(orderId) : []),
      extraIssues: (request) => sectorIssues(request, this.#gateway.merchantSector),
    });
  }

  async #submit(
    operation: string,
    route: Route,
    body: CreatePaymentRequest | SplitPurchaseRequest,
    options: RequestOptions,
  ): Promise<Payment | HostedCheckout> {
    return sendOnce(this.#gateway.transport, operation, body.order_id, { route, body, ...options }, (reply) =>
      body.mode === 'hosted'
        ? { order_id: body.order_id, checkout_url: readLocation(reply) }
        : readJson(reply, PaymentResponse, toPayment),
    );
  }
}

function orderIdIssues(orderId: string): FieldIssue[] {
  return characters(orderId) > SECONDARY_ORDER_ID_MAX
    ? [{ field: 'order_id', reason: `must be at most ${SECONDARY_ORDER_ID_MAX} characters (capture, void and refund take no longer one)` }]
    : [];
}
