/**
 * `readCompanionConfig(env)`: the companion's settings from the environment (design.md's
 * table), checked in one go so every wrong variable is named at start.
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | PORT, HOST | where to listen | 3000; 127.0.0.1 in development (its webhook secret is public), all interfaces in production |
 * | PUBLIC_URL | how the gateway and browsers reach the companion | http://localhost:$PORT |
 * | GATEWAY_BASE_URL | the gateway; unset ⇒ the bundled sandbox (started by the caller) | — |
 * | GATEWAY_POS_ID, GATEWAY_API_KEY, GATEWAY_API_SECRET, GATEWAY_ENDPOINTS_KEY | credentials | the test project's |
 * | DATABASE_URL | postgres://… ⇒ PostgreSQL; a path ⇒ SQLite | ./data/payform.db |
 * | ADMIN_TOKEN | bearer token of the merchant API | generated (development only) |
 * | ALLOWED_ORIGINS | comma-separated origins of the merchant's pages (CORS) | PUBLIC_URL's origin |
 * | SANDBOX_ORIGIN | the non-https origin redirects may go to (development) | the sandbox's, when bundled |
 * | PAYFORM_TEST_MODE | sessions are test sessions (banner, test cards) | true on test credentials |
 * | CAPTURE_OVER_RESERVE_PERCENT | the project's over-capture limit | 15 on the sandbox, else 0 |
 * | SESSION_TTL_SECONDS | checkout session lifetime | 1800 |
 * | TRUST_PROXY | take the client address from X-Forwarded-For's last entry (one proxy of yours) | false |
 * | LOG_LEVEL | debug, info, warn, error | info |
 * | PAYFORM_BACK_OFFICE | the back office's path, e.g. /admin (signed in with ADMIN_TOKEN) | off |
 * | NODE_ENV | `production` requires ADMIN_TOKEN, GATEWAY_BASE_URL, all four credentials its own, no SANDBOX_ORIGIN | — |
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { TEST_PROJECT_DEFAULTS, testProjectCredentials } from '@payform/gateway/testing';
import type { ProjectCredentials } from '@payform/gateway/testing';
import { describeIssues, parseWire } from '@payform/gateway/wire';
import { BackOfficeSettings } from './back-office/back-office-options.js';
import type { LogLevel } from './log/logger.js';

export interface CompanionSettings {
  readonly port: number;
  /** HOST; unset: 127.0.0.1 in development, every interface in production (see startCompanion). */
  readonly host: string | undefined;
  /** NODE_ENV=production (its own credentials, no sandbox origin, reachable from the network). */
  readonly production: boolean;
  readonly publicUrl: string;
  /** Undefined: the bundled sandbox, whose URL the caller passes to startCompanion. */
  readonly gatewayBaseUrl: string | undefined;
  readonly credentials: ProjectCredentials;
  readonly databaseUrl: string;
  readonly adminToken: string;
  /** True when ADMIN_TOKEN was not set and one was made up (print it for the developer). */
  readonly adminTokenGenerated: boolean;
  readonly allowedOrigins: readonly string[];
  readonly sandboxOrigin: string | undefined;
  readonly testMode: boolean;
  readonly captureOverReservePercent: number;
  readonly sessionTtlSeconds: number;
  readonly trustProxy: boolean;
  readonly logLevel: LogLevel;
  /** PAYFORM_BACK_OFFICE: where the back office is served; undefined: not served. */
  readonly backOffice: { readonly path: string } | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const Flag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((flag) => ['true', '1', 'yes'].includes(flag));
const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const Origins = z
  .string()
  .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean))
  .pipe(z.array(HttpUrl.transform((url) => new URL(url).origin)));

