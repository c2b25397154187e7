/**
 * What `createCompanion(config)` is given: its dependencies (ledger, gateway client, clock,
 * logger, hook) and its settings. Every setting has a default except the public URL and the
 * admin token; `resolveConfig` checks them once, at start, and names what is wrong.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { BearerToken } from './bearer-token.js';
import type { GatewayClient, MerchantSector } from '@payform/gateway';
import type { BrandId } from '@payform/card/fields';
import { describeIssues, parseWire, ServiceUrl } from '@payform/gateway/wire';
import type { Ledger } from '../ledger/index.js';
import { BackOfficeSettings, resolveBackOffice } from './back-office/back-office-options.js';
import type { BackOfficeConfig, BackOfficeOptions } from './back-office/back-office-options.js';
import type { Logger } from './log/logger.js';
import type { PaymentEventHook } from './payments/reactions.js';
import { kindOf } from './environment.js';
import { unknownOptions } from './near-names.js';
import { Origin } from './origin-setting.js';
import { AcceptedBrands } from './checkout/accepted-brands.js';
import { Currencies } from './checkout/accepted-currencies.js';
import { PersonalDataDays } from './personal-data-days.js';
import { ProxyTrust, proxyEntryProblem } from './http/proxy-trust.js';
import type { TrustProxy } from './http/client-address.js';

export interface RateLimits {
  /** Pay and hosted requests per checkout session in one window. */
  readonly perSession: number;
  /** Pay and hosted requests per client IP address in one window. */
  readonly perClient: number;
  /**
   * Wrong admin tokens per client in one window; past it, that client is refused 429 until the
   * window ends, a right guess too. A client that sent the right token lately still passes: a
   * stranger sharing the merchant's address (localhost, a proxy) must not be able to lock the
   * merchant out (guards.ts).
   */
  readonly wrongAdminTokens: number;
  readonly windowMs: number;
  /**
   * Declined pay attempts per client network within 15 minutes before its attempts are cooled
   * down (card testing, client-declines.ts); an IPv6 /48 takes twice as many. Twice `perSession`
   * unless given: a customer retrying a card or two never reaches it.
   */
  readonly declinesPerClient?: number;
}

export interface ReconciliationTimings {
  /** Pause between two passes. */
  readonly intervalMs: number;
  /** A payment in init/pending with no news for this long is checked with the gateway. */
  readonly stalePaymentAfterMs: number;
  /** A capture/void/refund left without the gateway's answer for this long is checked. */
  readonly unsettledOperationAfterMs: number;
  /**
   * A payment or operation the gateway still does not know this long after it was last sent is
   * ended for good (a payment as a failure: the session's next attempt takes a new order id).
   * Keep it far above the never-sent window.
   */
  readonly giveUpAfterMs: number;
  /**
   * An attempt or reservation the gateway answers "not there" for on this many reads, each sent
   * at least `neverSentSpacingMs` after the last counted one, never reached it: the attempt's
   * session may pay again (under the same order id), the reservation's money is free again.
   */
  readonly neverSentReads: number;
  /**
   * Keep (reads − 1) × spacing at least twice the gateway client's timeout, so that a request
   * still in flight at the gateway when the first read was sent has shown up by the last.
   */
  readonly neverSentSpacingMs: number;
  /** Most payments and operations looked at in one pass. */
  readonly batchSize: number;
  /**
   * How long a call of the `onPaymentEvent` hook may take before it is left to a later pass (it
   * is told again, so a hook that hangs holds up neither a payment's answer nor reconciliation).
   */
  readonly hookTimeoutMs: number;
}

