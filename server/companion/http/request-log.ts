/**
 * One log line per request: method, the matched route pattern (never the concrete path — a
 * checkout session id in it is a capability), status and duration; the health probes' and
 * metrics scrapes' at debug. A 500 is an error: a fault of the companion's. A 502 (the gateway
 * refused the credentials, or answered what cannot be read) is a warning without a stack: an
 * unreadable answer is said nowhere else, and refused credentials once at error
 * (GatewayTrouble). A 504 (the outcome is being read back, by the flow that says so) and a
 * deliberate 503 with Retry-After (the database or gateway away, the instance stopping) stay at
 * info; a probe's 503 (/healthz when only a restart brings the ledger back: said once by
 * LedgerOutage) at debug, as its 200. An answer replayed under its Idempotency-Key at info: it
 * was said when first answered. A request its client abandoned half-sent is the client's doing,
 * told at info.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { CompanionEnv } from '../context.js';
import { abortedByClient } from './client-abort.js';
import { REPLAYED_HEADER } from './idempotency-keys.js';
import { cutForLateness } from './unparsed-requests.js';
import { OWN_PROBE_HEADER } from './own-probe.js';

/** The liveness and readiness probes' routes and the metrics scrape, every few seconds, under any base path. */
const PROBES = /\/(healthz|readyz|metrics)$/;

/** The companion's app: its `routes` tell its own matches from a host's. */
interface RoutedApp {
  readonly routes: readonly { readonly path: string }[];
}

/** `ownProbe`: whether a request is the start's own probe (ownProbeCheck), this instance's or a sibling's behind the balancer. */
export function logRequests(app: RoutedApp, ownProbe: (sent: string | undefined) => boolean): MiddlewareHandler<CompanionEnv> {
  let own = new Set<string>();
  let counted = 0;
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    // Read again only when routes were added (`extend`, or routes added after composing).
    if (counted !== app.routes.length) {
      counted = app.routes.length;
      own = new Set(app.routes.map(({ path }) => path));
    }
    const route = answeringRoute(matchedRoutes(c), own);
    const orderId = c.get('payformOrderId');
    const fields = { method: c.req.method, route, status, ms: Math.round((performance.now() - started) * 10) / 10, request_id: c.get('payformRequestId'), ...(orderId && { order_id: orderId }) };
    // c.get, not c.var: c.var copies every variable into a new object each time it is read.
    const logger = c.get('logger');
    if (abortedByClient(c)) {
      // Cut for arriving too slowly: answered 408 and warned of where it was cut, not a 400 nobody got.
      if (cutForLateness(c.env?.incoming?.socket)) logger.debug('request cut: it did not arrive in time', { ...fields, status: 408 });
      else logger.info('request aborted by the client', fields);
    } else if (status === 502) logger[c.get('services').gatewayTrouble.paymentLineLevel]('request failed at the gateway', fields);
    else if (status >= 500 && !toldElsewhere(status, c.res.headers, route)) logger.error('request failed', fields);
    // A load balancer's probes, every few seconds, would be a third of an idle log.
    else if (PROBES.test(route)) logger.debug('request', fields);
    // The start's check of the public URL asks the webhook route (405 to its GET) and posts it an
    // empty form (400): its own requests, not a stranger's nor a refused webhook. Only those
    // answers: the token goes to whatever PAYFORM_PUBLIC_URL reaches, which must not hide others.
    else if ((status === 400 || status === 405) && ownProbe(c.req.header(OWN_PROBE_HEADER))) logger.debug('request', { ...fields, own_check: true });
    else logger.info('request', fields);
  };
}

/**
 * The most specific route of the companion's that matched. Mounted in a host's Hono app, the
 * host's routes registered after it (a static-file or single-page catch-all) match too, and
 * come last: the line names the companion's route, not the host's `/*`. Served alone, the last
 * match is the companion's, at the first look.
 */
function answeringRoute(matched: readonly { readonly path: string }[], own: ReadonlySet<string>): string {
  let fallback: string | undefined;
  for (let index = matched.length - 1; index >= 0; index--) {
    const { path } = matched[index]!;
    if (!own.has(path)) continue;
    if (!path.endsWith('*')) return path;
    fallback ??= path;
  }
  return fallback ?? matched.at(-1)?.path ?? '';
}

/**
 * A 5xx whose cause is logged where it is noticed, not per request (see above); or one replayed
 * under its Idempotency-Key, which was said when it was first answered: nothing failed this time.
 */
function toldElsewhere(status: number, headers: Headers, route: string): boolean {
  if (headers.get(REPLAYED_HEADER) === 'true') return true;
  return status === 504 || (status === 503 && (headers.has('retry-after') || PROBES.test(route)));
}
