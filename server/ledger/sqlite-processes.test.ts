// Two OS processes on one SQLite file: the write lock taken before any read (BEGIN IMMEDIATE, or
// a writing statement's own) and the wait for the other's lock keep the money rules, the webhook dedupe and one
// payment a session whole across processes (within one process Kysely already serialises).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment, gatewayEvent, paidOrder, refundsOf, teaSession } from './testing/contract.js';
import type { WorkerJob, WorkerReport } from './testing/process-worker.js';
import { bundled } from '../../e2e/entry-points.mjs';

const worker = await bundled('server/ledger/testing/process-worker.ts');

/** Runs `job` in two processes at once, started together once both have the database open. */
async function inTwoProcesses(job: WorkerJob): Promise<WorkerReport[]> {
  const children = [0, 1].map(() => spawn(process.execPath, [worker, JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'inherit'], timeout: 60_000 }));
  const outputs = children.map((child) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    return once(child, 'close').then(() => text);
  });
  await Promise.all(children.map((child) => new Promise<void>((ready) => child.stdout.on('data', (chunk: string) => chunk.includes('ready') && ready()))));
  for (const child of children) child.stdin.end('go\n');
  return (await Promise.all(outputs)).map((text) => JSON.parse(text.slice(text.indexOf('ready') + 'ready'.length)) as WorkerReport);
}

describe('two processes on one SQLite file', () => {
  let dir: string;
  let path: string;
  let ledger: Ledger;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-ledger-processes-'));
    path = join(dir, 'ledger.db');
    ledger = await openLedger(path);
  });
  afterEach(async () => {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keep 2 × 25 racing refunds within the amount', async () => {
    const { orderId } = await paidOrder(ledger, { amount: 1000 });
    const job: WorkerJob = { kind: 'refunds', path, orderId, count: 25, amount: 30 };
    const reports = await inTwoProcesses(job);
    expect(reports.flatMap((report) => report.errors)).toEqual([]);
    expect(reports.reduce((sum, report) => sum + report.succeeded, 0)).toBe(33);
    expect(reports.reduce((sum, report) => sum + report.refused, 0)).toBe(17);
    const detail = await ledger.getOrder(orderId);
    expect(refundsOf(detail!.operations).reduce((sum, op) => sum + op.amount, 0)).toBe(990);
  });

  it('store each webhook once when both receive every one', async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, () => claimedPayment(ledger)));
    const events = orders.map(({ orderId }) => gatewayEvent({ method: 'purchase', status: 'success', orderId, statusCode: '1000' }));
    const job: WorkerJob = { kind: 'events', path, events };
    const reports = await inTwoProcesses(job);
    expect(reports.flatMap((report) => report.errors)).toEqual([]);
    expect(reports.reduce((sum, report) => sum + report.succeeded, 0)).toBe(events.length);
    for (const { orderId } of orders) expect((await ledger.getOrder(orderId))?.events).toHaveLength(1);
  });

  it('let exactly one of the pay clicks spread over both start a payment', async () => {
    const sessions = await Promise.all(Array.from({ length: 10 }, () => ledger.createSession(teaSession)));
    const job: WorkerJob = { kind: 'claims', path, sessionIds: sessions.map((session) => session.id), clicks: 5 };
    const reports = await inTwoProcesses(job);
    expect(reports.flatMap((report) => report.errors)).toEqual([]);
    expect(reports.reduce((sum, report) => sum + report.succeeded, 0)).toBe(sessions.length);
    for (const { id } of sessions) expect((await ledger.getSession(id))?.payment).toMatchObject({ attempt: 1, status: 'init' });
  });
});