export interface CompanionConfig {
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  /** The gateway's API secret: webhooks are signed with it. */
  readonly gatewayApiSecret: string;
  /**
   * While the API secret is rotated, the one before it: webhooks signed with it are taken too,
   * as the gateway retries events it sent before the rotation. Remove it once they are over.
   */
  readonly gatewayApiSecretPrevious?: string;
  /** How browsers and the gateway reach the server the companion runs in (with `basePath`, `server_url` and `result_url` derive from it). */
  readonly publicUrl: string;
  /**
   * Where in that server the companion's routes are, when it is mounted in the merchant's own
   * (`/payments`: `/payments/api/…`, `server_url` = `<publicUrl>/payments/webhooks/gateway`).
   * Requests reach it with the path as the browser sent it. Default `/`.
   */
  readonly basePath?: string;
  /** Bearer token of the merchant API (at least 16 characters). */
  readonly adminToken: string;
  /** Origins of the merchant's pages that may call the checkout API from a browser (CORS). */
  readonly allowedOrigins?: readonly string[];
  /**
   * Development only: the sandbox's origin, the one non-https place a 3-D Secure or hosted
   * checkout redirect may point to.
   */
  readonly sandboxOrigin?: string;
  /** Sessions say `test: true` (the widget shows a banner and the test cards). Default: false. */
  readonly testMode?: boolean;
  /** Default lifetime of a checkout session; default 30 minutes. */
  readonly sessionTtlSeconds?: number;
  /** How far above the reserve the gateway project lets a capture go, in percent; default 0. */
  readonly captureOverReservePercent?: number;
  /**
   * Card schemes the shop takes, as the widget's brand ids (`visa`, `mastercard`, `amex`…): the
   * widget offers them alone, the pay route refuses others. Default: every scheme it knows.
   */
  readonly acceptedBrands?: readonly string[];
  /**
   * The currencies the gateway project takes (ISO 4217, PAYFORM_CURRENCIES): a session or a
   * saved-card charge in another is refused 400 as it opens, naming `currency`. Unset: any, and the
   * gateway refuses one it does not take when a customer pays (422 session_refused).
   */
  readonly currencies?: readonly string[];
  /**
   * How many days a customer's personal details are kept after their order (1 to 3650,
   * PAYFORM_PERSONAL_DATA_DAYS): past them, reconciliation's pass erases them from each decided
   * order, as POST /api/customers/erasures would (its payment's and session's customer, card
   * token and webhooks' customer fields), a few hundred a pass. The orders keep their money, card
   * masks and customer id; saved cards stay. Unset: kept until erased on request.
   */
  readonly personalDataDays?: number;
  /**
   * The gateway's card tokenizer. Given, `<pay-form>` sends the card from the customer's browser
   * to the tokenizer and pays with its token: the pay route refuses card numbers, and card data
   * never reaches this server. Without it, the widget relays the card through the companion.
   */
  readonly tokenizer?: TokenizerConfig;
  readonly rateLimits?: Partial<RateLimits>;
  readonly reconciliation?: Partial<ReconciliationTimings>;
  /** Largest request body on any path (routes added later included); default 16 KiB (webhooks 64 KiB). */
  readonly bodyLimitBytes?: number;
  /**
   * Take the client's address from X-Forwarded-For when a proxy of yours sent the request: `true`
   * trusts proxies on this machine or a private network; a list trusts exactly what it names —
   * `'private'` for those, and addresses or networks (`['private', '203.0.113.0/24',
   * '2001:db8::/32']`, a CDN's edges). The header's last entry that is no trusted proxy is the
   * client. Default false: the socket's peer.
   */
  readonly trustProxy?: boolean | readonly string[];
  /**
   * Serves `GET /metrics` (Prometheus text) to requests bearing this token (at least 16
   * characters, not the admin token). Unset: no /metrics route — serve `app.companion.metrics`
   * on an address of your own instead (startCompanion's `metricsAddress`).
   */
  readonly metricsToken?: string;
  /** Where the built widget is (`pay-form.js`); default the `dist/` of the installed `@payform/widget`. */
  readonly widgetDir?: string;
  /**
   * The back office, served at `path` below the base path (`{ path: '/admin' }`); signed in with
   * the admin token. Off unless given.
   */
  readonly backOffice?: BackOfficeConfig;
  /** Epoch milliseconds; default `Date.now`. */
  readonly clock?: () => number;
  /** Default: JSON lines on standard error at level info. */
  readonly logger?: Logger;
  /** Told every change of a payment's or operation's status, at least once (fulfil orders here; see PaymentChange). */
  readonly onPaymentEvent?: PaymentEventHook;
}

export interface TokenizerConfig {
  /** The gateway's widget host (`https://widget.<gateway>`); the tokenizer is its `/api/v1/sdk/tokenize`. */
  readonly widgetUrl: string;
  /** The project's widget key (public: browsers send it as X-Widget-Id). */
  readonly widgetKey: string;
}

