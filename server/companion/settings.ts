/**
 * `readCompanionConfig(env)`: the companion's settings from an environment (design.md's table),
 * checked in one go so every wrong variable is named at start. Nothing reads `process.env`
 * unless it is passed: the bin passes it, a companion mounted in a shop's server is given what
 * it needs in code (or `readCompanionConfig(process.env)`, when the host wants exactly that).
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | PORT, PAYFORM_HOST | where to listen | 3000; 127.0.0.1 in development (its webhook secret is public), all interfaces in production |
 * | PAYFORM_PUBLIC_URL | how the gateway and browsers reach the companion | http://localhost:$PORT for the bin in development; required when mounted and in production |
 * | PAYFORM_GATEWAY_BASE_URL | the gateway; unset ⇒ the bundled sandbox (started by the caller) | — |
 * | PAYFORM_GATEWAY_POS_ID, …_API_KEY, …_API_SECRET, …_ENDPOINTS_KEY | credentials | the test project's |
 * | PAYFORM_GATEWAY_API_SECRET_PREVIOUS | while the API secret is rotated, the one before: webhooks signed with it are taken too | — |
 * | PAYFORM_GATEWAY_WIDGET_KEY | the project's widget key: `<pay-form>` tokenizes cards in the browser | — (the card is relayed) |
 * | PAYFORM_GATEWAY_WIDGET_URL | the gateway's widget host, where its card tokenizer is | the gateway's URL (the sandbox serves both) |
 * | PAYFORM_DATABASE_URL | postgres://… ⇒ PostgreSQL; a path ⇒ SQLite (not a file: URL); set but empty: refused (environment.ts) | ./data/payform.db |
 * | PAYFORM_LEDGER_HANDOVER_FROM | the point of sale whose ledger this one takes over, once (going live) | — |
 * | PAYFORM_GATEWAY_TIMEOUT_MS | how long one gateway call may take before its outcome is read instead (5000 to 30000) | 30000 |
 * | PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS | PostgreSQL: how long a statement may wait for its answer before it fails as the database being away (0: no limit) | 5000 |
 * | PAYFORM_ADMIN_TOKEN | bearer token of the merchant API | generated and printed by the bin in development; required when mounted |
 * | PAYFORM_ALLOWED_ORIGINS | comma-separated origins of the merchant's pages (CORS); one with a path is refused (origin-setting.ts) | PAYFORM_PUBLIC_URL's origin |
 * | PAYFORM_SANDBOX_ORIGIN | the non-https origin redirects may go to (development) | the gateway's origin when it is on this machine |
 * | PAYFORM_TEST_MODE | sessions are test sessions (banner, test cards) | true on a sandbox or the test credentials |
 * | PAYFORM_CAPTURE_OVER_RESERVE_PERCENT | the project's over-capture limit | 15 on the bundled sandbox, else 0 |
 * | PAYFORM_SESSION_TTL_SECONDS | checkout session lifetime | 1800 |
 * | PAYFORM_ACCEPTED_BRANDS | the card schemes the shop takes, the widget's brand ids comma-separated (visa,mastercard) | every scheme the widget knows |
 * | PAYFORM_CURRENCIES | the currencies the gateway project takes, ISO 4217 comma-separated (UAH,EUR): a session or charge in another is refused as it opens | any, refused by the gateway at payment |
 * | PAYFORM_MERCHANT_SECTOR | microfinance or igaming when the gateway project is a merchant's of that sector: the customer details the interface then requires are asked for, and a session without the merchant's are refused as it opens | none |
 * | PAYFORM_PERSONAL_DATA_DAYS | days a customer's personal details are kept after their order (1 to 3650), then erased from the decided orders by reconciliation | kept until erased on request |
 * | PAYFORM_TRUST_PROXY | take the client address from X-Forwarded-For behind proxies of yours: true for those on this machine or a private network, or a comma-separated list of what to trust: private, and networks (a CDN's) | false |
 * | PAYFORM_RATE_LIMITS | the rateLimits option's limits as name=value pairs, comma-separated (perClient=60,declinesPerClient=40) | rateLimits' defaults |
 * | PAYFORM_METRICS_TOKEN | serves GET /metrics to this bearer token (≥ 16 characters) | unset: no /metrics |
 * | PAYFORM_METRICS_ADDRESS | serves GET /metrics without a token on this host:port of its own (e.g. 127.0.0.1:9464) | unset |
 * | PAYFORM_LOG_LEVEL | debug, info, warn, error | info |
 * | PAYFORM_BACK_OFFICE | the back office's path, e.g. /admin (signed in with the admin token) | off |
 * | PAYFORM_BACK_OFFICE_SELLERS | the sellers of split payments, `id=name,…` by gateway sub-merchant id | none |
 * | PAYFORM_NOTIFY_URL, PAYFORM_NOTIFY_SECRET | POST every payment change there, signed with the secret (≥ 32 printable ASCII characters); both or neither (payments/notify-url.ts) | off |
 * | NODE_ENV | `production` requires PAYFORM_ADMIN_TOKEN, PAYFORM_GATEWAY_BASE_URL, all four credentials its own, https gateway, public and notification URLs (plain http only to this machine), no PAYFORM_SANDBOX_ORIGIN, no ledger in :memory: | — |
 *
 * The unprefixed names of 0.2 (`DATABASE_URL`, `ADMIN_TOKEN`…) are read when the prefixed one is
 * unset, each reported in `deprecations` (environment.ts).
 */
