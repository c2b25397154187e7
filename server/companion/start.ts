/**
 * Running the companion: `composeCompanion` builds it from settings (ledger opened and
 * migrated, gateway client, app, reconciliation running) — what a merchant mounts in a server of
 * its own, so it needs the admin token and public URL given —, `startCompanion` also listens
 * with @hono/node-server (the bin: it may make up both for development). `npm start` composes
 * the sandbox, the companion and the demo in one process with these:
 *
 *   const sandbox = …;                                            // started first, its URL known
 *   const companion = await startCompanion(readCompanionConfig(process.env), {
 *     gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, extend: (app) => app.route('/', demo),
 *   });
 *   …; await companion.close();
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { createServer } from 'node:http';
import type { Server, ServerOptions, ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import { Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { GatewayClient, nearestName, NetworkError, passwordMasked } from '@payform/gateway';
import { isPostgresUrl, MissingDriverError, openLedger, upgradeNotice } from '../ledger/index.js';
import type { Ledger } from '../ledger/index.js';
import { createCompanion } from './app.js';
import type { BackOfficeConfig } from './back-office/back-office-options.js';
import { InFlight } from './http/in-flight.js';
import { UnparsedRequests } from './http/unparsed-requests.js';
import { requestGate, shuttingDown } from './http/request-gate.js';
import type { CompanionApp } from './app.js';
import { clusterWorker, madeUpTokenInWorker, metricsInWorker, workerLogBindings } from './cluster-worker.js';
import { BasePath, millisecondsProblem, notFunctions } from './config.js';
import type { CompanionConfig, MillisecondsRule } from './config.js';
import { kindOf, leftAloneNotice } from './environment.js';
import type { EnvironmentInput } from './environment.js';
import { checkAdminTokenAcrossInstances } from './admin-token-check.js';
import { checkClock } from './clock-check.js';
import { checkSharedSettings } from './shared-settings-check.js';
import { createLogger } from './log/logger.js';
import type { Logger } from './log/logger.js';
import type { PaymentEventHook } from './payments/reactions.js';
import { notifyHook, shownNotifyUrl } from './payments/notify-url.js';
import { namedHook } from './payments/payment-change.js';
import { companionSettingsOf, GATEWAY_TIMEOUT, isSettingName, readCompanionConfig, unreadHint } from './settings.js';
import type { CompanionSettings } from './settings.js';
import { takenOnIpv6Loopback, takenOnIpv6LoopbackProblem } from './localhost-port.js';
import { isLocalHttpGateway, isLoopback, isLoopbackHost, isPlainHttpElsewhere } from './loopback.js';
import { unknownOptions } from './near-names.js';
import { checkGateway } from './gateway-check.js';
import { originOf } from './payments/redirects.js';
import { INSTANCE_HEADER, instanceId } from './operator/public-url-check.js';
import { rebindingHost } from './operator/metrics-host.js';
import { checkTokenizer } from './tokenizer-check.js';
import { checkTokenizerOrigins } from './tokenizer-origins.js';
import { requestAddress } from './http/request-address.js';
import { securityHeaders } from './http/browser-policies.js';
import { refuseDuringBuild } from './build-phase.js';
import { countOpenCompanion } from './open-companions.js';
import { explainedLedgerFault } from './ledger-faults.js';
import { problemBody } from './http/problem.js';

/**
 * Where development listens without HOST: this machine only. The sandbox's credentials and
 * webhook secret are published, so anyone else on the network could otherwise sign webhooks.
 */
const DEVELOPMENT_HOST = '127.0.0.1';

/** A gateway call's default timeout: a request in flight has had its answer by then. */
const SHUTDOWN_GRACE_MS = 30_000;
/**
 * Closing, how long no request may have come on the connections still open before the idle ones
 * are closed, and the longest that is waited for (below, `close`).
 */
const QUIET_BEFORE_CLOSING_MS = 100;
const QUIET_AT_MOST_MS = 2_000;

/**
 * Kept at the end of the grace to record an outcome and answer: what the gateway has not
 * answered by then is given up (at most a quarter of a short grace).
 */
const ANSWER_TIME_MS = 2_000;

/**
 * How long an idle connection stays open. Node's 5 s default is shorter than the idle timeout
 * of the proxies merchants put in front (nginx upstream keep-alive, cloud load balancers: 60 s),
 * so a proxy would reuse a connection just as the companion closes it and answer its customer
 * 502. Longer than theirs, the proxy is the one that closes an idle connection.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * How long a request may take to arrive whole, headers and body (answered 408 after). A
 * payment's body is a few KB, sent at once by a proxy in front and within a second or two by
 * a poor mobile link; Node's 5 minutes let a client trickling a byte a second hold a connection
 * and its memory that long (a few hundred such clients starve the server). Only the arrival is
 * timed: a handler waiting on a slow gateway call is not cut.
 */
const REQUEST_TIMEOUT_MS = 30_000;

/** Headers (a KB or so, more with the shop's cookies) come in a packet or two: 20 s, not Node's 60 s. */
const HEADERS_TIMEOUT_MS = 20_000;

/** Node's own interval: a longer one only delays the cut (and past 2^31 - 1 ms a timer fires every 1 ms). */
const CHECKING_INTERVAL_MAX_MS = 30_000;

/**
 * The limits above as the server's options. Node looks for late requests every
 * `connectionsCheckingInterval` (30 s by default, which would double the limit): at a sixth of
 * it, a late request is cut within a sixth past the limit.
 */
function requestLimits(requestTimeoutMs = REQUEST_TIMEOUT_MS): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(Math.ceil(requestTimeoutMs / 6), CHECKING_INTERVAL_MAX_MS),
  };
}

/**
 * An HTTP server for `fetch` with the request limits, whose refusals (by Node's parser, or by
 * @hono/node-server, which cannot build a URL of a broken Host) are answered in the error
 * envelope and logged.
 */
function httpServer(fetch: Parameters<typeof getRequestListener>[0], hostname: string | undefined, unparsed: UnparsedRequests, requestTimeoutMs?: number): Server {
  const listener = getRequestListener(fetch, { ...(hostname ? { hostname } : {}), errorHandler: unparsed.unbuilt });
  const server = createServer(requestLimits(requestTimeoutMs), listener);
  // Read as the connection opens, Node keeps the peer's address for the socket's life: read only
  // at the request, a client that resets its connection right after sending leaves none.
  server.on('connection', (socket) => void socket.remoteAddress);
  unparsed.watch(server);
  return server;
}

/**
 * Until the answer has been written out — the handler returning is not enough, @hono/node-server
 * still writes the body. A live feed (server-sent events) never ends by itself: it is not waited
 * for, and closing cuts it. Its Content-Type is read a turn later, once the adapter has taken
 * the answer: reading `response.headers` before that would build a web Headers of the answer's
 * plain header record and send every answer down the adapter's slower path.
 */