export interface CompanionOptions {
  /** The companion's own address: the config's publicUrl and basePath joined, no trailing slash. */
  readonly publicUrl: string;
  /** `''` at the root, else `/payments`: no trailing slash. */
  readonly basePath: string;
  readonly adminToken: string;
  readonly allowedOrigins: readonly string[];
  readonly sandboxOrigin: string | undefined;
  readonly testMode: boolean;
  readonly sessionTtlSeconds: number;
  readonly captureOverReservePercent: number;
  readonly acceptedBrands: readonly BrandId[] | undefined;
  readonly currencies: readonly string[] | undefined;
  /**
   * The gateway project's sector when the interface has extra rules for it: the gateway client's
   * own `merchantSector` (PAYFORM_MERCHANT_SECTOR), so that the two never disagree.
   */
  readonly merchantSector: MerchantSector | undefined;
  /** Days a customer's details are kept after their order; undefined: until erased on request. */
  readonly personalDataDays: number | undefined;
  /**
   * The card tokenizer's address and the widget key, when the widget tokenizes; `sealKey` (the
   * API secret) opens the tokens it seals for this shop (`rich: true`), the only ones paid with.
   */
  readonly tokenizer: { readonly url: string; readonly widgetKey: string; readonly sealKey: string } | undefined;
  readonly rateLimits: RateLimits;
  readonly reconciliation: ReconciliationTimings;
  readonly bodyLimitBytes: number;
  readonly webhookBodyLimitBytes: number;
  readonly trustProxy: TrustProxy;
  readonly metricsToken: string | undefined;
  readonly widgetDir: string;
  readonly backOffice: BackOfficeOptions | undefined;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perSession: 10, perClient: 30, wrongAdminTokens: 10, windowMs: 60_000 };
/** The rate limits' window, in milliseconds: 60, seconds meant, made every limit one no client could reach. */
export const RATE_WINDOW_MS = { min: 1_000, max: 3_600_000 } as const;

export const DEFAULT_RECONCILIATION: ReconciliationTimings = {
  intervalMs: 15_000,
  stalePaymentAfterMs: 60_000,
  unsettledOperationAfterMs: 30_000,
  giveUpAfterMs: 30 * 60_000,
  // Three reads over a minute: twice the gateway client's default 30 s timeout.
  neverSentReads: 3,
  neverSentSpacingMs: 30_000,
  batchSize: 50,
  hookTimeoutMs: 20_000,
};

/** The largest body a request may send (`bodyLimitBytes`), and a gateway's webhook. */
export const DEFAULT_BODY_LIMIT = 16 * 1024;
export const WEBHOOK_BODY_LIMIT = 64 * 1024;
/** The bundle of the installed @payform/widget (its package.json is exported, its dist/ is the bundle). */
const DEFAULT_WIDGET_DIR = join(dirname(createRequire(import.meta.url).resolve('@payform/widget/package.json')), 'dist');

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const PositiveInt = z.number().int().positive();
/** Plain segments only: no parameter, wildcard, dot segment or encoded character for a router to read otherwise. */
export const BasePath = z.string().regex(/^(\/(?!\.{1,2}(\/|$))[A-Za-z0-9._~-]+)*\/?$/, { error: 'must be a path such as /payments' });

