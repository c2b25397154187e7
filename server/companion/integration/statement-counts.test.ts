/**
 * How many statements (SQLite) and round trips (PostgreSQL) a payment costs the ledger: opening
 * its session, the pay call, each webhook, a repeated webhook, and the customer's return from
 * 3-D Secure; and the orders list, whose cost must not grow with its page. Counted through the
 * ledger's `onStatement`, below Kysely, so BEGIN, COMMIT and savepoints count too. The numbers are pinned: a change that adds a statement to one of these
 * paths fails here and has to say so — a count, not a timing.
 *
 * Webhooks are kept from the companion while the pay call and the return run (so nothing
 * interleaves), then posted by hand exactly as the sandbox signed them, one at a time. The test
 * stack's companion has an `onPaymentEvent` hook, so clearing a told change's mark is counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { postgresTestLedger, withTestDatabase } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

/** The statements sent since the last `take`, their SQL as sent, and the commits synced to the disk meanwhile. */
class StatementLog {
  #sent: string[] = [];
  #synced = 0;
  readonly observe = (sql: string): void => void this.#sent.push(sql);
  readonly observeCommit = ({ synced }: { readonly synced: boolean }): void => void (this.#synced += synced ? 1 : 0);
  take(): string[] {
    this.#synced = 0;
    return this.#sent.splice(0);
  }
  /** Commits synced since the last `take` (SQLite; PostgreSQL syncs on its own). */
  get synced(): number {
    return this.#synced;
  }
}

function sqliteFile(log: StatementLog): LedgerBackend {
  return {
    name: 'SQLite file',
    persistent: false,
    async open(clock) {
      const dir = mkdtempSync(join(tmpdir(), 'payform-counts-'));
      const ledger = await openLedger(join(dir, 'ledger.db'), { clock: clock.read, onStatement: log.observe, onCommit: log.observeCommit });
      return {
        ledger,
        async dispose() {
          await ledger.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

function postgres(url: string, log: StatementLog): LedgerBackend {
  return { name: 'PostgreSQL', persistent: true, open: (clock) => postgresTestLedger(url, clock, { onStatement: log.observe }) };
}

/** What each step cost, as counts (the SQL goes in the failure message). */
interface Counts {
  /** Opening a session without an Idempotency-Key, its order id the ledger's. */
  readonly openUnkeyed: number;
  readonly openSession: number;
  readonly pay: number;
  readonly webhooks: readonly number[];
  readonly repeatedWebhook: number;
}

/** What each step sent, and how many of its commits were synced, in the order they ran. */
class Steps {
  readonly sql: string[][] = [];
  readonly synced: number[] = [];
  constructor(private readonly log: StatementLog) {}
  /** Ends a step: the statements it sent. */
  count(): number {
    this.synced.push(this.log.synced);
    const sent = this.log.take();
    this.sql.push(sent);
    return sent.length;
  }
}

/** Posts a delivery the sandbox made, as the sandbox would, and counts what it cost. */
async function deliver(stack: Stack, log: StatementLog, form: { data: string; signature: string }, steps: Steps): Promise<number> {
  log.take();
  const answer = await stack.request('POST', '/webhooks/gateway', {
    body: new URLSearchParams(form).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  return steps.count();
}

function deliveriesOf(stack: Stack, orderId: string) {
  return stack.sandbox.sandbox.gateway.webhooks.list().filter((delivery) => delivery.order_id === orderId && !delivery.duplicate_of);
}

async function countPayment(stack: Stack, log: StatementLog, outcome: 'success' | 'three_ds_challenge'): Promise<{ counts: Counts & { returned?: number }; sql: string[][]; synced: number[] }> {
  const steps = new Steps(log);
  stack.dropWebhooks = true;
  log.take();
  await stack.json('POST', '/api/checkout/sessions', 201, { admin: true, body: { amount: 500, currency: 'UAH', description: 'Sencha, 100 g' } });
  const openUnkeyed = steps.count();
  const session = await stack.json('POST', '/api/checkout/sessions', 201, {
    admin: true,
    headers: { 'Idempotency-Key': `counts-${outcome}` },
    body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' },
  });
  const openSession = steps.count();
  const paid = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ card: card(outcome) }) });
  const pay = steps.count();
  let returned: number | undefined;
  if (outcome === 'three_ds_challenge') {
    expect(paid.status).toBe('redirect');
    await stack.control('POST', `/_sandbox/3ds/${paid.payment_id}`, { result: 'success' });
    await stack.settleWebhooks();
    log.take();
    // Back from the bank before the webhook: the landing reads the order state and records it.
    const back = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(back.status).toBe(200);
    returned = steps.count();
  } else {
    expect(paid.status).toBe('success');
    await stack.settleWebhooks();
  }
  stack.dropWebhooks = false;
  const deliveries = deliveriesOf(stack, paid.order_id);
  expect(deliveries.length).toBeGreaterThan(0);
  const webhooks: number[] = [];
  for (const delivery of deliveries) webhooks.push(await deliver(stack, log, delivery.body, steps));
  const repeatedWebhook = await deliver(stack, log, deliveries.at(-1)!.body, steps);
  return { counts: { openUnkeyed, openSession, pay, webhooks, repeatedWebhook, ...(returned === undefined ? {} : { returned }) }, sql: steps.sql, synced: steps.synced };
}

/** The pinned counts of one database. */
interface Expected {
  readonly card: Counts;
  readonly threeDs: Counts & { readonly returned: number };
  /** A declined card's pay call, the session's first attempt: as many as a paid one's (its answer needs no read). */
  readonly declinedPay: number;
  /** Commits synced to the disk by each step, in order (SQLite: the ledger decides each commit's sync). */
  readonly synced?: { readonly card: readonly number[]; readonly threeDs: readonly number[] };
}

/**
 * The stack once the shop's server holds the admin token, as it does from its first request: that
 * request's record of it (kept in the ledger for later starts, once an hour) is no payment's.
 */
async function holdingToken(stack: Stack, log: StatementLog): Promise<Stack> {
  await stack.json('GET', '/api/orders?limit=1', 200, { admin: true });
  await vi.waitFor(() => expect(log.take().some((sql) => /^delete from "(?:payform_)?ledger_settings"/i.test(sql))).toBe(true));
  return stack;
}

function describeCounts(name: string, backend: (log: StatementLog) => LedgerBackend, expected: Expected): void {
  describe(`statements per payment, ${name}`, () => {
    const opened = stacksPerTest();
    const open = async (options: Parameters<typeof opened>[0] & { log: StatementLog }) => holdingToken(await opened(options), options.log);
    // Failed deliveries are not retried: the test posts them itself.
    const sandbox = { webhooks: { retryDelaysMs: [], timeoutMs: 5_000, reorderHoldMs: 300 } };

    it('a card payment: its session, the pay call, each webhook and a repeated one', async () => {
      const log = new StatementLog();
      const stack = await open({ backend: backend(log), sandbox, log });
      const { counts, sql, synced } = await countPayment(stack, log, 'success');
      expect(counts, JSON.stringify(sql, null, 1)).toEqual(expected.card);
      if (expected.synced) expect(synced).toEqual(expected.synced.card);
    });

    it('a 3-D Secure payment: the pay call, the return from the bank, each webhook', async () => {
      const log = new StatementLog();
      const stack = await open({ backend: backend(log), sandbox, log });
      const { counts, sql, synced } = await countPayment(stack, log, 'three_ds_challenge');
      expect(counts, JSON.stringify(sql, null, 1)).toEqual(expected.threeDs);
      if (expected.synced) expect(synced).toEqual(expected.synced.threeDs);
    });

    it('a declined card: its pay call, whose answer says the session takes another', async () => {
      const log = new StatementLog();
      const stack = await open({ backend: backend(log), sandbox, log });
      stack.dropWebhooks = true;
      const session = await stack.openSession();
      log.take();
      expect(await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ card: card('rejected') }) })).toMatchObject({ status: 'failure', retryable: true });
      const sent = log.take();
      expect(sent.length, JSON.stringify(sent, null, 1)).toBe(expected.declinedPay);
    });

    // Not a payment's path, but its cost must not grow with the page: the page, then every
    // listed order's operations in one read (their totals), whatever the number of orders.
    it('the orders list: the page and its orders’ operations, however many', async () => {
      const log = new StatementLog();
      const stack = await open({ backend: backend(log), sandbox, log });
      const listed = async (count: number) => {
        log.take();
        const page = await stack.json('GET', '/api/orders', 200, { admin: true });
        expect(page.orders).toHaveLength(count);
        return log.take();
      };
      expect(await listed(0)).toHaveLength(1);
      for (let order = 0; order < 3; order += 1) {
        const session = await stack.openSession();
        expect((await (await stack.pay(session.id)).json()).status).toBe('success');
        await stack.json('POST', `/api/orders/${session.order_id}/refund`, 200, { admin: true, body: { amount: 100 } });
      }
      await stack.settleWebhooks();
      const sent = await listed(3);
      expect(sent, JSON.stringify(sent, null, 1)).toHaveLength(2);
    });
  });
}

