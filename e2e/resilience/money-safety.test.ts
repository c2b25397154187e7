/**
 * Money under concurrency, over real HTTP, on SQLite and PostgreSQL: many merchant operations
 * racing on one order never move more money than the rules allow — here or at the gateway —
 * and many clicks on one checkout (card and hosted mixed) create one payment.
 *
 * server/companion/integration/two-instances.test.ts races one kind of operation through two
 * instances; these race different kinds against each other on one instance and check the
 * gateway's books as well as the ledger's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_SUB_MERCHANTS } from '../../server/gateway/test-project.js';
import { card } from '../../server/companion/test/cards.js';
import { createStack, payBody } from '../../server/companion/test/stack.js';
import type { Json, Stack } from '../../server/companion/test/stack.js';
import { postgresBackend, withTestDatabase } from '../../server/ledger/testing/databases.js';
import type { LedgerBackend } from '../../server/ledger/testing/databases.js';
import type { Order } from '../../server/sandbox/state/records.js';
import { sqliteFileBackend } from './support/stored-state.js';

const [SUB_A, SUB_B] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string];
const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };

function describeMoneySafety(name: string, backend: () => LedgerBackend): void {
  describe(`money under concurrency (${name})`, () => {
    let stack: Stack;
    beforeEach(async () => {
      stack = await createStack({ backend: backend(), served: true, companion: { rateLimits: { perSession: 1_000, perClient: 1_000 } } });
    });
    afterEach(async () => {
      await stack.close();
    });

    const gatewayOrder = (orderId: string): Order => {
      const { gateway } = stack.sandbox.sandbox;
      const order = gateway.store.order(gateway.defaultProject.posId, orderId);
      if (!order) throw new Error(`the gateway has no order ${orderId}`);
      return order;
    };
    const succeeded = (order: Order, method: string) => order.operations.filter((operation) => operation.method === method && operation.status === 'success');
    const sum = (items: readonly { amount: number }[]) => items.reduce((total, item) => total + item.amount, 0);
    const operate = async (orderId: string, action: string, body: unknown = {}) => {
      const response = await stack.request('POST', `/api/orders/${orderId}/${action}`, { admin: true, body });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const paid = async (body: Record<string, unknown>) => {
      const session = await stack.openSession(body);
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      return session;
    };

    it('partial, full and split refunds racing on one payment never refund more than was paid', async () => {
      const session = await paid({ amount: 10_000, split: [{ sub_merchant_id: SUB_A, amount: 6_000 }, { sub_merchant_id: SUB_B, amount: 4_000 }] });
      const requests = [
        ...Array.from({ length: 24 }, (_, i) => ['split-refund', { split: [{ sub_merchant_id: i % 2 ? SUB_A : SUB_B, amount: 700 }] }] as const),
        ...Array.from({ length: 4 }, () => ['refund', {}] as const),
      ];
      const answers = await Promise.all(requests.map(([action, body]) => operate(session.order_id, action, body)));
      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);

      const refunds = succeeded(gatewayOrder(session.order_id), 'refund');
      // The companion's own limits held: it never sent the gateway a refund it had to decline.
      expect(gatewayOrder(session.order_id).operations.filter((operation) => operation.status !== 'success')).toEqual([]);
      const totals = (await stack.ledger.getOrder(session.order_id))!.totals;
      expect(sum(refunds)).toBeLessThanOrEqual(10_000);
      expect(totals.refunded).toBe(sum(refunds));
      expect(totals.refunded + totals.refundable).toBe(10_000);
      expect(totals.refundPending).toBe(0);
      // Per sub-merchant: never more than its share (60.00 and 40.00).
      const share = (merchant: string) => sum(refunds.flatMap((refund) => refund.split?.filter((part) => part.subMerchantId === merchant) ?? []));
      expect(share(SUB_A)).toBeLessThanOrEqual(6_000);
      expect(share(SUB_B)).toBeLessThanOrEqual(4_000);
      // Every answer agrees with the books: one accepted request per refund at the gateway.
      expect(answers.filter((answer) => answer.status === 200 && answer.body.operation?.status === 'success')).toHaveLength(refunds.length);
    });

    it('captures and voids racing on one auth: one wins, within the reserve and its allowance', async () => {
      const session = await paid({ method: 'auth', amount: 5_000 });
      const requests = [
        ...Array.from({ length: 10 }, (_, i) => operate(session.order_id, 'capture', { amount: 4_000 + i * 200 })),
        ...Array.from({ length: 5 }, () => operate(session.order_id, 'void')),
        operate(session.order_id, 'capture', {}),
      ];
      const answers = await Promise.all(requests);
      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
      const order = gatewayOrder(session.order_id);
      const done = [...succeeded(order, 'capture'), ...succeeded(order, 'void')];
      expect(done).toHaveLength(1);
      expect(order.operations).toHaveLength(1);
      if (done[0]!.method === 'capture') expect(done[0]!.amount).toBeLessThanOrEqual(5_750); // 50.00 + 15 %
      const detail = (await stack.ledger.getOrder(session.order_id))!;
      expect(detail.operations.filter((operation) => operation.status === 'success').map((operation) => [operation.kind, operation.amount])).toEqual([[done[0]!.method, done[0]!.amount]]);
      expect(detail.operations.filter((operation) => operation.status === 'pending')).toEqual([]);
      expect(answers.filter((answer) => answer.status === 200 && answer.body.operation?.status === 'success')).toHaveLength(1);
    });

    it('many clicks on one checkout — card and hosted at once — create one payment', async () => {
      const session = await stack.openSession({ customer: CONTACT });
      const clicks = await Promise.all([
        ...Array.from({ length: 12 }, () => stack.pay(session.id)),
        ...Array.from({ length: 4 }, () => stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { body: {} })),
      ]);
      expect(clicks.filter((response) => response.status >= 500)).toEqual([]);
      await Promise.all(clicks.map((response) => response.arrayBuffer()));
      const { gateway } = stack.sandbox.sandbox;
      const orders = gateway.store.orders(gateway.defaultProject.posId).filter((order) => order.orderId.startsWith(session.order_id));
      expect(orders).toHaveLength(1);
      expect((await stack.ledger.listOrders()).orders).toHaveLength(1);
      expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).not.toBe('open');
    });

    it('many clicks through a 3-D Secure challenge all lead to the same one', async () => {
      const session = await stack.openSession();
      const answers = await Promise.all(Array.from({ length: 16 }, async () => (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json()));
      const urls = new Set(answers.filter((answer: Json) => answer.status === 'redirect').map((answer: Json) => answer.redirect_url));
      expect(urls.size).toBe(1);
      expect(answers.every((answer: Json) => answer.order_id === session.order_id && ['redirect', 'pending'].includes(answer.status))).toBe(true);
      const { gateway } = stack.sandbox.sandbox;
      expect(gateway.store.orders(gateway.defaultProject.posId)).toHaveLength(1);
    });
  });
}

describeMoneySafety('SQLite file', sqliteFileBackend);
withTestDatabase((url) => describeMoneySafety('PostgreSQL', () => postgresBackend(url)));
