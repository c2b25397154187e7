// Moving a companion's ledger from its SQLite file to PostgreSQL: a history made through the
// companion (the real sandbox as its gateway) reads the same on PostgreSQL after the copy, and
// `payform-companion copy-ledger` does it as a command — a child process of the bundled bin.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testProjectCredentials } from '@payform/gateway/testing';
import { webhookForm } from '@payform/gateway';
import { copyLedger, LedgerMoved, openLedger, OperationRefused } from '../ledger/index.js';
import type { Ledger, Payment } from '../ledger/index.js';
import { paidOrder } from '../ledger/testing/contract.js';
import { trackedLedgers, withTestDatabase } from '../ledger/testing/databases.js';
import type { LedgerBackend } from '../ledger/testing/databases.js';
import { claimSchema, releaseSchema, withClient } from '../ledger/testing/schema-pool.js';
import { bundled } from '../../e2e/entry-points.mjs';
import { card, CUSTOMER, FINGERPRINT } from './test/cards.js';
import { createStack } from './test/stack.js';
import type { Stack } from './test/stack.js';
import { finished } from './test/finished-process.js';
import type { Finished } from './test/finished-process.js';

const MAIN = await bundled('server/companion/main.ts');
const WORKER = await bundled('server/ledger/testing/process-worker.ts');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HOUR = 3_600_000;
const { apiSecret, posId } = testProjectCredentials({});

/** The companion's ledger in a file that outlives the stack (the test removes its folder). */
function fileAt(path: string): LedgerBackend {
  return { name: 'SQLite file', persistent: true, open: (clock) => trackedLedgers(() => openLedger(path, { clock: clock.read }), () => undefined) };
}

