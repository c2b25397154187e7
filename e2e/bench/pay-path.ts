/**
 * The pay request alone. The overhead run's CPU a payment (overhead.ts) is the companion's whole
 * share of a payment — the pay request, its webhook — on 2 cores it shares with the sandbox and
 * the load generator. Here the companion (its own process, a SQLite file, its request log on)
 * pays against a gateway that answers at once and sends no webhook: a sandbox answer captured
 * once, re-addressed to each order, served from this process. One request at a time, after a
 * warm-up: the CPU of `POST …/pay` and of opening a session, and the pay request's round trip.
 * The floor (servers/floor.ts), the least a relay does, pays against the same gateway from the
 * same client, in blocks taking turns with the companion's: the companion's CPU over the floor's
 * is the cost of what payform adds, and holds better than either figure alone on a drifting VM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directPayment, testSandbox } from '../../server/sandbox/testing/in-process.js';
import { expectPaid, openSession, sendPay } from './load/checkout.js';
import { LoopbackClient } from './load/http-client.js';
import { summarise, timed } from './load/latency.js';
import type { LatencySummary } from './load/latency.js';
import { spawnServer } from './servers/processes.js';
import type { ServerProcess } from './servers/processes.js';

export interface PayPathFigures {
  /** Companion CPU a pay request, ms. */
  readonly payCpuMs: number;
  /** Companion CPU to open a session (the merchant's backend, before the page), ms. */
  readonly openSessionCpuMs: number;
  readonly roundTrip: LatencySummary;
  /** The floor's CPU a pay request, ms (absent from a baseline older than the floor). */
  readonly floorPayCpuMs?: number;
}

/** A gateway that answers every payment at once with `answer`, addressed to the order asked for. */
async function instantGateway(answer: Record<string, unknown>): Promise<{ url: string; close(): void }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { order_id, pos_id, amount, currency } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const body = JSON.stringify({ ...answer, order_id, pos_id, amount, currency });
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** The sandbox's answer to a direct card payment that succeeds. */
async function sandboxAnswer(): Promise<Record<string, unknown>> {
  const sandbox = testSandbox();
  try {
    return await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project));
  } finally {
    await sandbox.app.sandbox.stop();
  }
}

/** The pay requests alternate between the companion and the floor in this many blocks, so a drift of the machine falls on both. */
const BLOCKS = 4;

export async function measurePayPath(warmup = 3_000, samples = 2_000): Promise<PayPathFigures> {
  const gateway = await instantGateway(await sandboxAnswer());
  const dir = mkdtempSync(join(tmpdir(), 'payform-bench-pay-path-'));
  const client = new LoopbackClient(1);
  const servers: ServerProcess[] = [];
  try {
    const companion = await spawnServer('companion', { env: { BENCH_GATEWAY_URL: gateway.url, BENCH_DATABASE_URL: join(dir, 'ledger.db') } });
    servers.push(companion);
    // The floor keeps no sessions: every request names the same one.
    const floor = await spawnServer('floor', { env: { BENCH_GATEWAY_URL: gateway.url, BENCH_DATABASE_URL: join(dir, 'floor.db') } });
    servers.push(floor);
    for (let i = 0; i < warmup; i += 1) await payOnce(client, companion.url, await openSession(client, companion.url));
    await payEach(client, floor, Array.from({ length: warmup }, () => 'floor'));

    const sessions: string[] = [];
    const openedFrom = companion.cpuMs();
    for (let i = 0; i < samples; i += 1) sessions.push(await openSession(client, companion.url));
    const openSessionCpuMs = (companion.cpuMs() - openedFrom) / samples;

    const times: number[] = [];
    let companionCpuMs = 0;
    let floorCpuMs = 0;
    const size = Math.ceil(samples / BLOCKS);
    for (let from = 0; from < samples; from += size) {
      const block = sessions.slice(from, from + size);
      const paid = await payEach(client, companion, block);
      times.push(...paid.times);
      companionCpuMs += paid.cpuMs;
      floorCpuMs += (await payEach(client, floor, block.map(() => 'floor'))).cpuMs;
    }
    return { payCpuMs: companionCpuMs / samples, openSessionCpuMs, roundTrip: summarise(times), floorPayCpuMs: floorCpuMs / samples };
  } finally {
    client.close();
    await Promise.all(servers.map((server) => server.stop()));
    gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function payOnce(client: LoopbackClient, url: string, sessionId: string) {
  return sendPay(client, url, sessionId).then(expectPaid);
}

/** Pays each session one after another: the server's CPU for all of them (ms), and each round trip. */
async function payEach(client: LoopbackClient, server: ServerProcess, sessions: readonly string[]): Promise<{ cpuMs: number; times: number[] }> {
  const times: number[] = [];
  const from = server.cpuMs();
  for (const sessionId of sessions) times.push((await timed(() => payOnce(client, server.url, sessionId))).ms);
  return { cpuMs: server.cpuMs() - from, times };
}
