// A PostgreSQL connection that stalls (a failover, packets lost: TCP stays up, nothing answers)
// must not hold the ledger's callers for as long as the stall lasts: each statement fails within
// its deadline as the database being away, and the ledger works again once answers come back.
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLedgerUnavailable } from './availability.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment, gatewayEvent, paidOrder, teaSession } from './testing/contract.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';

/**
 * A TCP proxy to `target` that can stop passing bytes on while every connection stays open —
 * a connection opened meanwhile too: it is accepted, and answers nothing.
 */
async function stallingProxy(target: URL): Promise<{ url: string; stall(): void; resume(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    if (stalled) for (const socket of [client, upstream]) socket.pause();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.href,
    // A paused socket reads nothing more: what either side sends waits in the kernel's buffers.
    stall: () => {
      stalled = true;
      sockets.forEach((socket) => socket.pause());
    },
    resume: () => {
      stalled = false;
      sockets.forEach((socket) => socket.resume());
    },
    close: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

withTestDatabase((url) => {
  describe('a PostgreSQL connection that stalls', () => {
    let proxy: Awaited<ReturnType<typeof stallingProxy>>;
    let ledger: Ledger;
    const schema = freshSchemaName();

    /** What the ledger sent the database, in order (counted once the test says). */
    let sent: string[] | undefined;

    beforeEach(async () => {
      proxy = await stallingProxy(new URL(url));
      sent = undefined;
      ledger = await openLedger(proxy.url, { schema, poolSize: 2, statementTimeoutMs: 400, onStatement: (sql) => void sent?.push(sql) });
    });
    afterEach(async () => {
      proxy.resume();
      await ledger.close();
      await proxy.close();
      await dropSchema(url, schema);
    });

    it('fails each statement within its deadline as the database being away, and recovers', async () => {
      const { orderId } = await paidOrder(ledger);
      proxy.stall();
      // Settled while the stall lasts: without the deadline the call waits for the resume that
      // only comes after it, and the test times out.
      const refused = await ledger.getOrder(orderId).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isLedgerUnavailable(refused), String(refused)).toBe(true);
      proxy.resume();
      await expect.poll(async () => (await ledger.getOrder(orderId).catch(() => undefined))?.payment.status, { timeout: 10_000 }).toBe('success');
    });

    it('fails a group of webhook events at once as the database being away, running none of them again to wait once more', async () => {
      const orders: string[] = [];
      for (let i = 0; i < 6; i++) orders.push((await claimedPayment(ledger)).orderId);
      proxy.stall();
      sent = [];
      const settled = await Promise.allSettled(orders.map((orderId) => ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', statusCode: '1000', orderId }))));
      expect(settled.map((event) => event.status === 'rejected' && isLedgerUnavailable(event.reason))).toEqual(orders.map(() => true));
      // One statement stored the group, and missed its deadline. Before, the group ran again in
      // a transaction and then each event alone, each waiting out the stall in turn.
      expect(sent).toHaveLength(1);
      proxy.resume();
      // The gateway sends them again. The statement that missed its deadline may have landed
      // once its bytes got through: each event is stored and applied once either way.
      await expect.poll(async () => (await ledger.getOrder(orders[0]!).catch(() => undefined)) !== undefined, { timeout: 10_000 }).toBe(true);
      for (const orderId of orders) await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', statusCode: '1000', orderId }));
      for (const orderId of orders) expect(await ledger.getOrder(orderId)).toMatchObject({ payment: { status: 'success' }, events: [{ status: 'success' }] });
    });

    it('never lends again a connection whose transaction stalled: later writes are committed, not held in it', async () => {
      const { orderId } = await paidOrder(ledger);
      proxy.stall();
      // A transaction (lock the payment, insert the reservation) whose statements, ROLLBACK included, miss their deadline.
      await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 })).rejects.toSatisfy(isLedgerUnavailable);
      proxy.resume();
      // Writes of their own, each committed when it returns — seen from another pool.
      const paid = [];
      for (let i = 0; i < 4; i++) paid.push((await paidOrder(ledger)).orderId);
      const other = await openLedger(url, { schema });
      try {
        for (const id of paid) expect((await other.getPayment(id))?.status, id).toBe('success');
      } finally {
        await other.close();
      }
    });
  });
});

withTestDatabase((url) => {
  describe('a statement held behind a lock past its deadline', () => {
    const schema = freshSchemaName();
    let ledger: Ledger;
    let holder: pg.Client;

    beforeEach(async () => {
      ledger = await openLedger(url, { schema, statementTimeoutMs: 400 });
      holder = new pg.Client({ connectionString: url });
      await holder.connect();
    });
    afterEach(async () => {
      await holder.end();
      await ledger.close();
      await dropSchema(url, schema);
    });

    it('is cancelled by the server, so the "nothing was written" it fails with holds once the lock goes', async () => {
      const session = await ledger.createSession(teaSession);
      // Another process (a migration, an operator's psql) holds the payments table.
      await holder.query('begin');
      await holder.query(`lock table "${schema}".payform_payments in access exclusive mode`);
      const refused = await ledger.claimPayAttempt(session.id, { mode: 'direct' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isLedgerUnavailable(refused), String(refused)).toBe(true);
      expect((refused as { code?: string }).code, 'the server cancelled it, not only this side gave up').toBe('57014');
      await holder.query('commit');
      // Before, the claim ran on once the lock went: an attempt nobody was told of held the session.
      expect((await ledger.getSession(session.id))?.payment).toBeNull();
      expect((await ledger.claimPayAttempt(session.id, { mode: 'direct' })).claimed).toBe(true);
    });
  });
});
