/**
 * Every route of the companion's HTTP API with the zod schemas its handler validates with and
 * builds its answers with — the source of the OpenAPI document (`GET /api/openapi.json`). Tests
 * check that the app's routes and this list are the same, that every JSON answer names one of
 * the views below, and that the answers the handlers send match it, so the document cannot fall
 * behind the code.
 */
import * as z from 'zod';
import { IsoDate } from '@payform/gateway/wire';
import { WEBHOOK_BODY_LIMIT } from '../config.js';
import { CreatedSession, HostedPage, HostedRequest } from '../checkout/checkout-routes.js';
import { PayAnswer } from '../checkout/pay-answer.js';
import { PayRequest } from '../checkout/pay-request.js';
import { SESSION_ID } from '../checkout/session-access.js';
import { NewSessionRequest, OrderId } from '../checkout/session-request.js';
import { SessionView, SessionViewQuery } from '../checkout/session-view.js';
import { ExtendedSession } from '../checkout/session-extension.js';
import { WidgetIntegrity } from '../checkout/widget-routes.js';
import { AccountList, BALANCE_ID, BalanceView, TerminalList } from '../merchant/balance-routes.js';
import { CardList, CardView, CUSTOMER_ID_MAX } from '../merchant/card-routes.js';
import { Erasure, ErasureRequest } from '../merchant/erasure-routes.js';
import { EVENT_ID, EventListQuery, ReviewedEvent, WaitingEventPage } from '../merchant/event-routes.js';
import { ChangesPage, ChangesQuery, ChangeView, LastEventId } from '../merchant/feed-routes.js';
import {
  CaptureRequest, RefundRequest, ResendRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from '../merchant/operation-request.js';
import { DownloadLink, ReceiptsLink } from '../merchant/download-links.js';
import { SettleDiscrepancyRequest, SettledOrder } from '../merchant/held-orders.js';
import { CancelledOrder, OperationAnswer, OrderExportQuery, OrderListQuery, OrderPage, OrderReceiptQuery, ResendAnswer, SignedOrderFilterQuery } from '../merchant/order-routes.js';
import { UnpaidSession } from '../merchant/unpaid-order.js';
import { ChargeAnswer, ChargeRequest } from '../merchant/saved-card-charges.js';
import { MovementExportQuery, MovementListQuery, MovementPageView, MovementView, SignedMovementExportQuery } from '../merchant/movement-routes.js';
import { DateReceiptsQuery, MoneyQuery, MoneyView, SignedDateReceiptsQuery, StatsQuery, StatsView } from '../merchant/report-routes.js';
import {
  DiscrepancyView, EventView, ListedOrderView, OperationView, OrderView, PaymentView, TotalsView, WaitingEventView,
} from '../merchant/views.js';
import { WebhookReceipt } from '../webhooks/webhook-routes.js';

export type Access = 'admin' | 'session' | 'signature' | 'public';

/** How an answer is described: by the zod view its handler builds it with, or as an error. */
export type ApiResponse =
  /** JSON built with `schema` (one of VIEWS). */
  | { readonly kind: 'json'; readonly description: string; readonly schema: z.ZodType }
  /** The error envelope. */
  | { readonly kind: 'problem'; readonly description: string }
  /** A page, a file or a stream. */
  | { readonly kind: 'content'; readonly description: string; readonly contentTypes: readonly string[] }
  /** No body: 204, or a redirect (`Location`). */
  | { readonly kind: 'empty'; readonly description: string };

/** The groups operations are listed under, what each holds. */
export const TAGS = {
  Checkout: 'Checkout sessions and what the widget and the customer’s browser ask of them: paying, the hosted page, the return from 3-D Secure',
  Orders: 'Orders and their money: look-up, refunds, captures, voids, receipts',
  Customers: 'Saved cards and charges to them',
  Reports: 'Lists, totals, statistics, exports and download links',
  Balances: 'The gateway project’s accounts and terminals',
  Webhooks: 'The gateway’s signed webhooks, and the events kept of them',
  Service: 'Health, readiness and this document',
} as const;

export interface ApiOperation {
  readonly method: 'get' | 'post' | 'delete';
  /** Hono's form: `/api/orders/:order_id`. */
  readonly path: string;
  /** camelCase, the method name of generated clients: `getOrder`. */
  readonly operationId: string;
  readonly tag: keyof typeof TAGS;
  readonly summary: string;
  readonly access: Access;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  /** What a path parameter must be, where the route checks more than "a string" (400 or 404 otherwise). */
  readonly params?: Readonly<Record<string, z.ZodType>>;
  /** Request headers the route reads, beyond authentication and Idempotency-Key. */
  readonly headers?: Readonly<Record<string, z.ZodType>>;
  readonly responses: Readonly<Record<number, ApiResponse>>;
}

export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.string().describe('What went wrong, for programs: order_not_found, invalid_request…'),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional().describe('Field path → reason, for bad input'),
    session: UnpaidSession.optional().describe('Where a route says so: the order id’s checkout session, which has no payment yet'),
    order_ids: z.array(z.string()).optional().describe('payment_in_flight (an erasure): the orders not decided yet'),
  }),
});

