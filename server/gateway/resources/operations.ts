/**
 * Secondary operations on an earlier payment: capture and void of an auth, refund of a
 * purchase or capture, and their split forms. Each is sent once (see outcome.ts); a business
 * decline comes back as an Operation with status "failure".
 */
import type * as z from 'zod';
import { toOperation } from '../objects.js';
import type { Operation } from '../objects.js';
import type { CheckedAmounts, LooseAmounts, MinorUnits } from '../money.js';
import { sendOnce } from '../outcome.js';
import { readJson } from '../replies.js';
import { wireRequest } from '../requests.js';
import type { SplitShare } from '../requests.js';
import type { RequestOptions } from '../transport.js';
import {
  CaptureRequest, OperationResponse, RefundRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from '../wire/operation.js';
import { routes } from '../wire/routes.js';
import type { Route } from '../wire/routes.js';
import type { GatewayContext } from './context.js';

/** charge_amount in minor units; omit it to capture the full reserved amount. */
export type CaptureParams = Omit<CaptureRequest, 'pos_id' | 'charge_amount'> & { charge_amount?: MinorUnits };
export type SplitCaptureParams = Omit<SplitCaptureRequest, 'pos_id' | 'charge_amount' | 'split'> & {
  charge_amount?: MinorUnits;
  split: SplitShare[];
};
export type VoidParams = Omit<VoidRequest, 'pos_id'>;
/** refund_amount in minor units; omit it to refund the full amount. */
export type RefundParams = Omit<RefundRequest, 'pos_id' | 'refund_amount'> & { refund_amount?: MinorUnits };
export type SplitRefundParams = Omit<SplitRefundRequest, 'pos_id' | 'refund_amount' | 'split'> & {
  refund_amount: MinorUnits;
  split: SplitShare[];
};

interface OperationSpec {
  readonly name: string;
  readonly route: Route;
  readonly schema: z.ZodType<{ order_id: string }>;
  /** The amount field, absent for void. */
  readonly amount?: string;
  readonly currencyField: 'order_currency' | 'currency';
}

const capture: OperationSpec = { name: 'capture', route: routes.capture, schema: CaptureRequest, amount: 'charge_amount', currencyField: 'order_currency' };
const splitCapture: OperationSpec = { ...capture, name: 'split capture', route: routes.splitCapture, schema: SplitCaptureRequest };
const voidAuth: OperationSpec = { name: 'void', route: routes.void, schema: VoidRequest, currencyField: 'order_currency' };
const refund: OperationSpec = { name: 'refund', route: routes.refund, schema: RefundRequest, amount: 'refund_amount', currencyField: 'order_currency' };
const splitRefund: OperationSpec = { ...refund, name: 'split refund', route: routes.splitRefund, schema: SplitRefundRequest, currencyField: 'currency' };

export class Operations {
  readonly #gateway: GatewayContext;

  constructor(gateway: GatewayContext) {
    this.#gateway = gateway;
  }

  /** POST /api/v1/capture — settles a successful auth, in whole, in part or beyond the reserve. */
  async capture<const P extends LooseAmounts<CaptureParams>>(params: CheckedAmounts<P, CaptureParams>, options?: RequestOptions): Promise<Operation> {
    return this.#perform(capture, params, options);
  }

  /** POST /api/v1/split/capture — shares in minor units. */
  async splitCapture<const P extends LooseAmounts<SplitCaptureParams>>(params: CheckedAmounts<P, SplitCaptureParams>, options?: RequestOptions): Promise<Operation> {
    return this.#perform(splitCapture, params, options);
  }

  /** POST /api/v1/void — cancels a successful auth. */
  async void<const P extends LooseAmounts<VoidParams>>(params: CheckedAmounts<P, VoidParams>, options?: RequestOptions): Promise<Operation> {
    return this.#perform(voidAuth, params, options);
  }

  /** POST /api/v1/refund — returns all or part of a purchase or capture. */
  async refund<const P extends LooseAmounts<RefundParams>>(params: CheckedAmounts<P, RefundParams>, options?: RequestOptions): Promise<Operation> {
    return this.#perform(refund, params, options);
  }

  /** POST /api/v1/split/refund — shares in minor units, adding up to refund_amount. */
  async splitRefund<const P extends LooseAmounts<SplitRefundParams>>(params: CheckedAmounts<P, SplitRefundParams>, options?: RequestOptions): Promise<Operation> {
    return this.#perform(splitRefund, params, options);
  }

  #perform(spec: OperationSpec, params: object, options: RequestOptions = {}): Promise<Operation> {
    const body = wireRequest(spec.schema, { ...params, pos_id: this.#gateway.posId }, {
      amounts: spec.amount === undefined ? [] : [spec.amount],
      currencyField: spec.currencyField,
    });
    return sendOnce(this.#gateway.transport, spec.name, body.order_id, { route: spec.route, body, ...options }, (reply) =>
      readJson(reply, OperationResponse, toOperation),
    );
  }
}
