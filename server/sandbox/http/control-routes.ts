/**
 * The control plane under /_sandbox: what a test or a tester uses to steer the simulated world.
 * It exists only on the sandbox and takes no credentials (run the sandbox on a trusted host).
 *
 *   GET    /_sandbox                 projects (ids, names, sub-merchants, balance ids) and this list
 *   POST   /_sandbox/reset           forget every order, token, webhook, fault and clock change
 *   POST   /_sandbox/3ds/:payment_id {"result": "success" | "failure"}  answer a 3-D Secure challenge
 *   GET    /_sandbox/webhooks        deliveries, oldest first, a page at a time (?limit=, 100 by default, at most
 *                                     1000; ?after=<cursor> the next page); ?order_id= &method= &status= &event_status= narrow the list
 *   GET    /_sandbox/faults          the faults in force
 *   PUT    /_sandbox/faults          replace them ({} clears); see faults.ts, and shapes.ts for `shapes`
 *   DELETE /_sandbox/faults          clear them
 *   GET    /_sandbox/clock           the sandbox time
 *   POST   /_sandbox/clock           {"advance_seconds": n} or {"advance_ms": n}: move time on, run what fell due
 *   POST   /_sandbox/credits         create a successful credit (a payout), for credit receipts and references
 *   POST   /_sandbox/recurring       charge a successful card purchase again as a recurring payment
 *
 * Its amounts are integer minor units (`amount_minor`), as everywhere in payform: the gateway's
 * decimals belong to its interface under /api/v1, and to nothing else.
 */
import { Hono } from 'hono';
import { formatMinorUnits, readWebhookEvent } from '@payform/gateway';
import * as z from 'zod';
import { Currency, Method, OrderId, Status, StatusCode, Url, Uuid, formatTimestamp, requiredText } from '@payform/gateway/wire';
import type { MinorUnitFields } from '@payform/gateway/wire';
import { accountsOf, terminalsOf } from '../balances.js';
import type { Project } from '../config.js';
import { FaultSettings } from '../faults.js';
import { chargeRecurring, completeChallenge, createCredit, currencyIssues } from '../payments.js';
import { shownUrl } from '../shown-url.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { DELIVERY_STATUSES } from '../webhook-sender.js';
import type { Delivery } from '../webhook-sender.js';
import { majorUnitsRefusal, minorAmountRefusal } from '../state/amounts.js';
import type { Payment } from '../state/records.js';
import { Refusal } from '../state/refusal.js';
import type { BaseUrlOf } from './api-routes.js';
import type { SandboxEnv } from './env.js';
import { parseInput, readJsonBody, readQuery } from './request-input.js';

/** The body of a command that takes none: empty, or `{}`. */
const NOTHING = z.strictObject({});

const ChallengeCommand = z.strictObject({ result: z.enum(['success', 'failure']) });

const ClockCommand = z
  .strictObject({
    advance_seconds: z.number().min(0).max(10 * 365 * 86_400).optional(),
    advance_ms: z.number().int().min(0).max(10 * 365 * 86_400_000).optional(),
  })
  .refine((command) => (command.advance_seconds === undefined) !== (command.advance_ms === undefined), {
    error: 'send exactly one of advance_seconds and advance_ms',
  });

const CreditCommand = z.strictObject({
  pos_id: Uuid.optional(),
  order_id: OrderId,
  /** Held to its currency once the command is read (`amountMinor`). */
  amount_minor: z.number(),
  currency: Currency,
  description: requiredText(2048).default('Credit to card'),
  server_url: Url.optional(),
});

const RecurringCommand = z.strictObject({ pos_id: Uuid.optional(), order_id: OrderId, amount_minor: z.number().optional() });

/** A command's amount in minor units, written whole: `10.00` is refused, not read as 10. */
const AMOUNT_MINOR: MinorUnitFields = { key: /^amount_minor$/, at: (path) => path.length === 1 };

/**
 * Reads a command whose amount is `amount_minor`. An `amount` in it is 0.2's major units: its
 * refusal says what to send instead, where the schema would only call it an unknown field.
 */
