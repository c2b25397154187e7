/**
 * The control plane under /_sandbox: what a test or a tester uses to steer the simulated world.
 * It exists only on the sandbox and takes no credentials (run the sandbox on a trusted host).
 *
 *   GET    /_sandbox                 projects (ids, names, sub-merchants, balance ids) and this list
 *   POST   /_sandbox/reset           forget every order, token, webhook, fault and clock change
 *   POST   /_sandbox/3ds/:payment_id {"result": "success" | "failure"}  answer a 3-D Secure challenge
 *   GET    /_sandbox/webhooks        every delivery (?order_id= &method= &status= narrow the list)
 *   GET    /_sandbox/faults          the faults in force
 *   PUT    /_sandbox/faults          replace them ({} clears); see faults.ts, and shapes.ts for `shapes`
 *   DELETE /_sandbox/faults          clear them
 *   GET    /_sandbox/clock           the sandbox time
 *   POST   /_sandbox/clock           {"advance_seconds": n} or {"advance_ms": n}: move time on, run what fell due
 *   POST   /_sandbox/credits         create a successful credit (a payout), for credit receipts and references
 *   POST   /_sandbox/recurring       charge a successful card purchase again as a recurring payment
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { checkCurrencyPrecision, Currency, OrderId, Url, Uuid, formatTimestamp, reason, requestAmountRefusal, requiredText } from '@payform/gateway/wire';
import { accountsOf, terminalsOf } from '../balances.js';
import type { Project } from '../config.js';
import { FaultSettings } from '../faults.js';
import { chargeRecurring, completeChallenge, createCredit } from '../payments.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { minorUnits } from '../state/amounts.js';
import { Refusal } from '../state/refusal.js';
import { paymentView } from '../views.js';
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

/** A command's amount: a JSON number or a numeric string, held to the rules of a request's amount. */
const CommandAmount = z
  .union([z.number(), z.string()], { error: reason('must be a decimal number') })
  .superRefine((value, ctx) => {
    const refusal = requestAmountRefusal(value);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  });

const CreditCommand = z
  .strictObject({
    pos_id: Uuid.optional(),
    order_id: OrderId,
    amount: CommandAmount,
    currency: Currency,
    description: requiredText(2048).default('Credit to card'),
    server_url: Url.optional(),
  })
  .superRefine((command, ctx) => checkCurrencyPrecision(ctx, 'amount', command.amount, command.currency));

const RecurringCommand = z.strictObject({ pos_id: Uuid.optional(), order_id: OrderId, amount: CommandAmount.optional() });

const WebhookFilter = z.strictObject({
  order_id: z.string().optional(),
  method: z.string().optional(),
  status: z.string().optional(),
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
        accounts: accountsOf(project).map(({ id, name, currency }) => ({ id, name, currency })),
        terminals: terminalsOf(project).map(({ id, name, currency, unavailable }) => ({ id, name, currency, fails: Boolean(unavailable) })),
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
    return c.json(paymentView(order.payment, 'entry'));
  });

  control.get('/webhooks', (c) => {
    const filter = parseInput(WebhookFilter, readQuery(c));
    const deliveries = gateway.webhooks
      .list()
      .filter((delivery) => filter.order_id === undefined || delivery.order_id === filter.order_id)
      .filter((delivery) => filter.method === undefined || delivery.method === filter.method)
      .filter((delivery) => filter.status === undefined || delivery.status === filter.status);
    return c.json({ deliveries });
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
    const command = parseInput(CreditCommand, await readJsonBody(c));
    const project = projectOf(command.pos_id);
    const amount = minorUnits(command.amount, command.currency, 'amount');
    const order = createCredit(gateway, c.get('requestId'), project, { ...command, amount }, baseUrlOf(c.req.url));
    return c.json(paymentView(order.payment, 'entry'));
  });

  control.post('/recurring', async (c) => {
    const command = parseInput(RecurringCommand, await readJsonBody(c));
    const project = projectOf(command.pos_id);
    const order = gateway.store.order(project.posId, command.order_id);
    if (!order) throw Refusal.notFound(`Order ${command.order_id}`);
    const amount = command.amount === undefined ? undefined : minorUnits(command.amount, order.payment.currency, 'amount');
    const charge = chargeRecurring(gateway, c.get('requestId'), order, amount);
    const recurring = order.recurring ? { id: order.recurring.id, status: order.recurring.status } : null;
    return c.json({ ...paymentView(charge, 'entry'), recurring });
  });

  return control;
}
