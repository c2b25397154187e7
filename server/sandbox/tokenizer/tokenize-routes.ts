/**
 * POST /api/v1/sdk/tokenize, the card tokenizer of the gateway's widget host, and its CORS: a
 * shop's page calls it straight from the customer's browser. A preflight, which names no
 * project, names the page's origin when some project allows it (tokenize.ts says which); an
 * answer, when the project it is for does (or, for a request naming none, some project). Every
 * other origin gets no CORS header, so its browser keeps the answer from the page — and the page
 * cannot say why, so the sandbox does, once an origin.
 */
import { Hono } from 'hono';
import { maskCardData } from '@payform/gateway';
import type { Context } from 'hono';
import type { SandboxEnv } from '../http/env.js';
import { SaidOnce } from '../said-once.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { originAllowed, tokenize, TokenizeRefusal } from './tokenize.js';

export const TOKENIZE_PATH = '/api/v1/sdk/tokenize';

/** How many refused origins are remembered as said: a scan of made-up ones makes it start over, it does not grow. */
const ORIGINS_SAID = 256;

export function tokenizeRoutes(gateway: SimulatedGateway): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const refusedOrigins = new SaidOnce(ORIGINS_SAID);
  const sayRefused = (origin: string) => {
    if (!refusedOrigins.first(origin)) return;
    gateway.config.log(
      `tokenizer: a page at ${maskCardData(origin).slice(0, 200)} may not call it (its browser gets no CORS header, so the widget cannot tokenize): add the origin to the project's widget_origins in the projects file; without one, only http loopback pages may (said once)`,
    );
  };
  /** `refused`: the project the request is for does not take its origin, whatever other projects do. */
  const corsHeaders = (c: Context<SandboxEnv>, refused = false): Record<string, string> => {
    const origin = c.req.header('origin');
    const allowed = origin !== undefined && !refused && gateway.config.projects.some((project) => originAllowed(project, origin));
    if (origin !== undefined && !allowed) sayRefused(origin);
    return allowed ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : { Vary: 'Origin' };
  };

  routes.options(TOKENIZE_PATH, (c) =>
    c.body(null, 204, {
      ...corsHeaders(c),
      'Access-Control-Allow-Methods': 'POST',
      // Whatever headers the page adds (a proxy's, a tracing header): the signature, not a header list, guards the tokenizer.
      'Access-Control-Allow-Headers': c.req.header('access-control-request-headers') ?? 'Content-Type, X-Widget-Id, X-Sign',
      'Access-Control-Max-Age': '600',
    }),
  );

  routes.post(TOKENIZE_PATH, async (c) => {
    try {
      const { answer } = await tokenize(gateway, {
        text: await c.req.text(),
        widgetId: c.req.header('x-widget-id'),
        sign: c.req.header('x-sign'),
        origin: c.req.header('origin'),
      });
      return c.json(answer, 200, { ...corsHeaders(c), 'Cache-Control': 'no-store' });
    } catch (error) {
      if (!(error instanceof TokenizeRefusal)) throw error;
      return c.json(error.body, error.status, corsHeaders(c, error.id === 'origin_not_allowed'));
    }
  });
  return routes;
}
