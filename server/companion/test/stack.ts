/**
 * The stack the companion's tests run on: a real sandbox (server/sandbox) as the gateway, a
 * real ledger (SQLite or PostgreSQL), and the companion between them — either in process
 * (`app.request()`, the sandbox reached through its `fetch`, webhooks posted straight into the
 * companion) or served over real HTTP on 127.0.0.1 and free ports.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, expect } from 'vitest';
import { GatewayClient } from '@payform/gateway';
import type { GatewayClientConfig } from '@payform/gateway';
import { testProjectCredentials } from '@payform/gateway/testing';
import type { Ledger } from '../../ledger/index.js';
import type { LedgerBackend, TestClock, TestLedger } from '../../ledger/testing/databases.js';
import { memoryBackend, TestClock as Clock } from '../../ledger/testing/databases.js';
import { createSandbox } from '@payform/sandbox';
import type { SandboxApp, SandboxConfig } from '@payform/sandbox';
import { everyDelivery } from '../../sandbox/testing/webhook-pages.js';
import type { WebhooksPage } from '../../sandbox/testing/webhook-pages.js';
import { createCompanion } from '../app.js';
import type { CompanionApp } from '../app.js';
import type { CompanionConfig } from '../config.js';
import { createLogger, memorySink } from '../log/logger.js';
import type { PaymentChange } from '../payments/reactions.js';
import { CUSTOMER, FINGERPRINT, card } from './cards.js';
import { undocumentedAnswer } from './documented-answers.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const CLIENT_IP = '203.0.113.7';
const IN_PROCESS_COMPANION = 'http://companion.test';
const IN_PROCESS_SANDBOX = 'http://sandbox.test';

/** An answer's JSON, read loosely: tests assert on its fields. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test is checked by the assertions themselves
export type Json = Record<string, any>;

export type CompanionSettingsForTest = Partial<Omit<CompanionConfig, 'ledger' | 'gateway' | 'gatewayApiSecret'>>;

export interface StackOptions {
  /** Default: SQLite in memory. */
  readonly backend?: LedgerBackend;
  /** Serve sandbox and companion over HTTP (default: in process). */
  readonly served?: boolean;
  readonly sandbox?: SandboxConfig;
  readonly companion?: CompanionSettingsForTest;
  readonly gateway?: Partial<GatewayClientConfig>;
  /** The ledger's and companion's clock; default the real time. */
  readonly clock?: TestClock;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Send the admin token. */
  readonly admin?: boolean;
  /** The client's address (in process: the fake socket's). */
  readonly ip?: string;
}

/** Another companion on the same database and gateway, as a second server behind a load balancer. */
export interface Instance {
  readonly companion: CompanionApp;
  readonly ledger: Ledger;
  readonly url: string;
  request: Stack['request'];
  close(): Promise<void>;
}

export interface Stack {
  readonly companion: CompanionApp;
  readonly sandbox: SandboxApp;
  readonly ledger: Ledger;
  readonly testLedger: TestLedger;
  /** The companion's base URL (in process: a made-up origin). */
  readonly companionUrl: string;
  readonly sandboxUrl: string;
  readonly logs: string[];
  readonly changes: PaymentChange[];
  /** Answers that did not match the OpenAPI document (checked again when the stack closes). */
  readonly undocumented: string[];
  /** While true, the sandbox's webhooks do not reach the companion (in process only). */
  dropWebhooks: boolean;
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /** A JSON request that must answer `status`; returns the parsed body. */
  json<T = Json>(method: string, path: string, status: number, options?: RequestOptions): Promise<T>;
  openSession(body?: Record<string, unknown>): Promise<Json>;
  pay(sessionId: string, body?: Record<string, unknown>, options?: RequestOptions): Promise<Response>;
  /** The sandbox's control plane (no credentials); answers JSON, throws on non-2xx. */
  control<T = Json>(method: string, path: string, body?: unknown): Promise<T>;
  /** Every webhook delivery the sandbox logged matching `query` (`order_id=…`), following GET /_sandbox/webhooks' pages. */
  deliveries(query?: string): Promise<Json[]>;
  /** A second companion sharing this one's database (served stacks on a persistent ledger), its settings overridden by `settings`. */
  instance(settings?: CompanionSettingsForTest): Promise<Instance>;
  /** Runs the sandbox's due tasks and waits for its webhook attempts to finish. */
  settleWebhooks(): Promise<void>;
  close(): Promise<void>;
}

