// Two companion instances sharing one PostgreSQL behave as one: each test opens two ledgers
// (two connection pools) on one fresh schema and races them against each other.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment, gatewayEvent, paidOrder, refundsOf } from './testing/contract.js';
import { TestClock, dropSchema, freshSchemaName, postgresTestLedger, withTestDatabase } from './testing/databases.js';
import type { TestLedger } from './testing/databases.js';

withTestDatabase((url) => {
describe('two ledger instances on one PostgreSQL', () => {
  let store: TestLedger;
  let a: Ledger;
  let b: Ledger;
  /** Alternates the two instances, as a load balancer would. */
  const either = (i: number) => (i % 2 ? a : b);

  beforeEach(async () => {
    store = await postgresTestLedger(url, new TestClock());
    a = store.ledger;
    b = await store.reopen!();
  });
  afterEach(async () => {
    await store.dispose();
  });

  it('keep refunds within the amount when 50 race through both', async () => {
    const { orderId } = await paidOrder(a, { amount: 1000 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, async (_, i) => {
        const op = await either(i).reserveOperation(orderId, { kind: 'refund', amount: 30 });
        return either(i + 1).settleOperation(op.id, { status: 'success' });
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(33);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ reason: 'exceeds_refundable' });
    }
    for (const ledger of [a, b]) {
      const detail = await ledger.getOrder(orderId);
      expect(refundsOf(detail!.operations).reduce((sum, op) => sum + op.amount, 0)).toBe(990);
      expect(await ledger.refundableAmount(orderId)).toBe(10);
    }
  });

  it('let only one of a void and a capture racing on one auth through', async () => {
    for (let round = 0; round < 5; round++) {
      const { orderId } = await paidOrder(a, { method: 'auth' });
      const [voided, captured] = await Promise.allSettled([
        a.reserveOperation(orderId, { kind: 'void' }),
        b.reserveOperation(orderId, { kind: 'capture', amount: 500 }),
      ]);
      expect([voided.status, captured.status].filter((status) => status === 'fulfilled')).toHaveLength(1);
    }
  });

  it('store a webhook delivered to both instances at once exactly once', async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, (_, i) => claimedPayment(either(i))));
    const events = orders.flatMap(({ orderId }) => [
      gatewayEvent({ method: 'purchase', status: 'pending', orderId, statusCode: '2122' }),
      gatewayEvent({ method: 'purchase', status: 'success', orderId, statusCode: '1000' }),
    ]);
    // Every event three times through each instance, all at once.
    const deliveries = events.flatMap((event) => Array.from({ length: 6 }, (_, i) => either(i).ingestEvent(event)));
    const results = await Promise.all(deliveries);
    expect(results.filter((result) => result.isNew)).toHaveLength(events.length);
    for (const { orderId } of orders) {
      const detail = await b.getOrder(orderId);
      expect(detail?.events).toHaveLength(2);
      // Whatever order they landed in, success is final.
      expect(detail?.payment.status).toBe('success');
    }
    const advancedToSuccess = results.filter((result) => result.advanced && result.payment?.status === 'success');
    expect(advancedToSuccess).toHaveLength(orders.length);
  });

  it('let exactly one of the pay clicks spread over both instances start a payment', async () => {
    const session = await a.createSession({ amount: 500, currency: 'XTS', description: 'Oolong', method: 'purchase' });
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => either(i).claimPayAttempt(session.id, { mode: 'direct' })));
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
    expect((await b.listOrders()).orders).toHaveLength(1);
  });
});

describe('instances starting at once on an empty PostgreSQL schema', () => {
  const schema = freshSchemaName();
  afterEach(() => dropSchema(url, schema));

  it('migrate it once and all work', async () => {
    const ledgers = await Promise.all(Array.from({ length: 4 }, () => openLedger(url, { schema, poolSize: 2 })));
    try {
      const payment = await paidOrder(ledgers[0]!);
      for (const ledger of ledgers) expect((await ledger.getPayment(payment.orderId))?.status).toBe('success');
    } finally {
      await Promise.all(ledgers.map((ledger) => ledger.close()));
    }
    const reopened = await openLedger(url, { schema });
    await reopened.close();
  });
});

describe('an instance starting while another holds the migration lock', () => {
  const schema = freshSchemaName();
  afterEach(() => dropSchema(url, schema));

  it('says it waits, then starts once the lock is let go', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (line: string) => warnings.push(line), error: (line: string) => warnings.push(line) };
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(3853314791062309107)');
      let opened = false;
      const opening = openLedger(url, { schema, poolSize: 2, log }).then((ledger) => ((opened = true), ledger));
      await vi.waitFor(() => expect(warnings).toHaveLength(1), { timeout: 10_000 });
      expect(warnings[0]).toContain('another instance holds the migration lock');
      expect(opened).toBe(false);
      await holder.query('commit');
      const ledger = await opening;
      await ledger.close();
      expect(warnings).toHaveLength(1);
    } finally {
      await holder.end();
    }
  });
});

describe('ledgers opening while other schemas of the database are dropped', () => {
  // Other test files (or tenants of one database) create and drop schemas of their own all the
  // time; a ledger migrating its own schema must not trip over one vanishing mid-query.
  const CHURNERS = 3;
  const OPENS = 15;
  const opened: string[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((schema) => dropSchema(url, schema)));
  });

  async function churnSchemas(client: pg.Client, running: () => boolean): Promise<number> {
    let dropped = 0;
    while (running()) {
      const schema = freshSchemaName();
      await client.query(`create schema ${schema}; ${['a', 'b', 'c', 'd'].map((table) => `create table ${schema}.${table} (id serial primary key, note text);`).join(' ')}`);
      await client.query(`drop schema ${schema} cascade`);
      dropped += 1;
    }
    return dropped;
  }

  it('open and migrate their own schemas every time', async () => {
    const clients = await Promise.all(
      Array.from({ length: CHURNERS }, async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        return client;
      }),
    );
    let running = true;
    const churn = Promise.all(clients.map((client) => churnSchemas(client, () => running)));
    const failures: string[] = [];
    try {
      for (let open = 0; open < OPENS; open += 1) {
        const schema = freshSchemaName();
        opened.push(schema);
        try {
          const ledger = await openLedger(url, { schema, poolSize: 1 });
          await ledger.close();
        } catch (error) {
          const cause = ((error as Error).cause ?? error) as { code?: string; message: string };
          failures.push(`${cause.code ?? ''} ${cause.message}`);
        }
      }
    } finally {
      running = false;
      const dropped = await churn.finally(() => Promise.all(clients.map((client) => client.end())));
      // The race was there to lose: schemas vanished while the ledgers opened.
      expect(dropped.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(OPENS);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
});
