/**
 * Every route of the companion and the sandbox, each with a request that would be valid —
 * aimed at a real record of the world, with the right credentials — and the schema that
 * decides validity. The corpus breaks these requests; the schemas let it keep only requests
 * that are wrong, so every one must be refused and none may change anything.
 */
import type * as z from 'zod';
import { HostedRequest } from '../../../server/companion/checkout/checkout-routes.js';
import { PayRequest } from '../../../server/companion/checkout/pay-request.js';
import { NewSessionRequest } from '../../../server/companion/checkout/session-request.js';
import {
  CaptureRequest, RefundRequest, ResendRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest,
} from '../../../server/companion/merchant/operation-request.js';
import { ChangesQuery } from '../../../server/companion/merchant/feed-routes.js';
import { OrderListQuery, OrderReceiptQuery } from '../../../server/companion/merchant/order-routes.js';
import { DateReceiptsQuery, StatsQuery } from '../../../server/companion/merchant/report-routes.js';
import { ADMIN_TOKEN } from '../../../server/companion/test/stack.js';
import { CUSTOMER, EXPIRY, FINGERPRINT, TEST_CVV, cardNumber } from '../../../server/companion/test/cards.js';
import { testProjectCredentials } from '../../../server/gateway/test-project.js';
import { CaptureRequest as WireCapture, RefundRequest as WireRefund, SplitCaptureRequest as WireSplitCapture, SplitRefundRequest as WireSplitRefund, VoidRequest as WireVoid } from '../../../server/gateway/wire/operation.js';
import { CreatePaymentRequest, SplitPurchaseRequest } from '../../../server/gateway/wire/payment.js';
import { ResendWebhookQuery } from '../../../server/gateway/wire/order.js';
import { DateReceiptsQuery as WireDateReceiptsQuery, OrderReceiptQuery as WireOrderReceiptQuery } from '../../../server/gateway/wire/receipt.js';
import { authHeaderValue } from '../../../server/gateway/wire/routes.js';
import { FaultSettings } from '../../../server/sandbox/faults.js';
import { readCardForm } from '../../../server/sandbox/pages/card-form.js';
import * as zod from 'zod';
import type { World } from './world.js';
import { CONTACT, SUB_A, SUB_B } from './world.js';

export type Server = 'companion' | 'sandbox';
/** How an error is shaped: the companion's envelope, the gateway's body, or an HTML page. */
export type ErrorShape = 'envelope' | 'gateway' | 'page';

export type RouteBody =
  | { readonly kind: 'json'; readonly valid: Readonly<Record<string, unknown>>; readonly schema: z.ZodType; readonly limit: number }
  | { readonly kind: 'form'; readonly valid: Readonly<Record<string, string>>; readonly accepts: (form: Readonly<Record<string, string>>) => boolean; readonly limit: number }
  /** POST without input (cancel): `{}` only. */
  | { readonly kind: 'none'; readonly limit: number };

export interface RouteTarget {
  readonly server: Server;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** With `:name` parameters. */
  readonly path: string;
  /** A real record for each parameter. */
  readonly params: Readonly<Record<string, string>>;
  /** What makes the request authentic; the corpus also sends wrong variants of it. */
  readonly credentials: Readonly<Record<string, string>>;
  readonly wrongCredentials: readonly Readonly<Record<string, string>>[];
  readonly body?: RouteBody;
  readonly query?: { readonly valid: Readonly<Record<string, string>>; readonly schema: z.ZodType };
  readonly errors: ErrorShape;
  /**
   * Parameters that are the merchant's free text rather than ids (a customer id): any value
   * names something that may exist, so a read answers 200 (no cards) — not bad input.
   */
  readonly freeTextParams?: readonly string[];
}

const COMPANION_JSON_LIMIT = 16 * 1024;
const WEBHOOK_LIMIT = 64 * 1024;
const SANDBOX_LIMIT = 64 * 1024;

