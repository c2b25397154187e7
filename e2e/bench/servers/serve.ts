/**
 * A server of the stack in its own process, for the benchmarks and load suites: the sandbox or
 * a companion, each on 127.0.0.1 and a free port, so neither shares an event loop with the
 * other or with the load generator. Prints one line `{"ready":"http://127.0.0.1:…"}` on
 * standard output once it listens; stops on SIGTERM or when standard input closes (so it never
 * outlives the process that started it).
 *
 *   tsx e2e/bench/servers/serve.ts sandbox
 *   BENCH_GATEWAY_URL=… BENCH_DATABASE_URL=… tsx e2e/bench/servers/serve.ts companion
 *   tsx e2e/bench/servers/serve.ts sink
 *   BENCH_GATEWAY_URL=… BENCH_DATABASE_URL=… tsx e2e/bench/servers/serve.ts floor
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { GatewayClient } from '../../../server/gateway/client.js';
import { openLedger } from '../../../server/ledger/index.js';
import { createCompanion } from '../../../server/companion/app.js';
import { createLogger } from '../../../server/companion/log/logger.js';
import type { LogLevel } from '../../../server/companion/log/logger.js';
import { createSandbox } from '../../../server/sandbox/app.js';
import { BENCH_ADMIN_TOKEN, benchCredentials, sandboxFor } from './credentials.js';
import { isPostgresUrl } from '../../../server/ledger/ledger.js';
import { floorRelay } from './floor.js';
import { postgresWebhookFloor } from './floor-postgres.js';

type Handler = (request: Request, env: unknown) => Response | Promise<Response>;

async function listen(): Promise<{ server: Server; url: string; handle: (handler: Handler) => void }> {
  let handler: Handler = () => new Response('starting', { status: 503 });
  const server = serve({ fetch: (request, env) => handler(request, env), port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  // Load generators keep connections open for the whole run.
  server.keepAliveTimeout = 60_000;
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, handle: (next) => (handler = next) };
}

async function startSandbox(): Promise<() => Promise<void>> {
  const { server, url, handle } = await listen();
  const sandbox = createSandbox({ ...sandboxFor(benchCredentials()), webhooks: { retryDelaysMs: [500, 2_000, 5_000], timeoutMs: 10_000, reorderHoldMs: 300 } });
  handle((request, env) => sandbox.fetch(request, env as never));
  console.log(JSON.stringify({ ready: url }));
  return async () => {
    server.closeAllConnections();
    server.close();
    await sandbox.sandbox.stop();
  };
}

async function startCompanion(): Promise<() => Promise<void>> {
  const gatewayUrl = process.env.BENCH_GATEWAY_URL;
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!gatewayUrl || !databaseUrl) throw new Error('BENCH_GATEWAY_URL and BENCH_DATABASE_URL are required');
  const { server, url, handle } = await listen();
  const ledger = await openLedger(databaseUrl, process.env.BENCH_DATABASE_SCHEMA ? { schema: process.env.BENCH_DATABASE_SCHEMA } : {});
  const credentials = benchCredentials();
  const gateway = new GatewayClient({ baseUrl: gatewayUrl, ...credentials, timeoutMs: Number(process.env.BENCH_GATEWAY_TIMEOUT_MS ?? 10_000) });
  const app = createCompanion({
    ledger,
    gateway,
    gatewayApiSecret: credentials.apiSecret,
    publicUrl: url,
    adminToken: BENCH_ADMIN_TOKEN,
    sandboxOrigin: new URL(gatewayUrl).origin,
    testMode: true,
    // Every request of a load run comes from one address: the card-testing limits would stop it.
    rateLimits: { perSession: 1_000_000, perClient: 1_000_000 },
    // Production's default level: one line per request, on standard error.
    logger: createLogger({ level: (process.env.BENCH_LOG_LEVEL as LogLevel | undefined) ?? 'info' }),
  });
  handle((request, env) => app.fetch(request, env as never));
  if (process.env.BENCH_RECONCILE) app.companion.reconciler.start();
  console.log(JSON.stringify({ ready: url }));
  return async () => {
    server.closeAllConnections();
    server.close();
    await app.companion.stop();
    await ledger.close();
  };
}

/**
 * A webhook receiver that takes every post and answers 200: the `server_url` of payments sent
 * straight to the sandbox, so their webhooks cost the sandbox what the companion's do without
 * being charged to the companion, which knows nothing of those orders.
 */
async function startSink(): Promise<() => Promise<void>> {
  return serveReady(
    createServer((request, response) => {
      request.resume().once('end', () => response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 17 }).end('{"received":true}'));
    }),
  );
}

/** `server` on 127.0.0.1 and a free port, keeping connections open, its URL printed as the ready line. */
async function serveReady(server: Server): Promise<() => Promise<void>> {
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ ready: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  return async () => {
    server.closeAllConnections();
    server.close();
  };
}

/**
 * The least a payment relay does (floor.ts): pay requests and webhooks on SQLite; on PostgreSQL
 * (floor-postgres.ts) webhooks only, into BENCH_DATABASE_SCHEMA.
 */
async function startFloor(): Promise<() => Promise<void>> {
  const gatewayUrl = process.env.BENCH_GATEWAY_URL;
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!gatewayUrl || !databaseUrl) throw new Error('BENCH_GATEWAY_URL and BENCH_DATABASE_URL are required');
  if (!isPostgresUrl(databaseUrl)) return serveReady(floorRelay(gatewayUrl, databaseUrl, benchCredentials()));
  const schema = process.env.BENCH_DATABASE_SCHEMA;
  if (!schema) throw new Error('BENCH_DATABASE_SCHEMA is required with a PostgreSQL BENCH_DATABASE_URL');
  const floor = await postgresWebhookFloor(databaseUrl, schema, benchCredentials().apiSecret);
  const stop = await serveReady(floor.server);
  return async () => {
    await stop();
    await floor.close();
  };
}

const STARTERS: Readonly<Record<string, () => Promise<() => Promise<void>>>> = { sandbox: startSandbox, companion: startCompanion, sink: startSink, floor: startFloor };

// BENCH_MEMORY_LOG_MS: a line of process.memoryUsage() on standard error that often, after a
// full collection when the process runs with --expose-gc (to tell a leak from a lazy heap).
const memoryLogMs = Number(process.env.BENCH_MEMORY_LOG_MS ?? 0);
if (memoryLogMs > 0) {
  setInterval(() => {
    (globalThis as { gc?: () => void }).gc?.();
    console.error(JSON.stringify({ msg: 'memory', ...process.memoryUsage() }));
  }, memoryLogMs).unref();
}

const role = process.argv[2];
const starter = role === undefined ? undefined : STARTERS[role];
if (!starter) throw new Error(`usage: serve.ts sandbox|companion|sink|floor, not ${role ?? 'nothing'}`);
const stop = await starter();
let stopping = false;
const exit = () => {
  if (stopping) return;
  stopping = true;
  // The CPU profile (--cpu-prof) is written on a normal exit only.
  void stop().finally(() => process.exit(0));
};
process.once('SIGTERM', exit).once('SIGINT', exit);
process.stdin.on('close', exit).resume();
