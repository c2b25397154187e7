/**
 * Webhook ingest: signed events verified, decoded, deduplicated and persisted — at the ledger
 * (this process: verify → decode → map → `ledger.ingestEvent`, one event at a time, the
 * companion route's own steps without HTTP) and through the companion's `POST /webhooks/gateway`
 * (a companion in its own process, events posted over keep-alive loopback connections by
 * several senders at once, as a gateway delivers them).
 *
 * The events are the sandbox's own: a pending (2119) and a success event of a real slow-card
 * payment, captured once and re-addressed to each prepared order. Each payment gets both, in
 * order; a share of deliveries are exact repeats of a recent one (the gateway's retries). After
 * the run the ledger must hold every distinct event once, every payment in success, and no
 * event may have been reported new twice ("applied twice").
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ProjectCredentials } from '../../server/gateway/test-project.js';
import { decodeWebhook, verifyWebhook, webhookForm } from '../../server/gateway/webhook.js';
import type { WebhookEvent } from '../../server/gateway/objects.js';
import { gatewayEvent } from '../../server/companion/payments/gateway-facts.js';
import { openLedger } from '../../server/ledger/index.js';
import type { Ledger, LedgerOptions } from '../../server/ledger/index.js';
import { isPostgresUrl } from '../../server/ledger/ledger.js';
import { withClient } from '../../server/ledger/testing/schema-pool.js';
import { directPayment, testSandbox } from '../../server/sandbox/testing/in-process.js';
import { LoopbackClient } from './load/http-client.js';
import { eachConcurrently } from './load/latency.js';
import { benchCredentials, sandboxFor } from './servers/credentials.js';
import { databaseCpu, usedBetween } from './servers/database-cpu.js';
import { spawnServer } from './servers/processes.js';
import type { ServerProcess } from './servers/processes.js';

export interface IngestFigures {
  readonly events: number;
  readonly distinct: number;
  /** Repeated deliveries ÷ all deliveries. */
  readonly duplicateRatio: number;
  readonly perSecond: number;
  /** CPU spent per delivery by the process that ingests (verify, decode, store), µs. */
  readonly cpuMicrosPerEvent: number;
  /** CPU PostgreSQL's backends spent per delivery, µs (route only, a server on this machine). */
  readonly databaseCpuMicrosPerEvent?: number;
  /** Events reported new more than once, or stored more than once: must be 0. */
  readonly appliedTwice: number;
  /** Payments not in success after the run: must be 0. */
  readonly notSettled: number;
  readonly concurrency: number;
}

export interface IngestRun {
  readonly payments: number;
  readonly duplicateRatio: number;
  /** Senders posting at once (route only). */
  readonly concurrency: number;
  /**
   * Payments of other orders whose deliveries go through the route first, not measured (route
   * only): a fresh companion compiles its hot functions over its first thousands of requests
   * (see overhead.ts).
   */
  readonly warmup?: number;
}

export const DEFAULT_INGEST: IngestRun = { payments: 5_000, duplicateRatio: 0.1, concurrency: 16, warmup: 2_000 };

/** A pending and a success event of one real sandbox payment (the slow test card). */
async function sandboxEventTemplates(credentials: ProjectCredentials): Promise<{ pending: Record<string, unknown>; success: Record<string, unknown> }> {
  const sandbox = testSandbox({ ...sandboxFor(credentials), timings: { slowCardDelayMs: 1_000 } });
  const payment = directPayment(sandbox.project, { server_url: 'http://companion.test/webhooks/gateway' }, '4000000000000119');
  await sandbox.postJson('/api/v1/payment', payment);
  await sandbox.advance(2_000);
  await sandbox.deliver();
  await sandbox.app.sandbox.stop();
  const events = sandbox.inbox.events(payment.order_id as string);
  const pending = events.find((event) => event.status === 'pending');
  const success = events.find((event) => event.status === 'success');
  if (!pending || !success) throw new Error(`the sandbox sent ${events.map((event) => event.status).join(', ')} for the slow card`);
  return { pending, success };
}

