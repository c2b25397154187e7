/**
 * Scale-out on PostgreSQL: one companion, then two on one database (a schema each run), in
 * processes of their own before one sandbox; a closed loop of callers paying sessions, spread
 * over the instances. Reported: payments per second, the CPU each companion used per payment,
 * and the CPU PostgreSQL's backends used per payment (a server on this machine). Then the
 * ledger is read: every payment answered `success` is in success there, no session holds a
 * second attempt (nothing doubled), and nothing moved backwards.
 */
import { openLedger } from '../../server/ledger/index.js';
import { expectPaid, openSession, sendPay } from './load/checkout.js';
import { LoopbackClient } from './load/http-client.js';
import { closedLoop } from './load/latency.js';
import { databaseCpu, usedBetween } from './servers/database-cpu.js';
import { spawnServer } from './servers/processes.js';
import type { ServerProcess } from './servers/processes.js';

export interface ScaleOutRun {
  readonly callers: number;
  readonly durationMs: number;
}

export interface InstancesFigures {
  readonly instances: number;
  readonly perSecond: number;
  /** CPU per payment of each companion (of the payments it answered), ms. */
  readonly cpuMsPerPayment: readonly number[];
  /** CPU per payment of PostgreSQL's backends serving the companions, ms (a server on this machine). */
  readonly databaseCpuMsPerPayment?: number;
  readonly payments: number;
  /** Paid at the companion but not in success in the ledger, a second attempt of one session, a payment no longer in success: must be 0. */
  readonly lost: number;
  readonly doubled: number;
}

export const DEFAULT_SCALE_OUT: ScaleOutRun = { callers: 8, durationMs: 5_000 };

/** `instances` companions on `schema` of `databaseUrl`, paid through for `run.durationMs`. */
export async function measureInstances(databaseUrl: string, schema: string, instances: number, run: ScaleOutRun = DEFAULT_SCALE_OUT): Promise<InstancesFigures> {
  const sandbox = await spawnServer('sandbox');
  const database = databaseCpu(databaseUrl);
  const companions: ServerProcess[] = [];
  const client = new LoopbackClient(run.callers);
  try {
    for (let i = 0; i < instances; i += 1) {
      companions.push(await spawnServer('companion', { env: { BENCH_GATEWAY_URL: sandbox.url, BENCH_DATABASE_URL: databaseUrl, BENCH_DATABASE_SCHEMA: schema, PGAPPNAME: database.applicationName } }));
    }
    const paid: { sessionId: string; orderId: string }[] = [];
    const answered = companions.map(() => 0);
    // Sessions are opened on one instance and paid on any: the database is what they share.
    const pay = async (index: number) => {
      const via = index % companions.length;
      const base = companions[via]!.url;
      const sessionId = await openSession(client, companions[0]!.url);
      const answer = expectPaid(await sendPay(client, base, sessionId));
      paid.push({ sessionId, orderId: answer.order_id });
      answered[via]! += 1;
    };
    // Warm-up: a fresh process compiles its hot functions over its first thousand payments (overhead.ts).
    await closedLoop(run.callers, 6_000, pay);
    paid.length = 0;
    answered.fill(0);
    const databaseAtStart = await database.sample();
    const cpuAtStart = companions.map((companion) => companion.cpuMs());
    const rate = await closedLoop(run.callers, run.durationMs, pay);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the last webhooks
    const cpuMsPerPayment = companions.map((companion, i) => (companion.cpuMs() - cpuAtStart[i]!) / Math.max(1, answered[i]!));
    const databaseMs = usedBetween(databaseAtStart, await database.sample());
    const ledger = await openLedger(databaseUrl, { schema });
    let lost = 0;
    let doubled = 0;
    try {
      for (const { sessionId, orderId } of paid) {
        const order = await ledger.getOrder(orderId);
        if (order?.payment.status !== 'success') lost += 1;
        const session = await ledger.getSession(sessionId);
        // The first attempt of a session carries the session's own order id; a second would not.
        if (session?.payment?.orderId !== orderId || session.orderId !== orderId) doubled += 1;
      }
    } finally {
      await ledger.close();
    }
    return {
      instances,
      perSecond: rate.perSecond,
      cpuMsPerPayment,
      ...(databaseMs === undefined ? {} : { databaseCpuMsPerPayment: databaseMs / Math.max(1, paid.length) }),
      payments: paid.length,
      lost,
      doubled,
    };
  } finally {
    client.close();
    for (const companion of companions) await companion.stop();
    await sandbox.stop();
  }
}

