// The database going away, as the operator reads it: one line when it begins, with what to do
// when the fix is theirs, and one when it ends.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerNotDurable, openLedger } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import { claimedPayment } from '../../ledger/testing/contract.js';
import { mountSmallDisk } from '../../ledger/testing/small-disk.js';
import { createLogger, memorySink } from '../log/logger.js';
import { eventually } from '../test/stack.js';
import { LedgerOutage } from './ledger-outage.js';

const withCode = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('a ledger outage', () => {
  let ledger: Ledger | undefined;
  afterEach(async () => ledger?.close());

  it('names the setting to fix when the database refuses the credentials, once, and says when it is back', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 10 });
    // A password rotated under a running companion: every new connection is refused so.
    const refused = withCode('28P01', 'password authentication failed for user "payform"');
    outage.noticed(refused);
    outage.noticed(withCode('28P01', 'password authentication failed for user "payform"'));
    await outage.back();
    outage.stop();
    const lines = memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: 'error', msg: expect.stringContaining('the database cannot be reached'), reason: '28P01: password authentication failed for user "payform"', fix: expect.stringContaining('PAYFORM_DATABASE_URL') },
      { level: 'warn', msg: 'the database is back', refused: 2 },
    ]);
  });

  it('reminds of an outage with its cause now: one begun by a restart of the server may last for a changed password', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    let now = 0;
    // No probe in the minute: only the refusals say how it goes.
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: () => now, probeIntervalMs: 3_600_000 });
    outage.noticed(withCode('57P01', 'terminating connection due to administrator command'));
    now = 30_000;
    outage.noticed(withCode('28P01', 'password authentication failed for user "payform"'));
    now = 61_000;
    outage.noticed(withCode('28P01', 'password authentication failed for user "payform"'));
    outage.stop();
    const lines = memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: 'error', msg: expect.stringContaining('the database cannot be reached'), reason: '57P01: terminating connection due to administrator command' },
      {
        level: 'error',
        msg: 'the database still cannot be reached',
        refused: 3,
        reason: '28P01: password authentication failed for user "payform"',
        began_with: '57P01: terminating connection due to administrator command',
        fix: expect.stringContaining('PAYFORM_DATABASE_URL'),
      },
    ]);
  });

  it('says a database that comes and goes at most once a minute, and a relapse after "back" once it lasts 5 s', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    let now = 0;
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: () => now, probeIntervalMs: 1 });
    // Connections reset every few seconds (a flaky network, a balancer in front of the server).
    const reset = () => withCode('ECONNRESET', 'read ECONNRESET');
    const flap = async (at: number) => {
      now = at;
      outage.noticed(reset());
      await outage.back();
    };
    for (let at = 0; at < 60_000; at += 5_000) await flap(at);
    await flap(70_000);
    // Down again after that "back": a blip stays counted; one that lasts 5 s is said then, not a
    // minute after the last line, so "back" does not stay the log's last word. Its end is said.
    await flap(72_000);
    now = 80_000;
    outage.noticed(reset());
    now = 84_000;
    outage.noticed(reset());
    now = 86_000;
    outage.noticed(reset());
    await outage.back();
    outage.stop();
    const down = { level: 'error', msg: expect.stringContaining('the database cannot be reached'), reason: 'read ECONNRESET' };
    const back = (refused: number) => ({ level: 'warn', msg: 'the database is back', refused });
    const lines = memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      down,
      back(1),
      { ...down, outages_since_last_line: 11, refused_since_last_line: 11 },
      back(1),
      // Its first line was quiet: the reminder is the first to say what began it.
      { level: 'error', msg: 'the database still cannot be reached', reason: 'read ECONNRESET', down_for_ms: 6_000, refused: 3, outages_since_last_line: 1, refused_since_last_line: 1 },
      back(3),
    ]);
    expect(lines).toHaveLength(6);
  });

  it('says a statement that ran out its deadline is a lock held or a server overloaded, not a database away', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 10 });
    outage.noticed(withCode('57014', 'canceling statement due to statement timeout'));
    await outage.back();
    outage.stop();
    const [began] = memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(began).toMatchObject({
      level: 'error',
      msg: 'the database answers but the ledger’s statements cannot finish in time; answering 503 with Retry-After until they do',
      reason: '57014: canceling statement due to statement timeout',
      fix: expect.stringContaining('PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS'),
    });
    expect(began!.fix).toContain('pg_stat_activity');
  });

  it('begins an outage a readiness probe met, without counting the probe as refused work', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    let counted = 0;
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 10, onRefused: () => (counted += 1) });
    for (let probe = 0; probe < 10; probe += 1) outage.noticed(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), { probe: true });
    outage.noticed(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    await outage.back();
    outage.stop();
    expect(counted).toBe(1);
    expect(memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { level: 'error', msg: expect.stringContaining('the database cannot be reached') },
      { level: 'warn', msg: 'the database is back', refused: 1 },
    ]);
  });

  it('says a PostgreSQL that takes no writes is a standby to point away from, and waits for a write to say it is back', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 10 });
    outage.noticed(withCode('25006', 'cannot execute INSERT in a read-only transaction'));
    expect(outage.writesRefused).toBe(true);
    await outage.back();
    outage.stop();
    expect(memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { level: 'error', fix: expect.stringMatching(/^PAYFORM_DATABASE_URL reaches a PostgreSQL that takes no writes .*point it at the primary/) },
      { level: 'warn', msg: 'the database is back' },
    ]);
  });

  // Another process holding the SQLite file's write lock (a second companion on it, an operator's
  // open transaction): reads work all along, and only a write says it is over.
  for (const [code, message] of [['SQLITE_BUSY', 'database is locked']] as const) {
    it(`asks a SQLite file whose lock refused a write (${code}) with a write: not back, nor ready, while it is held`, async () => {
      const real = await openLedger(':memory:');
      ledger = real;
      let held = true;
      let writes = 0;
      const locked = () => Object.assign(new Error(message), { code });
      const probed: Ledger = { ...real, probeWrite: () => ((writes += 1), held ? Promise.reject(locked()) : real.probeWrite()) };
      const memory = memorySink();
      const outage = new LedgerOutage({ ledger: probed, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 5 });
      outage.noticed(locked());
      expect(outage.writesRefused).toBe(true);
      await eventually(() => expect(writes).toBeGreaterThan(3));
      expect(memory.lines.filter((line) => line.includes('the database is back'))).toEqual([]);
      expect(outage.writesRefused).toBe(true);
      held = false;
      await outage.back();
      outage.stop();
      expect(outage.writesRefused).toBe(false);
      expect(memory.lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['the database answers but the ledger’s statements cannot finish in time; answering 503 with Retry-After until they do', 'the database is back']);
    });
  }

  it('names no fix for an outage that is not the operator’s settings', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 10 });
    outage.noticed(withCode('57P01', 'terminating connection due to administrator command'));
    await outage.back();
    outage.stop();
    expect(JSON.parse(memory.lines[0]!)).not.toHaveProperty('fix');
  });

  it('asks a disk that refused a write with a write: not back while it is full, however often it reads', async () => {
    const disk = mountSmallDisk();
    const real = await openLedger(join(disk.dir, 'ledger.db'));
    ledger = real;
    try {
      await claimedPayment(real);
      disk.fill();
      const full = await claimedPayment(real).catch((error: unknown) => error);
      let writes = 0;
      const probed: Ledger = { ...real, probeWrite: () => ((writes += 1), real.probeWrite()) };
      const memory = memorySink();
      const outage = new LedgerOutage({ ledger: probed, logger: createLogger({ sink: memory.sink }), clock: Date.now, probeIntervalMs: 10 });
      outage.noticed(full);
      // Reads work all along: a probe that only read would have called it back at the first.
      await eventually(() => expect(writes).toBeGreaterThanOrEqual(3));
      expect(outage.down).toBe(true);
      disk.free();
      await outage.back();
      outage.stop();
      expect(memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
        { level: 'error', reason: 'SQLITE_FULL: database or disk is full', fix: expect.stringContaining(`the disk holding ${join(realpathSync(disk.dir), 'ledger.db')} is full: free space on it`) },
        { level: 'warn', msg: 'the database is back', refused: 1 },
      ]);
    } finally {
      await real.close();
      ledger = undefined;
      disk.dispose();
    }
  });

  it('counts every refusal of a ledger that could not sync its WAL, reminds of it with the fix, and needs a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-outage-'));
    try {
      ledger = await openLedger(join(dir, 'ledger.db'));
      const { orderId } = await claimedPayment(ledger);
      rmSync(join(dir, 'ledger.db-wal'));
      const memory = memorySink();
      let now = 0;
      let refused = 0;
      const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: () => now, onRefused: () => (refused += 1), probeIntervalMs: 10 });
      const refusal = () => (ledger as Ledger).advancePayment(orderId, { status: 'success' }).catch((error: unknown) => error);
      outage.noticed(await refusal());
      expect(outage.restartNeeded).toBe(true);
      outage.noticed(await refusal());
      now += 60_000;
      outage.noticed(await refusal());
      outage.stop();
      expect(refused).toBe(3);
      const lines = memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toMatchObject([
        { level: 'error', msg: expect.stringContaining('until the companion is restarted'), reason: expect.stringContaining('(cause: ENOENT: the write-ahead log'), fix: expect.stringContaining('restart the companion') },
        { level: 'error', msg: 'the database still cannot be reached', down_for_ms: 60_000, refused: 3, fix: expect.stringContaining('restart the companion') },
      ]);
      expect(lines).toHaveLength(2);
    } finally {
      await ledger?.close().catch(() => undefined);
      ledger = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks for a restart of a ledger whose file was deleted under it only once what it held is saved', async () => {
    ledger = await openLedger(':memory:');
    const memory = memorySink();
    const outage = new LedgerOutage({ ledger, logger: createLogger({ sink: memory.sink }), clock: () => 0 });
    let saved!: () => void;
    const gone = new LedgerNotDurable(new Error('gone'), '/var/lib/payform/payform.db', { savedTo: '/var/lib/payform/payform.db.saved-x', saved: new Promise<void>((resolve) => (saved = resolve)) });
    outage.noticed(gone);
    // Said at once; a restart before the copy is written would lose everything since the start.
    expect(memory.lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([expect.stringContaining('until the companion is restarted')]);
    expect(outage.restartNeeded).toBe(false);
    saved();
    await eventually(() => expect(outage.restartNeeded).toBe(true));
    outage.stop();
  });
});