import { randomBytes } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import * as z from 'zod';
import { BearerToken } from './bearer-token.js';
import { isQuotedSetting, nearestName, quotedSettingProblem } from '@payform/gateway';
import { TEST_PROJECT_DEFAULTS, testProjectCredentials } from '@payform/gateway/testing';
import type { ProjectCredentials } from '@payform/gateway/testing';
import { describeIssues, GatewayBaseUrl, headerCredential, parseWire, ServiceUrl, Uuid } from '@payform/gateway/wire';
import type { MerchantSector } from '@payform/gateway/wire';
import { passwordMasked } from '@payform/gateway';
import { isPostgresUrl, ledgerUrlProblem } from '../ledger/index.js';
import { BackOfficeSettings, SellersSetting } from './back-office/back-office-options.js';
import { browserExposedSecrets } from './browser-exposed.js';
import { currentEnvironment, isVariableValue, kindOf, leftAloneNotice, strayNotice, strayVariables } from './environment.js';
import { isLocalHttpGateway, isLoopbackHost, isPlainHttpElsewhere } from './loopback.js';
import { proxyEntryProblem } from './http/proxy-trust.js';
import { Origin } from './origin-setting.js';
import { notifySecretProblem, notifyUrlProblem, shownNotifyUrl } from './payments/notify-url.js';
import type { CurrentEnvironment, Env, EnvironmentInput, NotBlankVariable, StrayVariable, UnreadVariable } from './environment.js';
import { eitherOf } from './near-names.js';
import { AcceptedBrands } from './checkout/accepted-brands.js';
import { Currencies } from './checkout/accepted-currencies.js';
import { PersonalDataDaysVariable } from './personal-data-days.js';
import type { BrandId } from '@payform/card/fields';
import { RATE_WINDOW_MS } from './config.js';
import { guessable } from './guessable.js';
import type { MillisecondsRule, RateLimits } from './config.js';
import type { LogLevel } from './log/logger.js';

export interface CompanionSettings {
  readonly port: number;
  /** PAYFORM_HOST; unset: 127.0.0.1 in development, every interface in production (see startCompanion). */
  readonly host: string | undefined;
  /** NODE_ENV=production (its own credentials, no sandbox origin, reachable from the network). */
  readonly production: boolean;
  readonly publicUrl: string;
  /** True when PAYFORM_PUBLIC_URL was not set and `http://localhost:$PORT` stands in (fine for the bin only). */
  readonly publicUrlDerived: boolean;
  /** Undefined: the bundled sandbox, whose URL the caller passes to startCompanion. */
  readonly gatewayBaseUrl: string | undefined;
  readonly credentials: ProjectCredentials;
  /** PAYFORM_GATEWAY_API_SECRET_PREVIOUS: the API secret before a rotation, whose webhooks (the gateway's retries) are taken too. */
  readonly previousApiSecret?: string | undefined;
  /** PAYFORM_GATEWAY_WIDGET_KEY and _URL: the card tokenizer (widgetUrl undefined: the gateway's URL). */
  readonly tokenizer: { readonly widgetKey: string; readonly widgetUrl: string | undefined } | undefined;
  readonly databaseUrl: string;
  /** True when PAYFORM_DATABASE_URL was not set and the ledger took the default SQLite file. */
  readonly databaseUrlDefaulted: boolean;
  /** PAYFORM_LEDGER_HANDOVER_FROM: the point of sale whose ledger this companion's takes over (going live). */
  readonly ledgerHandoverFrom: string | undefined;
  /** PAYFORM_GATEWAY_TIMEOUT_MS; undefined: the gateway client's default (30 s). */
  readonly gatewayTimeoutMs: number | undefined;
  /** PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS (PostgreSQL only); undefined: the ledger's default. */
  readonly databaseStatementTimeoutMs: number | undefined;
  readonly adminToken: string;
  /** True when PAYFORM_ADMIN_TOKEN was not set and one was made up (the bin prints it; mounting refuses it). */
  readonly adminTokenGenerated: boolean;
  readonly allowedOrigins: readonly string[];
  readonly sandboxOrigin: string | undefined;
  readonly testMode: boolean;
  readonly captureOverReservePercent: number;
  readonly sessionTtlSeconds: number;
  /** PAYFORM_ACCEPTED_BRANDS: the card schemes the shop takes; undefined: every one the widget knows. */
  readonly acceptedBrands: readonly BrandId[] | undefined;
  /** PAYFORM_CURRENCIES: the currencies the gateway project takes; undefined: any, the gateway refusing at payment those it does not. */
  readonly currencies: readonly string[] | undefined;
  /** PAYFORM_MERCHANT_SECTOR: the project's sector when the interface has extra rules for it (the gateway client's merchantSector). */
  readonly merchantSector: MerchantSector | undefined;
  /** PAYFORM_PERSONAL_DATA_DAYS: days a customer's details are kept after their order; undefined: until erased on request. */
  readonly personalDataDays: number | undefined;
  readonly trustProxy: boolean | readonly string[];
  /** PAYFORM_RATE_LIMITS: the limits it names (the rest keep their defaults); undefined: none named. */
  readonly rateLimits: Partial<RateLimits> | undefined;
  /** PAYFORM_METRICS_TOKEN: /metrics on the companion's port, for this bearer token. */
  readonly metricsToken: string | undefined;
  /** PAYFORM_METRICS_ADDRESS: /metrics on a listener of its own, no token (bind it where only Prometheus reaches). */
  readonly metricsAddress: { readonly host: string; readonly port: number } | undefined;
  readonly logLevel: LogLevel;
  /** PAYFORM_BACK_OFFICE (where the back office is served; undefined: not served) and _SELLERS. */
  readonly backOffice: { readonly path: string; readonly subMerchants?: readonly { readonly id: string; readonly name: string }[] } | undefined;
  /** PAYFORM_NOTIFY_URL and _SECRET: every payment change POSTed there, signed (undefined: not sent). */
  readonly notify: { readonly url: string; readonly secret: string } | undefined;
  /** One line per unprefixed 0.2 variable that was read: logged once at start. */
  readonly deprecations: readonly string[];
  /** What reads as a mistake but runs (a misspelt variable, a real gateway on test credentials): logged once at start. */
  readonly warnings: readonly string[];
  /**
   * Variables set with a `PAYFORM_` name no payform program reads, each with a variable it reads
   * like — one entry per variable when it reads like several (`PAYFORM_GATEWAY_URL`). Each such
   * name, alike or not, is also in `warnings`.
   */
  readonly misspelt: readonly UnreadVariable[];
  /** Unprefixed 0.2 names set but left alone as the shop's own, and the variable each would be: said once at start. */
  readonly leftAlone: readonly UnreadVariable[];
}

/** The SQLite file the ledger is in when PAYFORM_DATABASE_URL is unset (relative to the working directory). */
export const DEFAULT_DATABASE = './data/payform.db';

