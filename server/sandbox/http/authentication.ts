/**
 * The interface's authentication: `X-API-AUTH: CPAY <key>:<secret>` on every request, and
 * `X-API-KEY: <endpoints key>` where its Authentication table says it is sent: every POST,
 * receipts and the webhook re-send. Real clients send the key everywhere, so it is taken
 * everywhere and required only there: an order-state read without it is answered (the
 * gateway notes: "require it where stated"). Header names are case-insensitive. The project
 * is the one the API key belongs to; a pos_id in the path or body must be that project's.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AUTH_HEADER, ENDPOINTS_KEY_HEADER, readAuthHeader } from '@payform/gateway/wire';
import { routes } from '@payform/gateway/wire';
import type { Route } from '@payform/gateway/wire';
import type { Project } from '../config.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { Refusal } from '../state/refusal.js';
import type { SandboxEnv } from './env.js';

const unauthorised = (message: string) => new Refusal(401, message, { code: 'P-401' });

export function authenticate(gateway: SimulatedGateway, route: Route): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const credentials = readAuthHeader(c.req.header(AUTH_HEADER));
    const project = credentials ? gateway.projectByApiKey(credentials.apiKey) : undefined;
    if (!credentials || !project || !sameSecret(credentials.apiSecret, project.apiSecret)) {
      throw unauthorised(`Invalid credentials: send ${AUTH_HEADER}: CPAY <API key>:<API secret>`);
    }
    if (requiresEndpointsKey(route, () => c.req.query('callback')) && !sameSecret(c.req.header(ENDPOINTS_KEY_HEADER) ?? '', project.endpointsKey)) {
      throw unauthorised(`Invalid or missing ${ENDPOINTS_KEY_HEADER}`);
    }
    c.set('project', project);
    await next();
  };
}

/** The order-state reads carry the key from the client (routes.ts) but need it only as the re-send (`?callback=`). */
function requiresEndpointsKey(route: Route, callback: () => string | undefined): boolean {
  if (route === routes.order) return false;
  if (route === routes.orderOperation) return callback() !== undefined;
  return route.endpointsKey;
}

/** A pos_id named by the request must belong to the authenticated project. */
export function ownProject(project: Project, posId: string): Project {
  if (posId !== project.posId) throw unauthorised('Invalid pos_id for these credentials');
  return project;
}

/** Constant-time comparison, so response times do not reveal how much of a secret matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length ? timingSafeEqual(a, b) : !timingSafeEqual(b, b);
}
