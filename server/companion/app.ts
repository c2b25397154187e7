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
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { HonoRequest } from 'hono/request';
import { addBackOffice } from './back-office/back-office-routes.js';
import { challengeRoutes } from './checkout/challenge-routes.js';
import { checkoutRoutes } from './checkout/checkout-routes.js';
import { DirectPayments } from './checkout/direct-payments.js';
import { HeldAnswers } from './checkout/held-answers.js';
import { HostedCheckouts } from './checkout/hosted-checkouts.js';
import { PayerPages } from './checkout/payer-page.js';
import { returnRoutes } from './checkout/return-routes.js';
import { KnownSessions } from './checkout/session-terms.js';
import { widgetRoutes } from './checkout/widget-routes.js';
import { ledgerProblem, resolveConfig } from './config.js';
import type { CompanionConfig } from './config.js';
import type { CompanionEnv, CompanionServices } from './context.js';
import { answerHeaders, checkoutCors, foreignHostCors } from './http/browser-policies.js';
import { abortedByClient, abortedProblem } from './http/client-abort.js';
import { GATEWAY_FAILURES, problemOf } from './http/failure-problems.js';
import { REPLAYED_HEADER } from './http/idempotency-keys.js';
import { DECLARED_INPUT_PATH, refuseUndeclaredInput } from './http/declared-input.js';
import { limitBody, refuseNulInAddress, requireAdminToken, requireMediaType, takesPayments } from './http/guards.js';
import { idempotencyKeys } from './http/idempotency-keys.js';
import { InFlight } from './http/in-flight.js';
import { gateRequests } from './http/request-gate.js';
import { takenBody } from './http/body-taken.js';
import { answerUnrouted } from './http/host-routing.js';
import { ApiProblem, sendProblem } from './http/problem.js';
import { RateLimiter } from './http/rate-limit.js';
import { TokenHolders } from './http/token-holders.js';
import { logRequests } from './http/request-log.js';
import { ownProbeCheck, ownProbeToken } from './http/own-probe.js';
import { strayCheckoutNotice, strayWebhookNotice } from './http/stray-requests.js';
import { createLogger } from './log/logger.js';
import type { Logger } from './log/logger.js';
import { balanceRoutes } from './merchant/balance-routes.js';
import { cardRoutes } from './merchant/card-routes.js';
import { erasureRoutes } from './merchant/erasure-routes.js';
import { chargeRoutes } from './merchant/charge-routes.js';
import { DOWNLOADS_PATH } from './merchant/download-links.js';
import { downloadRoutes } from './merchant/download-routes.js';
import { eventRoutes } from './merchant/event-routes.js';
import { feedRoutes } from './merchant/feed-routes.js';
import { orderRoutes } from './merchant/order-routes.js';
import { reportRoutes } from './merchant/report-routes.js';
import { ORDERS_DOWNLOAD_PATH, orderExportRoutes } from './merchant/order-export.js';
import { MOVEMENTS_DOWNLOAD_PATH, movementExportRoutes, movementRoutes } from './merchant/movement-routes.js';
import { SavedCardCharges } from './merchant/saved-card-charges.js';
import { SecondaryOperations } from './merchant/secondary-operations.js';
import { isLedgerFault, isLedgerUnavailable } from '../ledger/index.js';
import { LedgerOutage } from './operator/ledger-outage.js';
import { CompanionMetrics } from './operator/metrics.js';
import { healthRoutes, metricsRoutes } from './operator/operator-routes.js';
import { GatewayTrouble } from './operator/gateway-trouble.js';
import { GatewayProbe } from './operator/gateway-probe.js';
import { MissingWebhooks } from './reconciliation/missing-webhooks.js';
import { BASE_PATH_HEADER, checkPublicUrl, companionIdentity, ledgerTag } from './operator/public-url-check.js';
import { API } from './openapi/api-catalog.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { ChangeFeed, feedStart } from './payments/change-feed.js';
import { MerchantNotices } from './payments/merchant-notices.js';
import { OrderStateSync } from './payments/order-state.js';
import { PaymentReactions } from './payments/reactions.js';
import { Reconciler } from './reconciliation/reconciler.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';

