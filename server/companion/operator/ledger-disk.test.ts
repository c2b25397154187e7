// The disk under a SQLite ledger failing, as the operator lives through it: a full disk is an
// outage like a stopped database (503 with Retry-After, one line naming the disk, /readyz out,
// back by itself once space is freed); a ledger whose WAL was deleted under it needs a restart,
// and says so every time — counted, and /healthz failing for the orchestrator to restart it.
import { closeSync, mkdtempSync, openSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { mountFailingDisk } from '../../ledger/testing/failing-disk.js';
import { mountSmallDisk, smallDiskBackend } from '../../ledger/testing/small-disk.js';
import { createStack, eventually } from '../test/stack.js';
import { serveSandbox } from '../../sandbox/testing/served.js';
import { loopbackSettings } from '../test/loopback-settings.js';
import { startCompanion } from '../start.js';
import { createLogger, memorySink } from '../log/logger.js';
import type { Stack } from '../test/stack.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** What a test opened, undone after it in the reverse order: the stack (its ledger) before the disk under it. */
const undo: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

async function open(options: Parameters<typeof createStack>[0]): Promise<Stack> {
  const stack = await createStack(options);
  undo.push(() => stack.close());
  return stack;
}

const lines = (stack: Stack) => stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
const errorLines = (stack: Stack) => lines(stack).filter((line) => line.level === 'error');

async function refusedNewSession(stack: Stack): Promise<void> {
  const answer = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' } });
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
  expect((await answer.json()).error.code).toBe('ledger_unavailable');
}

async function metric(stack: Stack, pattern: RegExp): Promise<number> {
  const text = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(pattern.exec(text)?.[1]);
}
const unavailableMetric = (stack: Stack) => metric(stack, /^payform_ledger_errors_total\{kind="unavailable"\} (\d+)$/m);
const ledgerUp = (stack: Stack) => metric(stack, /^payform_ledger_up (\d+)$/m);

describe('the disk under a SQLite ledger', () => {
  it('full: answers 503 with Retry-After, says once which disk to free, is not ready until a write works, then is back by itself', async () => {
    const disk = mountSmallDisk();
    undo.push(() => disk.dispose());
    const stack = await open({ backend: smallDiskBackend(disk), companion: { metricsToken: METRICS_TOKEN } });
    const paid = await stack.openSession();
    expect((await stack.pay(paid.id)).status).toBe(200);
    disk.fill();

    await refusedNewSession(stack);
    await refusedNewSession(stack);
    // Reads still work; readiness does not take that for a working ledger.
    expect((await stack.json('GET', `/api/checkout/sessions/${paid.id}`, 200)).status).toBe('success');
    expect(await stack.json('GET', '/readyz', 503)).toEqual({ status: 'unavailable' });
    expect(await stack.json('GET', '/healthz', 200)).toEqual({ status: 'ok' });
    // Nor does the metric the documented alert reads: the scrape's read works, the ledger does not.
    expect(await ledgerUp(stack)).toBe(0);
    // One line, the cause and the fix; no stack, no "request error".
    expect(errorLines(stack)).toEqual([
      expect.objectContaining({ msg: 'the database cannot be reached; answering 503 with Retry-After until it is back', reason: 'SQLITE_FULL: database or disk is full', fix: expect.stringContaining(`the disk holding ${join(realpathSync(disk.dir), 'ledger.db')} is full`) }),
    ]);
    expect(stack.logs.filter((line) => line.includes('stack'))).toEqual([]);

    disk.free();
    await eventually(async () => expect(await stack.json('GET', '/readyz', 200)).toEqual({ status: 'ready' }));
    expect(await ledgerUp(stack)).toBe(1);
    expect(lines(stack).filter((line) => line.msg === 'the database is back')).toEqual([expect.objectContaining({ level: 'warn', refused: 2 })]);
    await stack.openSession();
    expect(errorLines(stack)).toHaveLength(1);
  });
});

describe('a companion started on a disk that filled while it was stopped', () => {
  it('refuses to start, naming the disk to free, rather than being ready for payments it would refuse', async () => {
    const disk = mountSmallDisk('4m');
    undo.push(() => disk.dispose());
    const sandbox = await serveSandbox();
    undo.push(() => sandbox.close());
    const settings = loopbackSettings({ PAYFORM_DATABASE_URL: join(disk.dir, 'ledger.db') });
    const start = () => startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    await (await start()).close();
    // As a companion killed with its ledger's -wal and -shm in place: opening then works, and only a write fails.
    const left = new Database(join(disk.dir, 'ledger.db'));
    left.pragma('journal_mode = WAL');
    disk.fill();
    await expect(start()).rejects.toThrow(/^the ledger could not be opened \(PAYFORM_DATABASE_URL .*ledger\.db\): .*full/);
    left.close();
    // Space freed, it starts and takes payments.
    disk.free();
    const companion = await start();
    undo.push(() => companion.close());
    expect((await fetch(`${companion.url}/readyz`)).status).toBe(200);
  });
});

describe('a file system the kernel remounted read-only under a SQLite ledger', () => {
  it('answers 503 with Retry-After, says once that the file system is read-only and what bringing it back takes, and keeps every payment', async () => {
    const disk = mountFailingDisk();
    undo.push(() => disk.dispose());
    const file = join(realpathSync(disk.dir), 'ledger.db');
    const backend: LedgerBackend = {
      name: 'SQLite file on a disk that turns read-only',
      persistent: false,
      async open(clock) {
        const ledger = await openLedger(file, { clock: clock.read });
        return { ledger, dispose: () => ledger.close().catch(() => undefined) };
      },
    };
    const stack = await open({ backend, companion: { metricsToken: METRICS_TOKEN } });
    const paid = await stack.openSession();
    expect((await stack.pay(paid.id)).status).toBe(200);
    disk.turnReadOnly();

    await refusedNewSession(stack);
    await refusedNewSession(stack);
    expect(await stack.json('GET', '/readyz', 503)).toEqual({ status: 'unavailable' });
    // A restart of the process alone would not help: the file system needs checking first.
    expect(await stack.json('GET', '/healthz', 200)).toEqual({ status: 'ok' });
    expect(await ledgerUp(stack)).toBe(0);
    expect(await unavailableMetric(stack)).toBe(2);
    // Before, SQLite's "disk I/O error" was said as a disk failing to read or write that would
    // come back by itself, which a file system remounted read-only never does.
    expect(errorLines(stack)).toEqual([
      expect.objectContaining({
        msg: 'the database cannot be reached; answering 503 with Retry-After until it is back',
        reason: expect.stringMatching(/^SQLITE_IOERR/),
        fix:
          `the file system holding ${file} is read-only (the kernel remounts one so after disk errors: see its log), and payments cannot go on until it takes writes: ` +
          'stop the companion (SIGTERM; its open files keep the file system busy), check and repair it (fsck), mount it read-write, then start the companion',
      }),
    ]);
    expect(stack.logs.filter((line) => line.includes('stack'))).toEqual([]);

    // What the operator does: stop, repair, start. The pay claim, synced before the gateway was
    // called, is there; its answer is recorded unsynced by design (the gateway tells it again,
    // to the webhook or reconciliation), so the journal the kernel aborted may have kept it or not.
    await undo.pop()!();
    disk.repair();
    const ledger = await openLedger(file);
    undo.push(() => ledger.close());
    expect(['processing', 'paid']).toContain((await ledger.getSession(paid.id))?.status);
  });
});

describe('a SQLite ledger whose write-ahead log was deleted under it', () => {
  it('counts every refusal, says a restart is needed, and fails /healthz so an orchestrator restarts it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-ledger-'));
    undo.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ledger.db');
    const backend: LedgerBackend = {
      name: 'SQLite file',
      persistent: false,
      async open(clock) {
        const ledger = await openLedger(file, { clock: clock.read });
        return { ledger, dispose: () => ledger.close().catch(() => undefined) };
      },
    };
    const stack = await open({ backend, companion: { metricsToken: METRICS_TOKEN } });
    await stack.openSession();
    rmSync(`${file}-wal`);

    for (let refusal = 0; refusal < 3; refusal += 1) await refusedNewSession(stack);
    expect(await stack.json('GET', '/readyz', 503)).toEqual({ status: 'unavailable' });
    // The readiness probe's own read was refused too, but a probe turned no work away: the three
    // refused sessions are what is counted.
    expect(await unavailableMetric(stack)).toBe(3);
    expect(await stack.json('GET', '/healthz', 503)).toEqual({ status: 'restart_needed' });
    expect(errorLines(stack)).toEqual([
      expect.objectContaining({
        msg: 'the ledger takes no more work until the companion is restarted; answering 503 with Retry-After, /healthz 503',
        reason: expect.stringMatching(/^PAYFORM_LEDGER_NOT_DURABLE: .* \(cause: ENOENT: the write-ahead log .*ledger\.db-wal was deleted while the ledger had it open\)$/),
        // The log is gone, not the disk: said so, and that what it held is in the file.
        fix: `${file}-wal, SQLite's write-ahead log, was deleted while the companion had it open (by hand, or a clean-up script): what it held is written into ${file}, nothing is lost; restart the companion, which makes a new one — and never delete a running ledger's -wal or -shm files`,
      }),
    ]);
  });
});

