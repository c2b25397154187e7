/**
 * Every route of the companion's HTTP API with the zod schemas its handler validates with —
 * the source of the OpenAPI document (`GET /api/openapi.json`). A test checks that the app's
 * routes and this list are the same, so the document cannot fall behind the code.
 */
import * as z from 'zod';
import { HostedRequest } from '../checkout/checkout-routes.js';
import { PayAnswer } from '../checkout/pay-answer.js';
import { PayRequest } from '../checkout/pay-request.js';
import { NewSessionRequest } from '../checkout/session-request.js';
import { SessionView } from '../checkout/session-view.js';
import { EventListQuery } from '../merchant/event-routes.js';
import { ChangesQuery } from '../merchant/feed-routes.js';
import {
  CaptureRequest, RefundRequest, ResendRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from '../merchant/operation-request.js';
import { OrderListQuery, OrderReceiptQuery } from '../merchant/order-routes.js';
import { ChargeAnswer, ChargeRequest } from '../merchant/saved-card-charges.js';
import { DateReceiptsQuery, StatsQuery } from '../merchant/report-routes.js';

export type Access = 'admin' | 'session' | 'signature' | 'public';

export interface ApiResponse {
  readonly description: string;
  readonly schema?: z.ZodType;
  /** Default application/json. */
  readonly contentType?: string;
}

export interface ApiOperation {
  readonly method: 'get' | 'post' | 'delete';
  /** Hono's form: `/api/orders/:order_id`. */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly access: Access;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  readonly responses: Readonly<Record<number, ApiResponse>>;
}

export const ErrorEnvelope = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
});

const json = (description: string, schema?: z.ZodType): ApiResponse => (schema ? { description, schema } : { description });
const operationAnswers = {
  200: json('Settled by the gateway (a decline shows as status failure)'),
  202: json('Sent, answer lost: pending until the order state or a webhook settles it'),
  409: json('Refused by a rule of the order’s state (code says which)'),
  422: json('Amount above what is left (fields.amount says the limit), or refused by the gateway'),
};

