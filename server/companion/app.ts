/**
 * `createCompanion(config)`: the merchant's server as a Hono app. It holds the gateway
 * credentials, creates payments for the widget, takes the gateway's signed webhooks into the
 * ledger, and serves the merchant API of the back office. It uses web-standard Request and
 * Response only (Node's socket just for the client's address), and talks to the gateway only
 * through server/gateway.
 *
 *   const app = createCompanion({ ledger, gateway, gatewayApiSecret, publicUrl, adminToken });
 *   serve({ fetch: app.fetch, port: 3000 });      // @hono/node-server (see start.ts)
 *   app.companion.reconciler.start();             // settle what webhooks did not
 */
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { addBackOffice } from './back-office/back-office-routes.js';
import { challengeRoutes } from './checkout/challenge-routes.js';
import { checkoutRoutes } from './checkout/checkout-routes.js';
import { DirectPayments } from './checkout/direct-payments.js';
import { HostedCheckouts } from './checkout/hosted-checkouts.js';
import { returnRoutes } from './checkout/return-routes.js';
import { widgetRoutes } from './checkout/widget-routes.js';
import { resolveConfig } from './config.js';
import type { CompanionConfig } from './config.js';
import type { CompanionEnv, CompanionServices } from './context.js';
import { checkoutCors, noStore, securityHeaders } from './http/browser-policies.js';
import { abortedByClient, abortedProblem } from './http/client-abort.js';
import { problemOf } from './http/failure-problems.js';
import { limitBody, refuseNulInAddress, requireAdminToken, requireMediaType } from './http/guards.js';
import { idempotencyKeys } from './http/idempotency-keys.js';
import { InFlight } from './http/in-flight.js';
import { ApiProblem, sendProblem } from './http/problem.js';
import { RateLimiter } from './http/rate-limit.js';
import { logRequests } from './http/request-log.js';
import { createLogger } from './log/logger.js';
import type { Logger } from './log/logger.js';
import { balanceRoutes } from './merchant/balance-routes.js';
import { cardRoutes } from './merchant/card-routes.js';
import { chargeRoutes } from './merchant/charge-routes.js';
import { eventRoutes } from './merchant/event-routes.js';
import { feedRoutes } from './merchant/feed-routes.js';
import { orderRoutes } from './merchant/order-routes.js';
import { reportRoutes } from './merchant/report-routes.js';
import { SavedCardCharges } from './merchant/saved-card-charges.js';
import { SecondaryOperations } from './merchant/secondary-operations.js';
import type { Health } from './openapi/api-catalog.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { ChangeFeed } from './payments/change-feed.js';
import { MerchantNotices } from './payments/merchant-notices.js';
import { OrderStateSync } from './payments/order-state.js';
import { PaymentReactions } from './payments/reactions.js';
import { Reconciler } from './reconciliation/reconciler.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';

export interface CompanionHandle {
  readonly services: CompanionServices;
  /** Not started by createCompanion: call `start()` (composeCompanion does). */
  readonly reconciler: Reconciler;
  /**
   * Stops the reconciler and waits (up to 10 s) for hooks still running after their webhook was
   * answered; the ledger and gateway belong to whoever made them, to close afterwards.
   */
  stop(): Promise<void>;
}

export type CompanionApp = Hono<CompanionEnv> & { readonly companion: CompanionHandle };

/** How long stop() waits for hooks that outlived their webhook's answer. */
const BACKGROUND_GRACE_MS = 10_000;

/** Merchant API prefixes: everything under them needs the admin token. */
const ADMIN_PREFIXES = ['/api/orders', '/api/webhook-events', '/api/balances', '/api/receipts', '/api/stats', '/api/changes', '/api/customers'];

