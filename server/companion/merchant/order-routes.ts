/**
 * The merchant API over orders (bearer ADMIN_TOKEN): the list and detail the back office
 * shows, and the secondary operations. Rules are checked before the gateway is called; a
 * refused operation is a 409/422 naming the rule, and changes nothing.
 *
 *   GET  /api/orders                          ?status=&kind=payments|verifications&session_id=&held=true&email=&customer_id=&card_last4=
 *                                             &amount=&currency=&created_from=&created_to=&limit=&cursor=, or ?idempotency_key= alone
 *                                             each order with its totals (one ledger read for the page)
 *   GET  /api/orders/:order_id                payment, operations, events, totals
 *   POST /api/orders/:order_id/capture        { amount?, comment? }   (omitted amount: the rest of the reserve)
 *   POST /api/orders/:order_id/split-capture  { amount?, split, comment? }
 *   POST /api/orders/:order_id/void           { comment? }
 *   POST /api/orders/:order_id/refund         { amount?, comment?, f_receipt_delivery? }
 *   POST /api/orders/:order_id/split-refund   { amount?, split, comment? }
 *   POST /api/orders/:order_id/cancel         unpaid hosted payment only
 *   POST /api/orders/:order_id/resend-webhook { operation?, transaction_id? }
 *   POST /api/orders/:order_id/settle-discrepancy { note, version }   a person settled a held order (held-orders.ts)
 *   GET  /api/orders/:order_id/receipt        ?format=html|pdf&transaction_id=
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { Ledger, OperationKind, OrderDetail, OrderListQuery as LedgerOrderQuery, Payment, PaymentStatus } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { keyedOrderId } from '../http/keyed-order-id.js';
import { ApiProblem } from '../http/problem.js';
import { validate } from '../http/validate.js';
import { OrderId } from '../checkout/session-request.js';
import { withoutCardNumber } from '../checkout/customer.js';
import { holdsCardNumberOfItsLength } from '@payform/card';
import { MAX_MINOR_UNITS } from '../http/amounts.js';
import { fromGateway } from './balance-routes.js';
import { CUSTOMER_ID_MAX } from './card-routes.js';
import { SettleDiscrepancyRequest } from './held-orders.js';
import type { SettledOrder } from './held-orders.js';
import { sendDocument } from './documents.js';
import {
  CaptureRequest, RefundRequest, ResendRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from './operation-request.js';
import type { OperationBody } from './operation-request.js';
import { PageQuery } from './page-query.js';
import { queryInteger } from './query-integer.js';
import { LINK_PARAMS, SEALED_PARAMS } from './download-links.js';
import { CSV_FORMAT_PARAMS } from './csv-file.js';
import { QueryInstant } from './query-instant.js';
import type { OperationOutcome } from './secondary-operations.js';
import { paymentToActOn, refuseMissingOrder, UnpaidOrderProblem } from './unpaid-order.js';
import { ListedOrderView, OperationView, PaymentView, TotalsView, listedOrderView, operationView, orderView, paymentView, totalsView } from './views.js';

/** A customer's e-mail as a merchant looks one up (the order list, an erasure): the reasons never quote it. */
export const CustomerEmail = withoutCardNumber(
  z
    .string()
    .max(320, 'must be at most 320 characters')
    .regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address'),
);