const Settings = z.object({
  gatewayApiSecret: z.string().min(1),
  gatewayApiSecretPrevious: z.string().min(1).optional(),
  // As PAYFORM_PUBLIC_URL is read: paths are appended to it (webhooks, 3-D Secure returns).
  publicUrl: ServiceUrl,
  basePath: BasePath.optional(),
  adminToken: BearerToken,
  allowedOrigins: z.array(Origin).optional(),
  sandboxOrigin: Origin.optional(),
  testMode: z.boolean().optional(),
  sessionTtlSeconds: z.number().int().min(60).max(7 * 86_400).optional(),
  captureOverReservePercent: z.number().min(0).max(100).optional(),
  acceptedBrands: AcceptedBrands.optional(),
  currencies: Currencies.optional(),
  personalDataDays: PersonalDataDays.optional(),
  tokenizer: z.object({ widgetUrl: HttpUrl, widgetKey: z.string().min(1).max(256) }).optional(),
  rateLimits: z
    .strictObject({
      perSession: PositiveInt,
      perClient: PositiveInt,
      wrongAdminTokens: PositiveInt,
      // Milliseconds: 60 (seconds meant) made every limit one a few requests could never reach.
      windowMs: z
        .number()
        .int()
        .min(RATE_WINDOW_MS.min, { error: `must be at least ${RATE_WINDOW_MS.min} milliseconds (60000 is a minute)` })
        .max(RATE_WINDOW_MS.max, { error: `must be at most ${RATE_WINDOW_MS.max} milliseconds (an hour)` }),
      declinesPerClient: PositiveInt,
    })
    .partial()
    .optional(),
  reconciliation: z
    .strictObject({
      intervalMs: PositiveInt,
      stalePaymentAfterMs: z.number().int().min(0),
      unsettledOperationAfterMs: z.number().int().min(0),
      giveUpAfterMs: z.number().int().min(0),
      // One "no such order" is never enough to call a request unsent.
      neverSentReads: z.number().int().min(2).max(100),
      neverSentSpacingMs: z.number().int().min(0),
      batchSize: z.number().int().min(1).max(1000),
      hookTimeoutMs: PositiveInt,
    })
    .partial()
    .optional(),
  bodyLimitBytes: z.number().int().min(1024).max(1024 * 1024).optional(),
  trustProxy: z
    .union([
      z.boolean(),
      z
        .array(
          z.string().superRefine((entry, ctx) => {
            const problem = proxyEntryProblem(entry);
            if (problem) ctx.addIssue({ code: 'custom', message: problem.replace(/^"[^"]*" /, '') });
          }),
        )
        .min(1, { error: 'must list at least one network, or be true' }),
    ])
    .optional(),
  metricsToken: BearerToken.optional(),
  widgetDir: z.string().min(1).optional(),
  backOffice: BackOfficeSettings.optional(),
});

/**
 * Each of `names` given as something other than a function, as "x: must be a function, not a
 * string": a hook given as its name (`onPaymentEvent: 'fulfil'`) would otherwise be taken, and
 * fail at every payment long after start. Null stands for none, as undefined does.
 */
export function notFunctions(given: object, names: readonly string[]): string[] {
  return names.flatMap((name) => {
    const value: unknown = (given as Readonly<Record<string, unknown>>)[name];
    if (value === undefined || value === null || typeof value === 'function') return [];
    // The value is not quoted: a secret or a card number may have ended up in the wrong option.
    return [`${name}: must be a function, not ${kindOf(value)}`];
  });
}

/** A duration an option gives in milliseconds: a whole number from `min` to `max` (none: any safe integer), as `variable` takes it when one sets it too. */
export interface MillisecondsRule {
  readonly min: number;
  readonly max?: number;
  readonly variable?: string;
}

/**
 * What is wrong with `value` as option `name`'s milliseconds, or nothing when it is unset: its
 * type or its range, with the rule (the variable's, when there is one: an option takes no value
 * the variable refuses). A number written as text is said to be one, as settings in code often
 * come from a configuration file's strings.
 */
export function millisecondsProblem(name: string, value: unknown, { min, max, variable }: MillisecondsRule): string | undefined {
  if (value === undefined) return undefined;
  const range = max !== undefined ? `from ${min} to ${max}` : min === 1 ? 'above 0' : `of at least ${min}`;
  const rule = `${name} must be a whole number of milliseconds ${range}${variable ? `, as ${variable} takes it` : ''}`;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return `${rule}, not a string: write ${value.trim()}, without quotes`;
  if (typeof value !== 'number') return `${rule}, not ${kindOf(value)}`;
  const inRange = Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max);
  return inRange ? undefined : `${rule} (it is ${String(value)})`;
}

/**
 * The ledger and the gateway client are given to createCompanion, not made by it: left out, it
 * failed deep inside ("Cannot read properties of undefined (reading 'timeoutMs')"). Each is
 * named with where it comes from, and one given as its URL (`ledger: './data/payform.db'`) is
 * refused as what it is.
 */
function dependencyProblems(config: CompanionConfig): string[] {
  const { gateway, ledger } = config as Partial<CompanionConfig>;
  const gatewayWrong = !isObject(gateway) || typeof gateway?.timeoutMs !== 'number';
  // A ledger left out is named beside the gateway only: settings are checked here without one
  // (resolveConfig's own tests), and createCompanion asks for it next (ledgerProblem).
  const ledgerWrong = ledger === undefined ? gatewayWrong : ledgerProblem(ledger) !== undefined;
  return [
    ...(ledgerWrong ? [ledgerRequired(ledger)] : []),
    ...(gatewayWrong
      ? [`gateway: required, the gateway client (new GatewayClient({ baseUrl, posId, apiKey, apiSecret, endpointsKey }), from @payform/gateway)${isObject(gateway) ? ', not its options' : given(gateway)}`]
      : []),
  ];
}

/**
 * What is wrong with what was given as the ledger, if anything: left out, or not a ledger (an
 * object of other methods would fail at the first payment, not at start).
 */
export function ledgerProblem(ledger: unknown): string | undefined {
  // Its fields, not its methods: a wrapper may count or stand in for the calls it is asked for.
  const { id, dialect } = (isObject(ledger) ? ledger : {}) as Partial<Ledger>;
  return typeof id === 'string' && (dialect === 'sqlite' || dialect === 'postgres') ? undefined : ledgerRequired(ledger);
}

const ledgerRequired = (ledger: unknown) =>
  `ledger: required, the ledger it records payments in (await openLedger(url), from @payform/companion)${isObject(ledger) ? ', not another object (it has no ledger id or dialect)' : given(ledger)}`;
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const given = (value: unknown) => (value === undefined ? '' : `, not ${kindOf(value)}`);

/** Checks the settings and fills in the defaults. Throws TypeError naming each wrong setting. */
export function resolveConfig(config: CompanionConfig): CompanionOptions {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new TypeError(
      `createCompanion(config) takes an object, { ledger, gateway, gatewayApiSecret, publicUrl, adminToken, … }, not ${config === undefined ? 'nothing' : config === null ? 'null' : kindOf(config)}`,
    );
  }
  const dependencies = dependencyProblems(config);
  if (dependencies.length > 0) throw new TypeError(`Invalid companion config: ${dependencies.join('; ')}`);
  const { ledger: _l, gateway: _g, clock: _c, logger: _log, onPaymentEvent: _hook, ...settings } = config;
  // A misspelt option (`onPaymentEvents`) would be dropped without a word: the hook never called.
  const unknown = unknownOptions(settings, [...Object.keys(Settings.shape), 'ledger', 'gateway', 'clock', 'logger', 'onPaymentEvent']);
  const wrong = [...unknown, ...notFunctions(config, ['onPaymentEvent', 'clock'])];
  if (wrong.length > 0) throw new TypeError(`Invalid companion config: ${wrong.join('; ')}`);
  const checked = parseWire(Settings, settings);
  // describeIssues names fields and reasons only: the admin token never ends up in the message.
  if (!checked.success) throw new TypeError(`Invalid companion config: ${describeIssues(checked.issues)}`);
  // Whoever scrapes metrics must not thereby hold the merchant API, nor the merchant API the
  // secret that signs the gateway's webhooks (and, with it, calls the gateway as the shop).
  const sameAsAdmin = [
    ...(config.metricsToken !== undefined && config.metricsToken === config.adminToken ? ['metricsToken (PAYFORM_METRICS_TOKEN)'] : []),
    ...(config.gatewayApiSecret === config.adminToken ? ['gatewayApiSecret (PAYFORM_GATEWAY_API_SECRET)'] : []),
    ...(config.gatewayApiSecretPrevious === config.adminToken ? ['gatewayApiSecretPrevious (PAYFORM_GATEWAY_API_SECRET_PREVIOUS)'] : []),
  ];
  if (sameAsAdmin.length > 0) {
    throw new TypeError(`Invalid companion config: ${sameAsAdmin.join(' and ')} must differ from adminToken (PAYFORM_ADMIN_TOKEN): give each its own random value`);
  }
  if (config.gatewayApiSecretPrevious === config.gatewayApiSecret) {
    throw new TypeError('Invalid companion config: gatewayApiSecretPrevious (PAYFORM_GATEWAY_API_SECRET_PREVIOUS) is gatewayApiSecret itself: give it the secret before the rotation, or leave it out');
  }
  checkWebhookSecret(config);
  const reconciliation = { ...DEFAULT_RECONCILIATION, ...config.reconciliation };
  checkNeverSentWindow(reconciliation, config.gateway.timeoutMs);
  checkTokenizer(config);
  const basePath = (config.basePath ?? '').replace(/\/+$/, '');
  return {
    publicUrl: config.publicUrl.replace(/\/+$/, '') + basePath,
    basePath,
    adminToken: config.adminToken,
    allowedOrigins: (config.allowedOrigins ?? []).map((origin) => new URL(origin).origin),
    sandboxOrigin: config.sandboxOrigin === undefined ? undefined : new URL(config.sandboxOrigin).origin,
    testMode: config.testMode ?? false,
    sessionTtlSeconds: config.sessionTtlSeconds ?? 30 * 60,
    captureOverReservePercent: config.captureOverReservePercent ?? 0,
    acceptedBrands: checked.data.acceptedBrands,
    currencies: checked.data.currencies,
    // A client of a release before it has none: no sector rules, as then.
    merchantSector: config.gateway.merchantSector,
    personalDataDays: checked.data.personalDataDays,
    tokenizer: config.tokenizer && {
      url: `${config.tokenizer.widgetUrl.replace(/\/+$/, '')}/api/v1/sdk/tokenize`,
      widgetKey: config.tokenizer.widgetKey,
      sealKey: config.gatewayApiSecret,
    },
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...config.rateLimits },
    reconciliation,
    bodyLimitBytes: config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    webhookBodyLimitBytes: WEBHOOK_BODY_LIMIT,
    trustProxy: config.trustProxy ? new ProxyTrust(config.trustProxy === true ? undefined : config.trustProxy) : false,
    metricsToken: config.metricsToken,
    widgetDir: config.widgetDir ?? DEFAULT_WIDGET_DIR,
    backOffice: config.backOffice && resolveBackOffice(config.backOffice),
  };
}

