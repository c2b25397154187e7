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
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { requireBearer } from '../http/guards.js';
import { ApiProblem } from '../http/problem.js';
import type { Health, Readiness } from '../openapi/api-catalog.js';

/** A readiness probe gives up on the database after this long: a hung database is not ready. */
const READINESS_TIMEOUT_MS = 2_000;

/** `identity` (companionIdentity): this process and its ledger, for operators and the public URL check. */
export function healthRoutes(identity: Readonly<Record<string, string>>): Hono<CompanionEnv> {
  const health = new Hono<CompanionEnv>();
  health.get('/healthz', (c) => {
    if (c.var.services.outage.restartNeeded) return c.json({ status: 'restart_needed' } satisfies Health, 503, identity);
    return c.json({ status: 'ok' } satisfies Health, 200, identity);
  });
  health.get('/readyz', async (c) => {
    const { ledger, readiness, outage } = c.var.services;
    const notReady = (status: Readiness['status']) => c.json({ status } satisfies Readiness, 503, { 'Retry-After': '2' });
    if (readiness.draining) return notReady('draining');
    if (readiness.foreignLedger) return notReady('foreign_ledger');
    try {
      await withTimeout(ledger.listOrders({ limit: 1 }), READINESS_TIMEOUT_MS);
    } catch (error) {
      // A database that does not answer in time is not ready either; only a refused or cut
      // connection starts an outage (logged once, probed until it is back).
      if (isLedgerUnavailable(error)) outage.noticed(error, { probe: true });
      return notReady('unavailable');
    }
    // It read, but a write was refused (a full or read-only disk) and no probe has written since.
    if (outage.writesRefused) return notReady('unavailable');
    return c.json({ status: 'ready' } satisfies Readiness);
  });
  return health;
}

export function metricsRoutes(token: string): Hono<CompanionEnv> {
  const metrics = new Hono<CompanionEnv>();
  const refused = () => new ApiProblem(401, 'unauthorized', 'The metrics token is required', undefined, { 'WWW-Authenticate': 'Bearer realm="payform-metrics"' });
  metrics.get('/', requireBearer(token, refused), async (c) => {
    const { ledger, metrics: registry, clock, outage } = c.var.services;
    return c.body(await registry.exposition(ledger, clock(), outage.writesRefused), 200, { 'Content-Type': registry.registry.contentType });
  });
  return metrics;
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
