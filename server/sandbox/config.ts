/**
 * What a sandbox is configured with: its merchant projects (the default test project first) and
 * the timings of its simulated world. Every setting has a default, so `createSandbox()` alone
 * gives the test project of server/gateway/test-project.ts.
 */
import { maskCardData } from '@payform/gateway';
import { TEST_SUB_MERCHANTS, TEST_WIDGET_KEY, testProjectCredentials } from '@payform/gateway/testing';
import type { ProjectCredentials } from '@payform/gateway/testing';
import type { MerchantSector } from '@payform/gateway/wire';
import type { Ledger } from './balances.js';
import { checkDistinctProjects, checkedConfig } from './config-check.js';
import { allowedHostsProblems, allowedHostsSetting, strictSettingProblem } from './environment.js';

/**
 * When a card payment meets 3-D Secure: `card` as the test card says (only 4000 0000 0000 3220
 * challenges), `always` a challenge for every card (wallet tokens are authenticated already),
 * `never` none (the 3220 card passes frictionless, authenticated).
 */
export type ThreeDSecurePolicy = 'card' | 'always' | 'never';

/** A merchant project (POS) as the gateway's settings hold it. */
export interface Project extends ProjectCredentials {
  /** Shown on the checkout page, 3-D Secure page and receipts. */
  readonly name: string;
  /** Currency of the project's settlement account and first terminals (balances.ts). */
  readonly currency: string;
  /** Currencies payments may be made in; others are declined with 4124. */
  readonly currencies: readonly string[];
  /** How far a capture may exceed the reserved amount, in percent of it. */
  readonly captureOverReservePercent: number;
  /** Turns on the interface's extra rules for microfinance / iGaming merchants. */
  readonly sector: MerchantSector | undefined;
  /** Payments above this many minor units are declined with 4012 (amount limit exceeded). */
  readonly amountLimitMinor: number;
  /** MCC used when a payment names none. */
  readonly mcc: string;
  /** Commission of a successful payment: a fixed part in minor units and a percentage in basis points. */
  readonly fees: { readonly fixedMinor: number; readonly percentBasisPoints: number };
  /** Whether support has enabled credit references (signed_pdf) for the project. */
  readonly creditReferences: boolean;
  /** sub_merchant_id values accepted in `split` arrays. */
  readonly subMerchants: readonly string[];
  /**
   * Strict mode: requests are read exactly as payform's client checks them, so a field the
   * interface does not list, or a numeric string where it types a Number (other than amounts,
   * which the wire takes as strings), is refused with 400. Off by default: the live gateway
   * ignores unknown fields and reads numeric strings (http/leniency.ts). SANDBOX_STRICT=1 turns
   * it on for the default project.
   */
  readonly strict: boolean;
  readonly threeDSecure: ThreeDSecurePolicy;
  /** The card tokenizer's X-Widget-Id, and the key of its X-Sign. */
  readonly widgetKey: string;
  /**
   * Origins (`https://shop.example`) whose pages may call the card tokenizer (CORS). Empty:
   * loopback origins only (`http://localhost:…`, `http://127.0.0.1:…`), for development.
   */
  readonly widgetOrigins: readonly string[];
  /** The project's accounts and terminals; undefined: the sandbox's own (balances.ts). */
  readonly accounts: readonly Ledger[] | undefined;
  readonly terminals: readonly Ledger[] | undefined;
}

export interface SandboxTimings {
  /** How long the 4000 0000 0000 0119 card stays pending (2119) before it succeeds. */
  readonly slowCardDelayMs: number;
  /** A 3-D Secure challenge left open this long fails with 4147. */
  readonly challengeTimeoutMs: number;
  /** Lifespan of a hosted payment sent without order_timeout. */
  readonly hostedLifespanSeconds: number;
  /** How long a card tokenizer's token may be paid with (by the sandbox clock). */
  readonly widgetTokenLifespanMs: number;
}

export interface WebhookSettings {
  /** Waits before the 2nd, 3rd … attempt of a failed delivery; their count bounds the retries. */
  readonly retryDelaysMs: readonly number[];
  /** Limit of one delivery attempt. */
  readonly timeoutMs: number;
  /** How long webhook_reorder holds an event back waiting for a later one to overtake it. */
  readonly reorderHoldMs: number;
}