/** Opens one checkout session per payment and claims its attempt: payments in `init`. */
async function preparePayments(ledger: Ledger, count: number): Promise<string[]> {
  const orders: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const session = await ledger.createSession({ amount: 1010, currency: 'UAH', description: 'Green tea, 250 g', method: 'purchase' });
    const claim = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
    if (!claim.claimed) throw new Error(`claim refused: ${claim.reason}`);
    orders.push(claim.payment.orderId);
  }
  return orders;
}

interface Delivery {
  readonly data: string;
  readonly signature: string;
  /** Index of the distinct event. */
  readonly event: number;
}

/** Deliveries in gateway order: p0 p1 s0 p2 s1 …, with repeats of recent ones mixed in, signed with the run's secret. */
async function deliveries(orders: readonly string[], duplicateRatio: number, credentials: ProjectCredentials): Promise<{ list: Delivery[]; distinct: number }> {
  const { pending, success } = await sandboxEventTemplates(credentials);
  const distinct: Delivery[] = [];
  const eventOf = (template: Record<string, unknown>, orderId: string, paymentId: string) => {
    const form = webhookForm({ ...template, order_id: orderId, payment_id: paymentId, transaction_id: randomUUID() }, credentials.apiSecret);
    distinct.push({ ...form, event: distinct.length });
  };
  const paymentIds = orders.map(() => randomUUID());
  orders.forEach((orderId, index) => {
    eventOf(pending, orderId, paymentIds[index]!);
    if (index > 0) eventOf(success, orders[index - 1]!, paymentIds[index - 1]!);
  });
  eventOf(success, orders.at(-1)!, paymentIds.at(-1)!);
  // Deterministic "randomness": the same run every time.
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const list: Delivery[] = [];
  for (const delivery of distinct) {
    list.push(delivery);
    if (random() < duplicateRatio / (1 - duplicateRatio)) list.push(distinct[Math.max(0, delivery.event - Math.floor(random() * 50))]!);
  }
  return { list, distinct: distinct.length };
}

async function settledCheck(ledger: Ledger, orders: readonly string[], distinct: number): Promise<{ notSettled: number; storedTwice: number }> {
  let notSettled = 0;
  let stored = 0;
  for (const orderId of orders) {
    const order = await ledger.getOrder(orderId);
    if (order?.payment.status !== 'success') notSettled += 1;
    stored += order?.events.length ?? 0;
  }
  return { notSettled, storedTwice: Math.max(0, stored - distinct) };
}

/** What posting a run's deliveries measured. */
type Posted = Pick<IngestFigures, 'perSecond' | 'cpuMicrosPerEvent' | 'appliedTwice'>;

/** What a run posted: its deliveries, the distinct events among them, from how many senders. */
function counts(events: number, distinct: number, concurrency: number): Pick<IngestFigures, 'events' | 'distinct' | 'duplicateRatio' | 'concurrency'> {
  return { events, distinct, duplicateRatio: (events - distinct) / events, concurrency };
}

function ledgerOptions(schema: string | undefined): LedgerOptions {
  return schema ? { schema } : {};
}

/**
 * Verify → decode → ingest in this process: the route's own steps without HTTP. `concurrency`
 * events are in flight at once (1: one at a time), as deliveries overlap on a busy endpoint.
 */
export async function measureLedgerIngest(databaseUrl: string, run: IngestRun = DEFAULT_INGEST, schema?: string): Promise<IngestFigures> {
  const credentials = benchCredentials();
  const ledger = await openLedger(databaseUrl, ledgerOptions(schema));
  try {
    const orders = await preparePayments(ledger, run.payments);
    const { list, distinct } = await deliveries(orders, run.duplicateRatio, credentials);
    const reportedNew = new Map<number, number>();
    const cpu = process.cpuUsage();
    const start = performance.now();
    await eachConcurrently(list, run.concurrency, async (delivery) => {
      if (!verifyWebhook(delivery.data, delivery.signature, credentials.apiSecret)) throw new Error('signature refused');
      const event: WebhookEvent = decodeWebhook(delivery.data);
      const ingest = await ledger.ingestEvent(gatewayEvent(delivery.data, event, undefined));
      if (ingest.isNew) reportedNew.set(delivery.event, (reportedNew.get(delivery.event) ?? 0) + 1);
    });
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const check = await settledCheck(ledger, orders, distinct);
    const twice = [...reportedNew.values()].filter((count) => count > 1).length;
    return {
      ...counts(list.length, distinct, run.concurrency),
      perSecond: list.length / seconds,
      cpuMicrosPerEvent: (used.user + used.system) / list.length,
      appliedTwice: twice + check.storedTwice,
      notSettled: check.notSettled,
    };
  } finally {
    await ledger.close();
  }
}

