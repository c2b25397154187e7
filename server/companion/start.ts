/**
 * Running the companion: `composeCompanion` builds it from settings (ledger opened and
 * migrated, gateway client, app), `startCompanion` also listens with @hono/node-server and
 * starts reconciliation. `npm start` composes the sandbox, the companion and the demo in one
 * process with these:
 *
 *   const sandbox = …;                                            // started first, its URL known
 *   const companion = await startCompanion(readCompanionConfig(), {
 *     gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, extend: (app) => app.route('/', demo),
 *   });
 *   …; await companion.close();
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { GatewayClient } from '../gateway/client.js';
import { openLedger } from '../ledger/index.js';
import type { Ledger } from '../ledger/index.js';
import { createCompanion } from './app.js';
import type { CompanionApp } from './app.js';
import { createLogger } from './log/logger.js';
import type { Logger } from './log/logger.js';
import type { PaymentEventHook } from './payments/reactions.js';
import { readCompanionConfig } from './settings.js';
import type { CompanionSettings } from './settings.js';

export interface StartOptions {
  /** The gateway when the settings name none: the bundled sandbox the caller started. */
  readonly gatewayBaseUrl?: string;
  /** The sandbox's origin, when the settings name none (development redirects). */
  readonly sandboxOrigin?: string;
  /** Overrides the settings' public URL (e.g. once the real port is known). */
  readonly publicUrl?: string;
  readonly logger?: Logger;
  readonly onPaymentEvent?: PaymentEventHook;
  /** Adds routes before the app serves (the demo's pages on the same port). */
  readonly extend?: (app: CompanionApp) => void;
  /** The gateway client's fetch; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
  /** Gateway call timeout per attempt; default the client's (30 s). */
  readonly gatewayTimeoutMs?: number;
}

export interface ComposedCompanion {
  readonly app: CompanionApp;
  readonly ledger: Ledger;
  readonly gateway: GatewayClient;
  /** Stops reconciliation and closes the ledger. */
  close(): Promise<void>;
}

export interface RunningCompanion extends ComposedCompanion {
  /** Where it listens, e.g. http://localhost:3000. */
  readonly url: string;
  readonly port: number;
}

export async function composeCompanion(settings: CompanionSettings, options: StartOptions = {}): Promise<ComposedCompanion> {
  const baseUrl = settings.gatewayBaseUrl ?? options.gatewayBaseUrl;
  if (!baseUrl) throw new TypeError('No gateway: set GATEWAY_BASE_URL, or start the bundled sandbox first (npm start)');
  const logger = options.logger ?? createLogger({ level: settings.logLevel });
  const gateway = new GatewayClient({
    baseUrl,
    ...settings.credentials,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.gatewayTimeoutMs ? { timeoutMs: options.gatewayTimeoutMs } : {}),
  });
  const ledger = await openLedger(settings.databaseUrl);
  const sandboxOrigin = settings.sandboxOrigin ?? (settings.gatewayBaseUrl ? undefined : options.sandboxOrigin);
  const app = createCompanion({
    ledger,
    gateway,
    gatewayApiSecret: settings.credentials.apiSecret,
    publicUrl: options.publicUrl ?? settings.publicUrl,
    adminToken: settings.adminToken,
    allowedOrigins: settings.allowedOrigins,
    ...(sandboxOrigin ? { sandboxOrigin } : {}),
    testMode: settings.testMode,
    captureOverReservePercent: settings.captureOverReservePercent,
    sessionTtlSeconds: settings.sessionTtlSeconds,
    trustProxy: settings.trustProxy,
    logger,
    ...(options.onPaymentEvent ? { onPaymentEvent: options.onPaymentEvent } : {}),
  });
  options.extend?.(app);
  return {
    app,
    ledger,
    gateway,
    async close() {
      await app.companion.stop();
      await ledger.close();
    },
  };
}

/**
 * Listens on settings.port (0: any free port; the public URL then follows the real port
 * unless PUBLIC_URL was set), starts reconciliation, and prints the generated admin token.
 */
export async function startCompanion(settings: CompanionSettings = readCompanionConfig(), options: StartOptions = {}): Promise<RunningCompanion> {
  let handle: ((request: Request, env: unknown) => Response | Promise<Response>) | undefined;
  const server = serve({
    fetch: (request, env) => handle?.(request, env) ?? new Response('Starting', { status: 503, headers: { 'Retry-After': '1' } }),
    port: settings.port,
    ...(settings.host ? { hostname: settings.host } : {}),
  }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      if (server.listening) resolve();
      server.once('listening', resolve).once('error', reject);
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${settings.host && settings.host !== '0.0.0.0' && settings.host !== '::' ? settings.host : 'localhost'}:${port}`;
    // PORT=0 without PUBLIC_URL leaves a default ending in :0; the real port replaces it.
    const publicUrl = options.publicUrl ?? (/:0$/.test(settings.publicUrl) ? url : settings.publicUrl);
    const composed = await composeCompanion(settings, { ...options, publicUrl });
    handle = (request, env) => composed.app.fetch(request, env as never);
    composed.app.companion.reconciler.start();
    if (settings.adminTokenGenerated) console.log(`payform companion: ADMIN_TOKEN was not set; this run's token is ${settings.adminToken}`);
    return {
      ...composed,
      url,
      port,
      async close() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await composed.close();
      },
    };
  } catch (error) {
    server.close();
    throw error;
  }
}