/** A merchant's few days: paid, refunded, authorised and captured, declined, waiting on 3-D Secure, unpaid, a stray event. */
async function history(stack: Stack): Promise<{ paid: string; auth: string; customerId: string }> {
  const customerId = 'cust-move-1';
  const paid = await stack.openSession({ amount: 2500, customer_id: customerId, customer: { email: 'olena@example.com' } });
  expect((await (await stack.pay(paid.id)).json()).status).toBe('success');
  const auth = await stack.openSession({ amount: 4000, method: 'auth', description: 'Tea set, reserved' });
  expect((await (await stack.pay(auth.id)).json()).status).toBe('success');
  const declined = await stack.openSession({ amount: 1200 });
  expect((await (await stack.pay(declined.id, { card: card('rejected'), customer: CUSTOMER, fingerprint: FINGERPRINT })).json()).status).toBe('failure');
  const challenged = await stack.openSession({ amount: 800, currency: 'EUR' });
  expect((await (await stack.pay(challenged.id, { card: card('three_ds_challenge'), customer: CUSTOMER, fingerprint: FINGERPRINT })).json()).status).toBe('redirect');
  await stack.openSession({ amount: 300, description: 'Never paid' });
  await stack.settleWebhooks();
  const keyed = (key: string, body: Record<string, unknown>) => ({ admin: true, body, headers: { 'Idempotency-Key': key } });
  await stack.json('POST', `/api/orders/${paid.order_id}/refund`, 200, keyed('refund-move-1', { amount: 500, comment: 'One tin returned' }));
  await stack.json('POST', `/api/orders/${auth.order_id}/capture`, 200, keyed('capture-move-1', { amount: 3000 }));
  await stack.settleWebhooks();
  // The gateway's event for another shop's order: kept, unmatched.
  const stray = { order_id: 'other-shop-7', payment_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', pos_id: posId, mode: 'direct', method: 'purchase', amount: 12.5, currency: 'UAH', status: 'success', status_code: '1000' };
  const response = await stack.request('POST', '/webhooks/gateway', {
    body: new URLSearchParams({ ...webhookForm(stray, apiSecret) }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(response.status).toBe(200);
  return { paid: paid.order_id, auth: auth.order_id, customerId };
}

/** Every public read of the back office, the merchant API and the operator's gauges. */
async function answers(ledger: Ledger, customerId: string, period: { from: number; to: number }) {
  const pages = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await ledger.listOrders({ limit: 2, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  }
  const orders: Payment[] = pages.flatMap((page) => page.orders);
  return {
    pages,
    orders: await Promise.all(orders.map((order) => ledger.getOrder(order.orderId))),
    sessions: await Promise.all(orders.map((order) => ledger.getSession(order.sessionId))),
    totals: [...(await ledger.totalsOfOrders(orders, 15))],
    descriptions: [...(await ledger.descriptionsOfOrders(orders))],
    refundable: await Promise.all(orders.map((order) => ledger.refundableAmount(order.orderId))),
    successful: await ledger.listOrders({ status: 'success' }),
    byEmail: await ledger.listOrders({ email: 'OLENA@example.com' }),
    byCurrency: await ledger.listOrders({ currency: 'EUR' }),
    moneyTotals: await ledger.moneyTotals(period),
    stats: await ledger.paymentStats({ ...period, bucket: 'day' }),
    unmatched: await ledger.listEvents({ outcome: 'unmatched' }),
    parked: await ledger.listEvents({ outcome: 'parked' }),
    cards: await ledger.listCards(customerId),
    backlog: await ledger.backlog(),
  };
}

withTestDatabase((url) => {
  let dir: string;
  let file: string;
  let schema: string;
  /** The test database's URL naming the schema, as PAYFORM_DATABASE_URL would. */
  let target: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-copy-ledger-'));
    file = join(dir, 'payform.db');
    schema = await claimSchema(url);
    // A schema from the pool exists; a fresh name is made here, as an operator would.
    await withClient(url, (client) => client.query(`create schema if not exists ${schema}`));
    target = `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  });
  afterEach(async () => {
    await releaseSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('a ledger copied from SQLite to PostgreSQL', () => {
    it('answers every read as it did on SQLite, and takes new operations on the orders it brought', async () => {
      const period = { from: Date.now() - 48 * HOUR, to: Date.now() + HOUR };
      const stack = await createStack({ backend: fileAt(file) });
      let made: Awaited<ReturnType<typeof history>>;
      let before: Awaited<ReturnType<typeof answers>>;
      try {
        made = await history(stack);
        before = await answers(stack.ledger, made.customerId, period);
      } finally {
        await stack.close();
      }
      // What the history is made of, so an equal answer is not an empty one.
      expect(before.pages.flatMap((page) => page.orders.map((order) => order.status)).sort()).toEqual(['failure', 'pending', 'success', 'success']);
      expect(before.orders.flatMap((order) => order!.operations.map((operation) => `${operation.kind} ${operation.amount} ${operation.status}`)).sort()).toEqual(['capture 3000 success', 'refund 500 success']);
      expect(before.unmatched.events).toHaveLength(1);
      expect(before.cards).toHaveLength(1);

      const lines: string[] = [];
      const copy = await copyLedger(file, url, { schema, log: (line) => lines.push(line) });
      expect(copy.rows).toMatchObject({ checkout_sessions: 5, payments: 4, operations: 2, saved_cards: 1, idempotency_keys: 2 });
      // Neither the card's token nor its mask is said.
      const [savedCard] = before.cards;
      expect(lines.join('\n')).not.toContain(savedCard!.ccToken);
      expect(lines.join('\n')).not.toContain(savedCard!.ccMask);

      const ledger = await openLedger(url, { schema });
      try {
        expect(await answers(ledger, made.customerId, period)).toEqual(before);
        // The rest of the paid order is refunded on PostgreSQL; nothing past it.
        const refund = await ledger.reserveOperation(made.paid, { kind: 'refund', amount: 2000, comment: 'The rest' });
        await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-after-move' });
        expect(await ledger.refundableAmount(made.paid)).toBe(0);
        await expect(ledger.reserveOperation(made.paid, { kind: 'refund', amount: 1 })).rejects.toBeInstanceOf(OperationRefused);
        expect(await ledger.capturableAmount(made.auth)).toBe(0);
      } finally {
        await ledger.close();
      }
    });
  });

  describe('payform-companion copy-ledger', () => {
    const run = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> =>
      finished(spawn(process.execPath, [MAIN, 'copy-ledger', ...args], { env: { ...process.env, PAYFORM_DATABASE_URL: file, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));
    const masked = () => {
      // The suite's database has a password, or nothing here would show it masked.
      const password = new URL(target).password;
      expect(password).not.toBe('');
      return target.replace(`:${password}@`, ':***@');
    };

    async function fileWithPayment(): Promise<void> {
      const ledger = await openLedger(file);
      await paidOrder(ledger);
      await ledger.close();
    }

    it('copies the file PAYFORM_DATABASE_URL names into --to, says what it copied, exits 0', async () => {
      await fileWithPayment();
      const { code, stdout, stderr } = await run(['--to', target]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toBe(`payform-companion copy-ledger: copying the ledger in ${file} to ${masked()}`);
      expect(lines).toEqual(expect.arrayContaining(['payform-companion copy-ledger: payform_checkout_sessions: 1 row', 'payform-companion copy-ledger: payform_payments: 1 row']));
      expect(lines.at(-1)).toBe(
        `payform-companion copy-ledger: done. Start the companions with PAYFORM_DATABASE_URL set to the --to URL (${masked()}). ` +
          `${file} is marked as moved: a companion, a backup and another copy refuse it from now on (payform-companion reopen-ledger to go back to it)`,
      );
      expect(stdout).not.toContain(':payform@');
      const copied = await openLedger(target);
      try {
        expect((await copied.listOrders()).orders).toMatchObject([{ status: 'success', amount: 1000 }]);
      } finally {
        await copied.close();
      }
    });

    // Six processes started one after another (each a companion bin's start): on a loaded machine, past the default 20 s.
    it('marks the file it moved: a start, a backup and another copy refuse it, naming where it went, until reopen-ledger', async () => {
      await fileWithPayment();
      expect((await run(['--to', target])).code).toBe(0);
      const command = (name: string, args: readonly string[]) =>
        finished(spawn(process.execPath, [MAIN, name, ...args], { env: { ...process.env, PAYFORM_DATABASE_URL: file }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));
      const went = `${file} was copied to ${masked()} by payform-companion copy-ledger on `;
      const back = `To run on this file again instead (what PostgreSQL took since stays there): payform-companion reopen-ledger --from ${file}`;

      const opening = await openLedger(file).then(() => 'opened', (error: Error) => error);
      expect(opening).toBeInstanceOf(LedgerMoved);
      expect((opening as Error).message).toMatch(new RegExp(`^${escaped(went)}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, and the ledger is there now, so a payment taken on this file would be missing from it: point PAYFORM_DATABASE_URL at that PostgreSQL URL\\. ${escaped(back)}$`));

      const backup = await command('backup', ['--to', join(dir, 'nightly.db')]);
      expect(backup.code).toBe(1);
      expect(backup.stderr).toContain(`payform-companion backup: ${went}`);
      expect(backup.stderr).toContain('so this file no longer changes: back the PostgreSQL ledger up with pg_dump (of its schema)');
      expect(existsSync(join(dir, 'nightly.db'))).toBe(false);

      // Into another, empty schema: refused for the mark, not for what the target holds.
      const other = await claimSchema(url);
      try {
        await withClient(url, (client) => client.query(`create schema if not exists ${other}`));
        const again = await run(['--to', `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3D${other}`]);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain(`${went}`);
        expect(again.stderr).toContain('and two copies would be two ledgers under one identity');
        expect(again.stdout + again.stderr).not.toContain(':payform@');
      } finally {
        await releaseSchema(url, other);
      }

      const reopened = await command('reopen-ledger', []);
      expect({ code: reopened.code, stderr: reopened.stderr }).toEqual({ code: 0, stderr: '' });
      expect(reopened.stdout).toMatch(new RegExp(`^payform-companion reopen-ledger: ${escaped(file)} is a ledger a companion runs on again\\. It had been copied to ${escaped(masked())} on .* UTC: what the companions took there since is not in this file\\n$`));
      const ledger = await openLedger(file);
      try {
        expect((await ledger.listOrders()).orders).toMatchObject([{ status: 'success', amount: 1000 }]);
      } finally {
        await ledger.close();
      }
      // After the move, PAYFORM_DATABASE_URL names PostgreSQL: its password is not shown as a path.
      const unnamed = await finished(spawn(process.execPath, [MAIN, 'reopen-ledger'], { env: { ...process.env, PAYFORM_DATABASE_URL: target }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));
      expect(unnamed).toMatchObject({ code: 1, stderr: 'payform-companion reopen-ledger: PAYFORM_DATABASE_URL is a PostgreSQL URL: name the SQLite file to reopen with --from <sqlite-file>\n' });
      const twice = await command('reopen-ledger', ['--from', file]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toBe(`payform-companion reopen-ledger: ${file} is not marked as moved to PostgreSQL: a companion runs on it as it is, nothing to reopen\n`);
    }, 60_000);

    it('takes the file from --from, and refuses a second copy into a database that holds the ledger, exit 1, the password masked', async () => {
      await fileWithPayment();
      expect((await run([`--to=${target}`, '--from', file], { PAYFORM_DATABASE_URL: join(dir, 'elsewhere.db') })).code).toBe(0);
      const again = await run(['--to', target]);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(
        `payform-companion copy-ledger: ${masked()} already holds a ledger (1 checkout session, 1 payment): a copy never merges two ledgers, and nothing was copied. ` +
          'Copy into an empty schema — create one (CREATE SCHEMA payform) and name it in the URL: ?options=-c%20search_path%3Dpayform — or, if the ledger there is not wanted, drop its payform_ tables and copy again\n',
      );
      expect(again.stdout + again.stderr).not.toContain(':payform@');
    });

    it('refuses while a companion in another process has the file open', async () => {
      await fileWithPayment();
      // Another process holding the ledger open, as a running companion does, until told to go.
      const holder = spawn(process.execPath, [WORKER, JSON.stringify({ kind: 'claims', path: file, sessionIds: [], clicks: 0 })], { stdio: ['pipe', 'pipe', 'inherit'], timeout: 60_000 });
      const closed = once(holder, 'close');
      await new Promise<void>((ready) => holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && ready()));
      try {
        const { code, stderr } = await run(['--to', target]);
        expect(code).toBe(1);
        expect(stderr).toBe(`payform-companion copy-ledger: ${file} is open in another process — a companion running on it, a database browser, a backup: this needs the file to itself; stop them and try again\n`);
      } finally {
        holder.stdin.end('go\n');
        await closed;
      }
      expect((await run(['--to', target])).code).toBe(0);
    });

    it.each([
      ['no --to', [], '--to is missing: give the PostgreSQL database to copy the ledger into, --to postgres://user:password@host:5432/database'],
      ['--to without its value', ['--to'], '--to needs a value: --to <postgres-url>'],
      ['--to naming a file', ['--to', './other.db'], '--to must be a postgres:// URL: the ledger is copied into PostgreSQL'],
      // A value that holds no password is quoted as it is: the message's own words stay whole.
      ['--to naming a word', ['--to', 'postgres'], '--to must be a postgres:// URL: the ledger is copied into PostgreSQL'],
      ['--to with a password it cannot read', ['--to', 'postgres://shop:pa#ss@db/shop'], '--to is not a URL that can be read as written'],
      ['a URL without --to', ['postgres://shop:secret@db/shop'], 'unexpected argument (one holding an @, not repeated: it may carry a password)'],
    ])('exits 1 naming the problem: %s', async (_case, args, problem) => {
      const { code, stdout, stderr } = await run(args);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toContain(`payform-companion copy-ledger: ${problem}`);
      expect(stderr).toContain('Run payform-companion copy-ledger --help for more.');
      expect(stderr).not.toMatch(/secret|pa#ss/);
    });

    it('says a refusal of the database in --to’s terms, not the driver’s', async () => {
      await fileWithPayment();
      const missing = Object.assign(new URL(target), { pathname: '/payform_no_such_database' }).href;
      const { code, stderr } = await run(['--to', missing]);
      expect(code).toBe(1);
      expect(stderr).toBe(
        'payform-companion copy-ledger: database "payform_no_such_database" does not exist (create it — createdb, or CREATE DATABASE — or correct the database\'s name in the URL)\n',
      );
    });

    it('exits 1 when PAYFORM_DATABASE_URL is set but empty, rather than copying the default file in its place', async () => {
      const { code, stderr } = await run(['--to', target], { PAYFORM_DATABASE_URL: ' ' });
      expect(code).toBe(1);
      expect(stderr).toBe('payform-companion copy-ledger: PAYFORM_DATABASE_URL is set but empty: set it to the SQLite file the companion used, or give the file with --from <sqlite-file>\n');
    });

    it('exits 1 when PAYFORM_DATABASE_URL already names PostgreSQL, asking for --from', async () => {
      const { code, stderr } = await run(['--to', target], { PAYFORM_DATABASE_URL: target });
      expect(code).toBe(1);
      expect(stderr).toBe('payform-companion copy-ledger: PAYFORM_DATABASE_URL is a PostgreSQL URL already: name the SQLite file to copy with --from <sqlite-file>\n');
    });

    it('prints its help, exit 0', async () => {
      const { code, stdout } = await run(['--help']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: payform-companion copy-ledger --to <postgres-url> \[--from <sqlite-file>\]\n/);
    });
  });
});
