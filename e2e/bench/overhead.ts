/**
 * Companion overhead: the same card payment sent straight to the sandbox and through the
 * companion, side by side in one run on loopback. The sandbox and the companion each run in a
 * process of their own (serve.ts), with a SQLite file (WAL) as the companion's ledger and its
 * request log on; this process only generates load, over keep-alive connections.
 *
 * Warm-up: each path first makes `warmup` payments at `concurrency` callers. V8 compiles a
 * server's hot functions over its first thousands of requests: after 300 payments the sandbox
 * still spent twice its steady CPU a payment (2.02 against 1.00 ms after 6,000, in one run),
 * compiling what it had not yet optimised — a cost of the process's start, not of a payment.
 *
 * Latency: one request at a time, direct and via-companion alternating (which goes first
 * alternates too); the figure is the difference of the two p50s (and p99s).
 * Throughput: a closed loop of `concurrency` callers for a few seconds on each path.
 *
 * The direct request is the very body the companion sends for that payment (same card,
 * customer, fingerprint), so both cause the same webhook traffic afterwards. Its `server_url`
 * is a bare receiver in a process of its own (serve.ts sink), not the companion: the companion's
 * CPU per payment counts its own payments' webhooks, not those of orders it never made.
 *
 * Then the floor (servers/floor.ts) takes the companion's place for the same run: the same
 * pay requests, the same sandbox, its own webhooks. Each target of the section has the floor's
 * figure beside it: what the least a relay does reads on this VM, under this load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { CUSTOMER, FINGERPRINT, card } from '../../server/companion/test/cards.js';
import { BENCH_USER_AGENT, expectPaid, expectStatus, openSession, sendPay } from './load/checkout.js';
import { LoopbackClient } from './load/http-client.js';
import { closedLoop, eachConcurrently, summarise, timed } from './load/latency.js';
import type { LatencySummary } from './load/latency.js';
import { benchCredentials, gatewayAuthHeaders } from './servers/credentials.js';
import { spawnServer } from './servers/processes.js';
import type { ServerProcess } from './servers/processes.js';

export interface OverheadOptions {
  /** Payments each path makes before anything is measured. */
  readonly warmup: number;
  readonly samples: number;
  readonly concurrency: number;
  readonly throughputMs: number;
  /** Write V8 CPU profiles of both servers here. */
  readonly cpuProfileDir?: string;
  readonly logFile?: string;
}

/** One relay's figures in the overhead run: the companion's, or the floor's (servers/floor.ts). */
export interface RelayFigures {
  readonly direct: LatencySummary;
  readonly via: LatencySummary;
  /** p50 via the relay minus p50 direct, ms. */
  readonly addedP50: number;
  readonly addedP99: number;
  readonly directPerSecond: number;
  readonly viaPerSecond: number;
  /** via ÷ direct. */
  readonly throughputRatio: number;
  /** CPU the relay spent per payment in the latency run (its webhook included), ms. */
  readonly cpuMsPerPayment: number;
  /** CPU the sandbox spent per payment (both paths averaged), ms. */
  readonly sandboxCpuMsPerPayment: number;
}

export interface OverheadFigures {
  readonly direct: LatencySummary;
  readonly viaCompanion: LatencySummary;
  /** p50 via the companion minus p50 direct, ms. */
  readonly addedP50: number;
  readonly addedP99: number;
  readonly directPerSecond: number;
  readonly viaCompanionPerSecond: number;
  /** via ÷ direct. */
  readonly throughputRatio: number;
  readonly concurrency: number;
  /** CPU the companion spent per payment in the latency run (its webhook included), ms. */
  readonly companionCpuMsPerPayment: number;
  /** CPU the sandbox spent per payment (both paths averaged), ms. */
  readonly sandboxCpuMsPerPayment: number;
  /** The same run through the floor, right after the companion's (absent from a baseline older than it). */
  readonly floor?: RelayFigures;
}

export const DEFAULT_OVERHEAD: OverheadOptions = { warmup: 5_000, samples: 1500, concurrency: 8, throughputMs: 5_000 };

const GATEWAY_ACCEPT = 'application/json, text/html, application/pdf, application/zip, */*';

/**
 * The companion's run, then the floor's: the least a relay does (servers/floor.ts), paying the
 * same payments through the same sandbox and taking their webhooks, measured the same way. What
 * the floor reads is what this VM allows any relay; the companion's figures over it are payform's.
 */