function readAmountCommand<S extends z.ZodType>(schema: S, body: unknown, currencyOf: (body: Record<string, unknown>) => string): z.output<S> {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (fields.amount !== undefined) throw Refusal.invalidField('amount', majorUnitsRefusal('amount_minor', fields.amount, currencyOf(fields)));
  return parseInput(schema, body);
}

/**
 * `minor` as an amount of `currency` the project could have paid or paid out, or a 400 naming why
 * not: the API declines an amount above the project's limit (4012), so the control plane makes
 * no success of one.
 */
function amountMinor(project: Project, minor: number, currency: string): number {
  const refusal = minorAmountRefusal(minor, currency, 'positive');
  if (refusal) throw Refusal.invalidField('amount_minor', refusal);
  if (minor > project.amountLimitMinor) {
    throw Refusal.invalidField('amount_minor', `is above the project's amount limit (${formatMinorUnits(project.amountLimitMinor, currency)}): the gateway declines such a payment with ${StatusCode.AmountLimitExceeded}`);
  }
  return minor;
}

/**
 * A payment the control plane made or moved on, in payform's units: what a test needs to find
 * it again. The gateway's own view of it is its order state, under /api/v1.
 */
function madePayment(payment: Payment) {
  return {
    order_id: payment.orderId,
    payment_id: payment.id,
    transaction_id: payment.transactionId,
    method: payment.method,
    status: payment.status,
    status_code: payment.statusCode,
    amount_minor: payment.amount,
    currency: payment.currency,
  };
}

/**
 * A delivery as listed: `event` is the event as posted, in the interface's decimals, beside its
 * amount as payform's client reads it; null where a wire-shapes fault made it unreadable. The
 * target's password shows as in the log; the delivery keeps the URL as given, to post to.
 */
function listedDelivery(delivery: Delivery) {
  const listed = { ...delivery, target: shownUrl(delivery.target) };
  try {
    const { amount, currency } = readWebhookEvent(delivery.event);
    return { ...listed, amount_minor: amount, currency };
  } catch {
    return { ...listed, amount_minor: null, currency: null };
  }
}

/**
 * GET /_sandbox/webhooks answers a page of the log: each delivery carries its signed body and
 * event, and the whole log (up to ten thousand) in one answer took hundreds of megabytes.
 */
const WEBHOOKS_PAGE_DEFAULT = 100;
const WEBHOOKS_PAGE_MAX = 1000;

/**
 * `status` is the delivery's progress and `event_status` the event's own status: a closed list
 * each, so that `?status=success` is refused naming the field to use rather than listing nothing.
 */