export const API: readonly ApiOperation[] = [
  // Checkout
  { method: 'post', path: '/api/checkout/sessions', tag: 'Checkout', summary: 'Open a checkout session (method lookup: verify and save a card for customer_id)', access: 'admin', body: NewSessionRequest, responses: { 201: json('The session; `id` is the capability to give the widget') } },
  { method: 'get', path: '/api/checkout/sessions/:id', tag: 'Checkout', summary: 'Public view of a session (for the widget)', access: 'session', responses: { 200: json('The session view', SessionView), 404: json('Unknown session') } },
  { method: 'delete', path: '/api/checkout/sessions/:id', tag: 'Checkout', summary: 'Close a session: no further attempts', access: 'admin', responses: { 200: json('The closed session') } },
  { method: 'post', path: '/api/checkout/sessions/:id/pay', tag: 'Checkout', summary: 'Pay directly with a card or a saved card', access: 'session', body: PayRequest, responses: { 200: json('The attempt’s state', PayAnswer), 409: json('Session expired or mode not allowed'), 422: json('Customer details missing, card expired or unknown, or refused by the gateway'), 429: json('Too many attempts; see Retry-After') } },
  { method: 'post', path: '/api/checkout/sessions/:id/hosted', tag: 'Checkout', summary: 'Open the gateway’s hosted payment page', access: 'session', body: HostedRequest, responses: { 200: json('Where to send the customer', z.object({ redirect_url: z.string() })), 409: json('Paid, in progress or mode not allowed'), 429: json('Too many attempts') } },
  { method: 'get', path: '/checkout/return/:id', tag: 'Checkout', summary: 'Where the customer lands after 3-D Secure or the hosted page', access: 'session', responses: { 303: json('To the merchant’s return_url with checkout_session, order_id and status'), 200: { description: 'A short status page (no return_url)', contentType: 'text/html' } } },
  { method: 'get', path: '/checkout/challenge/:id', tag: 'Checkout', summary: 'A saved card’s charge waiting for 3-D Secure: the link for the customer (challenge_url)', access: 'session', responses: { 303: json('To the gateway’s challenge page while it waits, else to /checkout/return/:id'), 404: json('Unknown session') } },
  { method: 'get', path: '/widget/pay-form.js', tag: 'Checkout', summary: 'The built <pay-form> widget', access: 'public', responses: { 200: { description: 'ES module', contentType: 'text/javascript' }, 404: json('Not built') } },
  { method: 'get', path: '/widget/LICENSES.txt', tag: 'Checkout', summary: 'Licences of what the widget bundles', access: 'public', responses: { 200: { description: 'Text', contentType: 'text/plain' } } },
  { method: 'get', path: '/widget/chunks/:name', tag: 'Checkout', summary: 'A chunk the widget loads on demand', access: 'public', responses: { 200: { description: 'ES module', contentType: 'text/javascript' } } },
  // Webhooks
  { method: 'post', path: '/webhooks/gateway', tag: 'Webhooks', summary: 'The gateway’s signed events (form fields data, signature)', access: 'signature', responses: { 200: json('Stored (or a duplicate)'), 401: json('Signature does not match: nothing stored'), 415: json('Not a form post') } },
  { method: 'get', path: '/api/webhook-events', tag: 'Webhooks', summary: 'The gateway’s events that apply to nothing in the ledger (unmatched) or wait for a reservation (parked), newest first', access: 'admin', query: EventListQuery, responses: { 200: json('A page of events and next_cursor') } },
  // Orders
  { method: 'get', path: '/api/orders', tag: 'Orders', summary: 'Orders, newest first', access: 'admin', query: OrderListQuery, responses: { 200: json('A page of orders and next_cursor') } },
  { method: 'get', path: '/api/orders/:order_id', tag: 'Orders', summary: 'An order: payment, operations, webhook events, totals', access: 'admin', responses: { 200: json('The order'), 404: json('Unknown order') } },
  { method: 'post', path: '/api/orders/:order_id/capture', tag: 'Orders', summary: 'Capture an auth (full, partial, or above the reserve within the project’s limit)', access: 'admin', body: CaptureRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/split-capture', tag: 'Orders', summary: 'Capture an auth split among sub-merchants', access: 'admin', body: SplitCaptureRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/void', tag: 'Orders', summary: 'Void an uncaptured auth', access: 'admin', body: VoidRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/refund', tag: 'Orders', summary: 'Refund a purchase or capture, fully or partly', access: 'admin', body: RefundRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/split-refund', tag: 'Orders', summary: 'Refund sub-merchants’ shares of a split payment', access: 'admin', body: SplitRefundRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/cancel', tag: 'Orders', summary: 'Cancel an unpaid hosted payment', access: 'admin', responses: { 200: json('The cancelled payment'), 409: json('Not an unpaid hosted payment') } },
  { method: 'post', path: '/api/orders/:order_id/resend-webhook', tag: 'Orders', summary: 'Ask the gateway to send an operation’s webhook again', access: 'admin', body: ResendRequest, responses: { 202: json('Requested') } },
  { method: 'get', path: '/api/orders/:order_id/receipt', tag: 'Orders', summary: 'The order’s receipt from the gateway', access: 'admin', query: OrderReceiptQuery, responses: { 200: { description: 'HTML or PDF', contentType: 'application/pdf' } } },
  // Balances and reports
  { method: 'get', path: '/api/balances/accounts', tag: 'Balances', summary: 'Balances of the merchant’s accounts', access: 'admin', responses: { 200: json('accounts') } },
  { method: 'get', path: '/api/balances/accounts/:id', tag: 'Balances', summary: 'One account', access: 'admin', responses: { 200: json('The account') } },
  { method: 'get', path: '/api/balances/terminals', tag: 'Balances', summary: 'Balances of terminals; unreadable ones in failed_terminals', access: 'admin', responses: { 200: json('terminals and failed_terminals') } },
  { method: 'get', path: '/api/balances/terminals/:id', tag: 'Balances', summary: 'One terminal', access: 'admin', responses: { 200: json('The terminal') } },
  { method: 'get', path: '/api/receipts/:date', tag: 'Reports', summary: 'A day’s receipts as a ZIP', access: 'admin', query: DateReceiptsQuery, responses: { 200: { description: 'ZIP archive', contentType: 'application/zip' } } },
  { method: 'get', path: '/api/stats', tag: 'Reports', summary: 'Payments per hour or day by outcome, with the success rate', access: 'admin', query: StatsQuery, responses: { 200: json('buckets and totals') } },
  { method: 'get', path: '/api/changes', tag: 'Reports', summary: 'Status changes since a sequence number (polling)', access: 'admin', query: ChangesQuery, responses: { 200: json('changes, last_seq, complete') } },
  { method: 'get', path: '/api/changes/stream', tag: 'Reports', summary: 'Status changes as server-sent events', access: 'admin', responses: { 200: { description: 'Event stream', contentType: 'text/event-stream' } } },
  // Customers
  { method: 'get', path: '/api/customers/:customer_id/cards', tag: 'Customers', summary: 'A customer’s saved cards', access: 'admin', responses: { 200: json('cards') } },
  { method: 'delete', path: '/api/customers/:customer_id/cards/:card_id', tag: 'Customers', summary: 'Forget a saved card', access: 'admin', responses: { 204: json('Deleted'), 404: json('Unknown card') } },
  {
    method: 'post', path: '/api/customers/:customer_id/cards/:card_id/charges', tag: 'Customers', summary: 'Charge a saved card from the merchant’s server, without the customer', access: 'admin', body: ChargeRequest,
    responses: { 201: json('The payment’s state; action_required carries challenge_url for the customer', ChargeAnswer), 409: json('The card is deleted (card_not_saved) or expired (card_expired): the gateway was not called'), 422: json('Cardholder details missing (fields name them)') },
  },
  // Service
  { method: 'get', path: '/healthz', tag: 'Service', summary: 'Liveness and the ledger’s reachability', access: 'public', responses: { 200: json('ok'), 503: json('The ledger cannot be reached') } },
  { method: 'get', path: '/api/openapi.json', tag: 'Service', summary: 'This document', access: 'public', responses: { 200: json('OpenAPI 3.1') } },
];
