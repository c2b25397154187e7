/**
 * The sandbox served over real HTTP on 127.0.0.1 and a free port, as the contract and browser
 * tests use it, with the gateway client and the control plane pointed at it.
 */
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { GatewayClient } from '@payform/gateway';
import type { GatewayClientConfig } from '@payform/gateway';
import { createSandbox } from '../app.js';
import type { SandboxApp } from '../app.js';
import type { Project, SandboxConfig } from '../config.js';
import { controlRequest } from './in-process.js';
import { WebhookReceiver } from './webhook-receiver.js';

export interface ServedSandbox {
  readonly url: string;
  readonly app: SandboxApp;
  close(): Promise<void>;
}

export async function serveSandbox(config: SandboxConfig = {}): Promise<ServedSandbox> {
  const app = createSandbox(config);
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    close: async () => {
      await app.sandbox.stop();
      const running = server as ServerType & { closeAllConnections?: () => void };
      running.closeAllConnections?.();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
  };
}

export interface ContractContext {
  readonly url: string;
  readonly project: Project;
  readonly receiver: WebhookReceiver;
  readonly app: SandboxApp;
  client(overrides?: Partial<GatewayClientConfig>): GatewayClient;
  /** A control-plane call over HTTP; answers the JSON, throws on a non-2xx status. */
  control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

export const CONTRACT_START = new Date('2026-03-02T10:00:00.000Z');

/**
 * One served sandbox and one webhook receiver per test file; the sandbox is reset over its
 * control plane before each test. The clock is frozen so that tests move time themselves.
 */
export function useServedSandbox(config: SandboxConfig = {}): ContractContext {
  let served: ServedSandbox | undefined;
  let receiver: WebhookReceiver | undefined;
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the served sandbox is not running');
    return value;
  };
  beforeAll(async () => {
    served = await serveSandbox({
      // payform's client is held to the letter of the interface (docs/sandbox.md, strict mode).
      projects: [{ strict: true }],
      startTime: CONTRACT_START,
      frozenClock: true,
      webhooks: { retryDelaysMs: [1_000, 5_000, 30_000], timeoutMs: 2_000, reorderHoldMs: 2_000 },
      ...config,
    });
    receiver = await WebhookReceiver.start(served.app.sandbox.gateway.defaultProject.apiSecret);
  });
  afterAll(async () => {
    await served?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    await context.control('POST', '/_sandbox/reset');
    need(receiver).reset();
  });
  const context: ContractContext = {
    get url() {
      return need(served).url;
    },
    get app() {
      return need(served).app;
    },
    get project() {
      return need(served).app.sandbox.gateway.defaultProject;
    },
    get receiver() {
      return need(receiver);
    },
    client: (overrides = {}) =>
      new GatewayClient({
        baseUrl: context.url,
        posId: context.project.posId,
        apiKey: context.project.apiKey,
        apiSecret: context.project.apiSecret,
        endpointsKey: context.project.endpointsKey,
        timeoutMs: 5_000,
        retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 20 },
        ...overrides,
      }),
    control: async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(context.url + path, controlRequest(method, body));
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
      return JSON.parse(text) as T;
    },
  };
  return context;
}