/** Through `POST /webhooks/gateway` of a companion in its own process. */
export async function measureRouteIngest(databaseUrl: string, run: IngestRun = DEFAULT_INGEST, schema?: string, logFile?: string): Promise<IngestFigures> {
  // The companion reads the same ones from the environment it inherits.
  const credentials = benchCredentials();
  const ledger = await openLedger(databaseUrl, ledgerOptions(schema));
  const warm = run.warmup ? await deliveries(await preparePayments(ledger, run.warmup), run.duplicateRatio, credentials) : { list: [] };
  const orders = await preparePayments(ledger, run.payments);
  const { list, distinct } = await deliveries(orders, run.duplicateRatio, credentials);
  const database = isPostgresUrl(databaseUrl) ? databaseCpu(databaseUrl) : undefined;
  const companion = await spawnServer('companion', {
    ...(logFile ? { logFile } : {}),
    // The gateway is never called: webhooks only.
    env: {
      BENCH_GATEWAY_URL: 'http://127.0.0.1:9',
      BENCH_DATABASE_URL: databaseUrl,
      ...(schema ? { BENCH_DATABASE_SCHEMA: schema } : {}),
      ...(database ? { PGAPPNAME: database.applicationName } : {}),
    },
  });
  try {
    let databaseAtStart: ReadonlyMap<number, number> | undefined;
    const posted = await postDeliveries(companion, warm.list, list, run.concurrency, async () => {
      databaseAtStart = await database?.sample();
    });
    const databaseMs = usedBetween(databaseAtStart, await database?.sample());
    const check = await settledCheck(ledger, orders, distinct);
    return {
      ...counts(list.length, distinct, run.concurrency),
      ...posted,
      ...(databaseMs === undefined ? {} : { databaseCpuMicrosPerEvent: (databaseMs * 1000) / list.length }),
      appliedTwice: posted.appliedTwice + check.storedTwice,
      notSettled: check.notSettled,
    };
  } finally {
    await companion.stop();
    await ledger.close();
  }
}

/**
 * Through the floor (servers/floor.ts; floor-postgres.ts with `postgres`), the least a webhook
 * receiver does, posted the same deliveries as the route in the same way: what the route's rate
 * could be on this machine.
 */
export async function measureFloorIngest(run: IngestRun = DEFAULT_INGEST, postgres?: { readonly url: string; readonly schema: string }): Promise<IngestFigures> {
  const credentials = benchCredentials();
  const fresh = (count: number) => Array.from({ length: count }, () => randomUUID().replaceAll('-', '').slice(0, 20));
  const warm = run.warmup ? await deliveries(fresh(run.warmup), run.duplicateRatio, credentials) : { list: [] };
  const orders = fresh(run.payments);
  const { list, distinct } = await deliveries(orders, run.duplicateRatio, credentials);
  const file = postgres ? undefined : temporarySqlite();
  const database = postgres ? databaseCpu(postgres.url) : undefined;
  try {
    const floor = await spawnServer('floor', {
      env: {
        BENCH_GATEWAY_URL: 'http://127.0.0.1:9',
        BENCH_DATABASE_URL: postgres?.url ?? file!.url,
        ...(postgres && database ? { BENCH_DATABASE_SCHEMA: postgres.schema, PGAPPNAME: database.applicationName } : {}),
      },
    });
    let posted: Posted;
    let databaseMs: number | undefined;
    try {
      let databaseAtStart: ReadonlyMap<number, number> | undefined;
      posted = await postDeliveries(floor, warm.list, list, run.concurrency, async () => {
        databaseAtStart = await database?.sample();
      });
      databaseMs = usedBetween(databaseAtStart, await database?.sample());
    } finally {
      await floor.stop();
    }
    const { statuses, eventCounts } = postgres ? await floorRowsOnPostgres(postgres.url, postgres.schema) : floorRowsOnSqlite(file!.url);
    const notSettled = orders.filter((orderId) => statuses.get(orderId) !== 'success').length;
    const stored = orders.reduce((sum, orderId) => sum + (eventCounts.get(orderId) ?? 0), 0);
    return {
      ...counts(list.length, distinct, run.concurrency),
      ...posted,
      ...(databaseMs === undefined ? {} : { databaseCpuMicrosPerEvent: (databaseMs * 1000) / list.length }),
      appliedTwice: posted.appliedTwice + Math.max(0, stored - distinct),
      notSettled,
    };
  } finally {
    file?.dispose();
  }
}

