/**
 * The floor (servers/floor.ts, floor-postgres.ts) must do what it stands for, or the bench's
 * "payform ÷ floor" compares with nothing. As a webhook receiver, on SQLite and on PostgreSQL: a
 * signed event stored once and its payment moved on, a repeat answered as one (also within one
 * group of posts), a forged or unreadable post refused and nothing stored. As a
 * relay: the widget's pay request paid at the gateway (the sandbox over HTTP), the claim on disk
 * first, and the payment's own webhook taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testProjectCredentials } from '../../server/gateway/test-project.js';
import { webhookForm } from '../../server/gateway/webhook.js';
import { serveSandbox } from '../../server/sandbox/testing/served.js';
import { LoopbackClient } from './load/http-client.js';
import { sendPay } from './load/checkout.js';
import { benchCredentials, sandboxFor } from './servers/credentials.js';
import { floorRelay } from './servers/floor.js';
import { postgresWebhookFloor } from './servers/floor-postgres.js';
import { dropSchema, freshSchemaName, withTestDatabase } from '../../server/ledger/testing/databases.js';
import { withClient } from '../../server/ledger/testing/schema-pool.js';

const SECRET = 'floor-test-secret';

interface Stored {
  readonly events: number;
  readonly payments: ReadonlyArray<{ order_id: string; status: string }>;
}

/** A receiver of the floor's, listening, and what it has stored. */
interface Receiver {
  readonly server: Server;
  stored(): Promise<Stored>;
  dispose(): Promise<void>;
}

/** The same SQL on both databases; PostgreSQL's count comes back as text. */
const STORED = { events: 'select count(*) as n from events', payments: 'select order_id, status from payments order by order_id' };

function onSqlite(): Receiver {
  const dir = mkdtempSync(join(tmpdir(), 'payform-floor-'));
  return {
    server: floorRelay('http://127.0.0.1:9', join(dir, 'floor.db'), { ...testProjectCredentials({}), apiSecret: SECRET }),
    async stored() {
      const database = new Database(join(dir, 'floor.db'), { readonly: true });
      try {
        return { events: Number(database.prepare(STORED.events).pluck().get()), payments: database.prepare(STORED.payments).all() as Stored['payments'] };
      } finally {
        database.close();
      }
    },
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function onPostgres(url: string): Promise<Receiver> {
  const schema = freshSchemaName();
  const floor = await postgresWebhookFloor(url, schema, SECRET);
  return {
    server: floor.server,
    stored: () =>
      withClient(url, async (client) => {
        await client.query(`set search_path to ${schema}`);
        return { events: Number((await client.query(STORED.events)).rows[0].n), payments: (await client.query(STORED.payments)).rows };
      }),
    async dispose() {
      await floor.close();
      await dropSchema(url, schema);
    },
  };
}

function receiverTests(open: () => Receiver | Promise<Receiver>): void {
  let receiver: Receiver;
  let url: string;

  beforeEach(async () => {
    receiver = await open();
    await new Promise<void>((listening) => receiver.server.listen(0, '127.0.0.1', listening));
    url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/webhooks/gateway`;
  });
  afterEach(async () => {
    await new Promise((closed) => receiver.server.close(closed));
    await receiver.dispose();
  });

  const post = async (form: { readonly data: string; readonly signature: string }) => {
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
    return { status: response.status, body: await response.text() };
  };

  it('stores a signed event once, moves its payment on, and never back', async () => {
    const pending = webhookForm({ order_id: 'order-1', status: 'pending' }, SECRET);
    const success = webhookForm({ order_id: 'order-1', status: 'success' }, SECRET);
    expect(await post(pending)).toEqual({ status: 200, body: '{"duplicate":false}' });
    expect(await post(success)).toEqual({ status: 200, body: '{"duplicate":false}' });
    expect(await post(success)).toEqual({ status: 200, body: '{"duplicate":true}' });
    expect(await post(webhookForm({ order_id: 'order-1', status: 'pending', late: true }, SECRET))).toEqual({ status: 200, body: '{"duplicate":false}' });
    expect(await receiver.stored()).toEqual({ events: 3, payments: [{ order_id: 'order-1', status: 'success' }] });
  });

  it('takes posts sent together as one each, a repeat among them answered as one', async () => {
    const forms = ['order-2', 'order-3'].flatMap((orderId) => ['pending', 'success'].map((status) => webhookForm({ order_id: orderId, status }, SECRET)));
    const answers = await Promise.all([...forms, forms[3]!].map(post));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body === '{"duplicate":false}')).toHaveLength(4);
    expect(await receiver.stored()).toEqual({
      events: 4,
      payments: [
        { order_id: 'order-2', status: 'success' },
        { order_id: 'order-3', status: 'success' },
      ],
    });
  });

  it('refuses a forged post and one it cannot read, storing nothing', async () => {
    const forged = webhookForm({ order_id: 'order-4', status: 'success' }, 'another-secret');
    expect((await post(forged)).status).toBe(401);
    const unreadable = webhookForm({ status: 'success' }, SECRET);
    expect((await post(unreadable)).status).toBe(400);
    expect(await receiver.stored()).toEqual({ events: 0, payments: [] });
  });
}

describe('the floor, as a webhook receiver on SQLite', () => receiverTests(onSqlite));

describe('the floor, as a webhook receiver on PostgreSQL', () => withTestDatabase((url) => receiverTests(() => onPostgres(url))));

describe('the floor, as a relay of card payments', () => {
  it('pays what the widget sends through the sandbox and takes the payment\'s webhook', async () => {
    const credentials = benchCredentials({});
    const sandbox = await serveSandbox(sandboxFor(credentials));
    const dir = mkdtempSync(join(tmpdir(), 'payform-floor-'));
    const server = floorRelay(sandbox.url, join(dir, 'floor.db'), credentials);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const client = new LoopbackClient(1);
    try {
      const reply = await sendPay(client, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'floor');
      expect(reply.status, reply.body).toBe(200);
      const { status, order_id: orderId } = JSON.parse(reply.body) as { status: string; order_id: string };
      expect(status).toBe('success');
      const database = new Database(join(dir, 'floor.db'), { readonly: true });
      try {
        await expect.poll(() => database.prepare('select status from events where order_id = ?').pluck().all(orderId), { timeout: 10_000 }).toEqual(['success']);
        expect(database.prepare('select session_id, status from payments where order_id = ?').get(orderId)).toEqual({ session_id: 'floor', status: 'success' });
      } finally {
        database.close();
      }
    } finally {
      client.close();
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
