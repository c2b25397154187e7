/**
 * A deploy stops the companion in the middle of payments (issue 19, "Drain on SIGTERM"): the
 * `payform-companion` process gets SIGTERM while five payments are at the gateway, whose answers
 * are slow to come back and whose webhooks are on their way. Every customer still gets their
 * answer, nothing new is taken (refused, or 503 with Retry-After), the process exits 0 — and once
 * it runs again on the same database and address, every webhook the gateway retried is applied:
 * no answer and no event lost.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../server/ledger/index.js';
import { eventually, payBody } from '../../server/companion/test/stack.js';
import type { Json } from '../../server/companion/test/stack.js';
import { serveSandbox } from '../../server/sandbox/testing/served.js';
import type { ServedSandbox } from '../../server/sandbox/testing/served.js';
import { bundled } from '../entry-points.mjs';

const ADMIN_TOKEN = 'drain-test-admin-token-0123456789';
const PAYMENTS = 5;
/** How long the gateway sits on each payment's answer: SIGTERM comes meanwhile. */
const GATEWAY_LATENCY_MS = 2_000;

let sandbox: ServedSandbox;
let dir: string;
let port: number;
const children: ChildProcessWithoutNullStreams[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return free;
}

/** The bin, as a merchant runs it; resolves once it prints its listening line. */
async function startBin(): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, [await bundled('server/companion/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: join(dir, 'payform.db'),
      GATEWAY_BASE_URL: sandbox.url,
      SANDBOX_ORIGIN: sandbox.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_TOKEN,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await eventually(() => {
    if (child.exitCode !== null) throw new Error(`exited early: ${output}`);
    expect(output).toContain('payform companion listening on');
  }, 30_000);
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

/** A GET on a connection of its own (a new customer), never one kept alive from before. */
function freshGet(url: string): Promise<{ status: number; retryAfter?: string | undefined; error?: string }> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] });
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, error: error.code ?? error.message }));
  });
}