async function delivered(response: Response, outgoing: ServerResponse | undefined): Promise<void> {
  if (!outgoing) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  // Most answers are out by then: nothing to wait for, no listeners to attach.
  if (outgoing.writableFinished || response.headers.get('content-type')?.startsWith('text/event-stream')) return;
  await finished(outgoing).catch(() => undefined);
}

export interface StartOptions {
  /** The gateway when the settings name none: the bundled sandbox the caller started. */
  readonly gatewayBaseUrl?: string;
  /** The sandbox's origin, when the settings name none (development redirects). */
  readonly sandboxOrigin?: string;
  /** Overrides the settings' public URL (e.g. once the real port is known). */
  readonly publicUrl?: string;
  /** Where the companion's routes are in the server it is mounted in (`/payments`); default `/`. */
  readonly basePath?: string;
  /** The back office (createCompanion's `backOffice`); default the settings' (PAYFORM_BACK_OFFICE). */
  readonly backOffice?: BackOfficeConfig;
  readonly logger?: Logger;
  readonly onPaymentEvent?: PaymentEventHook;
  /** Adds routes before the app serves (the demo's pages on the same port). */
  readonly extend?: (app: CompanionApp) => void;
  /** The gateway client's fetch; default: undici's keep-alive connection pools (see gateway/exchange.ts). */
  readonly fetch?: typeof globalThis.fetch;
  /** Gateway call timeout per attempt; default PAYFORM_GATEWAY_TIMEOUT_MS, else the client's (30 s). */
  readonly gatewayTimeoutMs?: number;
  /**
   * How long close() lets requests in flight finish (mounted: those already in the companion's
   * app); default 30 s (a gateway call's timeout).
   * Gateway calls still unanswered 2 s before its end are given up: a payment's outcome is then
   * unknown, answered as pending and left to reconciliation.
   */
  readonly shutdownGraceMs?: number;
  /**
   * How long a request may take to arrive whole, headers and body, before it is answered 408
   * (`request_timeout`); default 30 s (headers: 20 s, or this if shorter). The handler's own
   * time, a gateway call's, is not counted.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Reconciliation's timings (createCompanion's `reconciliation`), each defaulting as there: a
   * merchant's own tests of a webhook that never comes shorten them rather than wait a minute.
   */
  readonly reconciliation?: CompanionConfig['reconciliation'];
  /** The epoch-ms clock the companion reads (createCompanion's `clock`); default `Date.now`. */
  readonly clock?: () => number;
}

/** Every option, so that a misspelt one (`basepath`) is named rather than ignored. */
const START_OPTIONS: Readonly<Record<keyof StartOptions, true>> = {
  gatewayBaseUrl: true,
  sandboxOrigin: true,
  publicUrl: true,
  basePath: true,
  backOffice: true,
  logger: true,
  onPaymentEvent: true,
  extend: true,
  fetch: true,
  gatewayTimeoutMs: true,
  shutdownGraceMs: true,
  requestTimeoutMs: true,
  reconciliation: true,
  clock: true,
};

/**
 * The options given in milliseconds, each with its rule: the gateway's timeout as its variable
 * takes it; the grace at most what a timer can wait (Node fires a longer one at once, which would
 * give up every payment in flight as close() begins); a request's arrival any time above 0.
 */
const MILLISECOND_OPTIONS: Readonly<Record<'gatewayTimeoutMs' | 'shutdownGraceMs' | 'requestTimeoutMs', MillisecondsRule>> = {
  gatewayTimeoutMs: GATEWAY_TIMEOUT,
  shutdownGraceMs: { min: 0, max: 2 ** 31 - 1 },
  requestTimeoutMs: { min: 1 },
};

/** Below a second, a grace or a request's time is seconds written as milliseconds, more likely than meant. */
const LIKELY_SECONDS_BELOW_MS = 1_000;

/** The warnings of the millisecond options whose value reads like seconds (`shutdownGraceMs: 30`), one a line. */
function secondsMeant(options: StartOptions): string[] {
  const consequences = {
    shutdownGraceMs: 'a stop gives up the payments still in flight after that, answered pending and left to reconciliation',
    requestTimeoutMs: 'a request that takes longer to arrive whole is answered 408',
  } as const;
  return Object.entries(consequences).flatMap(([name, consequence]) => {
    const ms = options[name as keyof typeof consequences];
    if (ms === undefined || ms === 0 || ms >= LIKELY_SECONDS_BELOW_MS) return [];
    return [`${name} is ${ms} milliseconds: ${consequence}; if you meant ${ms} seconds, write ${ms * 1000}`];
  });
}

function checkStartOptions(options: StartOptions, caller: 'composeCompanion' | 'startCompanion'): void {
  // `composeCompanion(settings, '/payments')`: named as one mistake, not as each of its characters.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`Invalid companion options: the options must be an object, { basePath: '/payments', … }, not ${options === null ? 'null' : kindOf(options)}`);
  }
  // Before the ledger opens: a hook that is not a function would otherwise fail at every payment.
  const known = Object.keys(START_OPTIONS);
  // A setting given with the options (rateLimits, logLevel) is refused with where it goes.
  const settingsHere = Object.keys(options).filter((name) => !known.includes(name) && isSettingName(name));
  const wrong = [
    ...settingsHere.map((name) => `${name} is one of the settings, not an option: spread it into them, { ...readCompanionConfig(…), ${name}: … }`),
    ...unknownOptions(Object.fromEntries(Object.entries(options).filter(([name]) => !settingsHere.includes(name))), known),
    ...notFunctions(options, ['onPaymentEvent', 'extend', 'fetch', 'clock']),
    ...Object.entries(MILLISECOND_OPTIONS).flatMap(([name, rule]) =>
      // Only the server startCompanion makes times a request's arrival: mounted, the shop's server does.
      name === 'requestTimeoutMs' && caller === 'composeCompanion' && options.requestTimeoutMs !== undefined
        ? ['requestTimeoutMs is startCompanion’s, whose HTTP server it sets: mounted, requests reach the companion through your server, whose own timeouts apply (Node’s server.requestTimeout)']
        : (millisecondsProblem(name, (options as Readonly<Record<string, unknown>>)[name], rule) ?? []),
    ),
    // A base path the app would refuse after the ledger opened (and its lines were logged).
    ...(options.basePath === undefined || BasePath.safeParse(options.basePath).success ? [] : [`basePath must be a path such as /payments, not ${JSON.stringify(options.basePath)}`]),
  ];
  if (wrong.length > 0) throw new TypeError(`Invalid companion options: ${wrong.join('; ')}`);
}

