/**
 * `createSandbox(config)`: the offline, stateful twin of the gateway as a Hono app. It answers
 * every endpoint of the interface under /api/v1 with the shared wire schemas, serves the hosted
 * checkout and 3-D Secure pages, sends signed webhooks, and has a control plane under /_sandbox.
 *
 *   const sandbox = createSandbox({ frozenClock: true });
 *   await sandbox.request('/health');                 // in-process, like any Hono app
 *   serve({ fetch: sandbox.fetch, port: 3001 });      // or over HTTP (@hono/node-server)
 *   await sandbox.sandbox.stop();                     // timers off, webhook attempts settled
 *
 * Whatever comes in, the answer is a gateway error body with a 4xx — never a crash, never a 500
 * for bad input — and nothing stored changes.
 */
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { routes } from '@payform/gateway/wire';
import { ledgerProblems } from './balances.js';
import { resolveConfig } from './config.js';
import type { SandboxConfig } from './config.js';
import { apiRoutes } from './http/api-routes.js';
import { limitBody } from './http/body-limit.js';
import { guardControlPlane } from './http/control-guard.js';
import { KnownHosts } from './http/known-hosts.js';
import { controlRoutes } from './http/control-routes.js';
import { inspectorRoutes } from './http/inspector-routes.js';
import type { SandboxEnv } from './http/env.js';
import { injectFaults } from './http/fault-middleware.js';
import { shapeAnswers } from './http/shape-middleware.js';
import { recordRequests } from './inspector/recorder.js';
import { pageRoutes } from './pages/page-routes.js';
import { SimulatedGateway } from './simulated-gateway.js';
import { tokenizeRoutes } from './tokenizer/tokenize-routes.js';
import { refuseUndecodablePath } from './http/undecodable-path.js';
import { Refusal } from './state/refusal.js';

const CUT_OFF = Refusal.invalidField('', 'the body ended before the length the request declared: the client closed the connection');

export interface SandboxHandle {
  /** The simulated world: projects, clock, orders, webhooks, faults. */
  readonly gateway: SimulatedGateway;
  /** Stops every timer so the process can exit, and waits for webhook attempts under way. */
  stop(): Promise<void>;
}

export type SandboxApp = Hono<SandboxEnv> & { readonly sandbox: SandboxHandle };