/**
 * The gateway signs its webhooks with the API secret the client calls it with: given another
 * gatewayApiSecret, the companion would refuse every webhook as forged, and learn outcomes only
 * by reading them back.
 */
function checkWebhookSecret({ gateway, gatewayApiSecret }: CompanionConfig): void {
  // A stand-in for the client, or one of an older @payform/gateway, cannot be asked.
  if (typeof gateway.usesApiSecret !== 'function' || gateway.usesApiSecret(gatewayApiSecret)) return;
  throw new TypeError(
    'Invalid companion config: gatewayApiSecret (PAYFORM_GATEWAY_API_SECRET) is not the apiSecret the gateway client calls with, ' +
      'and the gateway signs its webhooks with that one: every webhook would be refused as forged; give both the project’s API secret',
  );
}

/**
 * The never-sent window must outlast a request still in flight: its reads span
 * (neverSentReads − 1) × neverSentSpacingMs, which must be at least twice the gateway client's
 * timeout per attempt, or a request the gateway is still working on could be ended as never sent.
 */
function checkNeverSentWindow({ neverSentReads, neverSentSpacingMs }: ReconciliationTimings, gatewayTimeoutMs: number): void {
  const windowMs = (neverSentReads - 1) * neverSentSpacingMs;
  if (windowMs >= 2 * gatewayTimeoutMs) return;
  throw new TypeError(
    `Invalid companion config: reconciliation.neverSentReads (${neverSentReads}) and reconciliation.neverSentSpacingMs (${neverSentSpacingMs}) ` +
      `make a never-sent window of ${windowMs} ms, shorter than twice the gateway client's timeout per attempt (2 × ${gatewayTimeoutMs} ms): ` +
      `(neverSentReads − 1) × neverSentSpacingMs must be at least ${2 * gatewayTimeoutMs} ms`,
  );
}

