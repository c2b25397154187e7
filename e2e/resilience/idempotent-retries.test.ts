/**
 * Retries under an Idempotency-Key, over real HTTP, on SQLite and on PostgreSQL with two
 * companions sharing one schema: twenty copies of one refund sent at once — a retrying client, a
 * load balancer spreading them — refund once at the gateway, and every copy that is answered
 * with success carries the first answer. A retry after the answer was lost on the way replays
 * it instead of refunding again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStack } from '../../server/companion/test/stack.js';
import type { Instance, Stack } from '../../server/companion/test/stack.js';
import { withTestDatabase } from '../../server/ledger/testing/databases.js';
import type { LedgerBackend } from '../../server/ledger/testing/databases.js';
import { postgresSchemaBackend, sqliteFileBackend } from './support/stored-state.js';

function describeRetries(name: string, backend: () => LedgerBackend, companions: 1 | 2): void {
  describe(`one refund sent many times with one key (${name}, ${companions} companion${companions > 1 ? 's' : ''})`, () => {
    let stack: Stack;
    let others: Instance[];
    /** Spreads requests over the companions, as a load balancer would. */
    const through = (i: number): Stack['request'] => [stack.request, ...others.map((other) => other.request)][i % companions]!;

    beforeEach(async () => {
      stack = await createStack({ backend: backend(), served: true });
      others = companions > 1 ? [await stack.instance()] : [];
    });
    afterEach(async () => {
      await stack.close();
    });

    /** Successful refunds the gateway booked for the order (minor units). */
    const gatewayRefunds = (orderId: string): number[] => {
      const { gateway } = stack.sandbox.sandbox;
      const order = gateway.store.order(gateway.defaultProject.posId, orderId);
      return (order?.operations ?? []).filter((operation) => operation.method === 'refund' && operation.status === 'success').map((operation) => operation.amount);
    };
    const paidOrder = async () => {
      const session = await stack.openSession({ amount: 1000 });
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      return session.order_id as string;
    };
    const refund = async (send: Stack['request'], orderId: string, key: string) => {
      const response = await send('POST', `/api/orders/${orderId}/refund`, { admin: true, body: { amount: 100 }, headers: { 'Idempotency-Key': key } });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', text: await response.text() };
    };

    it('20 parallel copies refund once', async () => {
      const orderId = await paidOrder();
      // A gateway slow enough that the copies arrive while the first is running.
      await stack.control('PUT', '/_sandbox/faults', { latency_ms: 200, scope: { method: 'POST', path: '/api/v1/refund' } });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => refund(through(i), orderId, 'double-click-1')));
      expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 409)).toEqual([]);
      const succeeded = answers.filter((answer) => answer.status === 200);
      expect(succeeded.filter((answer) => !answer.replayed)).toHaveLength(1);
      expect(new Set(succeeded.map((answer) => answer.text)).size).toBe(1);
      for (const busy of answers.filter((answer) => answer.status === 409)) expect(JSON.parse(busy.text).error.code).toBe('idempotency_key_in_use');

      expect(gatewayRefunds(orderId)).toEqual([100]);
      expect((await stack.ledger.getOrder(orderId))!.totals).toMatchObject({ refunded: 100, refundable: 900, refundPending: 0 });
      // Once answered, every further copy, through any companion, is the first answer.
      const later = await Promise.all(Array.from({ length: 4 }, (_, i) => refund(through(i), orderId, 'double-click-1')));
      expect(later.map((answer) => [answer.status, answer.replayed, answer.text])).toEqual(Array.from({ length: 4 }, () => [200, true, succeeded[0]!.text]));
      expect(gatewayRefunds(orderId)).toEqual([100]);
    });

    it('a retry after the answer was lost replays it instead of refunding again', async () => {
      const orderId = await paidOrder();
      // The gateway makes the refund, then the connection drops: the companion finds the refund
      // in the order's state and answers; that answer is the one the retry gets.
      await stack.control('PUT', '/_sandbox/faults', { drop_connection: true, phase: 'after', times: 1, scope: { method: 'POST', path: '/api/v1/refund' } });
      const first = await refund(through(0), orderId, 'lost-answer');
      expect([200, 202]).toContain(first.status);
      const retry = await refund(through(1), orderId, 'lost-answer');
      expect(retry).toEqual({ status: first.status, replayed: true, text: first.text });
      expect(gatewayRefunds(orderId)).toEqual([100]);
    });
  });
}

describeRetries('SQLite file', sqliteFileBackend, 1);
withTestDatabase((url) => describeRetries('PostgreSQL', () => postgresSchemaBackend(url), 2));
