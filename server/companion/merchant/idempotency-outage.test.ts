// An Idempotency-Key whose request the database went away during, on two companions sharing one
// database (a SQLite file; PostgreSQL reached through a TCP proxy that can cut every connection):
// once the database is back, a retry runs the request, or replays the answer it had — never a
// 409 "still running" for the lease's 5 minutes because the claim could not be settled while the
// database was away. Nothing is made twice.
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import { fileBackend, trackedLedgers, withTestDatabase } from '../../ledger/testing/databases.js';
import type { LedgerBackend, TestLedger } from '../../ledger/testing/databases.js';
import { awayWhile } from '../../ledger/testing/away-ledger.js';
import { databaseProxy } from '../../ledger/testing/database-proxy.js';
import { claimSchema, releaseSchema } from '../../ledger/testing/schema-pool.js';
import { keyedOrderId } from '../http/keyed-order-id.js';
import { ADMIN_TOKEN, eventually, stacksPerTest } from '../test/stack.js';
import type { Instance, Json, Stack } from '../test/stack.js';

/** A database the test sends away at a moment of a request's, and brings back. */
interface AwayDatabase {
  readonly backend: LedgerBackend;
  /** The database goes away as `method` is called (`before` it runs), or once it has answered (`after`). */
  awayAt(method: keyof Ledger, when: 'before' | 'after'): void;
  back(): void;
}

/**
 * Every ledger the backend opens (both instances') tells `away` the moment the test picked,
 * once; `dispose` brings the database back first, so the ledgers close.
 */
function awayOn(backend: LedgerBackend, away: () => void, back: () => void, wrap: (ledger: Ledger) => Ledger = (ledger) => ledger): AwayDatabase {
  let moment: { method: keyof Ledger; when: 'before' | 'after' } | undefined;
  const told = (ledger: Ledger): Ledger =>
    new Proxy(wrap(ledger), {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function' || moment?.method !== name) return value;
        return async (...args: unknown[]) => {
          const when = moment?.when;
          moment = undefined;
          if (when === 'before') away();
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (when === 'after') away();
          return result;
        };
      },
    });
  return {
    backend: {
      ...backend,
      async open(clock) {
        const opened: TestLedger = await backend.open(clock);
        return {
          ...opened,
          ledger: told(opened.ledger),
          reopen: async () => told(await opened.reopen!()),
          dispose() {
            back();
            return opened.dispose();
          },
        };
      },
    },
    awayAt: (method, when) => (moment = { method, when }),
    back,
  };
}

/** A SQLite file whose every ledger call fails as a file another process holds locked does, while away. */
function awaySqlite(): AwayDatabase {
  let away = false;
  return awayOn(fileBackend, () => (away = true), () => (away = false), (ledger) => awayWhile(ledger, () => away));
}

const proxies: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

/** Every instance's ledger on a schema of its own, through a proxy the test can cut. */
async function awayPostgres(databaseUrl: string): Promise<AwayDatabase> {
  const proxy = await databaseProxy(databaseUrl);
  proxies.push(proxy);
  const backend: LedgerBackend = {
    name: 'PostgreSQL',
    persistent: true,
    async open(clock) {
      const schema = await claimSchema(databaseUrl);
      return trackedLedgers(() => openLedger(proxy.url, { clock: clock.read, schema }), () => releaseSchema(databaseUrl, schema));
    },
  };
  return awayOn(backend, () => proxy.cut(), () => proxy.restore());
}

const openStack = stacksPerTest();

function describeOutages(name: string, database: () => Promise<AwayDatabase>): void {
  describe(`a keyed request the database went away during, its claim not settled then (${name})`, () => {
    let stack: Stack;
    let other: Instance;
    let db: AwayDatabase;
    const open = async () => {
      db = await database();
      stack = await openStack({ backend: db.backend, served: true });
      other = await stack.instance();
    };
    const create = async (key: string, send = stack.request) => {
      const response = await send('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' }, headers: { 'Idempotency-Key': key } });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as Json };
    };
    const refund = async (orderId: string, key: string) => {
      const response = await stack.request('POST', `/api/orders/${orderId}/refund`, { admin: true, body: { amount: 200 }, headers: { 'Idempotency-Key': key } });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as Json };
    };
    const gatewayRefunds = (orderId: string) => {
      const { gateway } = stack.sandbox.sandbox;
      return (gateway.store.order(gateway.defaultProject.posId, orderId)?.operations ?? []).filter((operation) => operation.method === 'refund' && operation.status === 'success').map((operation) => operation.amount);
    };

    it('a session creation: the retry on the same instance makes it as soon as the database is back, once', async () => {
      await open();
      db.awayAt('claimIdempotencyKey', 'after');
      expect((await create('repro-1')).body.error.code).toBe('ledger_unavailable');
      // Still away: the database's answer, not "in use".
      expect((await create('repro-1')).body.error.code).toBe('ledger_unavailable');
      db.back();
      const retry = await create('repro-1');
      expect(retry).toMatchObject({ status: 201, replayed: null, body: { order_id: keyedOrderId(ADMIN_TOKEN, 'repro-1') } });
      expect(await create('repro-1')).toEqual({ ...retry, replayed: 'true' });
      expect(await create('repro-1', other.request)).toEqual({ ...retry, replayed: 'true' });
      expect((await stack.ledger.findSessionOfOrder(retry.body.order_id as string))?.id).toBe(retry.body.id);
    });

    it('a session creation: the retry on another instance runs once the claiming one has seen the database back', async () => {
      await open();
      db.awayAt('claimIdempotencyKey', 'after');
      expect((await create('repro-2')).status).toBe(503);
      db.back();
      // Until the claiming instance's probe (every second) has seen the database: 409 with Retry-After.
      const retry = await eventually(async () => {
        const answer = await create('repro-2', other.request);
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        return answer;
      }, 5_000);
      expect(await create('repro-2')).toEqual({ ...retry, replayed: 'true' });
    });

    it('a refund the database went away during before it was reserved: the retry refunds, once', async () => {
      await open();
      const session = await stack.openSession({ amount: 1010 });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const orderId = session.order_id as string;
      db.awayAt('claimIdempotencyKey', 'after');
      expect((await refund(orderId, 'refund-away')).body.error.code).toBe('ledger_unavailable');
      db.back();
      const retry = await refund(orderId, 'refund-away');
      expect(retry).toMatchObject({ status: 200, replayed: null, body: { operation: { kind: 'refund', amount: 200, status: 'success' } } });
      expect(await refund(orderId, 'refund-away')).toEqual({ ...retry, replayed: 'true' });
      expect(gatewayRefunds(orderId)).toEqual([200]);
    });

    it('a cancel answered, its answer not kept: the retry gets that answer again, not "in use" or "interrupted"', async () => {
      await open();
      const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
      expect((await stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { body: {} })).status).toBe(200);
      const cancel = async (send = stack.request) => {
        const response = await send('POST', `/api/orders/${session.order_id}/cancel`, { admin: true, body: {}, headers: { 'Idempotency-Key': 'cancel-unkept' } });
        return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
      };
      db.awayAt('storeIdempotentAnswer', 'before');
      const first = await cancel();
      expect(first).toMatchObject({ status: 200, replayed: null });
      db.back();
      expect(await cancel()).toEqual({ ...first, replayed: 'true' });
      expect(await cancel(other.request)).toEqual({ ...first, replayed: 'true' });
    });
  });
}

describeOutages('SQLite file', async () => awaySqlite());
withTestDatabase((url) => describeOutages('PostgreSQL', () => awayPostgres(url)));