export interface ComposedCompanion {
  readonly app: CompanionApp;
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  /**
   * Mounted in a server of yours, close that server first. If it is still open, close() marks
   * the companion draining (/readyz 503), lets the requests already in its app finish — up to
   * `shutdownGraceMs`, giving up gateway calls still unanswered just before its end — and
   * answers those that come after 503 `shutting_down` (logged once). Then it stops
   * reconciliation, waits for hooks still running, and closes the ledger.
   */
  close(): Promise<void>;
}

export interface RunningCompanion extends ComposedCompanion {
  /** Where it listens, e.g. http://localhost:3000. */
  readonly url: string;
  readonly port: number;
  /** The bound address for the start-up lines, e.g. `127.0.0.1:3000 (this machine only; …)`. */
  readonly listening: string;
  /** Where /metrics is served on an address of its own (PAYFORM_METRICS_ADDRESS). */
  readonly metricsUrl?: string;
  /**
   * Stops gracefully: no new connections (a request on a connection already open is answered
   * 503), requests in flight finish — up to `shutdownGraceMs`, giving up the gateway calls
   * still unanswered just before its end —, then the remaining connections are closed,
   * reconciliation stops and the ledger closes. A payment the gateway took while shutting down
   * is still recorded.
   */
  close(): Promise<void>;
}

/**
 * The companion for a server of yours (Hono, Express, a fetch handler). Mounted, nothing stands
 * in for its admin token or its public URL: a made-up token would be shown to no one, and
 * `http://localhost:$PORT` would send the gateway's webhooks nowhere. Both refusals name the
 * variable and the option. The settings are readCompanionConfig's, or the variables it reads.
 */
export async function composeCompanion(given: CompanionSettings | EnvironmentInput, options: StartOptions = {}): Promise<ComposedCompanion> {
  refuseDuringBuild('composeCompanion');
  const settings = companionSettingsOf(given, 'composeCompanion');
  checkStartOptions(options, 'composeCompanion');
  const missing = [
    ...(settings.adminTokenGenerated ? [{ variable: 'PAYFORM_ADMIN_TOKEN', what: 'the admin token (PAYFORM_ADMIN_TOKEN, at least 16 characters)' }] : []),
    ...(settings.publicUrlDerived && !options.publicUrl
      ? [{ variable: 'PAYFORM_PUBLIC_URL', what: 'the public URL browsers and the gateway reach your server at (PAYFORM_PUBLIC_URL, or the publicUrl option; webhooks and 3-D Secure returns go there)' }]
      : []),
  ];
  if (missing.length > 0) {
    // A name misspelt, or left unprefixed as 0.2 spelt it, is why it is missing more often than not: say which.
    throw new TypeError(
      `Invalid companion config: mounted in your server, the companion needs ${missing.map(({ what }) => what).join(' and ')}; ` +
        `only the payform-companion bin makes these up for development${unreadHint(settings, missing.map(({ variable }) => variable))}`,
    );
  }
  return compose(settings, options);
}

/**
 * A public URL in plain http to another machine: every browser's request to the companion (a
 * relayed card number included), every session id in a 3-D Secure return and every webhook
 * would cross the network unencrypted. Production refuses it; elsewhere it may be a
 * developer's LAN, so it is said once, not refused. A mounted companion's host may not pass
 * NODE_ENV with its settings, which leaves this warning as the only word of it.
 */
function plainPublicUrlProblem(publicUrl: string): string | undefined {
  // One that does not parse, or carries credentials, is the config's to refuse (createCompanion), naming the option, never printed here.
  const url = URL.parse(publicUrl);
  if (!url || url.username || url.password || !isPlainHttpElsewhere(url)) return undefined;
  return (
    `PAYFORM_PUBLIC_URL (the publicUrl option, mounted) is ${publicUrl}, plain http to a host that is not this machine: customers' browsers send it card numbers ` +
    '(when they are relayed through the companion) and session ids, and the gateway its webhooks, unencrypted, and production refuses it; give its https address ' +
    '(while developing, a TLS proxy or tunnel in front)'
  );
}

/**
 * What startCompanion, serving the app itself, brings: it counts its requests at its own server
 * (until each answer is written out), and aborts `givingUp` near its grace's end.
 */
interface OwnServer {
  readonly givingUp: AbortController;
}