export interface CompanionHandle {
  readonly services: CompanionServices;
  /** Not started by createCompanion: call `start()` (composeCompanion does). */
  readonly reconciler: Reconciler;
  /** The instance's Prometheus metrics (`exposition()` for the text), whether or not /metrics is served. */
  readonly metrics: CompanionMetrics;
  /**
   * Marks the instance as stopping: /readyz answers 503 `draining` from now on, so a load
   * balancer sends no new customers; requests already here are served as usual.
   */
  drain(): void;
  /**
   * Stops the reconciler and waits (up to 10 s) for hooks still running after their webhook was
   * answered; the ledger and gateway belong to whoever made them, to close afterwards.
   */
  stop(): Promise<void>;
}

export type CompanionApp = Hono<CompanionEnv> & { readonly companion: CompanionHandle };

/** How long stop() waits for hooks that outlived their webhook's answer. */
const BACKGROUND_GRACE_MS = 10_000;

/** How long stop() tries to write the gateway answers held while the database was away. */
const HELD_FLUSH_MS = 2_000;

/** A saved card's charge, from the merchant's server (charge-routes.ts). */
const SAVED_CARD_CHARGES = '/api/customers/:customer_id/cards/:card_id/charges';

/** Merchant API prefixes: everything under them needs the admin token. */
const ADMIN_PREFIXES = ['/api/orders', '/api/movements', '/api/exports', '/api/webhook-events', '/api/balances', '/api/receipts', '/api/stats', '/api/changes', '/api/customers'];