export function createSandbox(config: SandboxConfig = {}): SandboxApp {
  const resolved = resolveConfig(config);
  for (const problem of resolved.projects.flatMap(ledgerProblems)) resolved.log(`payform sandbox: ${problem}`);
  const gateway = new SimulatedGateway(resolved);
  const baseUrlOf = (requestUrl: string) => resolved.publicUrl ?? new URL(requestUrl).origin;
  const app = new Hono<SandboxEnv>();

  // First, so that every answer is recorded, refusals by the middleware below included.
  app.use(recordRequests(gateway));
  app.use(
    limitBody(resolved.bodyLimitBytes, (c) => c.json(new Refusal(413, `The body is larger than ${resolved.bodyLimitBytes} bytes`, { code: 'P-413' }).body, 413)),
  );
  // Whatever fell due since the last timer tick happens before the request sees the state.
  app.use(async (_c, next) => {
    gateway.scheduler.runDue();
    await next();
  });
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(new Refusal(405, `Method ${c.req.method} is not allowed here; use ${methods.join(', ')}`, { code: 'P-405' }).body, 405, {
          Allow: methods.join(', '),
        }),
    }),
  );
  app.use('/api/v1/*', refuseUndecodablePath);
  // The interface's endpoints are called by servers, under the names the sandbox is configured
  // for; a web page must not reach them by another (its test credentials are public). The pages
  // a customer's browser opens through publicUrl (the hosted form under /api/v1 too, 3-D Secure,
  // receipts) may arrive under a proxy's name for the sandbox, and the card tokenizer guards
  // itself by the page's Origin: those answer under any name, as does the health check.
  const hosts = new KnownHosts(resolved);
  const serverToServer = new Set(Object.values(routes).filter((route) => route !== routes.health).map((route) => route.path));
  for (const path of serverToServer) app.use(path, hosts.guard('The gateway API', 421));
  app.use('/api/v1/*', injectFaults(gateway));
  app.use('/api/v1/*', shapeAnswers(gateway));

  app.get('/health', (c) => c.text('OK'));
  app.route('/', tokenizeRoutes(gateway));
  app.route('/', apiRoutes(gateway, baseUrlOf));
  app.route('/', pageRoutes(gateway, resolved.publicUrl));
  app.use('/_sandbox/*', hosts.guard('The control plane', 403));
  app.use('/_sandbox/*', guardControlPlane(resolved));
  app.route('/_sandbox', inspectorRoutes(gateway));
  app.route('/_sandbox', controlRoutes(gateway, baseUrlOf));

  let knownRoutes: readonly KnownRoute[] | undefined;
  app.notFound((c) => {
    knownRoutes ??= routesOf(app);
    const hint = pathHint(c.req.method, c.req.path, knownRoutes);
    return c.json(new Refusal(404, `${c.req.method} ${c.req.path} not found${hint}`, { code: 'P-404' }).body, 404);
  });
  app.onError((error, c) => {
    if (error instanceof Refusal) return c.json(error.body, error.status);
    // The client went away before its body ended: no one reads this answer, but the inspector
    // records it, and it is the client's doing, not the sandbox's fault.
    if (c.env?.incoming?.readableAborted) return c.json(CUT_OFF.body, CUT_OFF.status);
    resolved.log(`sandbox error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return c.json({ message: 'Unexpected sandbox error', args: { code: 'P-500' } }, 500);
  });

  const handle: SandboxHandle = { gateway, stop: () => gateway.stop() };
  return Object.assign(app, { sandbox: handle });
}

interface KnownRoute {
  readonly method: string;
  readonly pattern: RegExp;
}

/** The app's routes (not its middleware), read once all are mounted. */
function routesOf(app: Hono<SandboxEnv>): KnownRoute[] {
  return app.routes
    .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
    .map((route) => ({
      method: route.method,
      pattern: new RegExp(`^${route.path.split(/(:[a-z_]+)/i).map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`),
    }));
}

/** What orchestrators and the companion name their probes: the sandbox's one is /health. */
const PROBE = /^\/(?:healthz|readyz?|livez?|status|ping)$/i;

/**
 * What a 404 adds for a path that is nearly right: the same path without a trailing or doubled
 * slash, or under /api/v1 (the interface's only prefix), when a route answers there; for any
 * other path outside /api/v1 and /_sandbox, where the interface is.
 */
function pathHint(method: string, path: string, known: readonly KnownRoute[]): string {
  const route = (candidate: string) => {
    const matching = known.filter((entry) => entry.pattern.test(candidate));
    return matching.find((entry) => entry.method === method || (method === 'HEAD' && entry.method === 'GET')) ?? matching[0];
  };
  const tidy = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  const tidied = tidy === path ? undefined : route(tidy);
  if (tidied) return `: no trailing or double slash, ${tidied.method} ${tidy}`;
  if (tidy.startsWith('/api/v1/') || tidy === '/_sandbox' || tidy.startsWith('/_sandbox/')) return '';
  // /payment, /v1/payment, /api/payment, /api/v2/payment: the same endpoint under /api/v1.
  const rest = tidy.replace(/^(\/api)?(\/v\d+)?(?=\/)/, '');
  const moved = route(`/api/v1${rest}`);
  if (!moved && PROBE.test(tidy)) return ': the sandbox’s health check is GET /health';
  return moved ? `: the interface is under /api/v1, ${moved.method} /api/v1${rest}` : ': the interface is under /api/v1 (POST /api/v1/payment…), the control plane under /_sandbox';
}
