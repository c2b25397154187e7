/**
 * Headers for browsers: security headers on every answer (a route's own — the widget's CORP,
 * a page's CSP — win), CORS on the widget-facing checkout API for the merchant's configured
 * origins only (a host's own CORS headers are taken off), and `no-store` on the API (sessions
 * and orders must not sit in caches).
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { CompanionEnv } from '../context.js';
import type { Logger } from '../log/logger.js';
import { BASE_PATH_HEADER } from '../operator/public-url-check.js';
import { requestAddress } from './request-address.js';
import { NOT_AN_ORIGIN, originToName } from './advised-origin.js';
import { SaidLately } from './said-lately.js';

/** Names each answer, and the request's log line names it (request_id). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What every answer carries unless its route set the header itself: the set hono/secure-headers
 * gives with the companion's options (CSP `'none'` for everything, no framing, no referrer),
 * written out once. HSTS only where it means something: a companion reached over https.
 */
function securitySet(publicUrl: string): ReadonlyArray<readonly [string, string]> {
  return [
    ['cross-origin-resource-policy', 'same-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['origin-agent-cluster', '?1'],
    ['referrer-policy', 'no-referrer'],
    ...(publicUrl.startsWith('https:') ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const] : []),
    ['x-content-type-options', 'nosniff'],
    ['x-dns-prefetch-control', 'off'],
    ['x-download-options', 'noopen'],
    ['x-frame-options', 'DENY'],
    ['x-permitted-cross-domain-policies', 'none'],
    ['x-xss-protection', '0'],
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"],
  ];
}

/**
 * The security set as a header record, for the answers written outside the app's middleware:
 * the starting and shutting-down answers, the parser's refusals, a taken body's answer to a Node
 * host, the metrics listener's. Every answer the companion sends carries the same set.
 */
export function securityHeaders(publicUrl: string): Readonly<Record<string, string>> {
  return Object.fromEntries(securitySet(publicUrl));
}

/**
 * The headers of every answer: the security set, and `no-store` under `noStorePrefixes` (the
 * API, webhooks, the return landing: sessions and orders must not sit in caches). A route's own
 * value of any of them wins; X-Powered-By goes.
 *
 * Served by Node (@hono/node-server, or `toNodeListener` in Express), they go on Node's answer
 * before the route runs: the adapter's `writeHead` merges the route's own headers over them, so
 * the route still wins, and the route's answer keeps its plain header record — the adapter's
 * fast path. Asking `c.res.headers` instead builds a web `Headers` of it, which the adapter
 * then sorts and copies back into a record to write: about 6 µs a request. In process
 * (`app.request`, a fetch host) there is no Node answer, and the set goes on the finished
 * Response's headers.
 *
 * Each answer also carries its own `X-Request-Id`, which the request's log line names: what a
 * merchant quotes of a failed call (or a proxy logs of it, nginx's `$upstream_http_x_request_id`)
 * finds that line. Made here, never taken from the request: a client's header would let anyone
 * write what they like into the operator's log, a card number among it. Mounted in a host that
 * names its requests itself (an Express request-id middleware's header on Node's answer,
 * hono/request-id's `requestId`), the host's id is the request's: its answer and both logs agree.
 */
export function answerHeaders(publicUrl: string, noStorePrefixes: readonly string[], logger: Logger): MiddlewareHandler<CompanionEnv> {
  const security = securitySet(publicUrl);
  const withNoStore = [...security, ['cache-control', 'no-store'] as const];
  const noStoreUnder = (path: string) => noStorePrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  const dropHostCors = hostCorsRemover(logger);
  return (c, next) => {
    const set = noStoreUnder(c.req.path) ? withNoStore : security;
    const outgoing = nodeAnswer(c);
    const requestId = hostRequestId(c, outgoing) ?? randomUUID();
    c.set('payformRequestId', requestId);
    if (!outgoing) return addToResponse(c, next, [...set, [REQUEST_ID_HEADER, requestId]]);
    dropHostCors(outgoing);
    for (const [name, value] of set) outgoing.setHeader(name, value);
    outgoing.setHeader(REQUEST_ID_HEADER, requestId);
    outgoing.removeHeader('x-powered-by');
    return next();
  };
}

/** The id a host mounting the companion gave this request already, if it reads as one. */
function hostRequestId(c: Context<CompanionEnv>, outgoing: ServerResponse | Http2ServerResponse | undefined): string | undefined {
  const given = outgoing?.getHeader(REQUEST_ID_HEADER) ?? (c.get('requestId' as never) as unknown);
  return typeof given === 'string' && HOST_REQUEST_ID.test(given) ? given : undefined;
}

