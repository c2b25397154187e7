/**
 * The real backend of the widget's browser tests (Node side): the sandbox gateway and one payform
 * companion per merchant of checkout-fixture.ts, each over HTTP on 127.0.0.1 and a free port, each
 * companion with its own in-memory SQLite ledger, in test mode and pointed at the sandbox.
 * widget/web-test-runner.config.mjs loads this file through tsx and starts and stops it with the
 * dev server; the tests reach it through backend-routes.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createCompanion, createLogger, openLedger } from '@payform/companion';
import type { CompanionApp, CompanionConfig } from '@payform/companion';
import { GatewayClient } from '@payform/gateway';
import { TEST_WIDGET_KEY, testProjectCredentials } from '@payform/gateway/testing';
import { createSandbox } from '@payform/sandbox';
import type { Merchant } from './checkout-fixture.js';

/**
 * How each merchant's companion differs from the default one. `sandboxUrl` is the sandbox it is
 * on: the test project's, or for `tokenize-far` one whose tokenizer takes only a live shop's pages.
 */
const merchantSettings = (sandboxUrl: string): Record<Merchant, Partial<CompanionConfig>> => ({
  shop: {},
  'visa-mastercard': { acceptedBrands: ['visa', 'mastercard'] },
  // Live mode with the development redirect setting still on: the widget alone must refuse the sandbox.
  live: { testMode: false },
  // A companion that does not list the test page's origin: the browser refuses its answers.
  elsewhere: { allowedOrigins: [] },
  // The card goes to the sandbox's tokenizer; the companion takes tokens only.
  tokenize: { tokenizer: { widgetUrl: sandboxUrl, widgetKey: TEST_WIDGET_KEY } },
  'tokenize-far': { tokenizer: { widgetUrl: sandboxUrl, widgetKey: TEST_WIDGET_KEY } },
  // Its routes under a base path, as when mounted in a shop's server: `url` includes it.
  mounted: { basePath: '/payments' },
});

export interface MerchantCompanion {
  /** Where it listens, its base path included, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** Bearer token of its merchant API: for the fixture routes, never for the browser. */
  readonly adminToken: string;
}

export interface CheckoutBackend {
  readonly sandboxUrl: string;
  readonly merchants: Readonly<Record<Merchant, MerchantCompanion>>;
  /** Stops the servers and closes the ledgers. */
  close(): Promise<void>;
}

type FetchHandler = (request: Request, env: unknown) => Response | Promise<Response>;

/** An HTTP server on 127.0.0.1 and a free port. */
async function serveOnLoopback(handle: FetchHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = serve({ fetch: handle, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve, reject) => (server.listening ? resolve() : server.once('listening', resolve).once('error', reject)));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Starts the sandbox and the companions. `pageOrigin` is the test page's origin, which every
 * companion allows for CORS. The sandbox's clock stands still unless moved (`POST /_sandbox/clock`),
 * so nothing settles behind a test's back.
 */
export async function startCheckoutBackend(pageOrigin: string): Promise<CheckoutBackend> {
  const stops: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const sandbox = createSandbox({ frozenClock: true, projects: [{ strict: true }] });
    stops.push(() => sandbox.sandbox.stop());
    const sandboxServer = await serveOnLoopback((request, env) => sandbox.fetch(request, env as never));
    stops.push(sandboxServer.close);
    // Its tokenizer answers the test page without CORS headers, as a gateway does a page of an origin its project does not take.
    const far = createSandbox({ frozenClock: true, projects: [{ widgetOrigins: ['https://shop.example'] }] });
    stops.push(() => far.sandbox.stop());
    const farServer = await serveOnLoopback((request, env) => far.fetch(request, env as never));
    stops.push(farServer.close);
    const credentials = testProjectCredentials();

    const startCompanion = async (merchant: Merchant): Promise<MerchantCompanion> => {
      const ledger = await openLedger(':memory:');
      stops.push(() => ledger.close());
      // The companion's public URL (webhooks, 3-D Secure return) is its address, known once it listens;
      // nobody knows the address, so nothing calls it, before the app exists.
      const server = await serveOnLoopback((request, env) => app.fetch(request, env as never));
      stops.push(server.close);
      const adminToken = randomBytes(24).toString('base64url');
      const sandboxUrl = merchant === 'tokenize-far' ? farServer.url : sandboxServer.url;
      const settings = merchantSettings(sandboxUrl)[merchant];
      const app: CompanionApp = createCompanion({
        ledger,
        gateway: new GatewayClient({ baseUrl: sandboxUrl, ...credentials }),
        gatewayApiSecret: credentials.apiSecret,
        publicUrl: server.url,
        adminToken,
        allowedOrigins: [pageOrigin],
        sandboxOrigin: sandboxUrl,
        testMode: true,
        // One browser makes every payment of the suite; the per-session limit stays the default.
        rateLimits: { perClient: 100_000, declinesPerClient: 100_000 },
        logger: createLogger({ level: 'error' }),
        ...settings,
      });
      stops.push(() => app.companion.stop());
      return { url: server.url + (settings.basePath ?? ''), adminToken };
    };

    const merchants = {} as Record<Merchant, MerchantCompanion>;
    for (const merchant of Object.keys(merchantSettings(sandboxServer.url)) as Merchant[]) merchants[merchant] = await startCompanion(merchant);
    return { sandboxUrl: sandboxServer.url, merchants, close };
  } catch (error) {
    await close();
    throw error;
  }
}