describe('a SQLite ledger file deleted under the running companion', () => {
  it('stops taking writes, says where what it held is saved and how to go on, and fails /healthz for a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-ledger-'));
    undo.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(realpathSync(dir), 'ledger.db');
    const ledgerLines: string[] = [];
    const backend: LedgerBackend = {
      name: 'SQLite file',
      persistent: false,
      async open(clock) {
        const log = { info: () => undefined, warn: () => undefined, error: (line: string) => void ledgerLines.push(line) };
        const ledger = await openLedger(file, { clock: clock.read, log });
        return { ledger, dispose: () => ledger.close().catch(() => undefined) };
      },
    };
    const stack = await open({ backend, companion: { metricsToken: METRICS_TOKEN } });
    await stack.openSession();
    rmSync(file);

    await refusedNewSession(stack);
    // A restart is asked for once what the ledger held is saved: before, it would lose it.
    await eventually(() => expect(ledgerLines).toHaveLength(1));
    expect(await stack.json('GET', '/healthz', 503)).toEqual({ status: 'restart_needed' });
    const savedTo = /saved to (\S+) \(\d+ pages\)/.exec(ledgerLines[0]!)?.[1];
    expect(savedTo).toMatch(new RegExp(`^${file}\\.saved-`));
    expect(errorLines(stack)).toEqual([
      expect.objectContaining({
        msg: 'the ledger takes no more work until the companion is restarted; answering 503 with Retry-After, /healthz 503',
        fix: `${file} was deleted, moved or replaced while the companion had it open: wait for the line saying what it held is saved to ${savedTo}, then restart the companion (SIGTERM, never SIGKILL) — it takes the saved file back when nothing is at ${file}`,
      }),
    ]);
  });
});