async function control(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(sandbox.url + path, { method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return (await response.json()) as Json;
}

/**
 * One payment under way at the gateway, its answer slow to come: half a second after it was sent,
 * it is at the gateway and its answer still 1.5 s away.
 */
async function slowPayment(url: string): Promise<{ paying: Promise<Response> }> {
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const session = (await (await fetch(`${url}/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 990, currency: 'UAH', description: 'Tea' }) })).json()) as Json;
  await control('PUT', '/_sandbox/faults', { latency_ms: GATEWAY_LATENCY_MS, phase: 'after', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
  const paying = fetch(`${url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { paying };
}

beforeAll(async () => {
  // As a real gateway does: webhooks the companion did not take are retried for a while.
  sandbox = await serveSandbox({ webhooks: { retryDelaysMs: [500, 1_000, 2_000, 4_000, 8_000, 8_000], timeoutMs: 5_000, reorderHoldMs: 100 } });
  dir = mkdtempSync(join(tmpdir(), 'payform-drain-'));
  port = await freePort();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM in the middle of payments', () => {
  it('answers every payment in flight, takes nothing new, exits 0, and loses no webhook', async () => {
    const first = await startBin();
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const sessions: Json[] = [];
    for (let index = 0; index < PAYMENTS; index += 1) {
      const response = await fetch(`${first.url}/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 1250, currency: 'UAH', description: `Order ${index}` }) });
      expect(response.status).toBe(201);
      sessions.push((await response.json()) as Json);
    }
    await control('PUT', '/_sandbox/faults', { latency_ms: GATEWAY_LATENCY_MS, phase: 'after', scope: { method: 'POST', path: '/api/v1/payment' }, times: PAYMENTS });
    const paying = sessions.map((session) =>
      fetch(`${first.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) }),
    );
    // Every payment is made at the gateway (its webhook exists); every answer is still on its way.
    await eventually(async () => expect((await control('GET', '/_sandbox/webhooks')).deliveries.length).toBeGreaterThanOrEqual(PAYMENTS), 10_000);

    first.child.kill('SIGTERM');
    const exited = once(first.child, 'exit') as Promise<[number | null, string | null]>;
    // Nothing new is taken once the signal is handled: a new customer's connection is refused,
    // or answered 503 with Retry-After.
    await eventually(async () => {
      const late = await freshGet(`${first.url}/api/checkout/sessions/${sessions[0]!.id}`);
      if (late.status === 200) throw new Error('still serving: the signal is not handled yet');
      expect(late).toMatchObject(late.status === 0 ? { error: 'ECONNREFUSED' } : { status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
    }, 10_000);

    // Every customer in flight gets their answer.
    const answers = await Promise.all(paying.map(async (response) => {
      const answer = await response;
      return { status: answer.status, body: (await answer.json()) as Json };
    }));
    expect(answers.map((answer) => [answer.status, answer.body.status])).toEqual(sessions.map(() => [200, 'success']));
    expect(await exited).toEqual([0, null]);
    expect(first.output()).not.toMatch(/"level":"error"/);
    // The operator reads that it stopped, and why.
    expect(first.output()).toContain('payform companion stopping (SIGTERM): finishing the requests in flight');
    expect(first.output()).toMatch(/^payform companion stopped$/m);
    // And the JSON log, for a pipeline that reads standard error alone: how the stop went.
    expect(first.output()).toMatch(/"msg":"companion stopped taking requests","stopping_ms":\d+,"refused_while_stopping":\d+,"drained":true\}/);

    // Started again on the same database and address, it takes every webhook the gateway retried.
    const second = await startBin();
    await eventually(async () => {
      const { deliveries } = await control('GET', '/_sandbox/webhooks');
      expect(deliveries.filter((delivery: Json) => delivery.status !== 'delivered')).toEqual([]);
    }, 30_000);
    second.child.kill('SIGTERM');
    expect(await once(second.child, 'exit')).toEqual([0, null]);

    const ledger = await openLedger(join(dir, 'payform.db'));
    try {
      for (const session of sessions) {
        const order = await ledger.getOrder(session.order_id);
        expect(order?.payment.status).toBe('success');
        expect(order?.events.filter((event) => event.outcome === 'applied' || event.outcome === 'stale').length).toBeGreaterThan(0);
      }
    } finally {
      await ledger.close();
    }
  }, 90_000);

  it('goes on draining through a second SIGTERM, and says so', async () => {
    const bin = await startBin();
    const { paying } = await slowPayment(bin.url);
    const exited = once(bin.child, 'exit') as Promise<[number | null, string | null]>;
    bin.child.kill('SIGTERM');
    await eventually(() => expect(bin.output()).toContain('payform companion stopping (SIGTERM)'), 5_000);
    // A supervisor repeating itself: with no handler left, this signal would end the process at once.
    bin.child.kill('SIGTERM');
    await eventually(() => expect(bin.output()).toContain('payform companion already stopping (SIGTERM again): still finishing the requests in flight'), 5_000);
    const answer = await paying;
    expect([answer.status, ((await answer.json()) as Json).status]).toEqual([200, 'success']);
    expect(await exited).toEqual([0, null]);
  }, 30_000);

  it('goes on serving through SIGHUP from a supervisor (a reload: nothing to reload), and says so', async () => {
    const bin = await startBin();
    const { paying } = await slowPayment(bin.url);
    // Its standard input is no terminal: the signal is a supervisor's or logrotate's.
    bin.child.kill('SIGHUP');
    await eventually(() => expect(bin.output()).toContain('payform companion: SIGHUP ignored, nothing to reload: its settings are read at start (restart it to change one)'), 5_000);
    const answer = await paying;
    expect([answer.status, ((await answer.json()) as Json).status]).toEqual([200, 'success']);
    // Still serving a new customer, on a connection of its own.
    expect((await freshGet(`${bin.url}/readyz`)).status).toBe(200);
    expect(bin.child.exitCode).toBe(null);
    const exited = once(bin.child, 'exit') as Promise<[number | null, string | null]>;
    bin.child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  }, 30_000);
});