/** What the orders are filtered by, in the list and in its CSV file (order-export.ts). */
const ORDER_FILTERS = {
  status: z.enum(['init', 'pending', 'success', 'failure']).optional(),
  kind: z.enum(['payments', 'verifications']).optional().describe('payments: purchases and auths; verifications: card lookups; both when omitted'),
  // A filter goes into the CSV's signed link, which is handed on: no card number in it, as in an id.
  session_id: withoutCardNumber(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'), holdsCardNumberOfItsLength).optional().describe('The attempts of one checkout session'),
  // Only `true`: `false` read as "no filter" listed the held orders too, and a list of the
  // orders not held is not one the ledger reads; left out, every order is listed.
  held: z
    .literal('true', { error: 'must be true (leave it out to list every order, held or not)' })
    .transform(() => true)
    .optional()
    .describe('true: only the orders held for a discrepancy (`discrepancy` set and not `discrepancy.settled`), for a person to settle. The only value: left out, every order is listed, held or not'),
  // What a customer says on the phone. Every one given must match.
  email: CustomerEmail.optional().describe('The customer’s e-mail, whole; case does not matter, nor whether its domain is written in Unicode or as xn--'),
  // Yours, as a session or charge was opened with it: what an erasure by e-mail leaves to find (the address is gone).
  customer_id: withoutCardNumber(z.string().min(1, 'must not be empty').max(CUSTOMER_ID_MAX, `must be at most ${CUSTOMER_ID_MAX} characters`), holdsCardNumberOfItsLength)
    .optional()
    .describe('Your customer id, as the sessions and saved-card charges were opened with it: that customer’s orders'),
  card_last4: z
    .string()
    .regex(/^\d{4}$/, 'must be the last four digits of the card, never more')
    .optional()
    .describe('The last four digits of the card, as its mask shows them'),
  amount: queryInteger('must be a whole number of minor units', 1, MAX_MINOR_UNITS)
    .optional()
    .describe('The order’s amount in integer minor units (1010 for 10.10)'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals')
    .optional()
    .describe('The orders in this currency alone (ISO 4217: EUR); with amount, that amount in it'),
  created_from: QueryInstant.optional().describe('Created at or after this ISO 8601 date-time (with its offset)'),
  created_to: QueryInstant.optional().describe('Created before this ISO 8601 date-time (with its offset)'),
};

type Filters = z.output<z.ZodObject<typeof ORDER_FILTERS>>;

/** The filters' rules across fields, on a query that holds them. */
function checkedFilters<Query extends z.ZodType<Filters>>(query: Query) {
  return query
    .refine((q: Filters) => q.created_from === undefined || q.created_to === undefined || q.created_to > q.created_from, {
      path: ['created_to'],
      message: 'must be after created_from',
    });
}

/** The filters alone: the CSV file holds every page. */
export const OrderFilterQuery = checkedFilters(z.strictObject(ORDER_FILTERS));

/**
 * The filters that name a customer, or open their checkout (a session id is its capability): the
 * CSV file's link carries them sealed, out of the access logs of proxies (download-links.ts).
 */
export const CUSTOMER_FILTERS: ReadonlySet<string> = new Set(['session_id', 'email', 'customer_id', 'card_last4'] satisfies (keyof typeof ORDER_FILTERS)[]);

/** The CSV file's query: the filters, and how it writes decimals. */
export const OrderExportQuery = checkedFilters(z.strictObject({ ...ORDER_FILTERS, ...CSV_FORMAT_PARAMS }));

/** The CSV file's signed link (download-links.ts): its query, the filters of CUSTOMER_FILTERS sealed, its expiry and signature. */
export const SignedOrderFilterQuery = checkedFilters(z.strictObject({ ...ORDER_FILTERS, ...CSV_FORMAT_PARAMS, ...LINK_PARAMS, ...SEALED_PARAMS }));

export const OrderListQuery = checkedFilters(z.strictObject({
  ...ORDER_FILTERS,
  ...PageQuery,
  idempotency_key: z
    .string()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters')
    .optional()
    .describe('The Idempotency-Key a charge (or session) was sent with and no order_id: lists its order’s latest attempt alone (`<order_id>:2` once a charge the gateway never took was sent again), or nothing. Sent alone: with any other parameter it is 400 naming that one'),
}));

/** The list's (or the file's) query as the ledger names it. */
export function orderSearch(query: z.output<typeof OrderFilterQuery> & Partial<Pick<z.output<typeof OrderListQuery>, 'limit' | 'cursor'>>): LedgerOrderQuery {
  const { session_id: sessionId, customer_id: customerId, card_last4: cardLastFour, created_from: createdFrom, created_to: createdTo, ...same } = query;
  return { ...same, ...(sessionId !== undefined && { sessionId }), ...(customerId !== undefined && { customerId }), ...(cardLastFour !== undefined && { cardLastFour }), ...(createdFrom !== undefined && { createdFrom }), ...(createdTo !== undefined && { createdTo }) };
}

/** `idempotency_key` finds one order, not a page: a filter or page beside it would be ignored, so it is refused. */
function aloneWithKey(query: Readonly<Record<string, unknown>>): void {
  const others = Object.keys(query).filter((name) => name !== 'idempotency_key' && query[name] !== undefined);
  if (others.length === 0) return;
  throw ApiProblem.invalid(Object.fromEntries(others.map((name) => [name, 'is not taken with idempotency_key, which lists one order: send either'])));
}

export const OrderReceiptQuery = z.strictObject({
  format: z.enum(['html', 'pdf']).default('html'),
  transaction_id: z
    .guid({ error: 'must be a UUID' })
    .optional()
    .describe('One transaction\'s receipt (a credit\'s). Omitted: the payment\'s. A refund\'s receipt is its operation\'s `receipt_url`'),
});

/**
 * The order is known here, so the gateway's 404 is about the transaction: a capture's or a
 * void's (no receipt of their own), one of another order, or one it never made.
 */
function noReceiptOf(transactionId: string, error: unknown): unknown {
  if (!(error instanceof ApiProblem) || error.code !== 'not_found_at_gateway') return error;
  const reason = 'has no receipt at the gateway for this order: leave it out for the payment’s receipt (a refund’s is its operation’s receipt_url)';
  return new ApiProblem(404, 'not_found_at_gateway', `transaction_id ${transactionId} ${reason}`, { transaction_id: reason });
}

/**
 * The gateway makes a payment's receipt once it succeeded: its 404 for an order this ledger holds
 * as declined or pending says that, not that the gateway lost the order. (Asked anyway: a
 * success whose webhook has not come yet has its receipt.)
 */
function unpaidReceipt(status: PaymentStatus, error: unknown): unknown {
  if (status === 'success' || !(error instanceof ApiProblem) || error.code !== 'not_found_at_gateway') return error;
  return new ApiProblem(409, 'payment_not_successful', `A receipt needs a successful payment (it is ${status}): the gateway makes none for a declined or unfinished one`);
}

export const OrderPage = z.object({ orders: z.array(ListedOrderView), next_cursor: z.string().nullable() });
export type OrderPage = z.output<typeof OrderPage>;

/** A capture, void or refund as it stands, with the order's totals after it. */
export const OperationAnswer = z.object({ operation: OperationView, totals: TotalsView.optional() });
export type OperationAnswer = z.output<typeof OperationAnswer>;

export const CancelledOrder = z.object({ order: PaymentView });
export type CancelledOrder = z.output<typeof CancelledOrder>;

export const ResendAnswer = z.object({ requested: z.literal(true), operation: z.string().describe('The operation whose webhook is sent again') });
export type ResendAnswer = z.output<typeof ResendAnswer>;

/** What one capture may take, with the project's over-capture allowance (the ledger's rule). */
function capturable(ledger: Ledger, detail: OrderDetail, overCapturePercent: number): Promise<number> {
  return ledger.capturableAmount(detail.payment.orderId, overCapturePercent);
}

/** An order's totals after an operation; undefined when it is gone. */
async function orderTotals(ledger: Ledger, orderId: string, overCapturePercent: number): Promise<TotalsView | undefined> {
  const detail = await ledger.getOrder(orderId);
  return detail && totalsView({ ...detail.totals, capturable: await capturable(ledger, detail, overCapturePercent) });
}

/** The listed payments with their totals: every order's operations in one ledger read. */
async function listedOrders(ledger: Ledger, payments: readonly Payment[], overCapturePercent: number): Promise<ListedOrderView[]> {
  const totals = await ledger.totalsOfOrders(payments, overCapturePercent);
  return payments.map((payment) => listedOrderView(payment, totals.get(payment.orderId)!));
}

function orderId(c: Context<CompanionEnv>): string {
  const id = c.req.param('order_id') ?? '';
  if (!OrderId.safeParse(id).success) throw ApiProblem.notFound('The order', 'order_not_found');
  c.set('payformOrderId', id);
  return id;
}

export function orderRoutes(): Hono<CompanionEnv> {
  const orders = new Hono<CompanionEnv>();

  orders.get('/', validate('query', OrderListQuery), async (c) => {
    const valid = c.req.valid('query');
    const { idempotency_key: key, ...query } = valid;
    const { ledger, options } = c.var.services;
    if (key !== undefined) {
      aloneWithKey(valid);
      // Its latest attempt: a charge sent again after the gateway never took it went as `<id>:2`.
      const payment = (await ledger.findSessionOfOrder(keyedOrderId(options.adminToken, key)))?.payment;
      return c.json({ orders: await listedOrders(ledger, payment ? [payment] : [], options.captureOverReservePercent), next_cursor: null } satisfies OrderPage);
    }
    const page = await ledger.listOrders(orderSearch(query));
    return c.json({ orders: await listedOrders(ledger, page.orders, options.captureOverReservePercent), next_cursor: page.nextCursor } satisfies OrderPage);
  });

  orders.get('/:order_id', async (c) => {
    const { ledger, options } = c.var.services;
    const id = orderId(c);
    const detail = await ledger.getOrder(id);
    if (!detail) {
      // An id the companion handed out with a session is known: say where its state is meanwhile.
      // Still order_not_found (clients check that code); `error.session` tells the two apart.
      const session = await ledger.findSessionOfOrder(id);
      if (session) throw new UnpaidOrderProblem(404, 'order_not_found', session);
      throw ApiProblem.notFound('The order', 'order_not_found');
    }
    // A session takes at most a handful of attempts (its pay limits): one page holds them all.
    const [attempts, session] = await Promise.all([ledger.listOrders({ sessionId: detail.payment.sessionId, limit: 200 }), ledger.getSession(detail.payment.sessionId)]);
    return c.json(orderView(detail, await capturable(ledger, detail, options.captureOverReservePercent), attempts.orders, session));
  });

  const operation = (kind: OperationKind) => async (c: Context<CompanionEnv>, body: OperationBody) => {
    const { operations, ledger, options } = c.var.services;
    const id = orderId(c);
    const outcome: OperationOutcome = await operations.perform(id, kind, body, c.var.keyedOrderId);
    // Without totals while the database is away: the operation happened, and says so.
    const totals = await orderTotals(ledger, id, options.captureOverReservePercent).catch((error: unknown) => {
      if (isLedgerUnavailable(error)) return undefined;
      throw error;
    });
    return c.json({ operation: operationView(outcome.operation), totals } satisfies OperationAnswer, outcome.settled ? 200 : 202);
  };
  const capture = operation('capture');
  const voidAuth = operation('void');
  const refund = operation('refund');

  orders.post('/:order_id/capture', validate('json', CaptureRequest), (c) => capture(c, c.req.valid('json')));
  orders.post('/:order_id/split-capture', validate('json', SplitCaptureRequest), (c) => capture(c, c.req.valid('json')));
  orders.post('/:order_id/void', validate('json', VoidRequest), (c) => voidAuth(c, c.req.valid('json')));
  orders.post('/:order_id/refund', validate('json', RefundRequest), (c) => refund(c, c.req.valid('json')));
  orders.post('/:order_id/split-refund', validate('json', SplitRefundRequest), (c) => refund(c, c.req.valid('json')));

  orders.post('/:order_id/cancel', async (c) => {
    const payment = await c.var.services.operations.cancel(orderId(c));
    return c.json({ order: paymentView(payment) } satisfies CancelledOrder);
  });

  orders.post('/:order_id/resend-webhook', validate('json', ResendRequest), async (c) => {
    const body = c.req.valid('json');
    const operation = await c.var.services.operations.resendWebhook(orderId(c), body.operation, body.transaction_id);
    return c.json({ requested: true, operation } satisfies ResendAnswer, 202);
  });

  orders.post('/:order_id/settle-discrepancy', validate('json', SettleDiscrepancyRequest), async (c) => {
    const { ledger, logger } = c.var.services;
    const id = orderId(c);
    const payment = (await ledger.settleDiscrepancy(id, c.req.valid('json'))) ?? (await refuseMissingOrder(ledger, id));
    logger.info('a held order was settled', { order_id: id, version: payment.discrepancy?.settled?.version });
    return c.json({ order: paymentView(payment) } satisfies SettledOrder);
  });

  orders.get('/:order_id/receipt', validate('query', OrderReceiptQuery), async (c) => {
    const { gateway, ledger } = c.var.services;
    const id = orderId(c);
    const query = c.req.valid('query');
    const payment = await paymentToActOn(ledger, id);
    // Asked of the gateway, it is a 404 that reads as an order it lost.
    if (payment.method === 'lookup') throw new ApiProblem(409, 'not_a_payment', 'A card verification takes no money, so the gateway makes it no receipt');
    const options = { format: query.format, ...(query.transaction_id ? { transactionId: query.transaction_id } : {}) };
    const document = await fromGateway(() => gateway.receipts.forOrder(id, options)).catch((error: unknown) => {
      throw query.transaction_id ? noReceiptOf(query.transaction_id, error) : unpaidReceipt(payment.status, error);
    });
    // A transaction's receipt is named apart from the payment's, which a merchant may keep beside it.
    return sendDocument(c, document, `receipt-${id}${query.transaction_id ? `-${query.transaction_id}` : ''}.${query.format}`);
  });

  return orders;
}