const Flag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((flag) => ['true', '1', 'yes'].includes(flag));
const RATE_LIMIT_NAMES = ['perSession', 'perClient', 'declinesPerClient', 'wrongAdminTokens', 'windowMs'] as const satisfies readonly (keyof RateLimits)[];
type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];
const isRateLimitName = (name: string): name is RateLimitName => (RATE_LIMIT_NAMES as readonly string[]).includes(name);

/** PAYFORM_RATE_LIMITS: `name=value` pairs, comma-separated, named as the rateLimits option's (`perClient=60,declinesPerClient=40`). */
const RateLimitsSetting = z.string().transform((text, ctx) => {
  const limits: Partial<Record<RateLimitName, number>> = {};
  for (const entry of text.split(',').map((pair) => pair.trim()).filter(Boolean)) {
    const [name = '', value, extra] = entry.split('=').map((part) => part.trim());
    const meant = isRateLimitName(name) ? undefined : nearestName(name, RATE_LIMIT_NAMES);
    const problem = !isRateLimitName(name)
      ? `${JSON.stringify(name)} is no limit${meant ? ` (did you mean ${meant}?)` : ''}: name ${RATE_LIMIT_NAMES.join(', ')}`
      : extra !== undefined || /[;\s]/.test(value ?? '')
        ? `${JSON.stringify(entry)} is more than one pair: separate them with commas`
        : value === undefined || !/^[1-9]\d{0,8}$/.test(value)
          ? `${name} must be a whole number from 1, written ${name}=<number>`
          : name in limits
            ? `${name} is named twice`
            : name === 'windowMs' && (Number(value) < RATE_WINDOW_MS.min || Number(value) > RATE_WINDOW_MS.max)
              ? `windowMs is in milliseconds, from ${RATE_WINDOW_MS.min} to ${RATE_WINDOW_MS.max} (60000 is a minute)`
              : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: `${problem} (PAYFORM_RATE_LIMITS=perClient=60,declinesPerClient=40)` });
    else limits[name as RateLimitName] = Number(value);
  }
  return limits;
});

/** PAYFORM_TRUST_PROXY: a flag, or what to trust: `private`, and the networks of proxies of yours with public addresses (a CDN's edges). */
const TrustProxySetting = z.string().transform((text, ctx) => {
  const flag = Flag.safeParse(text);
  if (flag.success) return flag.data;
  const networks = text.split(',').map((network) => network.trim()).filter(Boolean);
  const problems = networks.map((network) => proxyEntryProblem(network)).filter((problem) => problem !== undefined);
  if (networks.length > 0 && problems.length === 0) return networks;
  // A single word is likelier a flag mistyped (`ture`, `on`) than a network.
  const meant = networks.length === 1 && /^[a-z]+$/i.test(networks[0]!) ? nearestName(networks[0]!.toLowerCase(), ['true', 'false']) : undefined;
  const said = meant ? `"${networks[0]}" is no flag: did you mean ${meant}?` : problems.join('; ') || 'it names nothing';
  ctx.addIssue({
    code: 'custom',
    message:
      'must be true (proxies on this machine or a private network; 1 and yes too), false (0, no), or what to trust, comma-separated: private, and your proxies\' addresses or networks ' +
      `(private,203.0.113.0/24,2001:db8::/32): ${said}`,
  });
  return z.NEVER;
});
const Origins = z
  .string()
  .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean))
  .pipe(z.array(Origin));

/**
 * A gateway call's timeout, PAYFORM_GATEWAY_TIMEOUT_MS or the gatewayTimeoutMs option: seconds at
 * least (the gateway takes seconds to pay with some banks), at most the client's default, as
 * reconciliation's never-sent window (60 s) is sized for two of them.
 */
export const GATEWAY_TIMEOUT: Required<MillisecondsRule> = { min: 5_000, max: 30_000, variable: 'PAYFORM_GATEWAY_TIMEOUT_MS' };

