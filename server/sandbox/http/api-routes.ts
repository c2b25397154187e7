/**
 * The interface's endpoints under /api/v1, mounted from the shared route table: payments,
 * secondary operations, cancel, balances, receipts, order-state reads and webhook re-sends.
 * Each handler authenticates, parses with the shared wire schema, applies the rules and
 * answers with the wire view; refusals become the gateway's error body in app.ts.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import { zipSync } from 'fflate';
import { AccountParams, BalancesParams, TerminalParams, CaptureRequest, RefundRequest, SplitCaptureRequest, SplitRefundRequest, VoidRequest, OrderOperationParams, OrderParams, ResendWebhookQuery, CancelParams, CreatePaymentRequest, CreditRequest, PaymentRequestBasics, SplitPurchaseBasics, SplitPurchaseRequest, DateReceiptsParams, DateReceiptsQuery, OrderReceiptParams, OrderReceiptQuery, routes, SECONDARY_ORDER_ID_MAX, characters } from '@payform/gateway/wire';
import type { OrderOperationResponse, Route } from '@payform/gateway/wire';
import { accountsOf, accountView, terminalsOf, terminalView, turnovers } from '../balances.js';
import { capture, refund, voidAuth } from '../operations.js';
import { cancel, createPayment, LONG_ORDER_ID_REASON, outlivesSecondaryOperations } from '../payments.js';
import { createPayout } from '../payouts.js';
import type { CreateRequest } from '../payments.js';
import { receiptDocument } from '../receipts/documents.js';
import { dayReceipts, findTransaction, orderReceipt } from '../receipts/selection.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { Operation, Order } from '../state/records.js';
import type { Project } from '../config.js';
import type { WarningNote } from '../inspector/notes.js';
import type { RequestId } from '../inspector/request-log.js';
import { Refusal } from '../state/refusal.js';
import { chargeAsPayment, createdPaymentView, links, operationView, paymentView } from '../views.js';
import { authenticate, ownProject } from './authentication.js';
import type { SandboxEnv } from './env.js';
import { parseInput, readBody, readJsonBody, readQuery, readRequest, readVariant } from './request-input.js';
import { webhookPortWarning } from './webhook-port.js';

/** An order-state read takes no query parameters (unknown ones are ignored unless strict). */
const NoQuery = z.strictObject({});

/** `publicUrl` when configured, else the origin the request came to. */
export type BaseUrlOf = (requestUrl: string) => string;

