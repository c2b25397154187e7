/**
 * What an operator's tools ask the companion, beside the API:
 *
 *   GET /healthz   liveness: the process answers (200 whatever the database does — restarting
 *                  the companion would not bring the database back), except a SQLite ledger
 *                  that could not sync its WAL (LedgerNotDurable): only a restart brings that
 *                  one back, so 503 `restart_needed`, for an orchestrator to restart it
 *   GET /readyz    readiness: 200 when it can take payments; 503 with Retry-After while the
 *                  database cannot be reached or refuses writes (a full disk: its own read may
 *                  work, the outage tracker knows better), the instance is draining for a stop,
 *                  or its ledger was handed to another point of sale
 *   GET /metrics   Prometheus text (operator/metrics.ts), only when a metrics token is set,
 *                  and only with it: `Authorization: Bearer <metrics token>`
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../context.js';
import { requireBearer, saidOnceAMinute } from '../http/guards.js';
import { ApiProblem } from '../http/problem.js';
import type { Health, Readiness } from '../openapi/api-catalog.js';
import { LedgerReadiness } from './ledger-readiness.js';

/** `identity` (companionIdentity): this process and its ledger, for operators and the public URL check. */
export function healthRoutes(identity: Readonly<Record<string, string>>): Hono<CompanionEnv> {
  const health = new Hono<CompanionEnv>();
  health.get('/healthz', (c) => {
    if (c.var.services.outage.restartNeeded) return c.json({ status: 'restart_needed' } satisfies Health, 503, identity);
    return c.json({ status: 'ok' } satisfies Health, 200, identity);
  });
  // One read of the ledger answers the /readyz requests of a second (ledger-readiness.ts).
  let readiness: LedgerReadiness | undefined;
  health.get('/readyz', async (c) => {
    const { ledger, readiness: state, outage, clock } = c.var.services;
    const notReady = (status: Readiness['status']) => c.json({ status } satisfies Readiness, 503, { 'Retry-After': '2' });
    if (state.draining) return notReady('draining');
    if (state.foreignLedger) return notReady('foreign_ledger');
    readiness ??= new LedgerReadiness(ledger, outage, clock);
    if (!(await readiness.readable())) return notReady('unavailable');
    // It read, but a write was refused (a full or read-only disk) and no probe has written since.
    if (outage.writesRefused) return notReady('unavailable');
    return c.json({ status: 'ready' } satisfies Readiness);
  });
  return health;
}

export function metricsRoutes(token: string): Hono<CompanionEnv> {
  const metrics = new Hono<CompanionEnv>();
  const refused = (_header: string | undefined, sent: string | undefined) =>
    new ApiProblem(401, 'unauthorized', sent === undefined ? 'The metrics token is required: send Authorization: Bearer <PAYFORM_METRICS_TOKEN>' : 'The bearer token is not the metrics token (PAYFORM_METRICS_TOKEN)', undefined, {
      'WWW-Authenticate': 'Bearer realm="payform-metrics"',
    });
  metrics.get('/', requireBearer(token, refused, wrongMetricsToken), async (c) => {
    const { ledger, metrics: registry, clock, outage } = c.var.services;
    return c.body(await registry.exposition(ledger, clock(), outage.writesRefused), 200, { 'Content-Type': registry.registry.contentType });
  });
  return metrics;
}

/** A scraper sending another token (the one before a rotation) gets no metrics, and an alert on them stays silent: said, never the token. */
const wrongMetricsToken = saidOnceAMinute(({ logger }, fields) =>
  logger.warn('GET /metrics refused for a wrong bearer token: the scraper must send PAYFORM_METRICS_TOKEN (the metricsToken option); until it does, no metric of this instance is read', fields),
);
