/** Receipts as documents: one order's (HTML or PDF, or a signed credit reference) and a day's ZIP. */
import { readDocument } from '../replies.js';
import type { GatewayDocument } from '../replies.js';
import { wireParams } from '../requests.js';
import type { RequestOptions } from '../transport.js';
import { DateReceiptsParams, DateReceiptsQuery, OrderReceiptParams, OrderReceiptQuery } from '../wire/receipt.js';
import type { ReceiptFormat } from '../wire/receipt.js';
import { routes } from '../wire/routes.js';
import type { GatewayContext } from './context.js';

export interface OrderReceiptOptions {
  readonly format: ReceiptFormat;
  /** The transaction whose receipt is wanted; by default the order's incoming one. Required for credit references. */
  readonly transactionId?: string;
  /** A credit reference (format signed_pdf) instead of a receipt. */
  readonly creditReference?: boolean;
}

export interface DateReceiptsOptions {
  readonly format: ReceiptFormat;
  /** By default purchase and auth receipts; `credit` with signed_pdf for credit references. */
  readonly method?: 'purchase' | 'auth' | 'credit';
}

// What a receipt format is when the gateway does not say (the interface leaves it unshown).
const FORMAT_TYPES: Record<ReceiptFormat, string> = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  signed_pdf: 'application/pdf',
};

export class Receipts {
  readonly #gateway: GatewayContext;

  constructor(gateway: GatewayContext) {
    this.#gateway = gateway;
  }

  /** GET …/orders/<order_id>/report/receipt */
  async forOrder(orderId: string, receipt: OrderReceiptOptions, options: RequestOptions = {}): Promise<GatewayDocument> {
    const params = wireParams(OrderReceiptParams, { pos_id: this.#gateway.posId, order_id: orderId });
    const query = wireParams(OrderReceiptQuery, {
      format: receipt.format,
      transactionId: receipt.transactionId,
      creditReference: receipt.creditReference === undefined ? undefined : String(receipt.creditReference),
    });
    const reply = await this.#gateway.transport.send({ route: routes.orderReceipt, params, query, ...options });
    return readDocument(reply, FORMAT_TYPES[receipt.format]);
  }

  /** GET …/date/<yyyy-MM-dd>/report/receipt — a ZIP of the day's receipts (not for split purchases). */
  async forDate(date: string, receipts: DateReceiptsOptions, options: RequestOptions = {}): Promise<GatewayDocument> {
    const params = wireParams(DateReceiptsParams, { pos_id: this.#gateway.posId, date });
    const query = wireParams(DateReceiptsQuery, { format: receipts.format, method: receipts.method });
    const reply = await this.#gateway.transport.send({ route: routes.dateReceipts, params, query, ...options });
    return readDocument(reply, 'application/zip');
  }
}