/**
 * What `GET /healthz` answers: the process is alive (200), whatever the database does — except a
 * SQLite ledger that only a restart brings back (503 restart_needed).
 */
export const Health = z.object({ status: z.enum(['ok', 'starting', 'restart_needed']) });
export type Health = z.output<typeof Health>;

/** A customer's page while the database cannot be reached. */
const AWAY_PAGE = 'While the database cannot be reached: a page asking the customer to reload and not to pay again (Retry-After)';

/** What `GET /readyz` answers: 200 ready, or 503 while the database cannot be reached or the instance drains. */
export const Readiness = z.object({ status: z.enum(['ready', 'unavailable', 'draining', 'foreign_ledger']) });
export type Readiness = z.output<typeof Readiness>;

/** The document itself, as far as a client needs to know. */
export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/**
 * Every view an answer is built with, by its name in the document (`components.schemas`);
 * views inside views are referenced by these names too.
 */
export const VIEWS: Readonly<Record<string, z.ZodType>> = {
  Error: ErrorEnvelope,
  CheckoutSession: CreatedSession,
  SessionView,
  ExtendedSession,
  PayAnswer,
  HostedPage,
  WidgetIntegrity,
  Payment: PaymentView,
  Discrepancy: DiscrepancyView,
  Operation: OperationView,
  Totals: TotalsView,
  Event: EventView,
  WaitingEvent: WaitingEventView,
  Order: OrderView,
  ListedOrder: ListedOrderView,
  OrderPage,
  OperationAnswer,
  CancelledOrder,
  SettledOrder,
  ResendAnswer,
  WaitingEventPage,
  ReviewedEvent,
  WebhookReceipt,
  Charge: ChargeAnswer,
  Balance: BalanceView,
  AccountList,
  TerminalList,
  Stats: StatsView,
  Money: MoneyView,
  Movement: MovementView,
  MovementPage: MovementPageView,
  DownloadLink,
  ReceiptsLink,
  Change: ChangeView,
  ChangesPage,
  Card: CardView,
  CardList,
  Erasure,
  Health,
  Readiness,
  OpenApiDocument,
};

const SESSION = { id: z.string().regex(SESSION_ID).describe('The session id createCheckoutSession gave') };
const ORDER = { order_id: OrderId.describe('An order id: a session’s, or a retry’s <order_id>:<attempt>') };
const BALANCE = { id: z.string().regex(BALANCE_ID).describe('A UUID, as listAccounts or listTerminals give it') };
const CUSTOMER = { customer_id: z.string().min(1).max(CUSTOMER_ID_MAX) };