/** Overwrites the root page of each of `table`'s indexes with bytes no b-tree page starts with, as bad blocks would. */
function damageIndexesOf(file: string, table: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const roots = db.prepare("select rootpage from sqlite_master where type = 'index' and tbl_name = ?").pluck().all(table) as number[];
  db.close();
  const fd = openSync(file, 'r+');
  try {
    for (const root of roots) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe('a damaged SQLite ledger file', () => {
  it('answers 503 with Retry-After, not 500 with a stack, and says once which file to restore from a backup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-damaged-'));
    undo.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ledger.db');
    await (await openLedger(file)).close();
    damageIndexesOf(file, 'payform_checkout_sessions');
    const damaged: LedgerBackend = {
      name: 'a damaged SQLite file',
      persistent: false,
      async open(clock) {
        const ledger = await openLedger(file, { clock: clock.read });
        return { ledger, dispose: () => ledger.close() };
      },
    };
    const stack = await open({ backend: damaged, companion: { metricsToken: METRICS_TOKEN } });
    await refusedNewSession(stack);
    await refusedNewSession(stack);
    expect(await stack.json('GET', '/readyz', 503)).toEqual({ status: 'unavailable' });
    // A restart would open the same file: the orchestrator is not asked for one.
    expect(await stack.json('GET', '/healthz', 200)).toEqual({ status: 'ok' });
    expect(await ledgerUp(stack)).toBe(0);
    expect(errorLines(stack)).toEqual([
      expect.objectContaining({
        msg: 'the ledger file is damaged and takes no more work; answering 503 with Retry-After, /readyz 503',
        reason: expect.stringMatching(/^SQLITE_CORRUPT/),
        fix: expect.stringContaining(`${realpathSync(dir)}/ledger.db is damaged: stop the companion and move the file (with its -wal and -shm) aside; recover what it holds into a new file`),
      }),
    ]);
    expect(stack.logs.filter((line) => line.includes('stack'))).toEqual([]);
  });
});
