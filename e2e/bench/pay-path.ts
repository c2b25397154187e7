/**
 * The pay request alone. The overhead run's CPU a payment (overhead.ts) is the companion's whole
 * share of a payment — the pay request, its webhook — on 2 cores it shares with the sandbox and
 * the load generator. Here the companion (its own process, a SQLite file, its request log on)
 * pays against a gateway that answers at once and sends no webhook: a sandbox answer captured
 * once, re-addressed to each order, served from this process. One request at a time, after a
 * warm-up: the CPU of `POST …/pay` and of opening a session, and the pay request's round trip.
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

export interface PayPathFigures {
  /** Companion CPU a pay request, ms. */
  readonly payCpuMs: number;
  /** Companion CPU to open a session (the merchant's backend, before the page), ms. */
  readonly openSessionCpuMs: number;
  readonly roundTrip: LatencySummary;
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

export async function measurePayPath(warmup = 3_000, samples = 2_000): Promise<PayPathFigures> {
  const gateway = await instantGateway(await sandboxAnswer());
  const dir = mkdtempSync(join(tmpdir(), 'payform-bench-pay-path-'));
  const companion = await spawnServer('companion', { env: { BENCH_GATEWAY_URL: gateway.url, BENCH_DATABASE_URL: join(dir, 'ledger.db') } });
  const client = new LoopbackClient(1);
  try {
    const pay = async (sessionId: string) => expectPaid(await sendPay(client, companion.url, sessionId));
    for (let i = 0; i < warmup; i += 1) await pay(await openSession(client, companion.url));

    const sessions: string[] = [];
    const openedFrom = companion.cpuMs();
    for (let i = 0; i < samples; i += 1) sessions.push(await openSession(client, companion.url));
    const openSessionCpuMs = (companion.cpuMs() - openedFrom) / samples;

    const times: number[] = [];
    const paidFrom = companion.cpuMs();
    for (const sessionId of sessions) times.push((await timed(() => pay(sessionId))).ms);
    return { payCpuMs: (companion.cpuMs() - paidFrom) / samples, openSessionCpuMs, roundTrip: summarise(times) };
  } finally {
    client.close();
    await companion.stop();
    gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