/** The widget's return address carries the page paid from, for a session without return_url. */
const ReturnQuery = z.object({ page: z.string().max(8192).optional().describe('The page the customer paid from: sent back there when it is on an allowed origin and the session has no return_url') });

const json = (description: string, schema: z.ZodType): ApiResponse => ({ kind: 'json', description, schema });
const problem = (description: string): ApiResponse => ({ kind: 'problem', description });
const content = (description: string, ...contentTypes: string[]): ApiResponse => ({ kind: 'content', description, contentTypes });
const empty = (description: string): ApiResponse => ({ kind: 'empty', description });
const notModified = empty('Unchanged since the ETag sent in If-None-Match');
const operationAnswers = {
  200: json('Settled by the gateway (a decline shows as status failure)', OperationAnswer),
  202: json('Sent, answer lost: pending until the order state or a webhook settles it', OperationAnswer),
  404: problem('Unknown order (order_not_found), or one the gateway does not know (not_found_at_gateway)'),
  409: problem('Refused by a rule of the order’s state (code says which); order_not_paid: its checkout session has no payment yet (`session`: its id and status)'),
  422: problem('Amount above what is left (fields.amount says the limit), a split against the order’s shares or a split capture without amount short of or over the reserve (fields.split, fields["split[i].…"]), or refused by the gateway'),
};