describeCounts('SQLite', sqliteFile, {
  // The file runs synchronous = NORMAL and its handle syncs the WAL after each commit itself
  // (sqlite.ts): a relaxed record costs no pragma statements before and after it.
  // A webhook that says what the pay answer recorded tries the refresh of that status first
  // (payments.ts recalledAnswer): BEGIN, the event's INSERT, one UPDATE, COMMIT.
  // The pay call of a session this process opened reads it in its claim only (session-terms.ts):
  // the usual claim is one INSERT that commits itself (sessions.ts claimNextAttempt), then the
  // answer's UPDATE and the mark's clearing.
  // A session without a key is its INSERT alone, synced; with one (its order id derived from the
  // key), the key's claim, the INSERT that checks no payment carries the order id, the kept answer.
  card: { openUnkeyed: 1, openSession: 3, pay: 3, webhooks: [4], repeatedWebhook: 4 },
  declinedPay: 3,
  // The return: the session read (its payment the order-state refresh starts from), the answer
  // recorded and the mark cleared, the order's operations read (order-state.ts), the session
  // read again for the page.
  // The first webhook (pending) comes after the return recorded success: stale, its outcome written over the foreseen one.
  threeDs: { openUnkeyed: 1, openSession: 3, pay: 3, returned: 5, webhooks: [7, 4], repeatedWebhook: 4 },
  // Synced: the unkeyed session; opening the keyed one (the Idempotency-Key's claim, the session,
  // the kept answer); the pay call's claim, not its answer; not the webhook that says what the
  // answer recorded, nor a repeat. 3-D Secure: the return records the order state the gateway holds, unsynced; the late
  // pending is stale; the success says what the return recorded.
  synced: { card: [1, 3, 1, 0, 0], threeDs: [1, 3, 1, 0, 0, 0, 0] },
});

withTestDatabase((url) =>
  describeCounts('PostgreSQL', (log) => postgres(url, log), {
    // The usual claim is one statement that commits itself (sessions.ts claimNextAttempt), then
    // the answer's UPDATE and the mark's clearing. A webhook that steps its payment (forward, or
    // the same status refreshed) or finds it past that is one statement outside any transaction,
    // with its group's (events.ts); so is a repeat. Clearing a told change's mark alone is one
    // UPDATE, outside a transaction.
    card: { openUnkeyed: 1, openSession: 3, pay: 3, webhooks: [1], repeatedWebhook: 1 },
    declinedPay: 3,
    // The late pending is stale: stored as such by the same statement.
    threeDs: { openUnkeyed: 1, openSession: 3, pay: 3, returned: 5, webhooks: [1, 1], repeatedWebhook: 1 },
  }),
);
