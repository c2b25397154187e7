// A mounted companion closed before the server it is mounted in (NestJS's onModuleDestroy, a
// SIGTERM handler in the wrong order): payments in flight still finish and are recorded, and
// what comes after is told to come back, never failed on a closed ledger.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import { openLedger } from '../ledger/index.js';
import { toNodeListener } from './http/node-listener.js';
import { createLogger, memorySink } from './log/logger.js';
import { readCompanionConfig } from './settings.js';
import { composeCompanion } from './start.js';
import type { ComposedCompanion, StartOptions } from './start.js';
import { payBody } from './test/stack.js';
import type { Json } from './test/stack.js';
import { heldCharge } from './test/held-charge.js';

const ADMIN_TOKEN = 'a-long-enough-admin-token';
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

let sandbox: ServedSandbox;
let dir: string;
let server: Server;
let url: string;
let logs: string[];
beforeEach(async () => {
  sandbox = await serveSandbox();
  dir = mkdtempSync(join(tmpdir(), 'payform-mounted-close-'));
  server = createServer().listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The companion under /payments in a plain node:http server, as Express or Nest mount it. */
async function mounted(options: StartOptions = {}): Promise<ComposedCompanion> {
  const memory = memorySink();
  logs = memory.lines;
  const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN });
  const companion = await composeCompanion(settings, {
    gatewayBaseUrl: sandbox.url,
    sandboxOrigin: sandbox.url,
    publicUrl: url,
    basePath: '/payments',
    logger: createLogger({ sink: memory.sink }),
    ...options,
  });
  server.on('request', toNodeListener(companion.app));
  return companion;
}

async function openSession(): Promise<Json> {
  const opened = await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
  expect(opened.status).toBe(201);
  return opened.json();
}

function pay(session: Json): Promise<Response> {
  return fetch(`${url}/payments/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
}

async function expectComeBack(path: string): Promise<void> {
  const answer = await fetch(`${url}/payments${path}`);
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('1');
  expect((await answer.json()).error.code).toBe('shutting_down');
}

const refusals = () => logs.filter((line) => line.includes('onApplicationShutdown'));

describe('close() of a companion mounted in a server still open', () => {
  it('lets a payment in flight finish and be recorded, and answers what comes after 503 shutting_down, said once', async () => {
    const { fetch: held, atGateway, release } = heldCharge();
    const companion = await mounted({
      // The charge reaches the gateway, whose answer is slow to come back.
      fetch: held,
    });
    const session = await openSession();
    const paying = pay(session);
    await atGateway;
    const closing = companion.close();
    // Closing began: every request is told to come back, the probes included.
    await expectComeBack(`/api/checkout/sessions/${session.id}`);
    await expectComeBack('/readyz');
    release();
    const answer = await paying;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'success' });
    await closing;
    // Closed: the same answer, the gateway's webhook too, and no 500.
    await expectComeBack(`/api/checkout/sessions/${session.id}`);
    const webhook = await fetch(`${url}/payments/webhooks/gateway`, { method: 'POST', body: new URLSearchParams({ data: 'x', signature: 'y' }) });
    expect(webhook.status).toBe(503);
    expect(refusals()).toHaveLength(1);
    expect(JSON.parse(refusals()[0]!)).toMatchObject({ level: 'warn' });
    expect(logs.join('\n')).not.toMatch(/destroyed|LEDGER_BATCH_FAILED|request error/);
    const reopened = await openLedger(join(dir, 'payform.db'));
    try {
      expect(await reopened.getPayment(session.order_id)).toMatchObject({ status: 'success' });
    } finally {
      await reopened.close();
    }
  });

  it('with nothing in flight, closes at once, however long the grace', async () => {
    // A grace longer than the test's own limit: close() must not sit it out.
    const companion = await mounted({ shutdownGraceMs: 600_000 });
    await openSession();
    await companion.close();
    await expectComeBack('/healthz');
    expect(refusals()).toHaveLength(1);
  });

  it('does not wait past the grace for a request that never ends, and says so', async () => {
    const companion = await mounted({ shutdownGraceMs: 500, extend: (app) => app.get('/hanging', () => new Promise<Response>(() => undefined)) });
    const hanging = fetch(`${url}/payments/hanging`).catch(() => undefined);
    // Reached the companion's app: /healthz after it is answered by then.
    expect((await fetch(`${url}/payments/healthz`)).status).toBe(200);
    await companion.close();
    expect(logs.join('\n')).toContain('closing the companion with requests still in flight');
    server.closeAllConnections();
    await hanging;
  });
});