/** What the floor stored: each payment's status, and how many events each order has. */
interface FloorRows {
  readonly statuses: ReadonlyMap<string, string>;
  readonly eventCounts: ReadonlyMap<string, number>;
}

const FLOOR_STATUSES = 'select order_id, status from payments';
const FLOOR_EVENT_COUNTS = 'select order_id, count(*) as events from events group by order_id';

function floorRows(statuses: ReadonlyArray<{ order_id: string; status: string }>, eventCounts: ReadonlyArray<{ order_id: string; events: number | string }>): FloorRows {
  return {
    statuses: new Map(statuses.map((row) => [row.order_id, row.status])),
    eventCounts: new Map(eventCounts.map((row) => [row.order_id, Number(row.events)])),
  };
}

function floorRowsOnSqlite(path: string): FloorRows {
  const database = new Database(path, { readonly: true });
  try {
    return floorRows(database.prepare(FLOOR_STATUSES).all() as never, database.prepare(FLOOR_EVENT_COUNTS).all() as never);
  } finally {
    database.close();
  }
}

function floorRowsOnPostgres(url: string, schema: string): Promise<FloorRows> {
  return withClient(url, async (client) => {
    await client.query(`set search_path to ${client.escapeIdentifier(schema)}`);
    return floorRows((await client.query(FLOOR_STATUSES)).rows, (await client.query(FLOOR_EVENT_COUNTS)).rows);
  });
}

/**
 * Posts the warm-up's deliveries to `server`'s `POST /webhooks/gateway`, then the run's, from
 * `concurrency` senders over keep-alive connections: the run's rate and the server's CPU in it.
 * Every delivery must be answered 200; `appliedTwice` counts the events answered as new more than
 * once. `atStart` runs between the two.
 */
async function postDeliveries(
  server: ServerProcess,
  warm: readonly Delivery[],
  list: readonly Delivery[],
  concurrency: number,
  atStart?: () => Promise<void>,
): Promise<Posted> {
  const client = new LoopbackClient(concurrency);
  try {
    const url = `${server.url}/webhooks/gateway`;
    let reportedNew = new Map<number, number>();
    let failures = 0;
    const post = async (delivery: Delivery) => {
      const reply = await client.send('POST', url, new URLSearchParams({ data: delivery.data, signature: delivery.signature }).toString(), {
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      if (reply.status !== 200) failures += 1;
      else if (!(JSON.parse(reply.body) as { duplicate: boolean }).duplicate) reportedNew.set(delivery.event, (reportedNew.get(delivery.event) ?? 0) + 1);
    };
    await eachConcurrently(warm, concurrency, post);
    reportedNew = new Map();
    await atStart?.();
    const cpuAtStart = server.cpuMs();
    const start = performance.now();
    await eachConcurrently(list, concurrency, post);
    const seconds = (performance.now() - start) / 1000;
    const cpuMs = server.cpuMs() - cpuAtStart;
    if (failures > 0) throw new Error(`${failures} webhook deliveries were not answered 200`);
    return {
      perSecond: list.length / seconds,
      cpuMicrosPerEvent: (cpuMs * 1000) / list.length,
      appliedTwice: [...reportedNew.values()].filter((count) => count > 1).length,
    };
  } finally {
    client.close();
  }
}

/** A SQLite file in a fresh temporary folder, removed by `dispose`. */
export function temporarySqlite(): { url: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'payform-bench-ingest-'));
  return { url: join(dir, 'ledger.db'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