/**
 * Card data goes to the tokenizer from customers' browsers: over https, or to the development
 * sandbox. The tokens it seals for this shop are opened with the API secret as an AES-256 key,
 * so that secret is 32 bytes (gateway-notes.md, "Card tokenization").
 */
function checkTokenizer(config: CompanionConfig): void {
  if (config.tokenizer && Buffer.byteLength(config.gatewayApiSecret, 'utf8') !== 32) {
    throw new TypeError(
      'Invalid companion config: the widget tokenizes (PAYFORM_GATEWAY_WIDGET_KEY, the tokenizer option), and the tokens the gateway seals for this shop are opened with ' +
        'the API secret as an AES-256 key, but gatewayApiSecret (PAYFORM_GATEWAY_API_SECRET) is not 32 bytes: check it against the gateway project, or leave the widget key unset (relay mode)',
    );
  }
  const url = config.tokenizer && new URL(config.tokenizer.widgetUrl);
  if (!url || url.protocol === 'https:' || (config.sandboxOrigin !== undefined && url.origin === new URL(config.sandboxOrigin).origin)) return;
  // The origin it was checked against, said: a pasted PAYFORM_SANDBOX_ORIGIN of a sandbox since moved is the line to change.
  const sandbox = config.sandboxOrigin === undefined ? 'none' : new URL(config.sandboxOrigin).origin;
  throw new TypeError(
    `Invalid companion config: tokenizer.widgetUrl (PAYFORM_GATEWAY_WIDGET_URL, by default PAYFORM_GATEWAY_BASE_URL) must be https, or the sandbox's origin in development, now ${sandbox} (PAYFORM_SANDBOX_ORIGIN or the sandboxOrigin option, else the gateway URL's own origin), not ${url.origin}`,
  );
}