/** A zod refinement of a rule that says what is wrong, or nothing. */
function refinedBy(problemOf: (value: string) => string | undefined) {
  return (value: string, ctx: z.core.$RefinementCtx<string>) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

const Variables = z.object({
  PORT: z.string().regex(/^\d{1,5}$/, { error: 'must be a port number' }).transform(Number).pipe(z.number().min(0).max(65_535)).default(3000),
  PAYFORM_HOST: z
    .string()
    .min(1)
    // What a URL or a Host header would hold: the port is PORT's, and no scheme or path binds.
    .refine((host) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(host) && !host.includes('/'), { error: 'must be a host name or address alone, without a scheme or path (127.0.0.1, 0.0.0.0, ::)' })
    .refine((host) => !/^(?:[^:[\]]+|\[[^\]]*\]):\d*$/.test(host), { error: 'must be a host name or address without a port: the port is PORT' })
    .optional(),
  PAYFORM_PUBLIC_URL: ServiceUrl.optional(),
  PAYFORM_GATEWAY_BASE_URL: GatewayBaseUrl.optional(),
  // The project's id is a UUID, the others what a header carries (the client checks them too, under its own options' names).
  PAYFORM_GATEWAY_POS_ID: Uuid.optional(),
  PAYFORM_GATEWAY_API_KEY: headerCredential(true).optional(),
  PAYFORM_GATEWAY_API_SECRET: headerCredential().optional(),
  PAYFORM_GATEWAY_API_SECRET_PREVIOUS: headerCredential().optional(),
  PAYFORM_GATEWAY_ENDPOINTS_KEY: headerCredential().optional(),
  PAYFORM_GATEWAY_WIDGET_KEY: z.string().max(256).optional(),
  PAYFORM_GATEWAY_WIDGET_URL: ServiceUrl.optional(),
  PAYFORM_DATABASE_URL: z
    .string()
    .superRefine((url, ctx) => {
      const problem = ledgerUrlProblem(url);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default(DEFAULT_DATABASE),
  PAYFORM_LEDGER_HANDOVER_FROM: Uuid.optional(),
  PAYFORM_GATEWAY_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, { error: 'must be a number of milliseconds' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(GATEWAY_TIMEOUT.min, { error: `must be at least ${GATEWAY_TIMEOUT.min} milliseconds (the gateway takes seconds to pay with some banks)` })
        .max(GATEWAY_TIMEOUT.max, { error: `must be at most ${GATEWAY_TIMEOUT.max} milliseconds` }),
    )
    .optional(),
  PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, { error: 'must be a number of milliseconds (0: no limit)' })
    .transform(Number)
    .pipe(z.number().refine((ms) => ms === 0 || (ms >= 100 && ms <= 3_600_000), { error: 'must be 0 (no limit) or 100 to 3600000 milliseconds' }))
    .optional(),
  PAYFORM_ADMIN_TOKEN: BearerToken.optional(),
  PAYFORM_ALLOWED_ORIGINS: Origins.optional(),
  PAYFORM_SANDBOX_ORIGIN: Origin.optional(),
  PAYFORM_TEST_MODE: Flag.optional(),
  PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: z.string().regex(/^\d{1,3}(\.\d+)?$/, { error: 'must be a number of percent, without the % sign (15 for 15 %)' }).transform(Number).pipe(z.number().max(100)).optional(),
  PAYFORM_SESSION_TTL_SECONDS: z.string().regex(/^\d+$/, { error: 'must be a number of seconds' }).transform(Number).pipe(z.number().min(60).max(7 * 86_400)).default(1800),
  PAYFORM_ACCEPTED_BRANDS: z
    .string()
    .transform((list) => list.split(',').map((id) => id.trim()).filter((id) => id !== ''))
    .pipe(AcceptedBrands)
    .optional(),
  PAYFORM_CURRENCIES: z
    .string()
    .transform((list) => list.split(',').map((code) => code.trim()).filter((code) => code !== ''))
    .pipe(Currencies)
    .optional(),
  PAYFORM_MERCHANT_SECTOR: z.enum(['microfinance', 'igaming'], { error: 'must be microfinance or igaming (the sectors the gateway has extra rules for); leave it unset for any other' }).optional(),
  PAYFORM_PERSONAL_DATA_DAYS: PersonalDataDaysVariable.optional(),
  PAYFORM_TRUST_PROXY: TrustProxySetting.default(false),
  PAYFORM_RATE_LIMITS: RateLimitsSetting.optional(),
  PAYFORM_METRICS_TOKEN: BearerToken.optional(),
  PAYFORM_METRICS_ADDRESS: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):\d{1,5}$/, { error: 'must be host:port, e.g. 127.0.0.1:9464' })
    .transform((address) => {
      const at = address.lastIndexOf(':');
      return { host: address.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(address.slice(at + 1)) };
    })
    .refine((address) => address.port <= 65_535, { error: 'must be host:port, e.g. 127.0.0.1:9464' })
    .optional(),
  PAYFORM_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  PAYFORM_BACK_OFFICE: BackOfficeSettings.shape.path.optional(),
  PAYFORM_BACK_OFFICE_SELLERS: SellersSetting.optional(),
  PAYFORM_NOTIFY_URL: z.string().superRefine(refinedBy(notifyUrlProblem)).optional(),
  PAYFORM_NOTIFY_SECRET: z.string().superRefine(refinedBy(notifySecretProblem)).optional(),
  NODE_ENV: z.string().optional(),
});

/**
 * The environment is always passed (`readCompanionConfig(process.env)` in a bin): a companion
 * mounted in a shop's server must not pick up the shop's variables by accident. Only NODE_ENV,
 * the process's mode, is the process's when the settings name none.
 */
export function readCompanionConfig(environment: EnvironmentInput): CompanionSettings {
  if (typeof environment !== 'object' || environment === null) {
    throw new TypeError('readCompanionConfig(env) reads only the environment it is given: pass process.env, or an object of PAYFORM_* variables');
  }
  const processMode = modeOfProcess(environment);
  const { env, readFrom, deprecations, blank, leftAlone } = currentEnvironment(processMode ? { ...environment, NODE_ENV: processMode } : environment);
  const strays = strayVariables(env, KNOWN_VARIABLES);
  const misspelt = strays.flatMap(({ name, alike }) => alike.map((meant) => ({ name, meant })));
  try {
    return settingsOf(env, readFrom, deprecations, { strays, misspelt, leftAlone }, blank);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // Of the variables this refusal names, a name set but not read is often why: said with it.
    const unread = unreadHint({ misspelt, leftAlone }, KNOWN_VARIABLES.filter((name) => new RegExp(`\\b${name}\\b`).test(error.message)));
    // The others are said too: a start that succeeds would warn of them, and a refused one is the first look.
    const said = `${error.message}${unread}`;
    const others = strays.filter(({ name }) => !namedIn(said, name)).map((stray) => `; ${strayNotice(stray)}`).join('');
    const mode = processMode === 'production' && /\bproduction\b/.test(error.message) ? `; NODE_ENV=production is this process's (the settings given name no NODE_ENV)` : '';
    if (!unread && !others && !mode) throw error;
    throw new TypeError(`${error.message}${unread}${others}${mode}`, { cause: error });
  }
}

/** Whether `text` names the variable `name` as a whole word (`PAYFORM_NOTIFY` is not named by `PAYFORM_NOTIFY_SECRET`). */
function namedIn(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`(?:^|[^\\w])${escaped}(?:$|[^\\w])`).test(text);
}

/**
 * The settings composeCompanion is given: those readCompanionConfig returns, or the variables it
 * reads them from (written in code, or process.env), read here as it reads them — friendlier than
 * a refusal, and never ambiguous: a variable's value is a string, a number or a boolean, while
 * settings always hold lists (`warnings`). Nothing, or something else, is refused naming what was
 * given and the call to make; so is an object of settings that lacks some (built by hand).
 */