/** What a host's id may be to be taken: printable, no longer than a log line should carry. */
const HOST_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The companion's CORS is the only CORS on its answers. A host's CORS middleware run before the
 * mount (Express's cors(), NestJS's enableCors()) has put its Access-Control-* headers on Node's
 * answer already — `*`, or any origin echoed — and the answer would keep them: any site's page
 * could read a checkout session, whatever PAYFORM_ALLOWED_ORIGINS says. They are taken off every
 * answer (the routes that want `*`, the widget's files and the 404, set it again themselves), and
 * the mistake is said once. A request pays one header lookup; the preflights that host answers
 * itself never reach the companion.
 */
function hostCorsRemover(logger: Logger): (outgoing: ServerResponse | Http2ServerResponse) => void {
  let said = false;
  return (outgoing) => {
    const hostOrigin = outgoing.getHeader('access-control-allow-origin');
    if (hostOrigin === undefined) return;
    for (const name of outgoing.getHeaderNames()) {
      if (name.startsWith('access-control-')) outgoing.removeHeader(name);
    }
    if (said) return;
    said = true;
    logger.error(
      'a middleware before the companion set Access-Control-Allow-Origin on its answers (cors(), NestJS\'s enableCors()), which would let the pages of every origin it allows (all, with *) read them: ' +
        'the companion takes it off, and its own CORS follows PAYFORM_ALLOWED_ORIGINS (allowedOrigins), but that middleware still answers the preflights (OPTIONS) itself. ' +
        'Mount the companion before it (NestJS: app.use before enableCors())',
      { access_control_allow_origin: String(hostOrigin) },
    );
  };
}

/** In process: the set on the finished Response, where the route has not set a header itself. */
async function addToResponse(c: Context<CompanionEnv>, next: Next, set: ReadonlyArray<readonly [string, string]>): Promise<void> {
  await next();
  const headers = c.res.headers;
  // The route's own headers: usually just its Content-Type.
  const own = new Set(headers.keys());
  for (const [name, value] of set) {
    if (!own.has(name)) headers.append(name, value);
  }
  if (own.has('x-powered-by')) headers.delete('x-powered-by');
}

/** Node's answer to this request, when Node serves it and has not sent its head yet. */
function nodeAnswer(c: Context<CompanionEnv>): ServerResponse | Http2ServerResponse | undefined {
  const outgoing = c.env?.outgoing;
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

/**
 * Refused origins said as warnings: each once an hour, a few an hour at most. Only requests that
 * named a session this companion opened count (see refusalNotice), so a stranger's made-up
 * origins cannot use these up.
 */
const REFUSED_ORIGINS_SAID = 20;
const REFUSED_ORIGINS_WINDOW_MS = 60 * 60_000;

/**
 * CORS for the merchant's pages. A page on another origin is refused by its browser with
 * nothing the customer can read ("could not reach"), so a refused origin is logged, naming the
 * setting that lets it in. The companion's own origin (its pages, the demo's) needs no CORS and
 * is not reported, whatever host name it was reached by.
 *
 * Written here rather than with hono/cors: that one adds `Vary` through `c.header()` once the
 * route has answered, which makes Hono rebuild the answer around its body as a web stream — on
 * the pay call, the companion's hottest route, the most expensive part of sending its answer.
 * The headers go on the finished answer's own header list instead.
 */
export function checkoutCors(allowedOrigins: readonly string[], ownOrigin: string): MiddlewareHandler<CompanionEnv> {
  const allowed = new Set(allowedOrigins);
  const refused = refusalNotice();
  const dropHostCors = hostCorsOnAnswers();
  // A same-origin request (the companion's own pages, under whatever host name) needs no CORS;
  // nor does one its browser calls same-origin though it came through a proxy of the page's
  // origin (a Vite dev server's): nothing is refused it, and a missing origin costs only the way
  // back from 3-D Secure, which the return route warns of.
  const sameOrigin = (origin: string, c: Context<CompanionEnv>) =>
    origin === ownOrigin || origin === requestAddress(c.req.url)?.origin || c.req.header('sec-fetch-site') === 'same-origin';
  return async (c, next) => {
    const origin = c.req.header('origin');
    const allowedOrigin = origin && allowed.has(origin) ? origin : undefined;
    if (c.req.method === 'OPTIONS') {
      // A preflight names no session: its refusal is weighed when the page's GET comes.
      if (origin && !allowedOrigin && !sameOrigin(origin, c)) refused(c, origin);
      const preflight = new Headers(PREFLIGHT);
      if (allowedOrigin) preflight.set('Access-Control-Allow-Origin', allowedOrigin);
      return new Response(null, { status: 204, headers: preflight });
    }
    // As for answerHeaders: on Node's answer when there is one (no route here sets Vary or
    // Access-Control-Allow-Origin itself), else on the finished Response.
    const outgoing = nodeAnswer(c);
    if (outgoing) {
      outgoing.setHeader('Vary', 'Origin');
      // Date read too: the widget judges a card's expiry by the companion's clock, not the device's.
      if (allowedOrigin) {
        outgoing.setHeader('Access-Control-Allow-Origin', allowedOrigin);
        outgoing.setHeader('Access-Control-Expose-Headers', 'Date');
      }
      if (allowedOrigin || !origin) return next();
      await next();
      if (!sameOrigin(origin, c)) refused(c, origin);
      return dropHostCors(c);
    }
    await next();
    const headers = c.res.headers;
    headers.append('Vary', 'Origin');
    if (allowedOrigin) {
      headers.set('Access-Control-Allow-Origin', allowedOrigin);
      headers.set('Access-Control-Expose-Headers', 'Date');
    } else if (origin) {
      if (!sameOrigin(origin, c)) refused(c, origin);
      dropHostCors(c);
    }
  };
}

/**
 * What is said of a refused origin, once the route has answered. Anyone can send any Origin, so
 * an origin is only said as a warning when its request named a session this companion opened
 * (the route answered it): the widget's first call, a plain GET of its session, does, and a
 * stranger cannot make that up — and even then each origin only once an hour, a few at most.
 * Any other refusal (a preflight, a session no one opened) is a debug line: a scanner's made-up
 * origins neither crowd the merchant's page out nor put their own names in a warning.
 */
function refusalNotice(): (c: Context<CompanionEnv>, origin: string) => void {
  const said = new SaidLately(REFUSED_ORIGINS_SAID, REFUSED_ORIGINS_WINDOW_MS);
  return (c, origin) => {
    const logger = c.get('logger');
    // Every value that is no origin is one key, and none of them is repeated (advised-origin.ts).
    const named = originToName(origin);
    const namedASession = c.req.method !== 'OPTIONS' && c.res.status < 400;
    if (!namedASession || !said.take(named ?? NOT_AN_ORIGIN, c.get('services').clock())) {
      if (named) logger.debug('a request whose origin is not allowed called the checkout API', { origin: named });
      else logger.debug(`a request whose Origin header is ${NOT_AN_ORIGIN} called the checkout API`);
      return;
    }
    if (!named) {
      logger.warn(
        `a request whose Origin header is ${NOT_AN_ORIGIN} (not scheme://host[:port] as a browser sends it) called the checkout API, and was refused CORS: no setting allows it, and a shop's page never sends it; a client outside a browser may have made it up`,
      );
      return;
    }
    // `null`: a page opened from file://, or sandboxed; no setting can allow it.
    const fix = named === 'null' ? 'it has no origin (a page opened from file://, or sandboxed): serve the page over http(s)' : 'add it to PAYFORM_ALLOWED_ORIGINS (allowedOrigins) if it is your shop';
    // The browser refuses the page the answer (and a JSON post its preflight): the request itself
    // may still have run, as a client outside a browser sends what it likes.
    logger.warn(`a page whose origin is not allowed called the checkout API, and its browser is refused the answer: ${fix}`, { origin: named });
  };
}

/**
 * A Hono host's cors() before the mount puts its Access-Control-* headers on the context's
 * answer, and every route's answer inherits them (Hono copies them over): `*` would let the page
 * of a refused origin read a checkout session. Looked for on a refused origin's answers only —
 * on every answer it would cost the pay call a web Headers of its own — and taken off, said once.
 */
function hostCorsOnAnswers(): (c: Context<CompanionEnv>) => void {
  const said = new WeakSet<Logger>();
  return (c) => {
    const headers = c.res.headers;
    // The companion's own 404 is readable by any page on purpose (app.ts, `unrouted`): it says
    // only that no route is there, and its base path, so that a widget can tell a wrong endpoint.
    if (!headers.has(BASE_PATH_HEADER)) dropHostCors(headers, c.get('logger'), said);
  };
}

/**
 * A Hono host of another copy of hono (a CommonJS server's `require('hono')`) runs the companion
 * in a context of its own (app.ts), and merges what its middleware put on its context's answer
 * into the companion's answer once that is returned: its cors() would put `*` back on the
 * answers to origins the companion refused. Taken off the host's context before, and said once.
 * The companion's answer carries its own CORS.
 */
export function foreignHostCors(logger: Logger): (host: { readonly res: Response }) => void {
  const said = new WeakSet<Logger>();
  return (host) => dropHostCors(host.res.headers, logger, said);
}

/** Takes a host's Access-Control-* headers off `headers`, saying so once to each logger in `said`. */
function dropHostCors(headers: Headers, logger: Logger, said: WeakSet<Logger>): void {
  const hostOrigin = headers.get('access-control-allow-origin');
  if (hostOrigin === null) return;
  for (const name of [...headers.keys()]) {
    if (name.startsWith('access-control-')) headers.delete(name);
  }
  if (said.has(logger)) return;
  said.add(logger);
  logger.error(
    "a middleware before the companion put Access-Control-Allow-Origin on its answers (Hono's cors() on the host's every path), which would let the pages of every origin it allows (all, with *) read them: " +
      'the companion takes it off the answers to origins PAYFORM_ALLOWED_ORIGINS (allowedOrigins) does not name, but that middleware still answers the preflights (OPTIONS) itself. ' +
      "Give cors() only the host's own paths, or route the companion before it",
    { access_control_allow_origin: hostOrigin },
  );
}

/** What a preflight is told: the widget sends JSON with GET and POST, and may cache that for 10 minutes. */
const PREFLIGHT: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Methods': 'GET,POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
  Vary: 'Origin, Access-Control-Request-Headers',
};

export function noStore(): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