/** What the widget sends for a card payment. */
export function payBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT, ...overrides };
}

interface Listener {
  readonly url: string;
  handle: (request: Request, env: unknown) => Response | Promise<Response>;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 whose handler is set once the app exists (it needs the URL). */
async function listen(): Promise<Listener> {
  const listener = {
    handle: (() => new Response('not ready', { status: 503 })) as Listener['handle'],
  } as Listener;
  const server = serve({ fetch: (request, env) => listener.handle(request, env), port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return Object.assign(listener, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

export async function createStack(options: StackOptions = {}): Promise<Stack> {
  const clock = options.clock ?? new Clock(Date.now());
  const realTime = options.clock === undefined;
  const now = () => (realTime ? Date.now() : clock.now);
  const testLedger = await (options.backend ?? memoryBackend).open(realTime ? Object.assign(new Clock(), { read: () => Date.now() }) : clock);
  const memory = memorySink();
  const changes: PaymentChange[] = [];
  const credentials = testProjectCredentials({});
  const served = options.served ?? false;

  const companionListener = served ? await listen() : undefined;
  const sandboxListener = served ? await listen() : undefined;
  const companionUrl = companionListener?.url ?? IN_PROCESS_COMPANION;
  const sandboxUrl = sandboxListener?.url ?? IN_PROCESS_SANDBOX;
  const socketEnv = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });

  const late: { companion?: CompanionApp } = {};
  const stack = { dropWebhooks: false } as Stack & { dropWebhooks: boolean };
  const sandbox = createSandbox({
    // Strict: payform's own requests must be exact, not merely what the live gateway tolerates.
    projects: [{ strict: true }],
    // In process, the sandbox is addressed as http://sandbox.test; its control plane must answer that name.
    allowedHosts: [new URL(IN_PROCESS_SANDBOX).hostname],
    webhooks: { retryDelaysMs: [200, 1_000], timeoutMs: 5_000, reorderHoldMs: 300 },
    timings: { slowCardDelayMs: 300 },
    ...(served
      ? {}
      : {
          fetch: async (input, init) => {
            if (stack.dropWebhooks || !late.companion) throw new TypeError('fetch failed');
            return late.companion.fetch(new Request(input, init), socketEnv('198.51.100.1'));
          },
        }),
    ...options.sandbox,
  });
  const gateway = new GatewayClient({
    baseUrl: sandboxUrl,
    ...credentials,
    timeoutMs: 5_000,
    retry: { maxRetries: 1, initialDelayMs: 10, maxDelayMs: 50 },
    ...(served ? {} : { fetch: (input, init) => Promise.resolve(sandbox.fetch(new Request(input, init))) }),
    ...options.gateway,
  });
  const makeCompanion = (ledger: Ledger, publicUrl: string, settings: CompanionSettingsForTest = {}) =>
    createCompanion({
      ledger,
      gateway,
      gatewayApiSecret: credentials.apiSecret,
      publicUrl,
      adminToken: ADMIN_TOKEN,
      sandboxOrigin: sandboxUrl,
      testMode: true,
      captureOverReservePercent: 15,
      allowedOrigins: ['https://shop.example'],
      clock: now,
      logger: createLogger({ sink: memory.sink, level: 'debug', clock: now }),
      onPaymentEvent: (change) => void changes.push(change),
      rateLimits: { perSession: 1000, perClient: 1000, wrongAdminTokens: 1000 },
      ...options.companion,
      ...settings,
    });
  const app = makeCompanion(testLedger.ledger, companionUrl);
  // Its start's own read done, so that what a test counts of the ledger is the test's.
  await app.companion.services.tokenHolders.loaded;
  late.companion = app;
  if (companionListener) companionListener.handle = (request, env) => app.fetch(request, env as never);
  if (sandboxListener) sandboxListener.handle = (request, env) => sandbox.fetch(request, env as never);

  // Every answer the test gets is checked against the document; `close()` fails on a mismatch.
  const undocumented: string[] = [];
  const requestTo = (target: CompanionApp, url: string): Stack['request'] => async (method, path, init = {}) => {
    const response = await send(target, url, method, path, init);
    const mismatch = await undocumentedAnswer(method, path, response);
    if (mismatch) undocumented.push(mismatch);
    return response;
  };
  const send = async (target: CompanionApp, url: string, method: string, path: string, init: RequestOptions) => {
    const headers: Record<string, string> = {
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(init.admin ? { Authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
      ...init.headers,
    };
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    if (served) return fetch(url + path, { method, headers, body });
    return target.request(path, { method, headers, body }, socketEnv(init.ip ?? CLIENT_IP) as never);
  };
  const request = requestTo(app, companionUrl);
  const instances: Instance[] = [];
  const sandboxRequest = (method: string, path: string, body?: unknown) => {
    // Control-plane commands are JSON, even when they carry nothing (POST /_sandbox/reset).
    const command = body ?? (method === 'POST' || method === 'PUT' ? {} : undefined);
    const headers: Record<string, string> = command === undefined ? {} : { 'Content-Type': 'application/json' };
    const init: RequestInit = { method, headers, ...(command === undefined ? {} : { body: JSON.stringify(command) }) };
    return served ? fetch(sandboxUrl + path, init) : Promise.resolve(sandbox.request(sandboxUrl + path, init));
  };

  return Object.assign(stack, {
    companion: app,
    sandbox,
    ledger: testLedger.ledger,
    testLedger,
    companionUrl,
    sandboxUrl,
    logs: memory.lines,
    changes,
    undocumented,
    request,
    async json(method: string, path: string, status: number, init?: RequestOptions) {
      const response = await request(method, path, init);
      const text = await response.text();
      expect(response.status, `${method} ${path}: ${text}`).toBe(status);
      return text ? JSON.parse(text) : undefined;
    },
    openSession: (body: Record<string, unknown> = {}) =>
      stack.json('POST', '/api/checkout/sessions', 201, { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g', ...body } }),
    pay: (sessionId: string, body?: Record<string, unknown>, init?: RequestOptions) =>
      request('POST', `/api/checkout/sessions/${sessionId}/pay`, { ...init, body: body ?? payBody() }),
    async control(method: string, path: string, body?: unknown) {
      const response = await sandboxRequest(method, path, body);
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
      return JSON.parse(text);
    },
    deliveries: (query?: string) => everyDelivery((path) => stack.control<WebhooksPage<Json>>('GET', path), query),
    async settleWebhooks() {
      for (let round = 0; round < 3; round += 1) {
        sandbox.sandbox.gateway.scheduler.runDue();
        await sandbox.sandbox.gateway.webhooks.settle();
      }
    },
    async instance(settings?: CompanionSettingsForTest) {
      if (!served || !testLedger.reopen) throw new Error('a second instance needs the served stack and a persistent ledger');
      const ledger = await testLedger.reopen();
      const listener = await listen();
      const other = makeCompanion(ledger, listener.url, settings);
      await other.companion.services.tokenHolders.loaded;
      listener.handle = (incoming, env) => other.fetch(incoming, env as never);
      const instance: Instance = {
        companion: other,
        ledger,
        url: listener.url,
        request: requestTo(other, listener.url),
        close: async () => {
          await other.companion.stop();
          await listener.close();
        },
      };
      instances.push(instance);
      return instance;
    },
    async close() {
      for (const instance of instances) await instance.close();
      await app.companion.stop();
      await sandbox.sandbox.stop();
      await companionListener?.close();
      await sandboxListener?.close();
      await testLedger.dispose();
      expect(undocumented, 'answers that differ from the OpenAPI document').toEqual([]);
    },
  });
}

/**
 * Opens stacks for a test file's tests and closes each one after its test:
 * `const open = stacksPerTest(); … const stack = await open({ served: true });`
 */
export function stacksPerTest(): (options?: StackOptions) => Promise<Stack> {
  const opened: Stack[] = [];
  afterEach(async () => {
    for (const stack of opened.splice(0)) await stack.close();
  });
  return async (options) => {
    const stack = await createStack(options);
    opened.push(stack);
    return stack;
  };
}

/**
 * Waits until `check` stops throwing (webhooks arrive asynchronously over HTTP). The pause between
 * tries starts at 25 ms and grows to 250: what is met at once is seen at once, and a wait of
 * seconds (a reconciliation window, a gateway timeout) does not run a check that may itself
 * reconcile forty times a second.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pauseMs = 25; ; pauseMs = Math.min(250, pauseMs * 1.5)) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
