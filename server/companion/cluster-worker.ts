/**
 * A companion run as one of several processes sharing a port — a worker of Node's cluster module,
 * as pm2's cluster mode runs it. What each process holds in memory is its own: a made-up admin
 * token (each prints another, and the merchant API answers 401 wherever the one sent is not the
 * process's), and the counters `/metrics` serves (a scrape reaches any one of them, and a
 * scraper sees counters reset at random). Instances behind a balancer, one per port, share
 * neither mistake.
 */
import cluster from 'node:cluster';

/**
 * What each log line of a worker carries: its process id. The workers write to the primary's
 * standard error, one stream, where nothing else tells whose line a 500 or a stall is.
 */
export const workerLogBindings = (): { readonly pid: number } | undefined => (cluster.isWorker ? { pid: process.pid } : undefined);

/** How this process shares its port, if it does. */
export function clusterWorker(): string | undefined {
  return cluster.isWorker ? `worker ${cluster.worker?.id ?? '?'} of Node's cluster module (as pm2's cluster mode runs it)` : undefined;
}

/** Refused at start: a made-up admin token in a worker. */
export const madeUpTokenInWorker = (worker: string): string =>
  `Invalid environment: this companion runs as ${worker}, beside other processes on its port, and each would make up an admin token of its own, ` +
  'so the merchant API and the back office would answer 401 at random: set PAYFORM_ADMIN_TOKEN';

/** Said once at start: metrics served by a worker. */
export const metricsInWorker = (worker: string, metricsUrl: string): string =>
  `metrics at ${metricsUrl} are this process's alone, and it runs as ${worker}: a scrape reaches whichever process takes it, ` +
  'and the counters read as reset at random; run one companion per port (each its own PAYFORM_METRICS_ADDRESS, or its own port for the token route) behind your balancer, and sum them';
