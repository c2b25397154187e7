/**
 * When the gateway never saw the request. A pay (or a refund, a capture) answered 503 by the
 * gateway before it acted leaves an attempt whose outcome is unknown. Once the gateway's order
 * state has answered "not there" to every read of a short window, the attempt is ended as never
 * sent: the session is free again and the customer pays, under the SAME order id — so the
 * first send, should it land after all, can never pay a second time — and a reservation's money
 * is free again. One the gateway did see, even late, is never ended so.
 *
 * Through the real sandbox over HTTP on 127.0.0.1, on SQLite and PostgreSQL; the window is
 * shortened (three reads, a second apart: twice the 400 ms gateway timeout) and a second
 * companion on the same database reconciles at the same time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPIRY, TEST_CVV, card, cardNumber } from '../../server/companion/test/cards.js';
import { createStack, eventually, payBody } from '../../server/companion/test/stack.js';
import type { Instance, Json, Stack } from '../../server/companion/test/stack.js';
import { withTestDatabase } from '../../server/ledger/testing/databases.js';
import type { LedgerBackend } from '../../server/ledger/testing/databases.js';
import { postgresSchemaBackend, sqliteFileBackend } from './support/stored-state.js';

const GATEWAY_TIMEOUT_MS = 400;
const WINDOW = { neverSentReads: 3, neverSentSpacingMs: 1_000 };
const WINDOW_MS = (WINDOW.neverSentReads - 1) * WINDOW.neverSentSpacingMs;
const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };
const BEFORE_ACTING = (path: string) => ({ error_rate: 1, error_status: 503, phase: 'before', scope: { method: 'POST', path }, times: 1 });

function describeNeverSent(name: string, backend: () => LedgerBackend): void {
  describe(`requests the gateway never saw (${name})`, () => {
    let stack: Stack;
    let second: Instance;
    /** While true the sandbox's webhooks are lost: only reads of the order state tell. */
    let webhooksLost = false;

    beforeEach(async () => {
      webhooksLost = false;
      stack = await createStack({
        backend: backend(),
        served: true,
        gateway: { timeoutMs: GATEWAY_TIMEOUT_MS, retry: { maxRetries: 0 } },
        sandbox: { fetch: (input, init) => (webhooksLost ? Promise.reject(new TypeError('fetch failed: the companion is unreachable')) : fetch(input, init)) },
        // Neither the stale-payment check nor the 30-minute give-up may be what frees anything.
        companion: { reconciliation: { intervalMs: 60_000, ...WINDOW } },
      });
      second = await stack.instance();
    }, 30_000);

    afterEach(async () => {
      await second.close();
      await stack.close();
    });

    /** Both instances reconcile at once, as two servers behind a load balancer would. */
    const reconcileBoth = () => Promise.all([stack.companion.companion.reconciler.runOnce(), second.companion.companion.reconciler.runOnce()]);
    const sessionStatus = async (session: Json) => (await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status;
    const gatewayOrder = (orderId: string) => stack.sandbox.sandbox.gateway.store.order(stack.sandbox.sandbox.gateway.defaultProject.posId, orderId);
    const pay = async (session: Json, body = payBody()) => {
      const response = await stack.pay(session.id, body);
      expect(response.status).toBe(200);
      return (await response.json()) as Json;
    };

    it('a pay answered 503 before the gateway acted: ended as never sent, then paid on the second try under the same order id', async () => {
      const session = await stack.openSession({ customer: CONTACT });
      await stack.control('PUT', '/_sandbox/faults', BEFORE_ACTING('/api/v1/payment'));
      expect(await pay(session)).toMatchObject({ status: 'pending', order_id: session.order_id });
      expect(gatewayOrder(session.order_id)).toBeUndefined();

      // Blocked while the window runs: further clicks answer the attempt, the hosted button 409.
      expect(await pay(session)).toMatchObject({ status: 'pending', order_id: session.order_id });
      await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 409, { body: {} });
      expect(await sessionStatus(session)).toBe('pending');

      const started = Date.now();
      // Ended: the session may be paid again, and the customer reads why the form is back.
      await eventually(async () => {
        await reconcileBoth();
        expect(await sessionStatus(session)).toBe('failure');
      }, 20_000);
      // Not on the first "not there": only once the whole window answered it.
      expect(Date.now() - started).toBeGreaterThanOrEqual(WINDOW.neverSentSpacingMs);
      expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'init', unsentAt: expect.any(Number) });

      const paid = await pay(session);
      expect(paid).toMatchObject({ status: 'success', order_id: session.order_id });
      expect(gatewayOrder(session.order_id)?.payment.status).toBe('success');
      expect(gatewayOrder(`${session.order_id}:2`)).toBeUndefined();
      expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success', unsentAt: null });
      expect(stack.logs.some((line) => line.includes('the gateway never saw this payment attempt') && line.includes(session.order_id))).toBe(true);
      // Counted once, by whichever instance ended it, as the metrics count an attempt never decided.
      const unsent = await Promise.all([stack, second].map(async ({ companion }) => /payform_payments_total\{method="purchase",outcome="not_sent"\} (\d+)/.exec(await companion.companion.services.metrics.registry.metrics())![1]));
      expect(unsent.map(Number).reduce((sum, count) => sum + count)).toBe(1);
    }, 60_000);

    it('the first send landing after the window cannot pay twice: the retry under its order id takes that payment', async () => {
      const session = await stack.openSession();
      webhooksLost = true;
      // The first send reaches the gateway only long after the companion gave up on it — after
      // the whole window of reads had found nothing.
      await stack.control('PUT', '/_sandbox/faults', { latency_ms: 6_000, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
      expect((await pay(session)).status).toBe('pending');
      await eventually(async () => {
        await reconcileBoth();
        expect(await sessionStatus(session)).toBe('failure');
      }, 20_000);
      await eventually(() => expect(gatewayOrder(session.order_id)?.payment.status).toBe('success'), 20_000);

      // The customer's second try, with another card, goes out under the same order id: refused
      // as a duplicate by the gateway, it is read from the order state — the one payment there.
      const mastercard = { number: cardNumber('success', 'mastercard'), ...EXPIRY, cvv: TEST_CVV };
      expect(await pay(session, payBody({ card: mastercard }))).toMatchObject({ status: 'success', order_id: session.order_id });
      const purchases = (await stack.companion.companion.services.gateway.orders.get(session.order_id)).filter((entry) => entry.method === 'purchase');
      expect(purchases).toHaveLength(1);
      expect(gatewayOrder(`${session.order_id}:2`)).toBeUndefined();
      expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success', paymentId: purchases[0]!.payment_id, unsentAt: null });
    }, 60_000);

    it('an attempt the gateway saw late is never ended as never sent', async () => {
      const session = await stack.openSession();
      webhooksLost = true;
      // Handled by the gateway after the companion gave up waiting, within the window.
      await stack.control('PUT', '/_sandbox/faults', { latency_ms: GATEWAY_TIMEOUT_MS * 2.5, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
      const started = Date.now();
      expect((await pay(session)).status).toBe('pending');
      const seen: string[] = [];
      while (Date.now() - started < WINDOW_MS + 2 * WINDOW.neverSentSpacingMs) {
        await reconcileBoth();
        const payment = await stack.ledger.getPayment(session.order_id);
        seen.push(`${payment?.status} ${payment?.unsentAt === null ? 'held' : 'unsent'} ${await sessionStatus(session)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen.filter((state) => state.includes('unsent') || state.endsWith('open') || state.endsWith('failure'))).toEqual([]);
      expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success', unsentAt: null });
      expect(await sessionStatus(session)).toBe('success');
    }, 60_000);

    it('an attempt the gateway saw but whose answer was lost stays with the customer until it decides', async () => {
      const session = await stack.openSession();
      webhooksLost = true;
      await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'after', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
      expect((await pay(session, payBody({ card: card('three_ds_challenge') }))).status).toBe('redirect');
      const started = Date.now();
      while (Date.now() - started < WINDOW_MS + 2 * WINDOW.neverSentSpacingMs) {
        await reconcileBoth();
        expect(await sessionStatus(session)).toBe('pending');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'pending', unsentAt: null });
    }, 60_000);

    for (const [kind, method] of [['refund', 'purchase'], ['capture', 'auth']] as const) {
      it(`a ${kind} answered 503 before the gateway acted: its reservation is freed, and the next ${kind} goes through once`, async () => {
        const session = await stack.openSession({ method });
        expect((await pay(session)).status).toBe('success');
        await stack.control('PUT', '/_sandbox/faults', BEFORE_ACTING(`/api/v1/${kind}`));
        const held = await stack.json('POST', `/api/orders/${session.order_id}/${kind}`, 202, { admin: true, body: {} });
        expect(held.operation).toMatchObject({ status: 'pending' });
        // The money is held: nothing more can be done with it meanwhile.
        await stack.json('POST', `/api/orders/${session.order_id}/${kind}`, 409, { admin: true, body: {} });

        await eventually(async () => {
          await reconcileBoth();
          expect(await stack.ledger.getOperation(held.operation.id)).toMatchObject({ status: 'failure', statusDescription: 'Never reached the gateway' });
        }, 20_000);
        const done = await stack.json('POST', `/api/orders/${session.order_id}/${kind}`, 200, { admin: true, body: {} });
        expect(done.operation).toMatchObject({ status: 'success' });
        expect(gatewayOrder(session.order_id)?.operations.filter((entry) => entry.method === kind && entry.status === 'success')).toHaveLength(1);
      }, 60_000);
    }

    // The first refund request reaches the gateway after all, after its reservation was ended as
    // never sent and the merchant refunded again: a refund of that order made at the gateway
    // directly, with the companion's credentials, stands for it. The customer got two refunds;
    // the merchant is told so, though the total is within what was paid.
    for (const learnt of ['webhook', 'order_state'] as const) {
      it(`a refund ended as never sent that the gateway makes after the retry flags the payment (by ${learnt})`, async () => {
        const session = await stack.openSession();
        expect((await pay(session)).status).toBe('success');
        const refundPath = `/api/orders/${session.order_id}/refund`;
        await stack.control('PUT', '/_sandbox/faults', BEFORE_ACTING('/api/v1/refund'));
        const first = await stack.json('POST', refundPath, 202, { admin: true, body: { amount: 300 } });
        await eventually(async () => {
          await reconcileBoth();
          expect(await stack.ledger.getOperation(first.operation.id)).toMatchObject({ status: 'failure', statusDescription: 'Never reached the gateway' });
        }, 20_000);

        const gateway = stack.companion.companion.services.gateway;
        // The test's own stand-in for the gateway acting: not held to the companion's short
        // timeout, which a loaded machine can miss (an unknown outcome would fail the test).
        const late = () =>
          gateway.operations.refund({ order_id: session.order_id, order_currency: 'UAH', refund_amount: 300, server_url: `${stack.companionUrl}/webhooks/gateway` }, { timeoutMs: 10_000 });
        if (learnt === 'webhook') {
          expect((await stack.json('POST', refundPath, 200, { admin: true, body: { amount: 300 } })).operation).toMatchObject({ status: 'success' });
          await late();
        } else {
          // Webhooks lost: the late refund lands first; the retry's answer is lost too, and the
          // order-state read made for it shows two refunds of 3.00 where the ledger asked for one.
          webhooksLost = true;
          await late();
          await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'after', scope: { method: 'POST', path: '/api/v1/refund' }, times: 1 });
          expect((await stack.json('POST', refundPath, 200, { admin: true, body: { amount: 300 } })).operation).toMatchObject({ status: 'success' });
        }

        const refunds = gatewayOrder(session.order_id)!.operations.filter((entry) => entry.method === 'refund' && entry.status === 'success');
        expect(refunds).toHaveLength(2);
        await eventually(async () => {
          const detail = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
          // Which of the two equal refunds was the retry the order state cannot tell: one is.
          const made = detail.operations.filter((operation: Json) => operation.origin === 'gateway');
          expect(made).toMatchObject([{ kind: 'refund', status: 'success', amount: 300 }]);
          const succeeded = detail.operations.filter((operation: Json) => operation.status === 'success').map((operation: Json) => operation.operation_id);
          expect(succeeded.sort()).toEqual(refunds.map((entry) => entry.id).sort());
          expect(detail.order.discrepancy).toMatchObject({ late_operation: { never_sent_id: first.operation.id, made_id: made[0].id, kind: 'refund', amount: 300 }, refunded_amount: null });
          expect(detail.totals).toMatchObject({ refunded: 600, refundable: 410 });
        }, 10_000);
        expect(stack.changes.filter((change) => change.kind === 'discrepancy' && change.orderId === session.order_id).map((change) => change.source)).toEqual([learnt]);
      }, 60_000);
    }
  });
}

describeNeverSent('SQLite file', sqliteFileBackend);
withTestDatabase((url) => describeNeverSent('PostgreSQL', () => postgresSchemaBackend(url)));