export const API: readonly ApiOperation[] = [
  // Checkout
  { method: 'post', path: '/api/checkout/sessions', operationId: 'createCheckoutSession', tag: 'Checkout', summary: 'Open a checkout session (method lookup: verify and save a card for customer_id)', access: 'admin', body: NewSessionRequest, responses: { 201: json('The session; `id` is the capability to give the widget', CreatedSession), 409: problem('order_id_taken: the order id has a payment already') } },
  { method: 'get', path: '/api/checkout/sessions/:id', operationId: 'getCheckoutSession', tag: 'Checkout', summary: 'Public view of a session (for the widget)', params: SESSION, access: 'session', query: SessionViewQuery, responses: { 200: json('The session view', SessionView), 404: problem('Unknown session') } },
  { method: 'delete', path: '/api/checkout/sessions/:id', operationId: 'closeCheckoutSession', tag: 'Checkout', summary: 'Close a session: no further attempts, its unpaid hosted page cancelled (an attempt in flight still finishes)', params: SESSION, access: 'admin', responses: { 200: json('The closed session', CreatedSession), 404: problem('Unknown session') } },
  { method: 'post', path: '/api/checkout/sessions/:id/extend', operationId: 'extendCheckoutSession', tag: 'Checkout', summary: 'More time for the customer to pay: the session ends 10 minutes from now, up to 20 hours after it opened (WCAG 2.2.1; the widget offers it as the end nears)', params: SESSION, access: 'session', responses: { 200: json('The time now left', ExtendedSession), 404: problem('Unknown session'), 409: problem('session_end_fixed (opened with extendable: false), extension_limit (10 minutes or more left, or 20 hours reached), payment_in_progress, already_paid or session_expired') } },
  { method: 'post', path: '/api/checkout/sessions/:id/pay', operationId: 'payCheckoutSession', tag: 'Checkout', summary: 'Pay directly with a card or a saved card', params: SESSION, access: 'session', body: PayRequest, responses: { 200: json('The attempt’s state', PayAnswer), 404: problem('Unknown session'), 409: problem('Session expired or mode not allowed'), 422: problem('Customer details missing, card expired or unknown, a card scheme the shop does not take (card_brand_not_accepted), another card than a charge’s own (card_not_allowed), or refused by the gateway: payment_rejected (what the customer sent; fields name it), session_refused (the session’s own terms, its currency or split: no payment of it can succeed)'), 429: problem('Too many attempts; see Retry-After'), 502: problem('unsafe_redirect: the gateway’s 3-D Secure page address is not safe to open (the payment stays pending at the gateway)') } },
  { method: 'post', path: '/api/checkout/sessions/:id/hosted', operationId: 'openHostedPaymentPage', tag: 'Checkout', summary: 'Open the gateway’s hosted payment page', params: SESSION, access: 'session', body: HostedRequest, responses: { 200: json('Where to send the customer', HostedPage), 404: problem('Unknown session'), 409: problem('Paid, in progress or mode not allowed'), 422: problem('customer_required: customer details the hosted page needs are missing (fields name them)'), 429: problem('Too many attempts'), 502: problem('unsafe_redirect: the gateway’s page address is not safe to open') } },
  { method: 'get', path: '/checkout/return/:id', operationId: 'returnFromCheckout', tag: 'Checkout', summary: 'Where the customer lands after 3-D Secure or the hosted page', params: SESSION, access: 'session', query: ReturnQuery, responses: { 303: empty('To the merchant’s return_url with checkout_session, order_id and status'), 200: content('A short status page (no return_url)', 'text/html'), 404: content('A page saying the checkout does not exist', 'text/html'), 503: content(AWAY_PAGE, 'text/html') } },
  { method: 'get', path: '/checkout/challenge/:id', operationId: 'goToSavedCardChallenge', tag: 'Checkout', summary: 'A saved card’s charge waiting for 3-D Secure: the link for the customer (challenge_url)', params: SESSION, access: 'session', responses: { 200: content('While the charge waits: a page with the way on to the bank’s challenge', 'text/html'), 303: empty('Once it no longer waits: to /checkout/return/:id'), 404: content('A page saying the link does not exist', 'text/html'), 503: content(AWAY_PAGE, 'text/html') } },
  { method: 'get', path: '/widget/pay-form.js', operationId: 'getWidgetModule', tag: 'Checkout', summary: 'The built <pay-form> widget', access: 'public', responses: { 200: content('ES module', 'text/javascript'), 304: notModified, 404: problem('Not built') } },
  { method: 'get', path: '/widget/pay-form.whole.js', operationId: 'getWholeWidgetModule', tag: 'Checkout', summary: 'The widget in one file, chunks inlined, for a script tag pinned by its integrity attribute', access: 'public', responses: { 200: content('ES module', 'text/javascript'), 304: notModified, 404: problem('Not built') } },
  { method: 'get', path: '/widget/integrity.json', operationId: 'getWidgetIntegrity', tag: 'Checkout', summary: 'The Subresource Integrity value of pay-form.whole.js', access: 'public', responses: { 200: json('By file name', WidgetIntegrity), 304: notModified, 404: problem('Not built') } },
  { method: 'get', path: '/widget/LICENSES.txt', operationId: 'getWidgetLicenses', tag: 'Checkout', summary: 'Licences of what the widget bundles', access: 'public', responses: { 200: content('Text', 'text/plain'), 304: notModified } },
  { method: 'get', path: '/widget/chunks/:name', operationId: 'getWidgetChunk', tag: 'Checkout', summary: 'A chunk the widget loads on demand', access: 'public', responses: { 200: content('ES module', 'text/javascript'), 304: notModified } },
  // Webhooks
  { method: 'post', path: '/webhooks/gateway', operationId: 'receiveGatewayWebhook', tag: 'Webhooks', summary: 'The gateway’s signed events (form fields data, signature)', access: 'signature', responses: { 200: json('Stored (or a duplicate)', WebhookReceipt), 401: problem('Signature does not match: nothing stored'), 413: problem(`payload_too_large: the body is over ${WEBHOOK_BODY_LIMIT} bytes`), 415: problem('Not a form post') } },
  { method: 'get', path: '/api/webhook-events', operationId: 'listWebhookEvents', tag: 'Webhooks', summary: 'The gateway’s events that apply to nothing in the ledger (unmatched) or wait for a reservation (parked), newest first', access: 'admin', query: EventListQuery, responses: { 200: json('A page of events and next_cursor', WaitingEventPage) } },
  { method: 'post', path: '/api/webhook-events/:id/review', operationId: 'reviewWebhookEvent', tag: 'Webhooks', summary: 'Mark an unmatched event reviewed (settled elsewhere): it leaves the list, reconciliation and the waiting-events gauge', params: { id: z.string().regex(EVENT_ID).describe('The event’s id: the SHA-256 of its data, in hex') }, access: 'admin', responses: { 200: json('The event, reviewed_at set', ReviewedEvent), 404: problem('Unknown event'), 409: problem('Not unmatched: applied, or parked for its reservation') } },
  // Orders
  { method: 'get', path: '/api/orders', operationId: 'listOrders', tag: 'Orders', summary: 'Orders, newest first; found by the customer’s e-mail, card last four, amount or dates', access: 'admin', query: OrderListQuery, responses: { 200: json('A page of orders, each with its totals, and next_cursor', OrderPage) } },
  { method: 'get', path: '/api/orders/:order_id', operationId: 'getOrder', tag: 'Orders', summary: 'An order: payment, operations, webhook events, totals', params: ORDER, access: 'admin', responses: { 200: json('The order', OrderView), 404: problem('order_not_found: no such order. With `session` when the id was handed out with a checkout session that has no payment yet: its id and status (open: it may still be paid)') } },
  { method: 'post', path: '/api/orders/:order_id/capture', operationId: 'captureOrder', tag: 'Orders', summary: 'Capture an auth (full, partial, or above the reserve within the project’s limit)', params: ORDER, access: 'admin', body: CaptureRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/split-capture', operationId: 'splitCaptureOrder', tag: 'Orders', summary: 'Capture an auth split among sub-merchants', params: ORDER, access: 'admin', body: SplitCaptureRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/void', operationId: 'voidOrder', tag: 'Orders', summary: 'Void an uncaptured auth', params: ORDER, access: 'admin', body: VoidRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/refund', operationId: 'refundOrder', tag: 'Orders', summary: 'Refund a purchase or capture, fully or partly', params: ORDER, access: 'admin', body: RefundRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/split-refund', operationId: 'splitRefundOrder', tag: 'Orders', summary: 'Refund sub-merchants’ shares of a split payment', params: ORDER, access: 'admin', body: SplitRefundRequest, responses: operationAnswers },
  { method: 'post', path: '/api/orders/:order_id/cancel', operationId: 'cancelOrder', tag: 'Orders', summary: 'Cancel an unpaid hosted payment', params: ORDER, access: 'admin', responses: { 200: json('The cancelled payment', CancelledOrder), 404: problem('Unknown order (order_not_found), or one the gateway does not know (not_found_at_gateway)'), 409: problem('not_cancellable: not an unpaid hosted payment; order_not_paid: its checkout session has no payment yet (`session`: its id and status)'), 422: problem('gateway_rejected: refused by the gateway') } },
  { method: 'post', path: '/api/orders/:order_id/resend-webhook', operationId: 'resendOrderWebhook', tag: 'Orders', summary: 'Ask the gateway to send an operation’s webhook again', params: ORDER, access: 'admin', body: ResendRequest, responses: { 202: json('Requested', ResendAnswer), 404: problem('Unknown order (order_not_found), or the gateway knows no such order, or (fields name which) no such operation or transaction of it (not_found_at_gateway)'), 409: problem('order_not_paid: its checkout session has no payment yet, so there is no webhook to send (`session`: its id and status)'), 422: problem('gateway_rejected: refused by the gateway (fields name what)') } },
  { method: 'post', path: '/api/orders/:order_id/settle-discrepancy', operationId: 'settleOrderDiscrepancy', tag: 'Orders', summary: 'Mark a held order settled (with the customer or at the gateway), saying how', params: ORDER, access: 'admin', body: SettleDiscrepancyRequest, responses: { 200: json('The payment, its discrepancy settled', SettledOrder), 404: problem('Unknown order (order_not_found)'), 409: problem('order_not_paid: its checkout session has no payment yet (`session`: its id and status); no_discrepancy: the order is not held; discrepancy_changed: the gateway reported again since `version` was read (read the order, then settle its version); discrepancy_settled: settled already') } },
  { method: 'get', path: '/api/orders/:order_id/receipt', operationId: 'getOrderReceipt', tag: 'Orders', summary: 'The order’s receipt from the gateway', params: ORDER, access: 'admin', query: OrderReceiptQuery, responses: { 200: content('HTML or PDF', 'text/html', 'application/pdf'), 404: problem('Unknown order (order_not_found), or no receipt at the gateway (not_found_at_gateway)'), 409: problem('payment_not_successful: the payment was declined or is not paid yet, and the gateway makes receipts of successful payments; not_a_payment: a card verification, which has none; order_not_paid: its checkout session has no payment yet (`session`: its id and status)'), 422: problem('gateway_rejected: refused by the gateway (fields name what)') } },
  // Balances and reports
  { method: 'get', path: '/api/balances/accounts', operationId: 'listAccounts', tag: 'Balances', summary: 'Balances of the merchant’s accounts', access: 'admin', responses: { 200: json('accounts', AccountList) } },
  { method: 'get', path: '/api/balances/accounts/:id', operationId: 'getAccount', tag: 'Balances', summary: 'One account', params: BALANCE, access: 'admin', responses: { 200: json('The account', BalanceView), 404: problem('not_found_at_gateway: the gateway knows no such account') } },
  { method: 'get', path: '/api/balances/terminals', operationId: 'listTerminals', tag: 'Balances', summary: 'Balances of terminals; unreadable ones in failed_terminals', access: 'admin', responses: { 200: json('terminals and failed_terminals', TerminalList) } },
  { method: 'get', path: '/api/balances/terminals/:id', operationId: 'getTerminal', tag: 'Balances', summary: 'One terminal', params: BALANCE, access: 'admin', responses: { 200: json('The terminal', BalanceView), 404: problem('not_found_at_gateway: the gateway knows no such terminal'), 503: problem('terminal_unavailable: the gateway cannot read this terminal’s balance now (its reason in the message; Retry-After), as failed_terminals lists it') } },
  { method: 'get', path: '/api/receipts/:date', operationId: 'getDailyReceipts', tag: 'Reports', summary: 'A day’s receipts as a ZIP', params: { date: IsoDate }, access: 'admin', query: DateReceiptsQuery, responses: { 200: content('ZIP archive, as the gateway makes it: the receipts of its day — payments made elsewhere than through this companion too, and no split purchase, which the gateway leaves out — so match it to the orders by order id, not by count', 'application/zip') } },
  { method: 'get', path: '/api/stats', operationId: 'getPaymentStats', tag: 'Reports', summary: 'Payments per hour or day by outcome, with the success rate', access: 'admin', query: StatsQuery, responses: { 200: json('buckets and totals', StatsView) } },
  { method: 'get', path: '/api/stats/money', operationId: 'getPaymentMoney', tag: 'Reports', summary: 'What the payments created in a period came to per currency: paid, refunded, net (the last 30 days unless from/to say); with dated_by=movement, what was paid and refunded in it', access: 'admin', query: MoneyQuery, responses: { 200: json('the period and its money', MoneyView) } },
  { method: 'get', path: '/api/movements', operationId: 'listMovements', tag: 'Reports', summary: 'The journal of money moved: each sale, capture of an auth and refund made in the period (the last 30 days unless from/to say), oldest first, dated by when it was made, not by its order; signed integer minor units (a refund is negative)', access: 'admin', query: MovementListQuery, responses: { 200: json('the period, a page of its movements and the next page’s cursor', MovementPageView) } },
  { method: 'get', path: '/api/exports/movements', operationId: 'exportMovements', tag: 'Reports', summary: 'listMovements’ journal of the period as a CSV file (streamed), the amounts’ decimals beside them', access: 'admin', query: MovementExportQuery, responses: { 200: content('CSV (RFC 4180, UTF-8 with a byte order mark, a header row; decimal_mark=comma: semicolons and decimal commas); text cells that begin like a formula start with an apostrophe', 'text/csv') } },
  { method: 'get', path: '/api/exports/movements/link', operationId: 'linkMovementsExport', tag: 'Reports', summary: 'A signed link to exportMovements’ file of this period, for a browser’s download (no token in it; it lasts a minute): the period is judged now', access: 'admin', query: MovementExportQuery, responses: { 200: json('The link and when it expires', DownloadLink) } },
  { method: 'get', path: '/api/exports/orders', operationId: 'exportOrders', tag: 'Reports', summary: 'Every order the filters of listOrders match, newest first, as a CSV file (streamed): what each sold (its session’s description), amounts in integer minor units with their decimals beside them', access: 'admin', query: OrderExportQuery, responses: { 200: content('CSV (RFC 4180, UTF-8 with a byte order mark, a header row; decimal_mark=comma: semicolons and decimal commas); text cells that begin like a formula start with an apostrophe', 'text/csv') } },
  { method: 'get', path: '/api/exports/orders/link', operationId: 'linkOrdersExport', tag: 'Reports', summary: 'A signed link to exportOrders’ file with these filters, for a browser’s download (no token in it; it lasts a minute): the filters are judged now', access: 'admin', query: OrderExportQuery, responses: { 200: json('The link and when it expires', DownloadLink) } },
  { method: 'get', path: '/api/receipts/:date/link', operationId: 'linkDailyReceipts', tag: 'Reports', summary: 'A signed link to getDailyReceipts’ ZIP, for a browser’s download (no token in it; it lasts a minute), and whether the day has any receipt: the gateway is asked now', params: { date: IsoDate }, access: 'admin', query: DateReceiptsQuery, responses: { 200: json('The link, when it expires, and whether the ZIP is empty', ReceiptsLink) } },
  { method: 'get', path: '/api/downloads/orders', operationId: 'downloadOrdersExport', tag: 'Reports', summary: 'exportOrders’ file through a link linkOrdersExport signed: no token, this query exactly, until it expires', access: 'signature', query: SignedOrderFilterQuery, responses: { 200: content('CSV, as exportOrders', 'text/csv'), 403: problem('download_link_invalid: no signature, or not this address’s (another file, other filters, a changed admin token); download_link_expired: ask for a new link; download_link_used_up: followed as often as a link is (5 times), ask for a new one') } },
  { method: 'get', path: '/api/downloads/movements', operationId: 'downloadMovementsExport', tag: 'Reports', summary: 'exportMovements’ file through a link linkMovementsExport signed: no token, this query exactly, until it expires', access: 'signature', query: SignedMovementExportQuery, responses: { 200: content('CSV, as exportMovements', 'text/csv'), 403: problem('download_link_invalid: no signature, or not this address’s (another file, another period, a changed admin token); download_link_expired: ask for a new link; download_link_used_up: followed as often as a link is (5 times), ask for a new one') } },
  { method: 'get', path: '/api/downloads/receipts/:date', operationId: 'downloadDailyReceipts', tag: 'Reports', summary: 'getDailyReceipts’ ZIP through a link linkDailyReceipts signed: no token, this query exactly, until it expires', params: { date: IsoDate }, access: 'signature', query: SignedDateReceiptsQuery, responses: { 200: content('ZIP archive', 'application/zip'), 403: problem('download_link_invalid: no signature, or not this address’s (another day or format, a changed admin token); download_link_expired: ask for a new link; download_link_used_up: followed as often as a link is (5 times), ask for a new one') } },
  { method: 'get', path: '/api/changes', operationId: 'listChanges', tag: 'Reports', summary: 'Status changes since a sequence number (polling)', access: 'admin', query: ChangesQuery, responses: { 200: json('changes, last_seq, complete', ChangesPage) } },
  { method: 'get', path: '/api/changes/stream', operationId: 'streamChanges', tag: 'Reports', summary: 'Status changes as server-sent events', access: 'admin', headers: { 'Last-Event-ID': LastEventId }, responses: { 200: content('Event stream: first `ready` ({ last_seq, complete }: complete false when Last-Event-ID is not this feed’s, after a restart or from another instance, or changes after it were dropped; read the orders again), then a `change` event per change, its id the seq', 'text/event-stream') } },
  // Customers
  { method: 'get', path: '/api/customers/:customer_id/cards', operationId: 'listCustomerCards', tag: 'Customers', summary: 'A customer’s saved cards', params: CUSTOMER, access: 'admin', responses: { 200: json('cards', CardList), 404: problem('customer_not_found: no card can be kept under such a customer id (longer than 128 characters)') } },
  {
    method: 'post', path: '/api/customers/erasures', operationId: 'eraseCustomer', tag: 'Customers',
    summary: 'Erase a customer’s personal data (the GDPR’s right to erasure): the details of their orders, sessions and orders’ webhooks, and their saved cards; the orders stay, with their money', access: 'admin', body: ErasureRequest,
    responses: { 200: json('What was erased', Erasure), 409: problem('payment_in_flight: an order of theirs is not decided yet (a payment the gateway may still report, an operation under way, a payment held for review); nothing was erased, unless an attempt began while the others were (the message says how many were)') },
  },
  { method: 'delete', path: '/api/customers/:customer_id/cards/:card_id', operationId: 'deleteCustomerCard', tag: 'Customers', summary: 'Forget a saved card', params: CUSTOMER, access: 'admin', responses: { 204: empty('Deleted'), 404: problem('Unknown card (card_not_found) or customer (customer_not_found)') } },
  {
    method: 'post', path: '/api/customers/:customer_id/cards/:card_id/charges', operationId: 'chargeSavedCard', tag: 'Customers', summary: 'Charge a saved card from the merchant’s server, without the customer', params: CUSTOMER, access: 'admin', body: ChargeRequest,
    responses: { 201: json('The payment’s state; action_required carries challenge_url for the customer', ChargeAnswer), 404: problem('customer_not_found: no card can be kept under such a customer id'), 409: problem('The card is deleted (card_not_saved) or expired (card_expired); the order id is used (order_id_taken: another order’s, a charge the gateway made a payment of or may have, one it never took of other terms, or whose session was closed); or the charge’s refused attempts are used up (retry_unavailable). The gateway was not called'), 422: problem('Cardholder details missing (fields name them), or refused by the gateway up front (session_refused: the charge’s own terms, such as its split or currency; payment_rejected): the same charge may be sent again under its order id') },
  },
  // Service
  { method: 'get', path: '/healthz', operationId: 'getHealth', tag: 'Service', summary: 'Liveness: the process answers, whatever the database does, unless only a restart brings its ledger back', access: 'public', responses: { 200: json('ok; starting while startCompanion opens and migrates the ledger (readiness answers 503 until then)', Health), 503: json('restart_needed: the SQLite ledger could not sync its write-ahead log and takes no more work until the process is restarted', Health) } },
  { method: 'get', path: '/readyz', operationId: 'getReadiness', tag: 'Service', summary: 'Readiness: can take payments now', access: 'public', responses: { 200: json('ready', Readiness), 503: json('The database cannot be reached, the instance is draining for a stop, or its ledger was handed to another point of sale (Retry-After)', Readiness) } },
  { method: 'get', path: '/api/openapi.json', operationId: 'getOpenApiDocument', tag: 'Service', summary: 'This document', access: 'public', responses: { 200: json('OpenAPI 3.1', OpenApiDocument) } },
];