export function createCompanion(config: CompanionConfig): CompanionApp {
  const options = resolveConfig(config);
  const ledgerWrong = ledgerProblem(config.ledger);
  if (ledgerWrong) throw new TypeError(`Invalid companion config: ${ledgerWrong}`);
  const { ledger, gateway } = config;
  const clock = config.clock ?? Date.now;
  const logger = config.logger ?? createLogger({ clock });
  const feed = new ChangeFeed({ start: feedStart(clock()) });
  const background = new InFlight();
  const metrics = new CompanionMetrics();
  const outage = new LedgerOutage({ ledger, logger, clock, onRefused: () => metrics.ledgerError('unavailable') });
  const readiness = { draining: false, foreignLedger: false };
  const probe = new GatewayProbe(gateway);
  const trouble = new GatewayTrouble(logger, clock, gateway.baseUrl, (kind) => {
    metrics.gatewayTrouble(kind);
    probe.troubleChanged(kind);
  });
  const unobserve = gateway.onCall((record) => {
    metrics.gatewayCall(record);
    trouble.observe(record);
  });
  const notices = new MerchantNotices({
    ledger, logger, clock, background,
    hook: config.onPaymentEvent,
    hookTimeoutMs: options.reconciliation.hookTimeoutMs,
    dropAfterMs: options.reconciliation.giveUpAfterMs,
  });
  const reactions = new PaymentReactions({ ledger, feed, logger, clock, notices, metrics });
  const orderState = new OrderStateSync({
    ledger, gateway, reactions, logger, clock,
    sandboxOrigin: options.sandboxOrigin,
    neverSent: { reads: options.reconciliation.neverSentReads, spacingMs: options.reconciliation.neverSentSpacingMs },
  });
  const flow = { ledger, gateway, orderState, reactions, options, logger, clock, gatewayTrouble: trouble };
  const knownSessions = new KnownSessions();
  const payerPages = new PayerPages(options, logger, clock);
  const held = new HeldAnswers(outage, logger);
  const directPayments = new DirectPayments(flow, held, knownSessions, payerPages);
  const services: CompanionServices = {
    ...flow,
    feed,
    directPayments,
    knownSessions,
    hostedCheckouts: new HostedCheckouts(flow, payerPages),
    operations: new SecondaryOperations(flow, held),
    charges: new SavedCardCharges({ ...flow, directPayments }),
    payLimits: {
      perSession: new RateLimiter(options.rateLimits.perSession, options.rateLimits.windowMs, clock),
      perClient: new RateLimiter(options.rateLimits.perClient, options.rateLimits.windowMs, clock),
    },
    wrongAdminTokens: new RateLimiter(options.rateLimits.wrongAdminTokens, options.rateLimits.windowMs, clock),
    tokenHolders: new TokenHolders(ledger, (error) => logger.debug('the clients that hold the admin token could not be read or kept in the ledger', { err: error })),
    metrics,
    outage,
    readiness,
  };
  const missingWebhooks = new MissingWebhooks({ ledger, logger, clock, webhookUrl: `${options.publicUrl}/webhooks/gateway`, outage });
  const reconciler = new Reconciler({ ledger, gateway, orderState, reactions, notices, timings: options.reconciliation, logger, clock, outage, missingWebhooks, readiness, personalDataDays: options.personalDataDays });

  // The path is not repeated: it is whatever the client typed, card data included. Any page may
  // read that there is no route here (it tells nothing else): a widget whose endpoint misses the
  // base path can then say so, instead of seeing a refused origin.
  const webhookSecrets = { current: config.gatewayApiSecret, previous: config.gatewayApiSecretPrevious };
  const strayWebhook = strayWebhookNotice(options.basePath, options.publicUrl, webhookSecrets, logger);
  const strayCheckout = strayCheckoutNotice(options.basePath, ledger, clock, logger);
  const unrouted = async (c: Context<CompanionEnv>): Promise<Response> => {
    await strayWebhook(c);
    await strayCheckout(c);
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    // The widget whose endpoint missed names the address to give, not a guess (diagnose.ts);
    // the base path is no secret: every page with <pay-form> shows it in its endpoint.
    c.header(BASE_PATH_HEADER, options.basePath);
    c.header('Access-Control-Expose-Headers', BASE_PATH_HEADER);
    return sendProblem(c, new ApiProblem(404, 'not_found', `No ${c.req.method} route at this address`));
  };

  // Under a base path every route and middleware is registered below it, so the companion's
  // policies (security headers, body limits) never reach the routes of an app it is mounted in.
  const app = new Hono<CompanionEnv>().basePath(options.basePath || '/') as Hono<CompanionEnv>;
  // Security headers on every answer, the gate's refusal and a taken body's answer among them
  // (they answer before anything else runs); no-store on the API, the webhooks and the return
  // landing (it answers with a session's outcome, or a redirect carrying its id).
  app.use(answerHeaders(options.publicUrl, ['/api', '/webhooks', '/checkout'].map((prefix) => `${options.basePath}${prefix}`), logger));
  // Routed into a Hono server, the host's 404 answers what no route took: the companion's answers instead.
  app.use(answerUnrouted(unrouted, BASE_PATH_HEADER));
  // Then: a request reaching a closed companion is refused before anything touches the ledger.
  const gate = gateRequests(app, logger);
  // Before anything reads it, a body the host took is said as such, not as a TypeError.
  const bodyTaken = takenBody();
  const dropForeignHostCors = foreignHostCors(logger);
  app.use((c, next) => {
    // Routed to from a Hono app of another copy of hono — a CommonJS shop's require('hono'), or
    // another version installed beside the companion's — hono's helpers find none of what their
    // own copy's requests carry: the companion's own app serves the request instead.
    const request: unknown = c.req;
    if (!(request instanceof HonoRequest)) return ownRequest(c.req).then((own) => (dropForeignHostCors(c), app.fetch(own, c.env)));
    c.set('services', services);
    c.set('logger', logger);
    const taken = bodyTaken(c);
    return taken ? Promise.resolve(taken) : next();
  });
  // Read when the ledger was opened: naming it costs no request a statement.
  const servedLedger = ledgerTag(ledger.id);
  const identity = companionIdentity(servedLedger);
  const probeToken = ownProbeToken(config.gatewayApiSecret);
  app.use(checkPublicUrl({ publicUrl: options.publicUrl, basePath: options.basePath, ledgerTag: servedLedger, probeToken, logger, wrong: () => metrics.publicUrlWrong() }));
  app.use(logRequests(app, ownProbeCheck([config.gatewayApiSecret, ...(config.gatewayApiSecretPrevious ? [config.gatewayApiSecretPrevious] : [])])));
  // Before anything reads a body, on every path (routes added by `extend` included).
  app.use(limitBody(options.bodyLimitBytes, { [`${options.basePath}/webhooks/`]: options.webhookBodyLimitBytes }));
  // Naming the companion and its ledger as /healthz does: the public URL check asks the webhook route with a GET.
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (_c, allowed) => methodProblem(allowed, identity) }));
  app.use('/api/checkout/sessions/*', checkoutCors(options.allowedOrigins, new URL(options.publicUrl).origin));
  app.use('/webhooks/*', requireMediaType('application/x-www-form-urlencoded'));
  app.use(refuseNulInAddress());
  // The token before anything else about the request is judged (its media type too): a caller
  // without it learns nothing of what a merchant route takes. It reads headers only.
  const admin = requireAdminToken(options.adminToken);
  for (const prefix of ADMIN_PREFIXES) app.use(prefix, admin).use(`${prefix}/*`, admin);
  // The checkout routes the merchant's server calls (the others' capability is the session id).
  app.use('/api/checkout/sessions', admin);
  app.on('DELETE', '/api/checkout/sessions/:id', admin);
  app.use('/api/*', requireMediaType('application/json'));
  // Every merchant POST takes an Idempotency-Key: those under the admin prefixes (`/*` matches
  // the prefix itself too, and the key must be claimed once) and the session create. After the
  // token check, so only the merchant can hold a key.
  const idempotent = idempotencyKeys(options.adminToken);
  // Replays are counted from the answers, so the key store needs to know nothing of metrics;
  // only where keys are kept, so other answers keep their plain header record (reading
  // `c.res.headers` builds a web Headers of it).
  const countReplays: MiddlewareHandler<CompanionEnv> = async (c, next) => {
    await next();
    if (c.res.headers.get(REPLAYED_HEADER) === 'true') metrics.idempotentReplay();
  };
  // What a route does not declare in the catalog (a query, a body) is refused before anything
  // runs: after the token check, before a key is claimed (a 4xx would free it anyway).
  app.use(DECLARED_INPUT_PATH, refuseUndeclaredInput(API));
  // A ledger handed to another point of sale refuses before a key is claimed: a refusal that ran
  // nothing, kept as a 5xx, would answer the retry its Retry-After asks for with itself for a day.
  app.use('/api/checkout/sessions', takesPayments, countReplays, idempotent);
  app.use(SAVED_CARD_CHARGES, takesPayments);
  for (const prefix of ADMIN_PREFIXES) app.use(`${prefix}/*`, countReplays, idempotent);

  app.route('/api/checkout', checkoutRoutes(clock));
  app.route('/checkout', returnRoutes(clock));
  app.route('/checkout', challengeRoutes());
  app.route('/widget', widgetRoutes(options.widgetDir, logger));
  app.route('/webhooks', webhookRoutes(webhookSecrets, background));
  app.route('/api/orders', orderRoutes());
  // Not under /api/orders: `export` is an order id a merchant may give.
  app.use('/api/exports/orders', gate.admitStream).use(ORDERS_DOWNLOAD_PATH, gate.admitStream);
  app.route('/api/exports/orders', orderExportRoutes());
  app.use('/api/exports/movements', gate.admitStream).use(MOVEMENTS_DOWNLOAD_PATH, gate.admitStream);
  app.route('/api/exports/movements', movementExportRoutes());
  app.route('/api/movements', movementRoutes());
  // The signed links' files: outside ADMIN_PREFIXES, the link is their credential (download-links.ts).
  app.route(DOWNLOADS_PATH, downloadRoutes());
  app.route('/api/webhook-events', eventRoutes());
  app.route('/api/balances', balanceRoutes());
  app.route('/api', reportRoutes());
  app.route('/api/changes', feedRoutes());
  app.route('/api/customers', erasureRoutes());
  app.route('/api/customers', cardRoutes());
  app.route('/api/customers', chargeRoutes());
  if (options.backOffice) addBackOffice(app, options.backOffice, options.publicUrl, options.merchantSector, logger);
  app.get('/api/openapi.json', (c) => c.json(openApiDocument(options.publicUrl, { bodyLimitBytes: options.bodyLimitBytes })));
  app.route('/', healthRoutes(identity));
  if (options.metricsToken) app.route('/metrics', metricsRoutes(options.metricsToken));

  app.notFound(unrouted);
  app.onError((error, c) => {
    if (abortedByClient(c)) return sendProblem(c, abortedProblem());
    if (isLedgerUnavailable(error)) outage.noticed(error);
    else if (isLedgerFault(error)) metrics.ledgerError('failed');
    return answerError(error, c.get('logger') ?? logger, c.get('payformRequestId'), (problem) => {
      // Every limit refuses by throwing its 429: counted here, so no limiter knows of metrics.
      if (problem.status === 429) metrics.rateLimited(routePath(c, -1));
      return sendProblem(c, problem);
    });
  });

  const handle: CompanionHandle = {
    services,
    reconciler,
    metrics,
    drain() {
      readiness.draining = true;
    },
    async stop() {
      readiness.draining = true;
      await reconciler.stop();
      await held.flush(HELD_FLUSH_MS);
      outage.stop();
      probe.stop();
      unobserve();
      if (!(await background.drained(BACKGROUND_GRACE_MS))) logger.warn('stopped while onPaymentEvent hooks were still running');
    },
  };
  return Object.assign(app, { companion: handle });
}