const Variables = z.object({
  PORT: z.string().regex(/^\d{1,5}$/, { error: 'must be a port number' }).transform(Number).pipe(z.number().min(0).max(65_535)).default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: HttpUrl.optional(),
  GATEWAY_BASE_URL: HttpUrl.optional(),
  DATABASE_URL: z.string().min(1).default('./data/payform.db'),
  ADMIN_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  ALLOWED_ORIGINS: Origins.optional(),
  SANDBOX_ORIGIN: HttpUrl.transform((url) => new URL(url).origin).optional(),
  PAYFORM_TEST_MODE: Flag.optional(),
  CAPTURE_OVER_RESERVE_PERCENT: z.string().regex(/^\d{1,3}(\.\d+)?$/, { error: 'must be a percentage' }).transform(Number).pipe(z.number().max(100)).optional(),
  SESSION_TTL_SECONDS: z.string().regex(/^\d+$/, { error: 'must be a number of seconds' }).transform(Number).pipe(z.number().min(60).max(7 * 86_400)).default(1800),
  TRUST_PROXY: Flag.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  PAYFORM_BACK_OFFICE: BackOfficeSettings.shape.path.optional(),
  NODE_ENV: z.string().optional(),
});

const blankToUndefined = (env: Env) => Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value?.trim() ? value.trim() : undefined]));

export function readCompanionConfig(env: Env = process.env): CompanionSettings {
  const parsed = parseWire(Variables, blankToUndefined(env));
  if (!parsed.success) throw new TypeError(`Invalid environment: ${describeIssues(parsed.issues)}`);
  const vars = parsed.data;
  const credentials = testProjectCredentials(env);
  const onTestProject = credentials.apiSecret === TEST_PROJECT_DEFAULTS.apiSecret && credentials.apiKey === TEST_PROJECT_DEFAULTS.apiKey;
  if (vars.NODE_ENV === 'production') checkProduction(vars, credentials);
  const publicUrl = (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, '');
  const bundledSandbox = vars.GATEWAY_BASE_URL === undefined;
  return {
    port: vars.PORT,
    host: vars.HOST,
    production: vars.NODE_ENV === 'production',
    publicUrl,
    gatewayBaseUrl: vars.GATEWAY_BASE_URL,
    credentials,
    databaseUrl: vars.DATABASE_URL,
    adminToken: vars.ADMIN_TOKEN ?? randomBytes(24).toString('base64url'),
    adminTokenGenerated: vars.ADMIN_TOKEN === undefined,
    allowedOrigins: vars.ALLOWED_ORIGINS ?? [new URL(publicUrl).origin],
    sandboxOrigin: vars.SANDBOX_ORIGIN,
    testMode: vars.PAYFORM_TEST_MODE ?? (bundledSandbox || onTestProject),
    captureOverReservePercent: vars.CAPTURE_OVER_RESERVE_PERCENT ?? (bundledSandbox ? 15 : 0),
    sessionTtlSeconds: vars.SESSION_TTL_SECONDS,
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
    backOffice: vars.PAYFORM_BACK_OFFICE === undefined ? undefined : { path: vars.PAYFORM_BACK_OFFICE },
  };
}

const CREDENTIAL_VARIABLES: Readonly<Record<keyof ProjectCredentials, string>> = {
  posId: 'GATEWAY_POS_ID',
  apiKey: 'GATEWAY_API_KEY',
  apiSecret: 'GATEWAY_API_SECRET',
  endpointsKey: 'GATEWAY_ENDPOINTS_KEY',
};

/**
 * Production runs on its own settings only: an admin token and a gateway given, no credential
 * left at the published test project's value (one is enough to leak or misroute), and no
 * sandbox origin — the one address browsers may be sent to over plain http.
 */
function checkProduction(vars: z.output<typeof Variables>, credentials: ProjectCredentials): void {
  const defaults = Object.entries(CREDENTIAL_VARIABLES).filter(([name]) => {
    const key = name as keyof ProjectCredentials;
    return credentials[key] === TEST_PROJECT_DEFAULTS[key];
  });
  const missing = [
    ...(vars.ADMIN_TOKEN ? [] : ['ADMIN_TOKEN']),
    ...(vars.GATEWAY_BASE_URL ? [] : ['GATEWAY_BASE_URL']),
    ...defaults.map(([, variable]) => variable),
  ];
  if (missing.length > 0) throw new TypeError(`Invalid environment: production needs ${missing.join(', ')}`);
  if (vars.SANDBOX_ORIGIN) throw new TypeError('Invalid environment: SANDBOX_ORIGIN must not be set in production');
}
