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
import { maskCardData } from '@payform/gateway';
import { AUTH_HEADER, ENDPOINTS_KEY_HEADER, readAuthHeader } from '@payform/gateway/wire';
import { routes } from '@payform/gateway/wire';
import type { Route } from '@payform/gateway/wire';
import type { Project } from '../config.js';
import { SaidOnce } from '../said-once.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import { Refusal } from '../state/refusal.js';
import type { SandboxEnv } from './env.js';

const unauthorised = (message: string) => new Refusal(401, message, { code: 'P-401' });

const SHAPE = `${AUTH_HEADER}: CPAY <API key>:<API secret>`;

/** Causes already logged, per sandbox: each distinct one is said once, not at every request of a client that retries. */
const logged = new WeakMap<SimulatedGateway, SaidOnce>();
const LOGGED_CAUSES = 256;

export function authenticate(gateway: SimulatedGateway, route: Route): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const given = c.req.header(AUTH_HEADER);
    const credentials = readAuthHeader(given);
    const project = credentials ? gateway.projectByApiKey(credentials.apiKey) : undefined;
    if (!credentials || !project || !sameSecret(credentials.apiSecret, project.apiSecret)) {
      throw refused(gateway, `${c.req.method} ${route.path}`, `Invalid credentials: ${credentialsProblem(gateway, given, c.req.header('Authorization') !== undefined, credentials, project)}`);
    }
    if (requiresEndpointsKey(route, () => c.req.query('callback')) && !sameSecret(c.req.header(ENDPOINTS_KEY_HEADER) ?? '', project.endpointsKey)) {
      const sent = c.req.header(ENDPOINTS_KEY_HEADER)?.trim();
      throw refused(
        gateway,
        `${c.req.method} ${route.path}`,
        sent
          ? `Invalid ${ENDPOINTS_KEY_HEADER}: it is not project ${JSON.stringify(project.name)}'s endpoints key`
          : `Missing ${ENDPOINTS_KEY_HEADER}: this endpoint needs project ${JSON.stringify(project.name)}'s endpoints key in it`,
      );
    }
    c.set('project', project);
    await next();
    // A pos_id that is not the credentials' project (ownProject), which Hono's onError answered.
    if (c.error instanceof Refusal && c.error.status === 401) logOnce(gateway, `${c.req.method} ${route.path}`, c.error.message);
  };
}

/** The 401, logged the first time its cause is seen (the message names no secret). */
function refused(gateway: SimulatedGateway, endpoint: string, message: string): Refusal {
  logOnce(gateway, endpoint, message);
  return unauthorised(message);
}

function logOnce(gateway: SimulatedGateway, endpoint: string, message: string): void {
  let causes = logged.get(gateway);
  if (!causes) logged.set(gateway, (causes = new SaidOnce(LOGGED_CAUSES)));
  if (causes.first(message)) gateway.config.log(`401 on ${endpoint}: ${message} (said once)`);
}

/** Which part of X-API-AUTH is wrong, naming the key (never a secret) and the project. */
function credentialsProblem(
  gateway: SimulatedGateway,
  header: string | undefined,
  authorizationSent: boolean,
  credentials: { apiKey: string; apiSecret: string } | undefined,
  project: Project | undefined,
): string {
  if (header === undefined) {
    return authorizationSent ? `no ${AUTH_HEADER} header, and an Authorization header instead: the gateway reads ${SHAPE}` : `no ${AUTH_HEADER} header: send ${SHAPE}`;
  }
  if (header.trim() === '') return `${AUTH_HEADER} is empty: send ${SHAPE}`;
  if (!credentials) {
    // A value of the scheme alone ("CPAY ", its space trimmed away as headers are) names one.
    const scheme = /^(\S+)(\s|$)/.exec(header)?.[1];
    if (scheme === undefined || scheme.includes(':')) return `${AUTH_HEADER} has no scheme: it must start with "CPAY ", as ${SHAPE}`;
    if (scheme === 'CPAY' && header.trim() === scheme) return `${AUTH_HEADER} has no credentials after "CPAY": send ${SHAPE}`;
    if (scheme !== 'CPAY') {
      const named = /^[A-Za-z][A-Za-z-]{0,19}$/.test(scheme) ? `, not "${scheme}"` : '';
      return `${AUTH_HEADER} must start with "CPAY "${named}${scheme.toUpperCase() === 'CPAY' ? ' (in capitals)' : ''}, as ${SHAPE}`;
    }
    return `${AUTH_HEADER} must be "CPAY <API key>:<API secret>": the key, a colon and the secret, with no other spaces`;
  }
  if (!project) {
    // A secret sent where the key goes is not echoed: it is named for what it is.
    const projects = gateway.config.projects;
    const owner = projects.find((candidate) => sameSecret(credentials.apiKey, candidate.apiSecret));
    if (owner) return `the API key sent is project ${JSON.stringify(owner.name)}'s API secret: send the key first, as ${SHAPE}`;
    const endpoints = projects.find((candidate) => sameSecret(credentials.apiKey, candidate.endpointsKey));
    if (endpoints) return `the API key sent is project ${JSON.stringify(endpoints.name)}'s endpoints key (the ${ENDPOINTS_KEY_HEADER} header's value), not its API key`;
    // Masked before it is cut: a card number across the cut would be left half, unrecognised.
    const masked = maskCardData(credentials.apiKey);
    const key = masked.length > 64 ? `${masked.slice(0, 64)}…` : masked;
    return `the API key ${JSON.stringify(key)} is no project's (GET /_sandbox lists the projects)`;
  }
  return `wrong API secret for project ${JSON.stringify(project.name)} (API key ${JSON.stringify(project.apiKey)})`;
}

/** The order-state reads carry the key from the client (routes.ts) but need it only as the re-send (`?callback=`). */
function requiresEndpointsKey(route: Route, callback: () => string | undefined): boolean {
  if (route === routes.order) return false;
  if (route === routes.orderOperation) return callback() !== undefined;
  return route.endpointsKey;
}

/** A pos_id named by the request must belong to the authenticated project. */
export function ownProject(project: Project, posId: string): Project {
  if (posId !== project.posId) {
    throw unauthorised(`Invalid pos_id for these credentials: they are project ${JSON.stringify(project.name)}'s, whose pos_id is ${project.posId}`);
  }
  return project;
}

/** Constant-time comparison, so response times do not reveal how much of a secret matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length ? timingSafeEqual(a, b) : !timingSafeEqual(b, b);
}
