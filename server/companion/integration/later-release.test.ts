// An instance keeps serving while a later release migrates the ledger under it (a rolling
// upgrade on one database): the migration adds a column to a table, and every path this instance
// prepared its statements on before still answers. PostgreSQL refuses a prepared `select *` (or
// `returning *`) whose columns changed, "cached plan must not change result type", and inside a
// transaction that refusal cannot be mended by preparing it again: a capture the gateway made was
// answered 500.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LEDGER_TABLES, stored } from '../../ledger/table-names.js';
import { openLedger } from '../../ledger/ledger.js';
import { fileBackend, trackedLedgers, withTestDatabase } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { dropSchema, freshSchemaName, withClient } from '../../ledger/testing/schema-pool.js';
import { createStack, eventually, payBody } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const CUSTOMER_ID = 'later-release-customer';

/** What a later release's migration does: a column added to every table of the ledger. */
async function addColumnEverywhere(database: { file: string } | { url: string; schema: string }): Promise<void> {
  const statements = (prefix: string) => LEDGER_TABLES.map((table) => `alter table ${prefix}${stored(table)} add column added_by_a_later_release text`);
  if ('file' in database) {
    const other = new Database(database.file);
    try {
      for (const statement of statements('')) other.exec(statement);
    } finally {
      other.close();
    }
    return;
  }
  await withClient(database.url, async (other) => {
    for (const statement of statements(`${database.schema}.`)) await other.query(statement);
  });
}

/** A payment of each kind, its webhook, every back-office operation and read: each answers as it should. */
async function everyPath(stack: Stack): Promise<void> {
  const op = (orderId: string, action: string, status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
    stack.json('POST', `/api/orders/${orderId}/${action}`, status, { admin: true, body, headers });
  const paid = async (session: Json, body = payBody()) => expect((await (await stack.pay(session.id, body)).json()).status).toBe('success');

  const auth = await stack.openSession({ method: 'auth', customer_id: CUSTOMER_ID });
  await paid(auth);
  const key = { 'Idempotency-Key': `capture-${auth.order_id}` };
  expect((await op(auth.order_id, 'capture', 200, { amount: 500 }, key)).operation.status).toBe('success');
  expect((await op(auth.order_id, 'capture', 200, { amount: 500 }, key)).operation.status).toBe('success');
  expect((await op(auth.order_id, 'refund', 200, { amount: 150 })).totals).toMatchObject({ refunded: 150, refundable: 350 });

  const next = await stack.openSession({ customer_id: CUSTOMER_ID });
  const [saved] = (await stack.json('GET', `/api/checkout/sessions/${next.id}`, 200)).saved_cards;
  await paid(next, payBody({ card: { token: saved.token } }));

  const voided = await stack.openSession({ method: 'auth' });
  await paid(voided);
  expect((await op(voided.order_id, 'void', 200)).operation.status).toBe('success');

  const hosted = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
  await stack.json('POST', `/api/checkout/sessions/${hosted.id}/hosted`, 200, { body: {} });
  expect((await op(hosted.order_id, 'cancel', 200)).order.status_code).toBe('6007');

  await eventually(async () => {
    const events = (await stack.json('GET', `/api/orders/${auth.order_id}`, 200, { admin: true })).events;
    expect(events.map((event: { method: string }) => event.method).sort()).toEqual(['auth', 'capture', 'refund']);
  });
  expect((await stack.json('GET', '/api/orders?limit=4', 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id)).toEqual([hosted.order_id, voided.order_id, next.order_id, auth.order_id]);
  await stack.json('GET', `/api/orders?email=${encodeURIComponent('olena@example.com')}`, 200, { admin: true });
  await stack.json('GET', '/api/webhook-events', 200, { admin: true });
  await stack.json('GET', '/api/movements', 200, { admin: true });
}

function describeLaterRelease(backend: LedgerBackend, database: (stack: Stack) => Parameters<typeof addColumnEverywhere>[0]): void {
  describe(`an instance while a later release migrates its ledger (${backend.name})`, () => {
    let stack: Stack;
    afterEach(async () => {
      await stack.close();
    });

    it('answers every path it took before, as before', async () => {
      stack = await createStack({ backend, served: true });
      await everyPath(stack);
      await addColumnEverywhere(database(stack));
      await everyPath(stack);
      expect(stack.logs.filter((line) => /"level":"(error|fatal)"/.test(line))).toEqual([]);
    });
  });
}

describeLaterRelease(fileBackend, (stack) => ({ file: stack.testLedger.file! }));
withTestDatabase((url) => {
  // A schema of its own, dropped after (the pooled ones are reused by other tests), and one
  // connection: the statements prepared on the first pass are the ones the second runs.
  const schema = freshSchemaName();
  const backend: LedgerBackend = {
    name: 'PostgreSQL',
    persistent: true,
    open: (clock) => trackedLedgers(() => openLedger(url, { clock: clock.read, schema, poolSize: 1 }), () => dropSchema(url, schema)),
  };
  describeLaterRelease(backend, () => ({ url, schema }));
});