export interface SandboxConfig {
  /**
   * Projects the sandbox knows, each completing the defaults of the test project. The first is
   * the default project (the control plane's default `pos_id`). Default: the test project with
   * credentials from PAYFORM_GATEWAY_* variables (or the GATEWAY_* ones of 0.2).
   */
  readonly projects?: readonly Partial<Project>[];
  /**
   * Base URL put into `Location`, `user_action_url` and `receipt_url`. Default: the origin each
   * request came to, so the URLs point wherever the caller reached the sandbox.
   */
  readonly publicUrl?: string;
  readonly timings?: Partial<SandboxTimings>;
  readonly webhooks?: Partial<WebhookSettings>;
  /** Where the clock starts; default the real time. */
  readonly startTime?: Date;
  /** A frozen clock moves only through POST /_sandbox/clock (tests). Default: it follows real time. */
  readonly frozenClock?: boolean;
  /**
   * Host names besides loopback and publicUrl's host that the gateway API and the control plane
   * answer to (a sandbox reached as `http://sandbox:3001` inside a container network). Any other
   * Host is refused there, against DNS rebinding (http/known-hosts.ts). Default: SANDBOX_ALLOWED_HOSTS, comma-separated. An
   * entry with a scheme or a port, which no request's host would match, is a TypeError.
   */
  readonly allowedHosts?: readonly string[];
  /** Largest request body accepted, in bytes (413 above). Default 64 KiB. */
  readonly bodyLimitBytes?: number;
  /** Seed of the fault injector's random choices (error_rate between 0 and 1). */
  readonly faultSeed?: number;
  /** Used to post webhooks; default undici's keep-alive connection pools, or the runtime's fetch where there are none (Bun). */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * One line per notable event (webhook failures…); default silent. Card data in a line (an order
   * id or a receiver's URL the integrator wrote one into) is masked before it gets here.
   */
  readonly log?: (line: string) => void;
}

export interface ResolvedConfig {
  readonly projects: readonly Project[];
  readonly publicUrl: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly timings: SandboxTimings;
  readonly webhooks: WebhookSettings;
  readonly startTime: Date | undefined;
  readonly frozenClock: boolean;
  readonly bodyLimitBytes: number;
  readonly faultSeed: number;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly log: (line: string) => void;
}

export const DEFAULT_TIMINGS: SandboxTimings = {
  slowCardDelayMs: 5_000,
  challengeTimeoutMs: 15 * 60_000,
  hostedLifespanSeconds: 24 * 3600,
  widgetTokenLifespanMs: 15 * 60_000,
};

export const DEFAULT_WEBHOOKS: WebhookSettings = {
  // About 45 minutes in all, then the delivery is given up (and stays in the log as failed).
  retryDelaysMs: [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000],
  timeoutMs: 10_000,
  // Past the slow card's pending (slowCardDelayMs, 5 s): its success overtakes its pending.
  reorderHoldMs: 6_000,
};

/** The test project's settings beyond its credentials. */
export function defaultProject(credentials: ProjectCredentials = testProjectCredentials()): Project {
  return {
    ...credentials,
    name: 'payform test shop',
    currency: 'UAH',
    currencies: ['UAH', 'USD', 'EUR', 'PLN', 'XTS'],
    captureOverReservePercent: 15,
    amountLimitMinor: 10_000_000_000,
    sector: undefined,
    mcc: '5999',
    fees: { fixedMinor: 5, percentBasisPoints: 150 },
    creditReferences: true,
    subMerchants: TEST_SUB_MERCHANTS.map((merchant) => merchant.id),
    strict: false,
    threeDSecure: 'card',
    widgetKey: TEST_WIDGET_KEY,
    widgetOrigins: [],
    accounts: undefined,
    terminals: undefined,
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * SANDBOX_STRICT=1 (or true): the default project reads requests strictly; 0, false or unset:
 * tolerantly. Any other value (`yes`, `on`) is a TypeError naming it, rather than a tolerance
 * the one who set it did not ask for.
 */
export function strictFromEnv(env: Env = process.env): boolean {
  const problem = strictSettingProblem(env);
  if (problem) throw new TypeError(`payform sandbox: ${problem}`);
  return /^(1|true)$/i.test(env.SANDBOX_STRICT?.trim() ?? '');
}

/**
 * SANDBOX_ALLOWED_HOSTS's entries: one with a scheme or a port (`http://sandbox`, `sandbox:3001`)
 * is a TypeError naming it and the host to write, rather than a control plane that refuses every
 * command. The allowedHosts option is checked with the others (config-check.ts).
 */
function allowedHostsFromEnv(env: Env = process.env): readonly string[] {
  const hosts = allowedHostsSetting(env);
  const problems = allowedHostsProblems(hosts, 'SANDBOX_ALLOWED_HOSTS');
  if (problems.length > 0) throw new TypeError(`payform sandbox: ${problems.join('; ')}`);
  return hosts;
}

/** The config checked (a TypeError names every wrong option) and completed with the defaults. */
export function resolveConfig(config: SandboxConfig = {}): ResolvedConfig {
  const checked = checkedConfig(config);
  const base = defaultProject();
  const given = checked.projects?.length ? checked.projects : [{}];
  const projects = given.map((project, index) => ({
    ...base,
    strict: index === 0 && strictFromEnv(),
    // The test project's widget key is the first project's; each other one gets its own.
    widgetKey: index === 0 ? base.widgetKey : `widget-key-${project.posId ?? index}`,
    ...withoutUndefined(project),
  }));
  checkDistinctProjects(projects, given);
  return {
    projects,
    publicUrl: checked.publicUrl,
    allowedHosts: config.allowedHosts ?? allowedHostsFromEnv(),
    timings: { ...DEFAULT_TIMINGS, ...withoutUndefined(config.timings ?? {}) },
    webhooks: { ...DEFAULT_WEBHOOKS, ...withoutUndefined(config.webhooks ?? {}) },
    startTime: config.startTime,
    frozenClock: config.frozenClock ?? false,
    bodyLimitBytes: config.bodyLimitBytes ?? 64 * 1024,
    faultSeed: config.faultSeed ?? 1,
    fetch: config.fetch,
    log: maskedLog(config.log),
  };
}

/** A setting given as undefined is one not given: spread as it is, it would replace its default. */
function withoutUndefined<T extends object>(settings: T): Partial<T> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Every line the sandbox logs goes through the card recogniser, whatever put card data in it. */
function maskedLog(log: ((line: string) => void) | undefined): (line: string) => void {
  return log ? (line) => log(maskCardData(line)) : () => {};
}
