/**
 * Applies the control plane's API faults to /api/v1 requests (the checkout page excepted: it is
 * a page for people, not the API; the card tokenizer, which stands for the gateway's separate
 * widget host; and HEAD requests, which change nothing). Latency first; then, before or after
 * the request is handled (`phase`), an error answer with the gateway's error body or a dropped
 * connection.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, MiddlewareHandler } from 'hono';
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { ErrorBody } from '@payform/gateway/wire';
import type { SandboxEnv } from './env.js';

export function injectFaults(gateway: SimulatedGateway): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    if (c.req.path.startsWith('/api/v1/checkout/') || c.req.path.startsWith('/api/v1/sdk/')) return next();
    // A HEAD (a link checker's, a proxy's) is no client call: counted, it would use up `times`
    // and move the seeded sequence, so the faults a test set up would strike other requests.
    if (c.req.method === 'HEAD') return next();
    const decision = gateway.faults.decide(c.req.method, c.req.path);
    if (!decision) return next();
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    if (decision.phase === 'after') await next();
    if (!decision.drop && decision.errorStatus === undefined) {
      if (decision.phase === 'before') await next();
      return;
    }
    // Replacing c.res would carry the real answer's headers (a 303's Location) over: clear it first.
    c.res = undefined;
    c.res = decision.drop ? dropConnection(c) : faultAnswer(decision.errorStatus ?? 500);
  };
}

function faultAnswer(status: number): Response {
  const body: ErrorBody = { message: `Injected fault: the sandbox answers HTTP ${status}`, args: { code: `P-${status}` } };
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (status === 429 || status === 503) headers['Retry-After'] = '1';
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * Served over HTTP, the socket is destroyed: the caller sees the connection reset with no
 * answer. In-process (app.request) there is no socket, so the nearest thing is answered: 503.
 */
function dropConnection(c: Context<SandboxEnv>): Response {
  const socket = c.env?.incoming?.socket;
  if (socket) {
    socket.destroy();
    return new Response(null, { status: 204 });
  }
  return faultAnswer(503);
}