function methodProblem(allowed: readonly string[], identity: Readonly<Record<string, string>>): Response {
  const problem = new ApiProblem(405, 'method_not_allowed', `Use ${allowed.join(', ')}`);
  return Response.json(problem.body, { status: 405, headers: { Allow: allowed.join(', '), ...identity } });
}

/**
 * Whatever went wrong becomes the envelope; only the companion's own faults are a 500, and only
 * they are logged here with their stack. A database outage is logged once by LedgerOutage; a
 * gateway that failed a call, by the flow that made it (GATEWAY_FAILURES).
 */
function answerError(error: Error, logger: Logger, requestId: string | undefined, send: (problem: ApiProblem) => Response): Response {
  const problem = problemOf(error);
  if (problem.status >= 500 && problem.code !== 'ledger_unavailable' && !GATEWAY_FAILURES.has(problem.code)) logger.error('request error', { err: error, code: problem.code, request_id: requestId });
  return send(problem);
}


/**
 * A request of another copy of hono's, for the companion's own app: as it came, or — when that
 * copy's middleware read its body through its own `c.req`, which keeps it — with the body it read.
 */
async function ownRequest(foreign: { readonly raw: Request; text(): Promise<string> }): Promise<Request> {
  const { raw } = foreign;
  if (!raw.bodyUsed) return raw;
  // Read from the raw request instead, it is gone: body-taken.ts says so.
  const body = await foreign.text().catch(() => undefined);
  return body === undefined ? raw : new Request(raw.url, { method: raw.method, headers: raw.headers, body, signal: raw.signal });
}