const WebhookFilter = z.strictObject({
  order_id: z.string().optional(),
  method: Method.optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}: a delivery's progress (the event's own status is event_status)` }).optional(),
  event_status: Status.optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `must be a whole number from 1 to ${WEBHOOKS_PAGE_MAX}`)
    .transform(Number)
    .refine((limit) => limit >= 1 && limit <= WEBHOOKS_PAGE_MAX, `must be a whole number from 1 to ${WEBHOOKS_PAGE_MAX}`)
    .default(WEBHOOKS_PAGE_DEFAULT),
  after: z.string().regex(/^\d{1,15}$/, 'must be a cursor: the whole number a page answered as its cursor').transform(Number).default(0),
});

export function controlRoutes(gateway: SimulatedGateway, baseUrlOf: BaseUrlOf): Hono<SandboxEnv> {
  const control = new Hono<SandboxEnv>();
  const projectOf = (posId: string | undefined): Project => {
    const project = posId === undefined ? gateway.defaultProject : gateway.project(posId);
    if (!project) throw Refusal.notFound(`Project ${posId ?? ''}`);
    return project;
  };

  control.get('/', (c) =>
    c.json({
      projects: gateway.config.projects.map((project) => ({
        pos_id: project.posId,
        name: project.name,
        currency: project.currency,
        currencies: project.currencies,
        capture_over_reserve_percent: project.captureOverReservePercent,
        sector: project.sector ?? null,
        credit_references: project.creditReferences,
        three_d_secure: project.threeDSecure,
        sub_merchants: project.subMerchants,
        strict: project.strict,
        accounts: accountsOf(project).map(({ id, name, currency, opening }) => ({ id, name, currency, opening_balance_minor: opening })),
        terminals: terminalsOf(project).map(({ id, name, currency, opening, unavailable }) => ({ id, name, currency, opening_balance_minor: opening, fails: Boolean(unavailable) })),
      })),
      clock: formatTimestamp(gateway.clock.now()),
    }),
  );

  control.post('/reset', async (c) => {
    // It takes nothing: a body that says something else is refused before everything is forgotten.
    parseInput(NOTHING, await readJsonBody(c, { optional: true }));
    gateway.reset();
    return c.json({ reset: true, clock: formatTimestamp(gateway.clock.now()) });
  });

  control.post('/3ds/:payment_id', async (c) => {
    const { result } = parseInput(ChallengeCommand, await readJsonBody(c));
    const order = gateway.store.byPaymentId(c.req.param('payment_id'));
    if (!order) throw Refusal.notFound(`Payment ${c.req.param('payment_id')}`);
    completeChallenge(gateway, c.get('requestId'), order, result);
    return c.json(madePayment(order.payment));
  });

  control.get('/webhooks', (c) => {
    const filter = parseInput(WebhookFilter, readQuery(c));
    const page = gateway.webhooks.page(
      filter.after,
      filter.limit,
      (delivery) =>
        (filter.order_id === undefined || delivery.order_id === filter.order_id) &&
        (filter.method === undefined || delivery.method === filter.method) &&
        (filter.status === undefined || delivery.status === filter.status) &&
        (filter.event_status === undefined || delivery.event_status === filter.event_status),
    );
    return c.json({ deliveries: page.deliveries.map(listedDelivery), cursor: page.cursor, more: page.more });
  });

  control.get('/faults', (c) => c.json(gateway.faults.settings));
  control.put('/faults', async (c) => {
    gateway.faults.set(parseInput(FaultSettings, await readJsonBody(c)));
    return c.json(gateway.faults.settings);
  });
  control.delete('/faults', (c) => {
    gateway.faults.clear();
    return c.json(gateway.faults.settings);
  });

  control.get('/clock', (c) => c.json({ now: formatTimestamp(gateway.clock.now()), frozen: gateway.clock.frozen }));
  control.post('/clock', async (c) => {
    const command = parseInput(ClockCommand, await readJsonBody(c));
    gateway.clock.advance(command.advance_ms ?? (command.advance_seconds ?? 0) * 1000);
    gateway.scheduler.runDue();
    return c.json({ now: formatTimestamp(gateway.clock.now()), frozen: gateway.clock.frozen });
  });

  control.post('/credits', async (c) => {
    const command = readAmountCommand(CreditCommand, await readJsonBody(c, { minorUnits: AMOUNT_MINOR }), (body) => String(body.currency ?? ''));
    const project = projectOf(command.pos_id);
    // A currency the project has not enabled is refused by the API: no credit in it either.
    const currencyRefused = currencyIssues(project, command.currency);
    if (currencyRefused.length > 0) throw Refusal.invalid(currencyRefused);
    const amount = amountMinor(project, command.amount_minor, command.currency);
    const order = createCredit(gateway, c.get('requestId'), project, { ...command, amount }, baseUrlOf(c.req.url));
    return c.json(madePayment(order.payment));
  });

  control.post('/recurring', async (c) => {
    const body = await readJsonBody(c, { minorUnits: AMOUNT_MINOR });
    // Where the order cannot be found yet, an amount in major units is named without its currency.
    const currencyOf = (fields: Record<string, unknown>) =>
      gateway.store.order(typeof fields.pos_id === 'string' ? fields.pos_id : gateway.defaultProject.posId, String(fields.order_id))?.payment.currency ?? '';
    const command = readAmountCommand(RecurringCommand, body, currencyOf);
    const project = projectOf(command.pos_id);
    const order = gateway.store.order(project.posId, command.order_id);
    if (!order) throw Refusal.notFound(`Order ${command.order_id}`);
    const amount = command.amount_minor === undefined ? undefined : amountMinor(project, command.amount_minor, order.payment.currency);
    const charge = chargeRecurring(gateway, c.get('requestId'), order, amount);
    const recurring = order.recurring ? { id: order.recurring.id, status: order.recurring.status } : null;
    return c.json({ ...madePayment(charge), recurring });
  });

  return control;
}
