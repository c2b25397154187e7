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
import { resolveConfig } from './config.js';
import type { SandboxConfig } from './config.js';
import { apiRoutes } from './http/api-routes.js';
import { limitBody } from './http/body-limit.js';
import { guardControlPlane } from './http/control-guard.js';
import { controlRoutes } from './http/control-routes.js';
import { inspectorRoutes } from './http/inspector-routes.js';
import type { SandboxEnv } from './http/env.js';
import { injectFaults } from './http/fault-middleware.js';
import { shapeAnswers } from './http/shape-middleware.js';
import { recordRequests } from './inspector/recorder.js';
import { pageRoutes } from './pages/page-routes.js';
import { SimulatedGateway } from './simulated-gateway.js';
import { tokenizeRoutes } from './tokenizer/tokenize-routes.js';
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
  app.use('/api/v1/*', injectFaults(gateway));
  app.use('/api/v1/*', shapeAnswers(gateway));

  app.get('/health', (c) => c.text('OK'));
  app.route('/', tokenizeRoutes(gateway));
  app.route('/', apiRoutes(gateway, baseUrlOf));
  app.route('/', pageRoutes(gateway, resolved.publicUrl));
  app.use('/_sandbox/*', guardControlPlane(resolved));
  app.route('/_sandbox', inspectorRoutes(gateway));
  app.route('/_sandbox', controlRoutes(gateway, baseUrlOf));

  app.notFound((c) => c.json(Refusal.notFound(`${c.req.method} ${c.req.path}`).body, 404));
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
