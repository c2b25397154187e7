// `payform-companion backup` (a child process of the bundled bin) while a companion runs on the
// SQLite file and takes payments: the backup holds every payment committed before it, is the
// ledger's owner's alone, and a companion's ledger opened on it reads them.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../ledger/index.js';
import { paidOrder } from '../ledger/testing/contract.js';
import { trackedLedgers } from '../ledger/testing/databases.js';
import { mountSmallDisk } from '../ledger/testing/small-disk.js';
import type { LedgerBackend } from '../ledger/testing/databases.js';
import { bundled } from '../../e2e/entry-points.mjs';
import { finished } from './test/finished-process.js';
import type { Finished } from './test/finished-process.js';
import { createStack } from './test/stack.js';
import type { Stack } from './test/stack.js';

const MAIN = await bundled('server/companion/main.ts');

let folder: string;
let file: string;
let stack: Stack | undefined;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'payform-backup-'));
  file = join(folder, 'payform.db');
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  rmSync(folder, { recursive: true, force: true });
});

const backup = (args: readonly string[], env: NodeJS.ProcessEnv = { PAYFORM_DATABASE_URL: file }): Promise<Finished> =>
  finished(spawn(process.execPath, [MAIN, 'backup', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));

describe('payform-companion backup', () => {
  it('backs a running companion’s ledger up: every payment it took, checked, its owner’s alone, and readable as a ledger', async () => {
    const backend: LedgerBackend = { name: 'SQLite file', persistent: true, open: (clock) => trackedLedgers(() => openLedger(file, { clock: clock.read }), () => undefined) };
    stack = await createStack({ backend, served: true });
    const orders: string[] = [];
    for (let paid = 0; paid < 12; paid += 1) {
      const session = await stack.openSession({ amount: 1000 + paid });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      orders.push(session.order_id);
    }
    await stack.settleWebhooks();

    const to = join(folder, 'backup.db');
    const { code, stdout, stderr } = await backup(['--to', to]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim()).toMatch(new RegExp(`^payform-companion backup: backed up 12 payments, 12 checkout sessions, 0 operations and \\d+ webhook events into ${to} \\(\\d+ bytes\\), checked$`));
    expect(statSync(to).mode & 0o777).toBe(0o600);

    // The companion runs on; the backup, opened as a restored ledger, has what it had taken.
    const restored = await openLedger(to);
    try {
      for (const [index, orderId] of orders.entries()) expect(await restored.getPayment(orderId), orderId).toMatchObject({ status: 'success', amount: 1000 + index });
    } finally {
      await restored.close();
    }
  });

  // Seven runs of the bin, one after another: 1–3 s each on a busy 2-core machine, past the
  // default 20 s once (a CI run beside a bench's builds).
  it('never overwrites a file, and refuses what is no SQLite ledger, naming the way', { timeout: 60_000 }, async () => {
    const ledger = await openLedger(file);
    await ledger.close();
    const taken = join(folder, 'taken.db');
    writeFileSync(taken, 'kept');
    expect(await backup(['--to', taken])).toMatchObject({ code: 1, stderr: `payform-companion backup: ${taken} is there already: a backup never overwrites a file, give a new name\n` });
    expect(await backup(['--to', join(folder, 'b.db')], { PAYFORM_DATABASE_URL: 'postgres://payform@db.example/payform' })).toMatchObject({
      code: 1,
      stderr: 'payform-companion backup: the ledger is in PostgreSQL: back it up with pg_dump (of its schema), as any PostgreSQL database\n',
    });
    const other = join(folder, 'shop.db');
    writeFileSync(other, '');
    expect((await backup(['--to', join(folder, 'c.db'), '--from', other])).stderr).toContain('holds no payform ledger');
    expect(await backup([])).toMatchObject({ code: 1, stderr: expect.stringContaining('--to is missing: give the file to back the ledger up into') });
    expect(await backup(['--to', file])).toMatchObject({ code: 1, stderr: 'payform-companion backup: --to is the ledger itself: give a new file\n' });
    const day = new Date().toISOString().slice(0, 10);
    expect(await backup(['--to', folder])).toMatchObject({ code: 1, stderr: `payform-companion backup: ${folder} is a folder: give the backup's file in it, e.g. ${join(folder, `payform-${day}.db`)}\n` });
    expect(await backup(['--to', join(taken, 'nightly', 'x.db')])).toMatchObject({
      code: 1,
      stderr: `payform-companion backup: ${taken} is a file, not a folder, so ${join(taken, 'nightly', 'x.db')} cannot be made: give a file in a folder\n`,
    });
  });

  it('says whose disk is full when the backup’s is, and leaves no file there', async () => {
    const ledger = await openLedger(file);
    await paidOrder(ledger);
    await ledger.close();
    const disk = mountSmallDisk('64k');
    try {
      disk.fill();
      const target = join(disk.dir, 'nightly.db');
      expect(await backup(['--to', target])).toMatchObject({
        code: 1,
        stderr: `payform-companion backup: the disk of ${target} is full (the ledger itself is untouched): free space there, or give a file on another disk\n`,
      });
      expect(existsSync(target)).toBe(false);
    } finally {
      disk.dispose();
    }
  });
});