export function apiRoutes(gateway: SimulatedGateway, baseUrlOf: BaseUrlOf): Hono<SandboxEnv> {
  const api = new Hono<SandboxEnv>();
  const store = gateway.store;

  const create = (route: Route, schema: typeof CreatePaymentRequest | typeof SplitPurchaseRequest) =>
    api.post(route.path, authenticate(gateway, route), async (c) => {
      const body = await readJsonBody(c);
      // A payout is the same endpoint with its own request (payouts.ts).
      if (route === routes.createPayment && isCredit(body)) {
        const credit = readRequest(c, CreditRequest, body);
        noteWebhookPort(c, credit.server_url);
        const { payment } = await createPayout(gateway, c.get('requestId'), ownProject(c.get('project'), credit.pos_id), credit, baseUrlOf(c.req.url));
        return c.json(createdPaymentView(payment));
      }
      const request: CreateRequest = readVariant(c, schema, route === routes.createPayment ? PaymentRequestBasics : SplitPurchaseBasics, body);
      const project = ownProject(c.get('project'), request.pos_id);
      noteWebhookPort(c, request.server_url);
      const { payment } = await createPayment(gateway, c.get('requestId'), project, request, baseUrlOf(c.req.url));
      // Created, as the interface allows (a strict project refused it in createPayment), but said
      // now rather than when the first capture, void or refund is refused.
      if (outlivesSecondaryOperations(request)) {
        warn(c, {
          field: 'order_id',
          what: `${characters(request.order_id)} characters: ${LONG_ORDER_ID_REASON}`,
          rule: `order_id is at most ${SECONDARY_ORDER_ID_MAX} characters in capture, void and refund requests (the interface's Limits); keep it that short on create`,
        });
        gateway.config.log(`${route.path}: a ${request.method} created with an order_id of ${characters(request.order_id)} characters (over ${SECONDARY_ORDER_ID_MAX}) can never be captured, voided or refunded`);
      }
      if (payment.mode === 'hosted') return c.body(null, 303, { Location: links.checkout(payment) });
      return c.json(createdPaymentView(payment));
    });
  create(routes.createPayment, CreatePaymentRequest);
  create(routes.splitPurchase, SplitPurchaseRequest);

  const operation = <S extends z.ZodType<{ pos_id: string; server_url?: string | undefined }>>(
    route: Route,
    schema: S,
    perform: (gateway: SimulatedGateway, cause: RequestId | undefined, project: Project, request: z.output<S>) => Operation,
  ) =>
    api.post(route.path, authenticate(gateway, route), async (c) => {
      const request = await readBody(c, schema);
      noteWebhookPort(c, request.server_url);
      return c.json(operationView(perform(gateway, c.get('requestId'), ownProject(c.get('project'), request.pos_id), request), 'response'));
    });
  operation(routes.capture, CaptureRequest, capture);
  operation(routes.splitCapture, SplitCaptureRequest, capture);
  operation(routes.void, VoidRequest, voidAuth);
  operation(routes.refund, RefundRequest, refund);
  operation(routes.splitRefund, SplitRefundRequest, refund);

  // Cancel has no body: whatever is sent is ignored.
  api.post(routes.cancel.path, authenticate(gateway, routes.cancel), (c) => {
    const params = parseInput(CancelParams, c.req.param());
    const order = orderOf(gateway, ownProject(c.get('project'), params.pos_id).posId, params.order_id);
    cancel(gateway, c.get('requestId'), order);
    return c.json([paymentView(order.payment, 'cancel')]);
  });

  api.get(routes.accounts.path, authenticate(gateway, routes.accounts), (c) => {
    const project = ownProject(c.get('project'), parseInput(BalancesParams, c.req.param()).pos_id);
    const totals = turnovers(store.orders(project.posId));
    return c.json({ accounts: accountsOf(project).map((account) => accountView(account, totals, 'rollingReserve')) });
  });
  api.get(routes.account.path, authenticate(gateway, routes.account), (c) => {
    const params = parseInput(AccountParams, c.req.param());
    const project = ownProject(c.get('project'), params.pos_id);
    const account = accountsOf(project).find((candidate) => candidate.id === params.account_id);
    if (!account) throw Refusal.notFound(`Account ${params.account_id}`);
    // The samples spell the reserve both ways; the single-account answer uses the other spelling.
    return c.json(accountView(account, turnovers(store.orders(project.posId)), 'rolling_reserve'));
  });
  api.get(routes.terminals.path, authenticate(gateway, routes.terminals), (c) => {
    const project = ownProject(c.get('project'), parseInput(BalancesParams, c.req.param()).pos_id);
    const totals = turnovers(store.orders(project.posId));
    const terminals = terminalsOf(project);
    return c.json({
      terminals: terminals.filter((terminal) => !terminal.unavailable).map((terminal) => terminalView(terminal, totals)),
      failed_terminals: terminals
        .filter((terminal) => terminal.unavailable)
        .map((terminal) => ({ id: terminal.id, message: terminal.unavailable ?? '' })),
    });
  });
  api.get(routes.terminal.path, authenticate(gateway, routes.terminal), (c) => {
    const params = parseInput(TerminalParams, c.req.param());
    const project = ownProject(c.get('project'), params.pos_id);
    const terminal = terminalsOf(project).find((candidate) => candidate.id === params.terminal_id);
    if (!terminal) throw Refusal.notFound(`Terminal ${params.terminal_id}`);
    // The interface's balances answer 200, 400, 401 or 500 (its Errors, 1): a balance the bank
    // did not give is the unexpected error, with the gateway's error body.
    if (terminal.unavailable) throw new Refusal(500, terminal.unavailable, { code: 'P-500' });
    return c.json(terminalView(terminal, turnovers(store.orders(project.posId))));
  });

  // A credit reference gets a new number every time it is issued: a HEAD (answered with the GET's
  // headers) issues none, so it numbers the document as the next GET would without using it up.
  api.get(routes.orderReceipt.path, authenticate(gateway, routes.orderReceipt), async (c) => {
    const params = parseInput(OrderReceiptParams, c.req.param());
    const query = readRequest(c, OrderReceiptQuery, readQuery(c));
    const project = ownProject(c.get('project'), params.pos_id);
    const order = orderOf(gateway, project.posId, params.order_id);
    const receipt = orderReceipt(gateway, project, order, query, gateway.store.creditReferenceNumbers({ issue: !isHead(c) }));
    return receiptDocument(c, receipt, query.format);
  });
  api.get(routes.dateReceipts.path, authenticate(gateway, routes.dateReceipts), async (c) => {
    const params = parseInput(DateReceiptsParams, c.req.param());
    const query = readRequest(c, DateReceiptsQuery, readQuery(c));
    const project = ownProject(c.get('project'), params.pos_id);
    const files = await dayReceipts(gateway, project, params.date, query, gateway.store.creditReferenceNumbers({ issue: !isHead(c) }));
    return c.body(zipSync(files, { mtime: new Date(`${params.date}T12:00:00Z`) }), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="receipts-${params.date}.zip"`,
    });
  });

  api.get(routes.order.path, authenticate(gateway, routes.order), (c) => {
    const params = parseInput(OrderParams, c.req.param());
    readRequest(c, NoQuery, readQuery(c));
    const order = orderOf(gateway, ownProject(c.get('project'), params.pos_id).posId, params.order_id);
    return c.json(orderState(order));
  });

  // One operation of the order; with ?callback=true the webhook re-send of the interface. A HEAD
  // (a link checker, a proxy's probe, `curl -I`) is answered as the GET would be — the same
  // checks, status and headers — but sends nothing: HEAD is a safe method (RFC 9110, 9.3.2).
  api.get(routes.orderOperation.path, authenticate(gateway, routes.orderOperation), (c) => {
    const params = parseInput(OrderOperationParams, c.req.param());
    const query = readQuery(c);
    const resend = query.callback === undefined ? undefined : readRequest(c, ResendWebhookQuery, query);
    if (!resend) readRequest(c, NoQuery, query);
    const order = orderOf(gateway, ownProject(c.get('project'), params.pos_id).posId, params.order_id);
    const found = findTransaction(order, params.operation, resend?.transactionId);
    if (!found) throw Refusal.notFound(`${params.operation}${resend?.transactionId ? ` transaction ${resend.transactionId}` : ''} of order ${params.order_id}`);
    if (resend) {
      const target = found.kind === 'operation' ? (found.operation.serverUrl ?? order.payment.details.server_url) : order.payment.details.server_url;
      if (!target) throw Refusal.invalidField('server_url', 'was not sent with the order: there is nowhere to deliver the webhook');
      if (isHead(c)) {
        warn(c, {
          field: 'callback',
          what: 'HEAD: answered as the GET would be, and no webhook sent',
          rule: 'HEAD is a safe method (RFC 9110): only a GET with callback=true sends the webhook again',
        });
      } else if (found.kind === 'payment' && found.payment.status === 'init') {
        // No webhook is ever sent for init (a hosted payment nobody has paid yet): nor again.
        warn(c, {
          field: 'callback',
          what: 'the payment is init (its hosted page not yet submitted): answered, and no webhook sent',
          rule: 'webhooks are sent for every status a payment enters but init, so there is none to send again; one comes when its page is paid or it is cancelled',
        });
      } else if (found.kind === 'operation') gateway.notifyOperation(c.get('requestId'), order, found.operation, 'resend');
      else gateway.notifyPayment(c.get('requestId'), order, found.payment, 'resend');
    }
    const entry: OrderOperationResponse =
      found.kind === 'operation' ? operationView(found.operation, 'entry') : paymentView(found.payment, 'entry');
    return c.json(order.recurring && found.kind === 'payment' ? { ...entry, recurring: { id: order.recurring.id, status: order.recurring.status } } : entry);
  });

  return api;
}

/** Hono answers a HEAD with the GET route's handler (and drops the body): what it does must not change anything. */
const isHead = (c: Context<SandboxEnv>): boolean => c.req.method === 'HEAD';

/** A note for the request inspector (and no change to the answer). */
function warn(c: Context<SandboxEnv>, note: Omit<WarningNote, 'kind'>): void {
  c.set('warnings', [...(c.get('warnings') ?? []), { kind: 'warning', ...note }]);
}

/** A server_url the live gateway would not post to without notice (webhook-port.ts): a warning, and the request goes on. */
function noteWebhookPort(c: Context<SandboxEnv>, serverUrl: string | undefined): void {
  const warning = webhookPortWarning(serverUrl);
  if (warning) warn(c, warning);
}

const isCredit = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'credit';

function orderOf(gateway: SimulatedGateway, posId: string, orderId: string): Order {
  const order = gateway.store.order(posId, orderId);
  if (!order) throw Refusal.notFound(`Order ${orderId}`);
  return order;
}

/** Every transaction of the order, oldest first: the payment, recurring charges, operations. */
function orderState(order: Order): OrderOperationResponse[] {
  const entries: { at: number; entry: OrderOperationResponse }[] = [
    { at: order.payment.createdAt.getTime(), entry: paymentView(order.payment, 'entry') },
    ...(order.recurring?.charges ?? []).map((charge) => ({
      at: charge.createdAt.getTime(),
      entry: paymentView(chargeAsPayment(order.payment, charge), 'entry'),
    })),
    ...order.operations.map((operation) => ({ at: operation.createdAt.getTime(), entry: operationView(operation, 'entry') })),
  ];
  // A stable sort keeps same-millisecond entries in the order they happened.
  return entries.sort((a, b) => a.at - b.at).map(({ entry }) => entry);
}