async function compose(settings: CompanionSettings, options: StartOptions, server?: OwnServer): Promise<ComposedCompanion> {
  // Aborted, it ends the gateway calls still waiting (near the end of close()'s grace).
  const givingUp = server?.givingUp ?? new AbortController();
  const baseUrl = settings.gatewayBaseUrl ?? options.gatewayBaseUrl;
  if (!baseUrl) {
    // Refused before the warnings and deprecations are logged: a name misspelt or unprefixed, the likeliest reason, is said here.
    throw new TypeError(`No gateway: set PAYFORM_GATEWAY_BASE_URL to the gateway, or to a sandbox started with \`npx payform-sandbox\`${unreadHint(settings, ['PAYFORM_GATEWAY_BASE_URL'])}`);
  }
  const logger = options.logger ?? createLogger({ level: settings.logLevel, bindings: workerLogBindings() });
  const publicUrl = options.publicUrl ?? settings.publicUrl;
  const plainPublicUrl = plainPublicUrlProblem(publicUrl);
  if (plainPublicUrl && settings.production) {
    // readCompanionConfig refused PAYFORM_PUBLIC_URL so; the option overrides it, and is checked here.
    throw new TypeError(`Invalid companion options: production needs https for publicUrl (plain http only to this machine): it is ${publicUrl}`);
  }
  // Said once, all together: a 0.2 setting silently dropped would look like a ledger emptied, a
  // token made up, the widget refused by CORS. Mounted, the companion listens on the shop's server:
  // the HOST beside it (SvelteKit's adapter-node and Nuxt read one) is nothing it would have read.
  const leftAlone = server ? settings.leftAlone : settings.leftAlone.filter(({ meant }) => meant !== 'PAYFORM_HOST');
  const notices = [...settings.deprecations, ...(leftAlone.length > 0 ? [leftAloneNotice(leftAlone)] : []), ...settings.warnings, ...(plainPublicUrl ? [plainPublicUrl] : [])];
  for (const line of [...notices, ...secondsMeant(options)]) logger.warn(line);
  const timeoutMs = options.gatewayTimeoutMs ?? settings.gatewayTimeoutMs;
  const gateway = new GatewayClient({
    baseUrl,
    ...settings.credentials,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(settings.merchantSector ? { merchantSector: settings.merchantSector } : {}),
    signal: givingUp.signal,
  });
  const statements = settings.databaseStatementTimeoutMs === undefined ? {} : { statementTimeoutMs: settings.databaseStatementTimeoutMs };
  // The ledger's own lines (a large PostgreSQL ledger's index builds in the background) go to the log.
  const ledger = await openLedger(settings.databaseUrl, { ...statements, log: logger, ...(options.clock ? { clock: options.clock } : {}) }).catch((error: unknown) => {
    throw unopenedLedger(error, settings);
  });
  await checkLedgerOwner(ledger, settings, logger);
  await checkLedgerGateway(ledger, settings, baseUrl, logger);
  // A disk that filled while the companion was stopped (its -wal and -shm left by a kill) still
  // opens and reads: one write says whether it takes payments, refused now, naming the disk,
  // rather than started ready for payments it would refuse.
  await ledger.probeWrite().catch(async (error: unknown) => {
    await ledger.close();
    throw unopenedLedger(error, settings);
  });
  // A made-up token is warned of already where instances share a ledger (PostgreSQL).
  if (!settings.adminTokenGenerated) await checkAdminTokenAcrossInstances(ledger, settings.adminToken, logger);
  await checkSharedSettings(ledger, settings, logger);
  await checkClock(ledger, logger);
  const sandboxOrigin = settings.sandboxOrigin ?? options.sandboxOrigin ?? localGatewayOrigin(baseUrl, settings.production, logger);
  warnOfAnotherSandbox(baseUrl, sandboxOrigin, logger);
  if (!settings.testMode && sandboxOrigin?.startsWith('http:')) {
    // The widget follows a redirect to plain http only in a test session: every 3-D Secure and hosted payment would stop there.
    logger.warn(
      `test mode is off, but the gateway's pages are at ${sandboxOrigin}, plain http: the widget follows a redirect there only in test sessions, so 3-D Secure and hosted-page payments would fail; set PAYFORM_TEST_MODE=true (or leave it unset with a sandbox on this machine), or give the sandbox an https address`,
    );
  }
  const onPaymentEvent = paymentEventHook(settings, options, logger);
  let app: CompanionApp;
  try {
    app = createCompanion({
      ledger,
      gateway,
      gatewayApiSecret: settings.credentials.apiSecret,
      ...(settings.previousApiSecret ? { gatewayApiSecretPrevious: settings.previousApiSecret } : {}),
      publicUrl: options.publicUrl ?? settings.publicUrl,
      ...(options.basePath ? { basePath: options.basePath } : {}),
      adminToken: settings.adminToken,
      allowedOrigins: settings.allowedOrigins,
      ...(sandboxOrigin ? { sandboxOrigin } : {}),
      testMode: settings.testMode,
      ...(settings.tokenizer ? { tokenizer: { widgetKey: settings.tokenizer.widgetKey, widgetUrl: settings.tokenizer.widgetUrl ?? baseUrl } } : {}),
      captureOverReservePercent: settings.captureOverReservePercent,
      sessionTtlSeconds: settings.sessionTtlSeconds,
      ...(settings.acceptedBrands ? { acceptedBrands: settings.acceptedBrands } : {}),
      ...(settings.currencies ? { currencies: settings.currencies } : {}),
      ...(settings.personalDataDays ? { personalDataDays: settings.personalDataDays } : {}),
      trustProxy: settings.trustProxy,
      ...(settings.rateLimits ? { rateLimits: settings.rateLimits } : {}),
      ...((options.backOffice ?? settings.backOffice) ? { backOffice: options.backOffice ?? settings.backOffice } : {}),
      ...(settings.metricsToken ? { metricsToken: settings.metricsToken } : {}),
      logger,
      ...(onPaymentEvent ? { onPaymentEvent } : {}),
      ...(options.reconciliation ? { reconciliation: options.reconciliation } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  } catch (error) {
    // Refused (a setting out of range): nothing may keep the process alive.
    await ledger.close();
    throw error;
  }
  options.extend?.(app);
  // Which database this instance writes to: the first thing to check when two disagree.
  logLedger(ledger, settings, logger);
  // The server no longer cancels a stalled statement (no session setting goes through a
  // transaction pooler): the operator sets it where it still reaches every session.
  if (ledger.transactionPooled) {
    logger.warn(
      "ledger: PostgreSQL through a pooler in transaction mode (PgBouncer): statements go unprepared and no statement_timeout is set for the session; set it on the database role (ALTER ROLE <user> SET statement_timeout = '5s') so the server cancels a stalled statement (it reaches a large ledger's background index builds too: let them finish through a direct connection, docs/companion.md, “A large ledger”), and keep ?pgbouncer=true in PAYFORM_DATABASE_URL, which says the pooler is there for certain where the look at start may miss it",
    );
  }
  // An existing ledger brought up to this version: when and how, for whoever later wonders why
  // an older version no longer opens it; a warning when older instances on it now fail.
  const upgraded = upgradeNotice(ledger.upgradedNow, ledger.dialect);
  if (upgraded) logger[upgraded.level](upgraded.message);
  // Relaying is a choice with a compliance cost: a warning, so PAYFORM_LOG_LEVEL=warn still says it.
  if (settings.tokenizer) logger.info('card data: <pay-form> sends it to the gateway’s tokenizer, and card numbers never reach this server');
  else logger.warn('card data: relayed through this server, which puts it in PCI DSS scope; set PAYFORM_GATEWAY_WIDGET_KEY to have <pay-form> tokenize cards in the browser');
  // Composed, it takes payments: what their webhooks did not settle, reconciliation does.
  app.companion.reconciler.start();
  const checking = new AbortController();
  void checkGateway(gateway, baseUrl, logger, checking.signal);
  const { tokenizer } = app.companion.services.options;
  if (tokenizer) {
    void checkTokenizer({ ...tokenizer, hostOfBaseUrl: settings.tokenizer?.widgetUrl === undefined }, logger, checking.signal, options.fetch);
    void checkTokenizerOrigins(tokenizer, app.companion.services.options.allowedOrigins, logger, checking.signal, options.fetch);
  }
  const uncount = countOpenCompanion(shownLedger(settings.databaseUrl), logger);
  const gate = requestGate(app);
  // Mounted, requests reach it through its app alone: counted there.
  if (!server) gate.count();
  let closing: Promise<void> | undefined;
  return {
    app,
    ledger,
    gateway,
    close() {
      closing ??= (async () => {
        app.companion.drain();
        // The host's server may still be open (closed after, in the wrong order): its requests
        // in flight finish before the ledger closes, and those after are refused.
        if (!(await settleWithin((ms) => gate.close(ms), options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, givingUp))) {
          logger.warn('closing the companion with requests still in flight', { requests: gate.size });
        }
        uncount();
        checking.abort();
        await app.companion.stop();
        await ledger.close();
      })();
      return closing;
    },
  };
}

/**
 * Where the ledger is, and whether this start made it. A new ledger in production is worth a
 * warning: on a first start it is expected, but a path changed or a file deleted meanwhile
 * also starts from nothing, and the payments taken before are then in another ledger.
 */
function logLedger(ledger: Ledger, settings: CompanionSettings, logger: Logger): void {
  const where = `ledger: ${ledger.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} at ${shownLedger(settings.databaseUrl)}`;
  if (!ledger.createdNow || settings.databaseUrl === ':memory:') return logger.info(where);
  // An upgrade from 0.2 whose DATABASE_URL still names the shop's ledger: that ledger is there.
  const oldName = settings.leftAlone.find(({ meant }) => meant === 'PAYFORM_DATABASE_URL')?.name;
  if (oldName) {
    return logger.warn(
      `${where}, new: made by this start, while ${oldName}, which payform 0.2 read, is set and left alone: if it names this shop's ledger, set PAYFORM_DATABASE_URL to it, or the payments taken before, and the webhooks about them, stay there`,
    );
  }
  if (!settings.production) {
    // In development a new ledger is the usual first start, but for one made beside another.
    const beside = ledger.dialect === 'sqlite' ? ledgerFilesBeside(resolvePath(settings.databaseUrl)) : [];
    if (beside.length === 0) return logger.info(`${where}, new: made by this start`);
    return logger.warn(
      `${where}, new: made by this start, beside ${beside.join(', ')} in its folder: if that is this shop's ledger, PAYFORM_DATABASE_URL is misspelt, and the payments taken before, and the webhooks about them, are there, not here`,
    );
  }
  logger.warn(`${where}, new: made by this start, it holds no payments. On a first start that is expected; otherwise the payments taken before are in another ledger: check PAYFORM_DATABASE_URL (and that the file or schema is still there)`);
}

/** The other SQLite files in the folder of `file` (a few, by name): where a misspelt path leaves the shop's ledger. */
function ledgerFilesBeside(file: string): string[] {
  try {
    return readdirSync(dirname(file))
      .filter((name) => /\.(db|sqlite3?)$/i.test(name) && name !== basename(file))
      .sort()
      .slice(0, 3);
  } catch {
    return [];
  }
}

/**
 * Who is told of payment changes: the `onPaymentEvent` option (mounted), the URL of
 * PAYFORM_NOTIFY_URL (the bin, any language), or both — the option first, then the URL; a
 * change either one fails is told to both again (each deduplicates by `change.id`).
 */
function paymentEventHook(settings: CompanionSettings, options: StartOptions, logger: Logger): PaymentEventHook | undefined {
  const { notify } = settings;
  if (!notify) return options.onPaymentEvent;
  const shown = `the notification URL ${shownNotifyUrl(notify.url)} (PAYFORM_NOTIFY_URL)`;
  const notifyUrl = namedHook(notifyHook(notify), shown);
  logger.info(`payment changes: POSTed to ${shownNotifyUrl(notify.url)} (PAYFORM_NOTIFY_URL), signed with PAYFORM_NOTIFY_SECRET`);
  const own = options.onPaymentEvent;
  if (!own) return notifyUrl;
  return namedHook(async (change) => {
    await own(change);
    await notifyUrl(change);
  }, `the onPaymentEvent hook or ${shown}`);
}

/**
 * Waits for requests in flight (`drained`) for up to `grace`. A payment whose gateway call could
 * outlast it (its timeout, then a read of the order) is given up just before: its outcome
 * unknown, it is recorded so, reconciliation reads it, and its customer is answered rather than
 * cut off.
 */
async function settleWithin(drained: (ms: number) => Promise<boolean>, grace: number, givingUp: AbortController): Promise<boolean> {
  const giveUp = setTimeout(
    () => givingUp.abort(new NetworkError('The companion is stopping: it gave up waiting for the gateway to answer', { connectFailed: false })),
    grace - Math.min(ANSWER_TIME_MS, grace / 4),
  );
  try {
    return await drained(grace);
  } finally {
    clearTimeout(giveUp);
  }
}

/** Resolves once `quietMs` have passed with no request refused, at `until` at the latest. */
async function quietened(refused: { readonly lastAt: number }, quietMs: number, until: number): Promise<void> {
  const since = Date.now();
  for (;;) {
    const wait = Math.min(Math.max(refused.lastAt, since) + quietMs, until) - Date.now();
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Composes the companion and listens on settings.port (0: any free port; the public URL then
 * follows the real port unless PUBLIC_URL was set), and prints the generated admin token.
 */
export async function startCompanion(given: CompanionSettings | EnvironmentInput = readCompanionConfig(process.env), options: StartOptions = {}): Promise<RunningCompanion> {
  refuseDuringBuild('startCompanion');
  const settings = companionSettingsOf(given, 'startCompanion');
  checkStartOptions(options, 'startCompanion');
  const worker = clusterWorker();
  if (worker && settings.adminTokenGenerated) throw new TypeError(madeUpTokenInWorker(worker));
  if (settings.production && settings.publicUrlDerived && !options.publicUrl) {
    // http://localhost:$PORT would send the gateway's webhooks and the customers' 3-D Secure returns to their own machines.
    throw new TypeError(
      `Invalid environment: production needs PAYFORM_PUBLIC_URL, the https address the gateway and browsers reach this server at (or the publicUrl option)${unreadHint(settings, ['PAYFORM_PUBLIC_URL'])}`,
    );
  }
  let handle: ((request: Request, env: unknown) => Response | Promise<Response>) | undefined;
  let composedLogger: Logger | undefined;
  const inFlight = new InFlight();
  const givingUp = new AbortController();
  let closing = false;
  /** Requests answered 503 shutting_down while closing, and when the last came. */
  const refused = { count: 0, lastAt: 0 };
  // For the answers this server writes outside the app: while it starts, once it closes, the parser's refusals.
  const security = securityHeaders(options.publicUrl ?? settings.publicUrl);
  const server = httpServer(
    (request, env) => handle?.(request, env) ?? starting(request, (options.basePath ?? '').replace(/\/+$/, ''), security),
    listenHost(settings),
    new UnparsedRequests(() => composedLogger, security),
    options.requestTimeoutMs,
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.listen(settings.port, listenHost(settings));
  try {
    await new Promise<void>((resolve, reject) => {
      if (server.listening) resolve();
      server.once('listening', resolve).once('error', (error) => reject(listenProblem(error, settings.port, listenHost(settings))));
    });
    const bound = server.address() as AddressInfo;
    const port = bound.port;
    // Reached as http://localhost:PORT while listening on 127.0.0.1 alone: ::1's holder would answer instead.
    if (bound.address === '127.0.0.1' && settings.publicUrlDerived && !options.publicUrl && (await takenOnIpv6Loopback(port))) {
      throw new Error(takenOnIpv6LoopbackProblem(port));
    }
    const host = settings.host && settings.host !== '0.0.0.0' && settings.host !== '::' ? settings.host : 'localhost';
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    // PORT=0 without PUBLIC_URL leaves a default ending in :0; the real port replaces it, in the
    // default allowed origin too (a page at localhost:0 is no page).
    const portless = /:0$/.test(settings.publicUrl);
    const publicUrl = options.publicUrl ?? (portless ? url : settings.publicUrl);
    const defaultOrigins = portless && settings.allowedOrigins.length === 1 && settings.allowedOrigins[0] === new URL(settings.publicUrl).origin;
    const composed = await compose(defaultOrigins ? { ...settings, allowedOrigins: [new URL(publicUrl).origin] } : settings, { ...options, publicUrl }, { givingUp });
    const metricsServer = settings.metricsAddress
      ? await serveMetrics(composed, settings.metricsAddress, port).catch(async (error: unknown) => {
          await composed.close();
          throw error;
        })
      : undefined;
    handle = (request, env) => {
      if (closing) {
        refused.count += 1;
        refused.lastAt = Date.now();
        return shuttingDown({ security });
      }
      const reply = Promise.resolve(composed.app.fetch(request, env as never));
      inFlight.track(reply.then((response) => delivered(response, (env as { outgoing?: ServerResponse }).outgoing)));
      return reply;
    };
    const { logger, ledger } = composed.app.companion.services;
    composedLogger = logger;
    if (worker && (metricsServer || settings.metricsToken)) logger.warn(metricsInWorker(worker, metricsServer?.url ?? `${url}/metrics`));
    if (settings.adminTokenGenerated) {
      console.log(`payform companion: PAYFORM_ADMIN_TOKEN was not set; this run's token is ${settings.adminToken}${unreadHint(settings, ['PAYFORM_ADMIN_TOKEN'])}`);
      // Several instances share a PostgreSQL ledger behind one address: each made-up token works on its own instance only.
      if (ledger.dialect === 'postgres') logger.warn('PAYFORM_ADMIN_TOKEN is not set, so this instance made up its own token: companions sharing this PostgreSQL ledger each accept only theirs; set the same PAYFORM_ADMIN_TOKEN on every one');
    }
    return {
      ...composed,
      url,
      port,
      listening: describeAddress(bound),
      ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
      async close() {
        closing = true;
        const began = Date.now();
        logger.info('companion stopping', { requests_in_flight: inFlight.size });
        composed.app.companion.drain();
        const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
        // No new connections; the open ones stay for now. http's close() would also close the
        // idle ones at once, cutting off as a reset a request a client (a proxy's pool) is sending
        // on one at that moment: neither it nor the proxy could tell it was never served.
        NetServer.prototype.close.call(server);
        // Handlers write what the gateway did to the ledger: they finish, and their answers go
        // out, before it closes.
        const drained = await settleWithin((ms) => inFlight.drained(ms), options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, givingUp);
        if (!drained) logger.warn('shutting down with requests still in flight', { requests: inFlight.size });
        // Meanwhile each request on an open connection was answered 503 shutting_down with
        // Connection: close; once none has come for a moment, the idle connections are closed.
        // At most 2 s from the stop's start: a longer drain has turned the busy connections away already.
        await quietened(refused, QUIET_BEFORE_CLOSING_MS, began + QUIET_AT_MOST_MS);
        server.close();
        server.closeAllConnections();
        await closed;
        logger.info('companion stopped taking requests', { stopping_ms: Date.now() - began, refused_while_stopping: refused.count, drained });
        await metricsServer?.close();
        await composed.close();
      },
    };
  } catch (error) {
    server.close();
    throw error;
  }
}

/**
 * The answer while the ledger opens and its migrations run, which may take minutes on a large
 * PostgreSQL ledger: alive (a liveness probe that restarted it would start them over), not ready.
 * Every other request is told to come back, in the API's error shape (a client reads its code).
 */
export function starting(request: Request, basePath: string, security: Readonly<Record<string, string>>): Response {
  // A companion, though not yet one that can say its ledger: the public URL check asks again.
  const path = requestAddress(request.url)?.pathname;
  if (path === `${basePath}/healthz`) return Response.json({ status: 'starting' }, { headers: { ...security, [INSTANCE_HEADER]: instanceId } });
  // The check asks the webhook route with a GET; the gateway's POST is told to come back.
  const probed = path === `${basePath}/webhooks/gateway` && request.method !== 'POST';
  return probed
    ? Response.json({ status: 'starting' }, { status: 503, headers: { ...security, 'Retry-After': '1', [INSTANCE_HEADER]: instanceId, 'Cache-Control': 'no-store' } })
    : Response.json(
        problemBody('starting', 'The payment companion is starting (its ledger is opening): try again in a moment'),
        { status: 503, headers: { ...security, 'Retry-After': '1', 'Cache-Control': 'no-store' } },
      );
}

/**
 * A gateway on this machine is the sandbox (or a stand-in for it): its 3-D Secure and hosted
 * pages are plain http on its origin, which redirects may then go to. Without this a local
 * gateway's 3-D Secure redirect would be dropped and the customer left waiting. Never in
 * production, where only https redirects are followed.
 */
function localGatewayOrigin(baseUrl: string, production: boolean, logger: Logger): string | undefined {
  const gateway = new URL(baseUrl);
  if (!isLocalHttpGateway(gateway)) return undefined;
  if (production) {
    // Taken in production as a local proxy holding the TLS to the live gateway, whose pages are
    // https. A sandbox there (its own credentials) would have every such page refused.
    logger.info(
      'the gateway is plain http on this machine: in production, a proxy to the live gateway, whose 3-D Secure and hosted pages are https; ' +
        'a sandbox’s plain-http pages are refused in production (run the companion in development against a sandbox)',
      { gateway: gateway.origin },
    );
    return undefined;
  }
  logger.info('no sandbox origin set (PAYFORM_SANDBOX_ORIGIN, or the sandboxOrigin option): the gateway is on this machine, so redirects to its origin are followed', { sandboxOrigin: gateway.origin });
  return gateway.origin;
}


/**
 * A plain-http gateway is a sandbox, whose 3-D Secure and hosted pages are at the address it is
 * reached at unless it was given another public one: a sandbox origin set to another (pasted
 * from a sandbox since moved to another port, or written 127.0.0.1 where the URL says localhost)
 * has every such redirect refused, and the customer left waiting on a payment that cannot go on.
 * So does one on another machine with no sandbox origin set at all.
 * Said, not refused: a sandbox in a container may rightly be reached by one name and shown by another.
 */
function warnOfAnotherSandbox(baseUrl: string, sandboxOrigin: string | undefined, logger: Logger): void {
  const gateway = new URL(baseUrl);
  if (gateway.protocol !== 'http:') return;
  if (sandboxOrigin === undefined) {
    // Plain http on another machine (one on this machine stands as its own origin): a sandbox
    // whose redirects no origin lets through.
    if (!isPlainHttpElsewhere(gateway)) return;
    logger.warn(
      `PAYFORM_GATEWAY_BASE_URL is ${baseUrl}, plain http on another machine, so a sandbox, but no sandbox origin is set (PAYFORM_SANDBOX_ORIGIN, or the sandboxOrigin option): ` +
        `every redirect to its 3-D Secure and hosted pages would be refused and its payment could not go on; set PAYFORM_SANDBOX_ORIGIN to ${gateway.origin} (or to the public address the sandbox was started with)`,
      { gateway: gateway.origin },
    );
    return;
  }
  // One not an address is the config check's to refuse, by name.
  const origin = originOf(sandboxOrigin);
  if (origin === null || gateway.origin === origin) return;
  logger.warn(
    `PAYFORM_GATEWAY_BASE_URL is ${baseUrl}, plain http, but the sandbox origin is ${origin} (PAYFORM_SANDBOX_ORIGIN, or the sandboxOrigin option): ` +
      `a sandbox sends customers to its 3-D Secure and hosted pages at the address it is reached at, so unless it was started with that public address, each of those redirects is refused and its payment cannot go on; ` +
      `set PAYFORM_SANDBOX_ORIGIN to ${gateway.origin} (or leave it unset for a sandbox on this machine)`,
    { sandboxOrigin: origin, gateway: gateway.origin },
  );
}

/**
 * `GET /metrics` alone (and its HEAD), without a token, on an address of its own: bound where only the
 * operator's Prometheus reaches (127.0.0.1, a private interface), never the public port.
 */
async function serveMetrics(composed: ComposedCompanion, address: { host: string; port: number }, companionPort: number): Promise<{ url: string; close(): Promise<void> }> {
  const { ledger, app } = composed;
  const { metrics, services } = app.companion;
  // Outside the app: its middleware never sees these answers.
  const security = securityHeaders(services.options.publicUrl);
  let reboundSaid = false;
  const server = httpServer(
    async (request) => {
      const rebound = rebindingHost(address.host, request.url);
      if (rebound !== undefined) {
        // Once: a Prometheus given a name of this machine is refused at every scrape.
        if (!reboundSaid) {
          reboundSaid = true;
          services.logger.warn(
            `the metrics listener (PAYFORM_METRICS_ADDRESS) refused a request for the host ${rebound}: bound to this machine, it answers only its addresses and localhost, ` +
              'as a web page reaching it through DNS rebinding names its own host; have Prometheus scrape it by its address',
            { host: rebound },
          );
        }
        return new Response('The metrics listener answers requests for this machine’s addresses and localhost only\n', { status: 403, headers: security });
      }
      if (requestAddress(request.url)?.pathname !== '/metrics') return new Response('Not found\n', { status: 404, headers: security });
      // A probe's HEAD (is the endpoint up?) is answered as the GET would be, without the scrape's reads.
      if (request.method === 'HEAD') return new Response(null, { headers: { ...security, 'Content-Type': metrics.registry.contentType } });
      if (request.method !== 'GET') return new Response('Method not allowed\n', { status: 405, headers: { ...security, Allow: 'GET, HEAD' } });
      const exposition = await metrics.exposition(ledger, services.clock(), services.outage.writesRefused);
      return new Response(exposition, { headers: { ...security, 'Content-Type': metrics.registry.contentType } });
    },
    address.host,
    new UnparsedRequests(() => services.logger, security),
  );
  server.listen(address.port, address.host);
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once('listening', resolve).once('error', (error: NodeJS.ErrnoException) => {
      // The port the companion itself holds is in use by no one else: said as what it is.
      if (error.code === 'EADDRINUSE' && address.port === companionPort) {
        reject(new Error(`PAYFORM_METRICS_ADDRESS names port ${companionPort}, the companion's own (PORT): give the metrics a port of their own`, { cause: error }));
      } else reject(listenProblem(error, address.port, address.host, 'PAYFORM_METRICS_ADDRESS'));
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${host}:${bound.port}/metrics`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * A port already taken or reserved, or a host that is not this machine's, said with the variable
 * that chose it and the way out; anything else as it came.
 */
function listenProblem(error: NodeJS.ErrnoException, port: number, host: string | undefined, variable: 'PORT' | 'PAYFORM_METRICS_ADDRESS' = 'PORT'): Error {
  const hostVariable = variable === 'PORT' ? 'PAYFORM_HOST' : variable;
  const hosts = `127.0.0.1 (this machine only), 0.0.0.0 (every interface) or an address of this machine`;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return new Error(`${hostVariable} names the host ${host}, which does not resolve to an address: set it to ${hosts}`, { cause: error });
  }
  if (error.code === 'EADDRNOTAVAIL') {
    return new Error(`${hostVariable} names the host ${host}, which is not an address of this machine: set it to ${hosts}`, { cause: error });
  }
  if (error.code === 'EADDRINUSE') {
    const anyPort = variable === 'PORT' ? ', or PORT=0 to take any free one' : '';
    return new Error(`port ${port} is already in use: set ${variable} to a free port${anyPort}`, { cause: error });
  }
  if (error.code === 'EACCES') {
    return new Error(`port ${port} needs privileges this process does not have: set ${variable} to a port of 1024 or above`, { cause: error });
  }
  return error;
}

/**
 * One ledger keeps one point of sale's payments: a companion of another on the same database
 * would end the first one's unfinished payments as never sent (its gateway knows none of them),
 * and a customer could pay twice. Refused at start, naming the settings — and how to hand the
 * ledger over, once every companion of the old point of sale has stopped (going live).
 */
async function checkLedgerOwner(ledger: Ledger, settings: CompanionSettings, logger: Logger): Promise<void> {
  const { posId } = settings.credentials;
  const from = settings.ledgerHandoverFrom;
  // A handover to an id a few characters off the ledger's own is a typo, not a point of sale:
  // handed over, the ledger would be a mistyped id's, refused by the gateway at every payment.
  if (from !== undefined && mistyped(posId, from)) {
    await ledger.close();
    throw new Error(
      `PAYFORM_LEDGER_HANDOVER_FROM=${from} would hand the ledger to PAYFORM_GATEWAY_POS_ID ${posId}, a character or two from it: ` +
        'a mistyped id, not another point of sale. Correct PAYFORM_GATEWAY_POS_ID, and remove PAYFORM_LEDGER_HANDOVER_FROM',
    );
  }
  const held = await ledger.claimPointOfSale(posId, from).catch(async (error: unknown) => {
    await ledger.close();
    throw unopenedLedger(error, settings);
  });
  if (held === posId.toLowerCase()) {
    if (from !== undefined) {
      const whose = from.toLowerCase() === held ? `point of sale ${posId}'s, with its gateway at PAYFORM_GATEWAY_BASE_URL` : `point of sale ${posId}'s now, no longer ${from}'s`;
      logger.warn(`the ledger is ${whose}: remove PAYFORM_LEDGER_HANDOVER_FROM`);
    }
    return;
  }
  await ledger.close();
  if (mistyped(posId, held)) {
    throw new Error(
      `the ledger at PAYFORM_DATABASE_URL ${shownLedger(settings.databaseUrl)} holds the payments of point of sale ${held}, and PAYFORM_GATEWAY_POS_ID is ${posId}, ` +
        `a character or two from it: a mistyped id, most likely. Set PAYFORM_GATEWAY_POS_ID to ${held}, as the gateway project gives it`,
    );
  }
  throw new Error(
    `the ledger at PAYFORM_DATABASE_URL ${shownLedger(settings.databaseUrl)} holds the payments of point of sale ${held}, and PAYFORM_GATEWAY_POS_ID is ${posId}: ` +
      'one ledger keeps one point of sale\'s payments. Give this companion a database of its own, or the point of sale that ledger belongs to. ' +
      `To hand this ledger over to ${posId} (going live), stop every companion of ${held}, then start once with PAYFORM_LEDGER_HANDOVER_FROM=${held}` +
      // The test project's id or the default file stood in for a misspelt one.
      unreadHint(settings, ['PAYFORM_DATABASE_URL', 'PAYFORM_GATEWAY_POS_ID', 'PAYFORM_LEDGER_HANDOVER_FROM']),
  );
}

/**
 * Whether `typed` is `known` mistyped — another id a character or two away, as a mistyped name is
 * (nearestName) — rather than another point of sale's: two gateway ids (random UUIDs) never come
 * that close.
 */
function mistyped(typed: string, known: string): boolean {
  const [one, other] = [typed.toLowerCase(), known.toLowerCase()];
  return one !== other && nearestName(one, [other]) !== undefined;
}

/**
 * One ledger's payments go to one gateway. An instance pointed at another (a staging URL left in
 * its settings) finds none of them there, and its reconciliation ends those still being paid as
 * never sent: their customers read that the payment could not be completed, while it may go on
 * at the gateway that has it. In production another gateway than the one recorded is refused at
 * start; handing the ledger over (PAYFORM_LEDGER_HANDOVER_FROM: going live, or the gateway moved)
 * records the new one. Outside production it is recorded and said — not between two addresses on
 * this machine, where a development sandbox takes another port at every start.
 */
async function checkLedgerGateway(ledger: Ledger, settings: CompanionSettings, baseUrl: string, logger: Logger): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const handover = settings.ledgerHandoverFrom !== undefined;
  const held = await ledger.claimGateway(origin, handover).catch(async (error: unknown) => {
    await ledger.close();
    throw unopenedLedger(error, settings);
  });
  if (held === origin) return;
  if (settings.production) {
    await ledger.close();
    throw new Error(
      `the ledger at PAYFORM_DATABASE_URL ${shownLedger(settings.databaseUrl)} sends its payments to the gateway at ${held}, and PAYFORM_GATEWAY_BASE_URL is ${baseUrl}: ` +
        'every companion on one ledger must use one gateway — one elsewhere finds none of its payments and ends those still being paid as never sent. ' +
        `Point PAYFORM_GATEWAY_BASE_URL at ${held}; or, if the gateway moved there, stop every companion, then start once with PAYFORM_LEDGER_HANDOVER_FROM=${settings.credentials.posId} (this point of sale)`,
    );
  }
  await ledger.claimGateway(origin, true);
  if (isLoopbackHost(new URL(held).hostname) && isLoopbackHost(new URL(origin).hostname)) return;
  logger.warn(
    `the ledger's payments were sent to the gateway at ${held}, and this companion's is ${origin} (PAYFORM_GATEWAY_BASE_URL), recorded now: ` +
      'every companion on one ledger must use one gateway — one elsewhere ends the payments it cannot find there as never sent; production refuses to start so',
  );
}

/**
 * The database's own words (`connect ECONNREFUSED 127.0.0.1:5432`, `password authentication
 * failed`) with the variable and the URL they are about, its password masked, and a misspelt
 * PAYFORM_DATABASE_URL (the default file stood in for it). A missing driver says already which
 * URL needs which package to install.
 */
function unopenedLedger(error: unknown, settings: CompanionSettings): Error {
  // Unset, the URL fell to the SQLite default: a shop on PostgreSQL is told that first.
  if (error instanceof MissingDriverError) {
    return settings.databaseUrlDefaulted ? error.unsetUrl(shownLedger(settings.databaseUrl), unreadHint(settings, ['PAYFORM_DATABASE_URL'])) : error;
  }
  const reason = explainedLedgerFault(error, settings.databaseUrl, 'PAYFORM_DATABASE_URL');
  // Unset, the variable is named as such: the path shown is the default's, from the working directory.
  const where = `PAYFORM_DATABASE_URL ${settings.databaseUrlDefaulted ? `unset: the default file, ${shownLedger(settings.databaseUrl)}` : shownLedger(settings.databaseUrl)}`;
  return new Error(`the ledger could not be opened (${where}): ${reason}${unreadHint(settings, ['PAYFORM_DATABASE_URL'])}`, {
    cause: error,
  });
}

/** Where the ledger is, as a line may show it: a PostgreSQL URL without its password, an SQLite file's full path. */
function shownLedger(databaseUrl: string): string {
  if (!isPostgresUrl(databaseUrl)) return databaseUrl === ':memory:' ? databaseUrl : resolvePath(databaseUrl);
  // Unreadable, it cannot be told where its password ends: none of it is shown.
  return passwordMasked(databaseUrl) ?? `${databaseUrl.slice(0, databaseUrl.indexOf('//') + 2)}…`;
}

function listenHost(settings: CompanionSettings): string | undefined {
  return settings.host ?? (settings.production ? undefined : DEVELOPMENT_HOST);
}

function describeAddress({ address, family, port }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::') return `all interfaces, port ${port}`;
  const shown = `${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  return isLoopback(address) ? `${shown} (this machine only; set PAYFORM_HOST to listen elsewhere)` : shown;
}