const credentials = testProjectCredentials({});
const ADMIN = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const WRONG_ADMIN: Record<string, string>[] = [
  {},
  { Authorization: 'Bearer wrong-token-0123456789' },
  { Authorization: `Bearer ${ADMIN_TOKEN}x` },
  { Authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
  { Authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
  { Authorization: 'Bearer' },
  { Authorization: `Token ${ADMIN_TOKEN}` },
];
const GATEWAY = { 'X-API-AUTH': authHeaderValue(credentials.apiKey, credentials.apiSecret), 'X-API-KEY': credentials.endpointsKey };
const GATEWAY_READ = { 'X-API-AUTH': GATEWAY['X-API-AUTH'] };
const WRONG_GATEWAY: Record<string, string>[] = [
  {},
  { 'X-API-KEY': credentials.endpointsKey },
  { 'X-API-AUTH': authHeaderValue(credentials.apiKey, 'wrong-secret'), 'X-API-KEY': credentials.endpointsKey },
  { 'X-API-AUTH': authHeaderValue('wrong-key', credentials.apiSecret), 'X-API-KEY': credentials.endpointsKey },
  { 'X-API-AUTH': `Basic ${credentials.apiKey}:${credentials.apiSecret}`, 'X-API-KEY': credentials.endpointsKey },
  { 'X-API-AUTH': GATEWAY['X-API-AUTH'], 'X-API-KEY': 'wrong-endpoints-key' },
];
const WRONG_GATEWAY_READ: Record<string, string>[] = [
  {},
  { 'X-API-AUTH': authHeaderValue(credentials.apiKey, 'wrong-secret') },
  { 'X-API-AUTH': authHeaderValue('wrong-key', credentials.apiSecret) },
  { 'X-API-AUTH': `Basic ${credentials.apiKey}:${credentials.apiSecret}` },
];

const json = (valid: Record<string, unknown>, schema: z.ZodType, limit = COMPANION_JSON_LIMIT): RouteBody => ({ kind: 'json', valid, schema, limit });

/** The companion: every route of its catalog (server/companion/openapi/api-catalog.ts). */
export function companionTargets(world: World): RouteTarget[] {
  const session = { id: world.openSession.id };
  const admin = (method: RouteTarget['method'], path: string, params: Record<string, string>, extra: Partial<RouteTarget> = {}): RouteTarget => ({
    server: 'companion', method, path, params, credentials: ADMIN, wrongCredentials: WRONG_ADMIN, errors: 'envelope', ...extra,
  });
  const open = (method: RouteTarget['method'], path: string, params: Record<string, string>, extra: Partial<RouteTarget> = {}): RouteTarget => ({
    server: 'companion', method, path, params, credentials: {}, wrongCredentials: [], errors: 'envelope', ...extra,
  });
  const split = [{ sub_merchant_id: SUB_A, amount: 500 }, { sub_merchant_id: SUB_B, amount: 510 }];
  return [
    admin('POST', '/api/checkout/sessions', {}, {
      body: json({ amount: 1010, currency: 'UAH', description: 'Green tea, 250 g', method: 'purchase', customer: { ...CONTACT, fname: 'Olena' }, return_url: 'https://shop.example/thanks' }, NewSessionRequest),
    }),
    open('GET', '/api/checkout/sessions/:id', session),
    admin('DELETE', '/api/checkout/sessions/:id', session),
    open('POST', '/api/checkout/sessions/:id/pay', session, {
      body: json({ card: { number: cardNumber('success'), ...EXPIRY, cvv: TEST_CVV }, customer: CUSTOMER, fingerprint: FINGERPRINT }, PayRequest),
    }),
    open('POST', '/api/checkout/sessions/:id/hosted', session, { body: json({ customer: CONTACT }, HostedRequest) }),
    open('GET', '/checkout/return/:id', { id: world.challenge.session.id }, { errors: 'page' }),
    open('GET', '/widget/chunks/:name', { name: 'x.js' }),
    admin('GET', '/api/orders', {}, { query: { valid: { limit: '10' }, schema: OrderListQuery } }),
    admin('GET', '/api/orders/:order_id', { order_id: world.purchase.order_id }),
    admin('POST', '/api/orders/:order_id/capture', { order_id: world.auth.order_id }, { body: json({ amount: 500, comment: 'partial' }, CaptureRequest) }),
    admin('POST', '/api/orders/:order_id/split-capture', { order_id: world.auth.order_id }, { body: json({ amount: 1010, split, comment: 'split' }, SplitCaptureRequest) }),
    admin('POST', '/api/orders/:order_id/void', { order_id: world.auth.order_id }, { body: json({ comment: 'void' }, VoidRequest) }),
    admin('POST', '/api/orders/:order_id/refund', { order_id: world.purchase.order_id }, { body: json({ amount: 150, comment: 'refund', f_receipt_delivery: 'email' }, RefundRequest) }),
    admin('POST', '/api/orders/:order_id/split-refund', { order_id: world.split.order_id }, { body: json({ amount: 10, split: [{ sub_merchant_id: SUB_A, amount: 10 }] }, SplitRefundRequest) }),
    admin('POST', '/api/orders/:order_id/cancel', { order_id: world.hosted.session.order_id }, { body: { kind: 'none', limit: COMPANION_JSON_LIMIT } }),
    admin('POST', '/api/orders/:order_id/resend-webhook', { order_id: world.purchase.order_id }, { body: json({ operation: 'purchase' }, ResendRequest) }),
    admin('GET', '/api/orders/:order_id/receipt', { order_id: world.purchase.order_id }, { query: { valid: { format: 'html' }, schema: OrderReceiptQuery } }),
    admin('GET', '/api/balances/accounts/:id', { id: world.accountId }),
    admin('GET', '/api/balances/terminals/:id', { id: world.terminalId }),
    admin('GET', '/api/receipts/:date', { date: new Date().toISOString().slice(0, 10) }, { query: { valid: { format: 'pdf' }, schema: DateReceiptsQuery } }),
    admin('GET', '/api/stats', {}, { query: { valid: { bucket: 'hour' }, schema: StatsQuery } }),
    admin('GET', '/api/changes', {}, { query: { valid: { after: '0' }, schema: ChangesQuery } }),
    admin('GET', '/api/customers/:customer_id/cards', { customer_id: world.savedCard.customerId }, { freeTextParams: ['customer_id'] }),
    admin('DELETE', '/api/customers/:customer_id/cards/:card_id', { customer_id: world.savedCard.customerId, card_id: world.savedCard.cardId }),
    open('POST', '/webhooks/gateway', {}, {
      body: {
        kind: 'form',
        // Never accepted: the corpus makes no signature (valid ones are the faults suite's).
        valid: { data: Buffer.from('{"order_id":"x"}').toString('base64url'), signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
        accepts: () => false,
        limit: WEBHOOK_LIMIT,
      },
    }),
  ];
}

/** The sandbox: every endpoint of the interface, its control plane and its pages. */
export function sandboxTargets(world: World): RouteTarget[] {
  const pos = { pos_id: credentials.posId };
  const gateway = (method: RouteTarget['method'], path: string, params: Record<string, string>, extra: Partial<RouteTarget> = {}): RouteTarget => ({
    server: 'sandbox', method, path, params, credentials: GATEWAY, wrongCredentials: WRONG_GATEWAY, errors: 'gateway', ...extra,
  });
  const read = (path: string, params: Record<string, string>, extra: Partial<RouteTarget> = {}): RouteTarget =>
    gateway('GET', path, params, { credentials: GATEWAY_READ, wrongCredentials: WRONG_GATEWAY_READ, ...extra });
  const control = (method: RouteTarget['method'], path: string, params: Record<string, string>, extra: Partial<RouteTarget> = {}): RouteTarget => ({
    server: 'sandbox', method, path, params, credentials: {}, wrongCredentials: [], errors: 'gateway', ...extra,
  });
  const page = (method: RouteTarget['method'], path: string, params: Record<string, string>, extra: Partial<RouteTarget> = {}): RouteTarget => ({
    server: 'sandbox', method, path, params, credentials: {}, wrongCredentials: [], errors: 'page', ...extra,
  });
  const wire = (valid: Record<string, unknown>, schema: z.ZodType) => json(valid, schema, SANDBOX_LIMIT);
  const target = { ...pos, order_currency: 'UAH' };
  const payer = {
    cc_number: cardNumber('success'), exp_month: EXPIRY.exp_month, exp_year: EXPIRY.exp_year, card_cvv: TEST_CVV,
    customer_fname: CUSTOMER.fname, customer_lname: CUSTOMER.lname, customer_email: CUSTOMER.email, customer_phone: CUSTOMER.phone,
    customer_ip: '203.0.113.7',
    browser_fingerprint: { ...FINGERPRINT, browserAcceptHeader: 'text/html', browserIpAddress: '203.0.113.7', browserUserAgent: 'Mozilla/5.0' },
  };
  const payment = { ...pos, mode: 'direct', method: 'purchase', amount: 10.1, currency: 'UAH', description: 'Green tea', order_id: 'resilience-new-order', ...payer };
  const split = [{ sub_merchant_id: SUB_A, amount: 5 }, { sub_merchant_id: SUB_B, amount: 5.1 }];
  const orderOf = (order: string) => ({ ...pos, order_id: order });
  return [
    gateway('POST', '/api/v1/payment', {}, { body: wire(payment, CreatePaymentRequest) }),
    gateway('POST', '/api/v1/split/purchase', {}, { body: wire({ ...payment, split }, SplitPurchaseRequest) }),
    gateway('POST', '/api/v1/capture', {}, { body: wire({ ...target, order_id: world.auth.order_id, charge_amount: 5 }, WireCapture) }),
    gateway('POST', '/api/v1/split/capture', {}, { body: wire({ ...target, order_id: world.auth.order_id, charge_amount: 10.1, split }, WireSplitCapture) }),
    gateway('POST', '/api/v1/void', {}, { body: wire({ ...target, order_id: world.auth.order_id }, WireVoid) }),
    gateway('POST', '/api/v1/refund', {}, { body: wire({ ...target, order_id: world.purchase.order_id, refund_amount: 1.5, f_receipt_delivery: 'email' }, WireRefund) }),
    gateway('POST', '/api/v1/split/refund', {}, {
      body: wire({ ...pos, order_id: world.split.order_id, currency: 'UAH', refund_amount: 10, split: [{ sub_merchant_id: SUB_A, amount: 10 }] }, WireSplitRefund),
    }),
    gateway('POST', '/api/v1/pos/:pos_id/order/:order_id/cancel', orderOf(world.hosted.session.order_id)),
    read('/api/v1/balances/pos/:pos_id/accounts/:account_id', { ...pos, account_id: world.accountId }),
    read('/api/v1/balances/pos/:pos_id/terminals/:terminal_id', { ...pos, terminal_id: world.terminalId }),
    gateway('GET', '/api/v1/pos/:pos_id/orders/:order_id/report/receipt', orderOf(world.purchase.order_id), { query: { valid: { format: 'html' }, schema: WireOrderReceiptQuery } }),
    gateway('GET', '/api/v1/pos/:pos_id/date/:date/report/receipt', { ...pos, date: new Date().toISOString().slice(0, 10) }, { query: { valid: { format: 'html' }, schema: WireDateReceiptsQuery } }),
    // The interface asks X-API-KEY of receipts and the re-send, not of the order-state read.
    read('/api/v1/pos/:pos_id/orders/:order_id', orderOf(world.purchase.order_id)),
    gateway('GET', '/api/v1/pos/:pos_id/orders/:order_id/:operation', { ...orderOf(world.purchase.order_id), operation: 'purchase' }, {
      // Without `callback` it is the order-state read, which is valid too.
      query: { valid: { callback: 'true' }, schema: zod.union([ResendWebhookQuery, zod.strictObject({})]) },
    }),
    control('POST', '/_sandbox/3ds/:payment_id', { payment_id: world.challenge.paymentId }, { body: json({ result: 'success' }, zod.strictObject({ result: zod.enum(['success', 'failure']) }), SANDBOX_LIMIT) }),
    control('PUT', '/_sandbox/faults', {}, { body: json({ latency_ms: 10, error_rate: 0.5, error_status: 503, scope: { method: 'POST', path: '/api/v1/payment' } }, FaultSettings, SANDBOX_LIMIT) }),
    control('POST', '/_sandbox/clock', {}, {
      body: json({ advance_seconds: 60 }, zod.strictObject({ advance_seconds: zod.number().min(0).max(10 * 365 * 86_400) }), SANDBOX_LIMIT),
    }),
    control('POST', '/_sandbox/credits', {}, {
      body: json({ order_id: 'resilience-credit', amount_minor: 500, currency: 'UAH' }, zod.strictObject({ order_id: zod.string().min(1).max(256), amount_minor: zod.number().int().positive(), currency: zod.enum(['UAH', 'USD', 'EUR', 'PLN', 'XTS']) }), SANDBOX_LIMIT),
    }),
    control('POST', '/_sandbox/recurring', {}, {
      body: json({ order_id: world.purchase.order_id, amount_minor: 500 }, zod.strictObject({ order_id: zod.string().min(1).max(256), amount_minor: zod.number().int().positive().optional() }), SANDBOX_LIMIT),
    }),
    page('POST', '/api/v1/checkout/:checkout_id/form', { checkout_id: world.hosted.checkoutId }, {
      body: {
        kind: 'form',
        valid: { cc_number: cardNumber('success'), exp_month: String(EXPIRY.exp_month), exp_year: String(EXPIRY.exp_year), card_cvv: TEST_CVV },
        accepts: (form) => readCardForm(form, new Date()).ok,
        limit: SANDBOX_LIMIT,
      },
    }),
    page('GET', '/api/v1/checkout/:checkout_id/form', { checkout_id: world.hosted.checkoutId }),
    page('POST', '/3ds/:challenge_id', { challenge_id: world.challenge.challengeId }, {
      body: { kind: 'form', valid: { result: 'success' }, accepts: (form) => form.result === 'success' || form.result === 'failure', limit: SANDBOX_LIMIT },
    }),
    page('GET', '/3ds/:challenge_id', { challenge_id: world.challenge.challengeId }),
    page('GET', '/receipts/:receipt_key', { receipt_key: world.receiptKey }),
  ];
}
