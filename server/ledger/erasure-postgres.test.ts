// An erasure on PostgreSQL, where writers run side by side and each statement reads what was
// committed before it: a webhook about an order stored while the order was being erased, and an
// event stored by a session that is not the ledger's, keep none of the customer's details.
import { Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { ERASED_BODY } from './migrations.js';
import { gatewayEvent, paidOrder } from './testing/contract.js';
import { postgresDialect } from './postgres.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { migratedTo } from './testing/earlier-ledgers.js';
import { PAY_CLAIM } from './testing/large-ledger.js';

const olena = { email: 'olena.race@example.com', fname: 'Olena', lname: 'Koval', phone: '+380501234567' };
const details = { customer_email: olena.email, customer_phone: olena.phone };

withTestDatabase((url) => {
  let schema: string;
  let ledger: Ledger;
  let client: pg.Client;
  /** The ledgers' connections, named apart from the other test files' on the same database. */
  let ledgerUrl: string;

  beforeEach(async () => {
    schema = freshSchemaName();
    ledgerUrl = Object.assign(new URL(url), { search: `application_name=${schema}` }).href;
    ledger = await openLedger(ledgerUrl, { schema });
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
    await ledger.close();
    await dropSchema(url, schema);
  });

  /** Resolves once `count` of the ledgers' statements wait for a lock another transaction holds. */
  async function waitingForLocks(count: number): Promise<void> {
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    try {
      for (;;) {
        const { rows } = await watcher.query<{ waiting: number }>(
          "select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and application_name = $1",
          [schema],
        );
        if (rows[0]!.waiting >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await watcher.end();
    }
  }

  /**
   * Runs `webhook` while the erasure of the order's customer is under way: its batch's transaction
   * open, the payment locked and the order marked erased, neither committed — held there by
   * another session's lock on the order's first event, which the batch goes on to change.
   */
  async function duringErasure(orderId: string, webhook: () => Promise<unknown>): Promise<void> {
    await client.query(`set search_path to "${schema}"`);
    await client.query('begin');
    await client.query("select 1 from payform_webhook_events where order_id = $1 and body like '%customer_phone%' for update", [orderId]);
    const erasure = ledger.eraseCustomer({ customerId: 'cust-olena' });
    await waitingForLocks(1);
    const delivered = webhook();
    // The webhook's statement waits for the payment the batch locked.
    await waitingForLocks(2);
    await client.query('commit');
    await Promise.all([erasure, delivered]);
  }

  async function paidWithWebhook() {
    const charge = await paidOrder(ledger, { customer: olena, customerId: 'cust-olena', amount: 900, currency: 'UAH' }, { paymentId: 'pay-race', ccToken: 'tok-old' });
    await ledger.ingestEvent(gatewayEvent({ orderId: charge.orderId, method: 'purchase', status: 'success', statusCode: '1000', amount: 900, currency: 'UAH', paymentId: 'pay-race' }, details));
    return charge;
  }

  it('takes the customer out of a webhook stored while its order was being erased', async () => {
    const charge = await paidWithWebhook();
    // A refund made in the gateway's portal: stored, then the payment locked to apply it.
    await duringErasure(charge.orderId, () =>
      ledger.ingestEvent(gatewayEvent({ orderId: charge.orderId, method: 'refund', status: 'success', statusCode: '1000', amount: 300, currency: 'UAH', operationId: 'op-race' }, { ...details, n: 1 })),
    );
    const order = (await ledger.getOrder(charge.orderId))!;
    expect(order.operations).toMatchObject([{ kind: 'refund', amount: 300, status: 'success' }]);
    expect(order.events).toHaveLength(2);
    for (const { body } of order.events) expect(body).not.toMatch(/olena\.race|\+380501234567/u);
  });

  it('keeps the card token out of an order a webhook refreshed while the order was being erased', async () => {
    const charge = await paidWithWebhook();
    // The gateway's re-send with a card token: its group's one statement, its step waiting for the lock.
    await duringErasure(charge.orderId, () =>
      ledger.ingestEvent(gatewayEvent({ orderId: charge.orderId, method: 'purchase', status: 'success', statusCode: '1000', amount: 900, currency: 'UAH', paymentId: 'pay-race', ccToken: 'tok-new', ccTokenExpiration: '12/30' }, { ...details, n: 2 })),
    );
    const order = (await ledger.getOrder(charge.orderId))!;
    expect(order.payment).toMatchObject({ customer: {}, ccToken: null, ccTokenExpiration: null });
    for (const { body } of order.events) expect(body).not.toMatch(/olena\.race|\+380501234567/u);
  });

  it('keeps the card token out of an erased order whoever writes it, and lets others take theirs', async () => {
    const charge = await paidWithWebhook();
    const other = await paidOrder(ledger, { customer: { email: 'taras.race@example.com' }, amount: 500, currency: 'UAH' }, { paymentId: 'pay-other' });
    await ledger.eraseCustomer({ email: olena.email });
    // An instance of the build before refreshes a payment from a webhook without this build's code; so does a person at psql.
    const giveToken = (orderId: string) => client.query(`update "${schema}".payform_payments set cc_token = 'tok-back', cc_token_expiration = '12/30' where order_id = $1`, [orderId]);
    await giveToken(charge.orderId);
    await giveToken(other.orderId);
    expect((await ledger.getOrder(charge.orderId))!.payment).toMatchObject({ ccToken: null, ccTokenExpiration: null });
    expect((await ledger.getOrder(other.orderId))!.payment).toMatchObject({ ccToken: 'tok-back', ccTokenExpiration: '12/30' });
  });

  it('takes out, as it upgrades, a card token an instance of the build before gave an erased order', async () => {
    const earlier = freshSchemaName();
    const db = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema: earlier, poolSize: 1 }) });
    try {
      // A ledger as 0026 left it: an order erased, then given its token back by an instance of the build before.
      await migratedTo(db, '0026_erased_orders', earlier);
      await client.query(`set search_path to "${earlier}"`);
      for (const statement of PAY_CLAIM) await client.query(statement, ['erased-1']);
      await client.query("insert into payform_erased_orders (order_id, erased_at) values ('erased-1', 1)");
      await client.query("update payform_payments set cc_token = 'tok-back', cc_token_expiration = '12/30' where order_id = 'erased-1'");
      const upgraded = await openLedger(ledgerUrl, { schema: earlier });
      await upgraded.close();
      expect((await client.query('select cc_token, cc_token_expiration from payform_payments')).rows).toEqual([{ cc_token: null, cc_token_expiration: null }]);
    } finally {
      await db.destroy();
      await dropSchema(url, earlier);
    }
  });

  it('lets two instances store events of one order at once, each then locking its payment: the erasure’s lock waits for neither', async () => {
    const charge = await paidWithWebhook();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const insert = (session: pg.Client, id: string) =>
        session.query("insert into payform_webhook_events (id, method, status, order_id, body, facts, received_at, tried_at, outcome) values ($1, 'refund', 'success', $2, '{}', '{}', 1, 1, 'unmatched')", [id, charge.orderId]);
      const lock = (session: pg.Client) => session.query('select 1 from payform_payments where order_id = $1 for update', [charge.orderId]);
      for (const session of [client, other]) {
        await session.query(`set search_path to "${schema}"`);
        await session.query('begin');
      }
      await insert(client, 'first');
      await insert(other, 'second');
      // As a refund's webhook goes on: its payment locked. Neither insert holds the row.
      await lock(client);
      const second = lock(other);
      await client.query('commit');
      await second;
      await other.query('commit');
      expect((await client.query('select id from payform_webhook_events where id in ($1, $2) order by id', ['first', 'second'])).rows).toEqual([{ id: 'first' }, { id: 'second' }]);
    } finally {
      await other.end();
    }
  });

  it('strips an event another session stores, whatever its search_path, and one whose body jsonb cannot hold', async () => {
    const charge = await paidOrder(ledger, { customer: olena, customerId: 'cust-olena', amount: 900, currency: 'UAH' }, { paymentId: 'pay-restore' });
    await ledger.eraseCustomer({ customerId: 'cust-olena' });
    // A restore, an ETL job, a person at psql: the table named by its schema, nothing else set.
    await client.query("set search_path to ''");
    const insert = (id: string, body: string) =>
      client.query(
        `insert into "${schema}".payform_webhook_events (id, method, status, order_id, body, facts, received_at, tried_at, outcome)
         values ($1, 'refund', 'success', $2, $3, $4, 1, 1, 'unmatched')`,
        [id, charge.orderId, body, JSON.stringify({ orderId: charge.orderId, ccToken: 'tok-"quoted"\\', ccTokenExpiration: '12/30' })],
      );
    await insert('restored-1', JSON.stringify({ order_id: charge.orderId, ...details, customer_id: 'cust-olena' }));
    await insert('restored-2', JSON.stringify({ order_id: charge.orderId, ...details, note: 'a\u0000b' }));
    const { rows } = await client.query<{ id: string; body: string; facts: string }>(`select id, body, facts from "${schema}".payform_webhook_events where id like 'restored-%' order by id`);
    expect(rows.map(({ id, body }) => [id, JSON.parse(body) as unknown])).toEqual([
      ['restored-1', { order_id: charge.orderId, customer_id: 'cust-olena' }],
      ['restored-2', JSON.parse(ERASED_BODY)],
    ]);
    for (const { facts } of rows) expect(JSON.parse(facts)).toEqual({ orderId: charge.orderId, ccToken: null, ccTokenExpiration: null });
  });

  it('upgrades a ledger whose webhooks a transaction left open holds, without holding the other instances’ webhooks meanwhile', async () => {
    const earlier = freshSchemaName();
    const db = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema: earlier, poolSize: 1 }) });
    const holder = new pg.Client({ connectionString: url });
    const writer = new pg.Client({ connectionString: url });
    try {
      await migratedTo(db, '0025_saved_card_payments', earlier);
      for (const session of [holder, writer]) {
        await session.connect();
        await session.query(`set search_path to "${earlier}"`);
      }
      const event = (id: string) => writer.query("insert into payform_webhook_events (id, method, status, order_id, body, facts, received_at, tried_at, outcome) values ($1, 'purchase', 'success', 'o-1', '{}', '{}', 1, 1, 'unmatched')", [id]);
      // A report's transaction that wrote a webhook event, left open.
      await holder.query('begin');
      await holder.query("insert into payform_webhook_events (id, method, status, order_id, body, facts, received_at, tried_at, outcome) values ('held', 'purchase', 'success', 'o-0', '{}', '{}', 1, 1, 'unmatched')");
      const upgraded = openLedger(ledgerUrl, { schema: earlier });
      await waitingForLocks(1);
      // An instance of the version before stores its webhooks meanwhile: between the upgrade's tries.
      for (const id of ['meanwhile-1', 'meanwhile-2']) await event(id);
      await holder.query('commit');
      const ledger = await upgraded;
      await ledger.close();
      expect((await writer.query<{ name: string }>('select name from ledger_migration order by name desc limit 1')).rows).toEqual([{ name: '0028_retention_waits' }]);
    } finally {
      await holder.end().catch(() => undefined);
      await writer.end().catch(() => undefined);
      await db.destroy();
      await dropSchema(url, earlier);
    }
  });
});