export function companionSettingsOf(given: unknown, caller: string): CompanionSettings {
  const call = `${caller}(readCompanionConfig({ PAYFORM_PUBLIC_URL: …, PAYFORM_ADMIN_TOKEN: … }), options), or ${caller}(readCompanionConfig(process.env), options) to read the process's variables`;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    const what = given === undefined ? 'nothing' : given === null ? 'null' : kindOf(given);
    throw new TypeError(`${caller}(settings, options) takes the companion's settings first, and was given ${what}: call ${call}`);
  }
  const fields = Object.keys(SETTINGS_FIELDS).filter((field) => field in given);
  // Variables with a wrong value among them (an object, a function) are readCompanionConfig's to name.
  if (Object.values(given).every(isVariableValue) || fields.length === 0) return readCompanionConfig(given as EnvironmentInput);
  // One it does not have would be ignored: a shop's own limit (acceptedBrands before it was a setting) would not hold.
  const strays = Object.keys(given).filter((name) => !isSettingName(name));
  // Variables with a setting spread among them (`{ ...process.env, acceptedBrands: […] }`): named as that one mistake.
  if (strays.some((name) => /^[A-Z][A-Z0-9_]*$/.test(name))) {
    throw new TypeError(
      `${caller}(settings, options) was given variables and settings in one object (${fields.join(', ')} beside ${strays.length} variables): ` +
        `spread settings into readCompanionConfig's result, { ...readCompanionConfig(variables), ${fields[0]}: … }, or set their variables (docs/companion.md lists each)`,
    );
  }
  if (strays.length > 0) {
    const named = strays.map((name) => {
      const meant = nearestName(name, Object.keys(SETTINGS_FIELDS));
      return meant ? `${name} (${meant}?)` : name;
    });
    throw new TypeError(
      `${caller}(settings, options) was given settings it does not have, which would be ignored: ${named.join(', ')}; ` +
        `the settings are readCompanionConfig's fields (docs/companion.md lists each variable), and options such as basePath go in the second argument`,
    );
  }
  const missing = Object.entries(SETTINGS_FIELDS).filter(([field, required]) => required && (given as Record<string, unknown>)[field] === undefined);
  if (missing.length === 0) return given as CompanionSettings;
  throw new TypeError(
    `${caller}(settings, options) was given settings without ${missing.map(([field]) => field).join(', ')}: ` +
      `call ${call}; to change one, spread them: { ...readCompanionConfig(…), logLevel: 'debug' }`,
  );
}

/** Every field of CompanionSettings, true where it is never undefined: what a settings object must have. */
const SETTINGS_FIELDS: Readonly<Record<keyof CompanionSettings, boolean>> = {
  port: true, host: false, production: true, publicUrl: true, publicUrlDerived: true, gatewayBaseUrl: false, credentials: true, previousApiSecret: false,
  tokenizer: false, databaseUrl: true, databaseUrlDefaulted: true, ledgerHandoverFrom: false, gatewayTimeoutMs: false,
  databaseStatementTimeoutMs: false, adminToken: true, adminTokenGenerated: true, allowedOrigins: true, sandboxOrigin: false,
  testMode: true, captureOverReservePercent: true, sessionTtlSeconds: true, acceptedBrands: false, currencies: false, merchantSector: false, personalDataDays: false, trustProxy: true, rateLimits: false, metricsToken: false,
  metricsAddress: false, logLevel: true, backOffice: false, notify: false, deprecations: true, warnings: true, misspelt: true, leftAlone: true,
};

/** Whether `name` is a field of CompanionSettings (given in the settings, not as a start option). */
export const isSettingName = (name: string): boolean => Object.hasOwn(SETTINGS_FIELDS, name);

/**
 * NODE_ENV is the process's mode, not one of the shop's settings: settings written in code that
 * name none run in the process's mode. Otherwise a production server that mounts the companion
 * with its settings in code would run it as in development — the sandbox's published test
 * credentials, whose webhook secret anyone can sign with, taken without a word.
 */
function modeOfProcess(environment: EnvironmentInput): string | undefined {
  const given = environment.NODE_ENV;
  return given === undefined || given === null ? process.env.NODE_ENV || undefined : undefined;
}

/**
 * What ends a refusal of `meant` (every variable when not given) set under another name: `;
 * PAYFORM_X is set: did you mean PAYFORM_Y?` for each misspelt one, and one line for the 0.2
 * names left alone as the shop's own (environment.ts); empty when there is none.
 */
export function unreadHint(unread: Pick<CompanionSettings, 'misspelt' | 'leftAlone'>, meant?: readonly string[]): string {
  const reasons = (variables: readonly UnreadVariable[]) => variables.filter((variable) => meant === undefined || meant.includes(variable.meant));
  const leftAlone = reasons(unread.leftAlone);
  // A name alike several variables is one entry per variable: said once, with those asked about.
  const misspelt = reasons(unread.misspelt);
  const names = [...new Set(misspelt.map(({ name }) => name))];
  return [
    ...names.map((name) => `; ${name} is set: did you mean ${eitherOf(misspelt.filter((variable) => variable.name === name).map((variable) => variable.meant))}?`),
    ...(leftAlone.length > 0 ? [`; ${leftAloneNotice(leftAlone)}`] : []),
  ].join('');
}