export async function measureCompanionOverhead(options: OverheadOptions = DEFAULT_OVERHEAD): Promise<OverheadFigures> {
  // The sandbox and the companion read the same ones from the environment they inherit.
  const credentials = benchCredentials();
  const gatewayHeaders = { ...gatewayAuthHeaders(credentials), Accept: GATEWAY_ACCEPT };
  const dir = mkdtempSync(join(tmpdir(), 'payform-bench-overhead-'));
  const profile = options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {};
  const sandbox = await spawnServer('sandbox', profile);
  const sink = await spawnServer('sink');
  const relayEnv = (file: string) => ({ BENCH_GATEWAY_URL: sandbox.url, BENCH_DATABASE_URL: join(dir, file) });
  const companion = await spawnServer('companion', { ...profile, ...(options.logFile ? { logFile: options.logFile } : {}), env: relayEnv('ledger.db') });
  const client = new LoopbackClient(options.concurrency);
  const servers = [companion, sandbox, sink];
  try {
    const paymentCard = card('success', false);
    const direct = async (): Promise<number> => {
      const orderId = randomUUID().replaceAll('-', '').slice(0, 20);
      const body = {
        pos_id: credentials.posId,
        mode: 'direct',
        method: 'purchase',
        amount: 10.1,
        currency: 'UAH',
        description: 'Green tea, 250 g',
        order_id: orderId,
        cc_number: paymentCard.number,
        exp_month: paymentCard.exp_month,
        exp_year: paymentCard.exp_year,
        card_cvv: paymentCard.cvv,
        customer_fname: CUSTOMER.fname,
        customer_lname: CUSTOMER.lname,
        customer_email: CUSTOMER.email,
        customer_phone: CUSTOMER.phone,
        customer_ip: '127.0.0.1',
        browser_fingerprint: { ...FINGERPRINT, browserAcceptHeader: 'application/json', browserIpAddress: '127.0.0.1', browserUserAgent: BENCH_USER_AGENT },
        server_url: `${sink.url}/webhooks/gateway`,
        result_url: `${companion.url}/checkout/return/${orderId}`,
        order_3ds_bypass: 'supported',
      };
      const { ms, value } = await timed(() => client.json('POST', `${sandbox.url}/api/v1/payment`, body, gatewayHeaders));
      const payment = JSON.parse(expectStatus(value, 200, 'pay at the sandbox').body) as { status: string };
      if (payment.status !== 'success') throw new Error(`pay at the sandbox: ${payment.status}`);
      return ms;
    };

    // Sessions are opened ahead (the merchant's backend does that before the page loads).
    const sessions: string[] = [];
    const openSessions = async (count: number) => {
      for (let i = 0; i < count; i += 1) sessions.push(await openSession(client, companion.url));
    };
    const viaCompanion = async (): Promise<number> => {
      const sessionId = sessions.pop() ?? (await openSession(client, companion.url));
      const { ms, value } = await timed(() => sendPay(client, companion.url, sessionId));
      expectPaid(value);
      return ms;
    };
    const run: RelayRun = { options, sandbox, direct };
    const measured = await measureRelay(run, companion, viaCompanion, {
      beforeSamples: () => openSessions(options.samples),
      // Enough sessions for the loop at the sequential rate (a concurrent one is not faster on 2 cores).
      beforeThroughput: (via) => openSessions(Math.ceil((options.throughputMs / via.mean) * 2)),
    });

    // The floor keeps no sessions: every request names the same one.
    const floor = await spawnServer('floor', { env: relayEnv('floor.db') });
    servers.push(floor);
    const viaFloor = async (): Promise<number> => {
      const { ms, value } = await timed(() => sendPay(client, floor.url, 'floor'));
      expectPaid(value);
      return ms;
    };
    const floorFigures = await measureRelay(run, floor, viaFloor, {});
    return {
      direct: measured.direct,
      viaCompanion: measured.via,
      addedP50: measured.addedP50,
      addedP99: measured.addedP99,
      directPerSecond: measured.directPerSecond,
      viaCompanionPerSecond: measured.viaPerSecond,
      throughputRatio: measured.throughputRatio,
      concurrency: options.concurrency,
      companionCpuMsPerPayment: measured.cpuMsPerPayment,
      sandboxCpuMsPerPayment: measured.sandboxCpuMsPerPayment,
      floor: floorFigures,
    };
  } finally {
    client.close();
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

interface RelayRun {
  readonly options: OverheadOptions;
  readonly sandbox: ServerProcess;
  /** Pays straight at the sandbox; its round trip, ms. */
  readonly direct: () => Promise<number>;
}

/** Warm-up, the latency run (direct and via `relay` alternating, one at a time), then each path's throughput. */
async function measureRelay(
  { options, sandbox, direct }: RelayRun,
  relay: ServerProcess,
  via: () => Promise<number>,
  prepare: { beforeSamples?: () => Promise<void>; beforeThroughput?: (via: LatencySummary) => Promise<void> },
): Promise<RelayFigures> {
  const warmUp = (pay: () => Promise<number>) => eachConcurrently(Array.from({ length: options.warmup }), options.concurrency, async () => void (await pay()));
  await warmUp(direct);
  await warmUp(via);
  await prepare.beforeSamples?.();
  await new Promise((resolve) => setTimeout(resolve, 500)); // the warm-up's last webhooks
  const directSamples: number[] = [];
  const viaSamples: number[] = [];
  const cpuAtStart = { relay: relay.cpuMs(), sandbox: sandbox.cpuMs() };
  for (let round = 0; round < options.samples; round += 1) {
    if (round % 2 === 0) {
      directSamples.push(await direct());
      viaSamples.push(await via());
    } else {
      viaSamples.push(await via());
      directSamples.push(await direct());
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500)); // the last webhooks
  const cpuMsPerPayment = (relay.cpuMs() - cpuAtStart.relay) / options.samples;
  const sandboxCpuMsPerPayment = (sandbox.cpuMs() - cpuAtStart.sandbox) / (2 * options.samples);
  const directSummary = summarise(directSamples);
  const viaSummary = summarise(viaSamples);

  await prepare.beforeThroughput?.(viaSummary);
  const directRate = await closedLoop(options.concurrency, options.throughputMs, async () => void (await direct()));
  const viaRate = await closedLoop(options.concurrency, options.throughputMs, async () => void (await via()));
  return {
    direct: directSummary,
    via: viaSummary,
    addedP50: viaSummary.p50 - directSummary.p50,
    addedP99: viaSummary.p99 - directSummary.p99,
    directPerSecond: directRate.perSecond,
    viaPerSecond: viaRate.perSecond,
    throughputRatio: viaRate.perSecond / directRate.perSecond,
    cpuMsPerPayment,
    sandboxCpuMsPerPayment,
  };
}