export function createCompanion(config: CompanionConfig): CompanionApp {
  const options = resolveConfig(config);
  const { ledger, gateway } = config;
  const clock = config.clock ?? Date.now;
  const logger = config.logger ?? createLogger({ clock });
  const feed = new ChangeFeed();
  const background = new InFlight();
  const notices = new MerchantNotices({
    ledger, logger, clock, background,
    hook: config.onPaymentEvent,
    hookTimeoutMs: options.reconciliation.hookTimeoutMs,
    dropAfterMs: options.reconciliation.giveUpAfterMs,
  });
  const reactions = new PaymentReactions({ ledger, feed, logger, clock, notices });
  const orderState = new OrderStateSync({
    ledger, gateway, reactions, logger, clock,
    sandboxOrigin: options.sandboxOrigin,
    neverSent: { reads: options.reconciliation.neverSentReads, spacingMs: options.reconciliation.neverSentSpacingMs },
  });
  const flow = { ledger, gateway, orderState, reactions, options, logger, clock };
  const directPayments = new DirectPayments(flow);
  const services: CompanionServices = {
    ...flow,
    feed,
    directPayments,
    hostedCheckouts: new HostedCheckouts(flow),
    operations: new SecondaryOperations(flow),
    charges: new SavedCardCharges({ ...flow, directPayments }),
    payLimits: {
      perSession: new RateLimiter(options.rateLimits.perSession, options.rateLimits.windowMs, clock),
      perClient: new RateLimiter(options.rateLimits.perClient, options.rateLimits.windowMs, clock),
    },
    wrongAdminTokens: new RateLimiter(options.rateLimits.wrongAdminTokens, options.rateLimits.windowMs, clock),
  };
  const reconciler = new Reconciler({ ledger, gateway, orderState, reactions, notices, timings: options.reconciliation, logger, clock });

  // Under a base path every route and middleware is registered below it, so the companion's
  // policies (security headers, body limits) never reach the routes of an app it is mounted in.
  const app = new Hono<CompanionEnv>().basePath(options.basePath || '/') as Hono<CompanionEnv>;
  app.use(async (c, next) => {
    c.set('services', services);
    c.set('logger', logger);
    await next();
  });
  app.use(logRequests());
  app.use(securityHeaders(options.publicUrl));
  // Before anything reads a body, on every path (routes added by `extend` included).
  app.use(limitBody(options.bodyLimitBytes, { [`${options.basePath}/webhooks/`]: options.webhookBodyLimitBytes }));
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (_c, allowed) => methodProblem(allowed) }));
  app.use('/api/checkout/sessions/*', checkoutCors(options.allowedOrigins));
  app.use('/api/*', noStore(), requireMediaType('application/json'));
  app.use('/webhooks/*', noStore(), requireMediaType('application/x-www-form-urlencoded'));
  // The return landing answers with a session's outcome, or a redirect carrying its id.
  app.use('/checkout/*', noStore());
  app.use(refuseNulInAddress());
  const admin = requireAdminToken(options.adminToken);
  for (const prefix of ADMIN_PREFIXES) app.use(prefix, admin).use(`${prefix}/*`, admin);
  // Every merchant POST takes an Idempotency-Key: those under the admin prefixes (`/*` matches
  // the prefix itself too, and the key must be claimed once) and the session create. After the
  // token check, so only the merchant can hold a key.
  const idempotent = idempotencyKeys(options.adminToken);
  app.use('/api/checkout/sessions', admin, idempotent);
  for (const prefix of ADMIN_PREFIXES) app.use(`${prefix}/*`, idempotent);

  app.route('/api/checkout', checkoutRoutes(options.adminToken));
  app.route('/checkout', returnRoutes(clock));
  app.route('/checkout', challengeRoutes());
  app.route('/widget', widgetRoutes(options.widgetDir));
  app.route('/webhooks', webhookRoutes(config.gatewayApiSecret, background));
  app.route('/api/orders', orderRoutes());
  app.route('/api/webhook-events', eventRoutes());
  app.route('/api/balances', balanceRoutes());
  app.route('/api', reportRoutes());
  app.route('/api/changes', feedRoutes());
  app.route('/api/customers', cardRoutes());
  app.route('/api/customers', chargeRoutes());
  if (options.backOffice) addBackOffice(app, options.backOffice, options.basePath, logger);
  app.get('/api/openapi.json', (c) => c.json(openApiDocument(options.publicUrl)));
  app.get('/healthz', async (c) => {
    try {
      await ledger.listOrders({ limit: 1 });
      return c.json({ status: 'ok' } satisfies Health);
    } catch (error) {
      logger.error('health check: the ledger cannot be reached', { err: error });
      return c.json({ status: 'unavailable' } satisfies Health, 503);
    }
  });

  // The path is not repeated: it is whatever the client typed, card data included.
  app.notFound((c) => sendProblem(c, new ApiProblem(404, 'not_found', `No ${c.req.method} route at this address`)));
  app.onError((error, c) => {
    if (abortedByClient(c)) return sendProblem(c, abortedProblem());
    return answerError(error, c.var.logger ?? logger, (problem) => sendProblem(c, problem));
  });

  const handle: CompanionHandle = {
    services,
    reconciler,
    async stop() {
      await reconciler.stop();
      if (!(await background.drained(BACKGROUND_GRACE_MS))) logger.warn('stopped while onPaymentEvent hooks were still running');
    },
  };
  return Object.assign(app, { companion: handle });
}

function methodProblem(allowed: readonly string[]): Response {
  const problem = new ApiProblem(405, 'method_not_allowed', `Use ${allowed.join(', ')}`);
  return Response.json(problem.body, { status: 405, headers: { Allow: allowed.join(', ') } });
}

/** Whatever went wrong becomes the envelope; only the companion's own faults are a 500. */
function answerError(error: Error, logger: Logger, send: (problem: ApiProblem) => Response): Response {
  const problem = problemOf(error);
  if (problem.status >= 500) logger.error('request error', { err: error, code: problem.code });
  return send(problem);
}