function settingsOf(
  env: Env,
  readFrom: Readonly<Record<string, string>>,
  deprecations: CompanionSettings['deprecations'],
  { strays, misspelt, leftAlone }: Pick<CompanionSettings, 'misspelt' | 'leftAlone'> & { readonly strays: readonly StrayVariable[] },
  blank: CurrentEnvironment['blank'],
): CompanionSettings {
  const parsed = parseWire(Variables, env);
  // Set but blank, these are refused rather than read as unset (environment.ts), with every other wrong one.
  const instead: Record<NotBlankVariable, string> = {
    PAYFORM_DATABASE_URL: `give the database's URL, or remove the variable for the default SQLite file (${resolvePath(DEFAULT_DATABASE)})`,
    PAYFORM_GATEWAY_WIDGET_KEY: "give the project's widget key, or remove the variable to relay card data through this server (PCI DSS SAQ D)",
    PAYFORM_ACCEPTED_BRANDS: 'name the card schemes the shop takes (visa,mastercard), or remove the variable to take every scheme the widget knows',
    PAYFORM_CURRENCIES: 'name the currencies the gateway project takes (UAH,EUR), or remove the variable to open sessions in any',
    PAYFORM_MERCHANT_SECTOR: "name the project's sector (microfinance or igaming), or remove the variable for any other",
    PAYFORM_PERSONAL_DATA_DAYS: "give the days customers' details are kept after their order (30), or remove the variable to keep them until erased on request",
  };
  const emptied = blank.map(({ name, meant }) => ({ field: '', reason: `${name} is set but empty: ${instead[meant]}` }));
  const credentials = testProjectCredentials(env);
  const quoted = quotedVariables(env);
  // A quoted value fails its variable's own rule too (PORT="3000": "must be a port number"), which
  // hides the reason: the quotes are named instead — unless that rule names them already (the
  // ledger's URL does), so each variable is named once.
  const variableOf = (field: string) => field.split(/[.[]/)[0] ?? field;
  const ruleIssues = (parsed.success ? [] : parsed.issues).filter((issue) => !quoted.includes(variableOf(issue.field)) || /\bquote/.test(issue.reason));
  const saidQuoted = new Set(ruleIssues.map((issue) => variableOf(issue.field)));
  // Every wrong variable in one refusal: a start for each would make a deployment a loop.
  const problems = [
    ...quoted.filter((name) => !saidQuoted.has(name)).map(quotedSettingProblem),
    ...(env.NODE_ENV === 'production' ? productionProblems(env, credentials) : []),
    ...notifyPairProblems(env),
    ...neededBeside(env),
  ];
  if (!parsed.success || emptied.length > 0 || problems.length > 0) {
    // A value read from a 0.2 name is named as it was set.
    const issues = ruleIssues.map((issue) => {
      const variable = variableOf(issue.field);
      return { ...issue, field: `${readFrom[variable] ?? variable}${issue.field.slice(variable.length)}` };
    });
    const described = emptied.length > 0 || issues.length > 0 ? [describeIssues([...emptied, ...issues])] : [];
    throw new TypeError(`Invalid environment: ${[...described, ...problems].join('; ')}`);
  }
  const vars = parsed.data;
  const onTestProject = credentials.apiSecret === TEST_PROJECT_DEFAULTS.apiSecret && credentials.apiKey === TEST_PROJECT_DEFAULTS.apiKey;
  // Some credentials given and some not: the sandbox's published values would stand in for the rest.
  const given = Object.values(CREDENTIAL_VARIABLES).filter((variable) => env[variable] !== undefined);
  const notGiven = Object.values(CREDENTIAL_VARIABLES).filter((variable) => env[variable] === undefined);
  const publicUrl = (vars.PAYFORM_PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, '');
  const bundledSandbox = vars.PAYFORM_GATEWAY_BASE_URL === undefined;
  const gateway = vars.PAYFORM_GATEWAY_BASE_URL === undefined ? undefined : new URL(vars.PAYFORM_GATEWAY_BASE_URL);
  // A sandbox of the merchant's own projects (other credentials): one named for the browser, or
  // one on this machine (the companion follows redirects to its origin, start.ts).
  const onSandbox = vars.PAYFORM_SANDBOX_ORIGIN !== undefined || (vars.NODE_ENV !== 'production' && gateway !== undefined && isLocalHttpGateway(gateway));
  const warnings = [
    ...(given.length > 0 && notGiven.length > 0
      ? [
          `${notGiven.join(', ')} ${notGiven.length > 1 ? 'are' : 'is'} unset or empty while ${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set: ` +
            `the sandbox's published test ${notGiven.length > 1 ? 'values stand' : 'value stands'} in, which no real gateway takes — set ${notGiven.length > 1 ? 'them' : 'it'} to your project's`,
        ]
      : []),
    ...(vars.NODE_ENV !== undefined && !['production', 'development', 'test'].includes(vars.NODE_ENV)
      ? [`NODE_ENV is ${JSON.stringify(vars.NODE_ENV)}: only "production" turns on the production checks and binding to the network; this companion runs as in development`]
      : []),
    ...strays.map(strayNotice),
    ...browserExposedSecrets(env),
    // A fraction of one per cent is no project's allowance: the share itself (0.15 for 15 %) was meant.
    ...(vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT !== undefined && vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT > 0 && vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT < 1
      ? [
          `PAYFORM_CAPTURE_OVER_RESERVE_PERCENT is ${vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT}, a percentage: captures may take ${vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT} % over the reserve, not ${Math.round(vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT * 100)} %; ` +
            `if the project allows ${Math.round(vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT * 100)} %, set it to ${Math.round(vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT * 100)}`,
        ]
      : []),
    // A staging deployment on a gateway test project may mean it; a shop's customers must not see it.
    ...(vars.NODE_ENV === 'production' && vars.PAYFORM_TEST_MODE
      ? ['PAYFORM_TEST_MODE is on in production: customers see the test banner and the test cards; leave it unset unless the gateway project is a test project']
      : []),
    ...(gateway && onTestProject && !isLoopbackHost(gateway.hostname)
      ? [
          `PAYFORM_GATEWAY_BASE_URL is ${gateway.origin}, but the credentials are the sandbox's published test project and sessions are test sessions: ` +
            `set ${Object.values(CREDENTIAL_VARIABLES).join(', ')} to your project's, unless that gateway is a payform sandbox`,
        ]
      : []),
    // The test project's webhook secret is published: off this machine, anyone could sign a webhook.
    ...(vars.NODE_ENV !== 'production' && onTestProject && vars.PAYFORM_HOST !== undefined && !isLoopbackHost(vars.PAYFORM_HOST)
      ? [
          `PAYFORM_HOST is ${JSON.stringify(vars.PAYFORM_HOST)}: the companion is reachable from the network, and on the sandbox's published test credentials ` +
            'anyone who reaches it can sign webhooks; leave PAYFORM_HOST unset (127.0.0.1) while developing, or set your project’s credentials',
        ]
      : []),
    // Production refuses it; in development it may be a machine of the developer's network.
    ...(vars.NODE_ENV !== 'production' && vars.PAYFORM_NOTIFY_URL && isPlainHttpElsewhere(new URL(vars.PAYFORM_NOTIFY_URL))
      ? [
          `PAYFORM_NOTIFY_URL is ${shownNotifyUrl(vars.PAYFORM_NOTIFY_URL)}, plain http to another machine: payment changes (customers' details) cross the network unencrypted, ` +
            'and production refuses it; give the receiver an https address',
        ]
      : []),
    ...(vars.PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS !== undefined && !isPostgresUrl(vars.PAYFORM_DATABASE_URL)
      ? ['PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS applies to a PostgreSQL ledger and is ignored: PAYFORM_DATABASE_URL is a SQLite file']
      : []),
    // No deadline on this side either: a connection that stalls holds its request, and a stop, as long as TCP waits.
    ...(vars.PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS === 0 && isPostgresUrl(vars.PAYFORM_DATABASE_URL)
      ? [
          'PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS is 0, no limit: a statement on a connection that stalls (a failover, packets lost) holds its request, and a stop, ' +
            'until the operating system gives the connection up, which may take hours; set it above the longest report instead (60000 is a minute)',
        ]
      : []),
  ];
  return {
    port: vars.PORT,
    host: vars.PAYFORM_HOST,
    production: vars.NODE_ENV === 'production',
    publicUrl,
    publicUrlDerived: vars.PAYFORM_PUBLIC_URL === undefined,
    gatewayBaseUrl: vars.PAYFORM_GATEWAY_BASE_URL,
    credentials,
    tokenizer: vars.PAYFORM_GATEWAY_WIDGET_KEY ? { widgetKey: vars.PAYFORM_GATEWAY_WIDGET_KEY, widgetUrl: vars.PAYFORM_GATEWAY_WIDGET_URL } : undefined,
    databaseUrl: vars.PAYFORM_DATABASE_URL,
    databaseUrlDefaulted: env.PAYFORM_DATABASE_URL === undefined,
    ledgerHandoverFrom: vars.PAYFORM_LEDGER_HANDOVER_FROM,
    gatewayTimeoutMs: vars.PAYFORM_GATEWAY_TIMEOUT_MS,
    databaseStatementTimeoutMs: vars.PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS,
    previousApiSecret: vars.PAYFORM_GATEWAY_API_SECRET_PREVIOUS,
    adminToken: vars.PAYFORM_ADMIN_TOKEN ?? randomBytes(24).toString('base64url'),
    adminTokenGenerated: vars.PAYFORM_ADMIN_TOKEN === undefined,
    allowedOrigins: vars.PAYFORM_ALLOWED_ORIGINS ?? [new URL(publicUrl).origin],
    sandboxOrigin: vars.PAYFORM_SANDBOX_ORIGIN,
    testMode: vars.PAYFORM_TEST_MODE ?? (bundledSandbox || onTestProject || onSandbox),
    captureOverReservePercent: vars.PAYFORM_CAPTURE_OVER_RESERVE_PERCENT ?? (bundledSandbox ? 15 : 0),
    sessionTtlSeconds: vars.PAYFORM_SESSION_TTL_SECONDS,
    acceptedBrands: vars.PAYFORM_ACCEPTED_BRANDS,
    currencies: vars.PAYFORM_CURRENCIES,
    merchantSector: vars.PAYFORM_MERCHANT_SECTOR,
    personalDataDays: vars.PAYFORM_PERSONAL_DATA_DAYS,
    trustProxy: vars.PAYFORM_TRUST_PROXY,
    rateLimits: vars.PAYFORM_RATE_LIMITS,
    metricsToken: vars.PAYFORM_METRICS_TOKEN,
    metricsAddress: vars.PAYFORM_METRICS_ADDRESS,
    logLevel: vars.PAYFORM_LOG_LEVEL,
    backOffice:
      vars.PAYFORM_BACK_OFFICE === undefined
        ? undefined
        : { path: vars.PAYFORM_BACK_OFFICE, ...(vars.PAYFORM_BACK_OFFICE_SELLERS ? { subMerchants: vars.PAYFORM_BACK_OFFICE_SELLERS } : {}) },
    notify: vars.PAYFORM_NOTIFY_URL && vars.PAYFORM_NOTIFY_SECRET ? { url: vars.PAYFORM_NOTIFY_URL, secret: vars.PAYFORM_NOTIFY_SECRET } : undefined,
    deprecations,
    warnings,
    misspelt,
    leftAlone,
  };
}

const CREDENTIAL_VARIABLES: Readonly<Record<keyof ProjectCredentials, string>> = {
  posId: 'PAYFORM_GATEWAY_POS_ID',
  apiKey: 'PAYFORM_GATEWAY_API_KEY',
  apiSecret: 'PAYFORM_GATEWAY_API_SECRET',
  endpointsKey: 'PAYFORM_GATEWAY_ENDPOINTS_KEY',
};

/** The variables the companion reads whose value is kept in quotes (setting-quotes.ts, @payform/gateway). */
function quotedVariables(env: Env): string[] {
  return KNOWN_VARIABLES.filter((name) => isQuotedSetting(env[name] ?? ''));
}

/** Every variable the companion reads (PAYFORM_LOG_FILE: the logger's copy of its lines, log/logger.ts). */
export const KNOWN_VARIABLES: readonly string[] = [...new Set([...Object.keys(Variables.shape), ...Object.values(CREDENTIAL_VARIABLES), 'PAYFORM_LOG_FILE'])];

/**
 * Production runs on its own settings only: an admin token and a gateway given, no credential
 * left at the published test project's value (one is enough to leak or misroute), and no
 * sandbox origin — the one address browsers may be sent to over plain http.
 */
function productionProblems(env: Env, credentials: ProjectCredentials): string[] {
  const defaults = Object.entries(CREDENTIAL_VARIABLES).filter(([name]) => {
    const key = name as keyof ProjectCredentials;
    return credentials[key] === TEST_PROJECT_DEFAULTS[key];
  });
  const missing = [
    ...(env.PAYFORM_ADMIN_TOKEN ? [] : ['PAYFORM_ADMIN_TOKEN']),
    ...(env.PAYFORM_GATEWAY_BASE_URL ? [] : ['PAYFORM_GATEWAY_BASE_URL']),
    // The default, a SQLite file beside the process, is a private ledger: behind a load balancer,
    // or with a variable misnamed, payments would go where no other instance or backup sees them.
    ...(env.PAYFORM_DATABASE_URL ? [] : ['PAYFORM_DATABASE_URL']),
    ...defaults.map(([, variable]) => variable),
  ];
  // The public URL may come as the publicUrl option of a mounted companion, so it is not refused
  // here; the bin refuses it next (startCompanion), and naming it now saves a restart.
  const publicUrl = env.PAYFORM_PUBLIC_URL ? '' : '; run by the payform-companion bin, it also needs PAYFORM_PUBLIC_URL, the https address the gateway and browsers reach it at';
  // A credential set to the published test project's value is as good as missing: say which it is.
  const atTestValue = defaults.map(([, variable]) => variable).filter((variable) => env[variable] !== undefined);
  const notes = [
    ...(atTestValue.length > 0
      ? [`${atTestValue.join(', ')} ${atTestValue.length > 1 ? 'are' : 'is'} the sandbox's published test value${atTestValue.length > 1 ? 's' : ''}: production takes your gateway project's own; on the sandbox, run without NODE_ENV=production (under a framework's production server that sets it, such as \`next start\`: readCompanionConfig({ ...process.env, NODE_ENV: 'development' }))`]
      : []),
    ...(env.PAYFORM_DATABASE_URL === undefined ? [`PAYFORM_DATABASE_URL: a postgres:// URL, or the SQLite file's path, e.g. ${resolvePath(DEFAULT_DATABASE)}`] : []),
  ];
  const token = env.PAYFORM_ADMIN_TOKEN;
  const easyToken = token ? guessable(token) : undefined;
  // The gateway call carries the credentials (and, relayed, the card); the public URL carries the
  // session id, a capability, in every return address; a merchant's page is where the card is
  // typed and the session id kept. Plain http only to this machine.
  const plain = (['PAYFORM_GATEWAY_BASE_URL', 'PAYFORM_PUBLIC_URL', 'PAYFORM_NOTIFY_URL', 'PAYFORM_ALLOWED_ORIGINS'] as const).flatMap((name) => {
    const entries = name === 'PAYFORM_ALLOWED_ORIGINS' ? (env[name] ?? '').split(',').map((origin) => origin.trim()) : [env[name] ?? ''];
    const shown = entries.filter((entry) => {
      const url = URL.parse(entry);
      return url !== null && isPlainHttpElsewhere(url);
    });
    return shown.length > 0 ? [{ name, shown: shown.map((entry) => passwordMasked(entry)).join(',') }] : [];
  });
  return [
    ...(missing.length > 0 ? [`production needs ${missing.join(', ')}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}${publicUrl}`] : []),
    ...(env.PAYFORM_SANDBOX_ORIGIN ? ['PAYFORM_SANDBOX_ORIGIN must not be set in production'] : []),
    ...(env.PAYFORM_DATABASE_URL === ':memory:'
      ? ['PAYFORM_DATABASE_URL is :memory: in production, where every payment would be forgotten as the process stops: give a postgres:// URL or a SQLite file path']
      : []),
    // Its length is checked everywhere; a few characters repeated, or a word with digits, is a guess away.
    ...(easyToken ? [`PAYFORM_ADMIN_TOKEN ${easyToken}: use a random one, e.g. the output of \`openssl rand -base64 32\``] : []),
    ...(plain.length > 0
      ? [`production needs https for ${plain.map(({ name }) => name).join(' and ')} (plain http only to this machine): ${plain.map(({ name, shown }) => `${name} ${name === 'PAYFORM_ALLOWED_ORIGINS' ? 'has' : 'is'} ${shown}`).join(', ')}`]
      : []),
  ];
}

/**
 * A notification URL without its secret could not be signed, a secret without a URL is a
 * setting that does nothing: either is refused, naming the one to add.
 */
/** Variables that do nothing without another: said with every other wrong variable, not after them. */
function neededBeside(env: Env): string[] {
  return [
    ...(env.PAYFORM_GATEWAY_WIDGET_URL && !env.PAYFORM_GATEWAY_WIDGET_KEY ? ['PAYFORM_GATEWAY_WIDGET_URL needs PAYFORM_GATEWAY_WIDGET_KEY (the project’s widget key)'] : []),
    ...(env.PAYFORM_BACK_OFFICE_SELLERS && !env.PAYFORM_BACK_OFFICE ? ['PAYFORM_BACK_OFFICE_SELLERS needs PAYFORM_BACK_OFFICE (the back office’s path, e.g. /admin)'] : []),
    ...(env.PAYFORM_GATEWAY_API_SECRET_PREVIOUS && !env.PAYFORM_GATEWAY_API_SECRET
      ? ['PAYFORM_GATEWAY_API_SECRET_PREVIOUS needs PAYFORM_GATEWAY_API_SECRET (the API secret now; the previous one is taken beside it while the gateway retries older webhooks)']
      : []),
    ...(env.PAYFORM_GATEWAY_API_SECRET_PREVIOUS && env.PAYFORM_GATEWAY_API_SECRET_PREVIOUS === env.PAYFORM_GATEWAY_API_SECRET
      ? ['PAYFORM_GATEWAY_API_SECRET_PREVIOUS is PAYFORM_GATEWAY_API_SECRET itself: give it the secret before the rotation, or remove it']
      : []),
  ];
}

function notifyPairProblems(env: Env): string[] {
  const { PAYFORM_NOTIFY_URL: url, PAYFORM_NOTIFY_SECRET: secret } = env;
  if (url !== undefined && secret === undefined) {
    return ['PAYFORM_NOTIFY_URL is set without PAYFORM_NOTIFY_SECRET: set it to a random secret of at least 32 characters (e.g. `openssl rand -hex 32`), the same the receiver verifies with'];
  }
  if (secret !== undefined && url === undefined) {
    return ['PAYFORM_NOTIFY_SECRET is set without PAYFORM_NOTIFY_URL: set PAYFORM_NOTIFY_URL to the address payment changes are POSTed to, or remove PAYFORM_NOTIFY_SECRET'];
  }
  // The receiver holds this secret: it must not thereby hold the merchant API or the gateway's.
  const shared = (['PAYFORM_ADMIN_TOKEN', CREDENTIAL_VARIABLES.apiSecret, 'PAYFORM_GATEWAY_API_SECRET_PREVIOUS'] as const).filter((name) => secret !== undefined && env[name] === secret);
  return shared.length > 0 ? [`PAYFORM_NOTIFY_SECRET must differ from ${shared.join(' and ')}: the receiver keeps it, so give it its own random value (e.g. \`openssl rand -hex 32\`)`] : [];
}
