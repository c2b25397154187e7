/**
 * A bad day at the gateway: a batch of payments of every kind — direct successes with each
 * brand, declines, 3-D Secure passed and failed, the slow card, hosted pages paid and
 * cancelled, captures, voids, refunds, split payments, a saved card — each made while the
 * sandbox's fault controls break something: latency beyond the companion's gateway timeout,
 * 500 and 503 answers before or after the work was done, dropped connections, and webhooks
 * lost, duplicated, delayed and reordered. After reconciliation the companion's ledger must
 * equal the sandbox's truth: nothing lost, nothing doubled, no final state regressed — and no
 * customer or merchant ever got a 500.
 *
 * Served over real HTTP on 127.0.0.1; webhooks travel over the network too, through a gate
 * that can lose them (the companion unreachable while the sandbox gives up on retries).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SUB_MERCHANTS } from '../../server/gateway/test-project.js';
import { card, cardNumber, EXPIRY, payOnHostedPage, TEST_AMEX_CVV, TEST_CVV } from '../../server/companion/test/cards.js';
import { createStack, eventually, payBody } from '../../server/companion/test/stack.js';
import type { Json, Stack } from '../../server/companion/test/stack.js';
import { withTestDatabase } from '../../server/ledger/testing/databases.js';
import type { LedgerBackend } from '../../server/ledger/testing/databases.js';
import { postgresSchemaBackend, sqliteFileBackend } from './support/stored-state.js';
import { differencesFromTruth, regressions } from './support/truth.js';

const [SUB_A, SUB_B] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string];
const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };
const GATEWAY_TIMEOUT_MS = 800;

interface Faults {
  readonly latency_ms?: number;
  readonly error_rate?: number;
  readonly error_status?: number;
  readonly drop_connection?: boolean;
  readonly phase?: 'before' | 'after';
  readonly scope?: { readonly method?: 'GET' | 'POST'; readonly path?: string };
  readonly times?: number;
  readonly webhook_duplicates?: number;
  readonly webhook_delay_ms?: number;
  readonly webhook_reorder?: boolean;
}

const slow = (path: string, phase: 'before' | 'after' = 'after'): Faults => ({ latency_ms: GATEWAY_TIMEOUT_MS * 2, phase, scope: { method: 'POST', path }, times: 1 });
const failing = (path: string, status: number, phase: 'before' | 'after' = 'after'): Faults => ({ error_rate: 1, error_status: status, phase, scope: { method: 'POST', path }, times: 1 });
const dropped = (path: string, phase: 'before' | 'after' = 'after'): Faults => ({ drop_connection: true, phase, scope: { method: 'POST', path }, times: 1 });
const DUPLICATED_AND_REORDERED: Faults = { webhook_duplicates: 3, webhook_reorder: true };

let stack: Stack;
/** While true the companion cannot be reached by webhooks; the sandbox retries, then gives up. */
let webhooksLost = false;
const answers: { what: string; status: number }[] = [];

/** Until the sandbox has finished with every delivery: delivered, or retried and given up. */
async function webhooksDone(): Promise<void> {
  await eventually(async () => {
    await stack.settleWebhooks();
    const deliveries = await stack.deliveries();
    expect(deliveries.filter((delivery: Json) => delivery.next_attempt_at)).toEqual([]);
  }, 10_000);
}

async function withFaults<T>(faults: Faults | undefined, lose: boolean, action: () => Promise<T>): Promise<T> {
  if (faults) await stack.control('PUT', '/_sandbox/faults', faults);
  webhooksLost = lose;
  try {
    const result = await action();
    // A slow card's webhook comes later; what is sent while the gate is shut is lost for good.
    if (lose) await webhooksDone();
    return result;
  } finally {
    webhooksLost = false;
    await stack.control('DELETE', '/_sandbox/faults');
  }
}

async function pay(what: string, session: Json, body = payBody()): Promise<Json> {
  const response = await stack.pay(session.id, body);
  answers.push({ what, status: response.status });
  return response.status === 200 ? ((await response.json()) as Json) : {};
}

async function operate(what: string, orderId: string, action: string, body: unknown = {}): Promise<number> {
  const response = await stack.request('POST', `/api/orders/${orderId}/${action}`, { admin: true, body });
  answers.push({ what, status: response.status });
  await response.arrayBuffer();
  return response.status;
}

/** Sessions paid successfully and fault-free, ready for a back-office operation under faults. */
async function paidSession(body: Record<string, unknown>): Promise<Json> {
  const session = await stack.openSession(body);
  const answer = await pay('setup', session);
  expect(answer.status).toBe('success');
  return session;
}

/** The bad day, on a companion whose ledger is `backend`'s. */
function badDay(name: string, backend: () => LedgerBackend): void {
  describe(`payments of every kind under gateway faults (${name})`, () => {
    beforeAll(async () => {
      answers.length = 0;
      webhooksLost = false;
      stack = await createStack({
        backend: backend(),
        served: true,
        gateway: { timeoutMs: GATEWAY_TIMEOUT_MS, retry: { maxRetries: 0 } },
        sandbox: {
          timings: { slowCardDelayMs: 300 },
          // Two quick retries, then the sandbox gives a delivery up: a lost webhook.
          webhooks: { retryDelaysMs: [100, 200], timeoutMs: 2_000, reorderHoldMs: 300 },
          fetch: (input, init) => (webhooksLost ? Promise.reject(new TypeError('fetch failed: the companion is unreachable')) : fetch(input, init)),
        },
        companion: {
          reconciliation: { intervalMs: 60_000, stalePaymentAfterMs: 0, unsettledOperationAfterMs: 0, giveUpAfterMs: 2_000, batchSize: 200 },
          rateLimits: { perSession: 1_000, perClient: 1_000 },
        },
      });
    }, 30_000);

    afterAll(async () => {
      await stack.close();
    });

    it('end, after reconciliation, exactly as the gateway has them', async () => {
      // Direct payments whose answers are lost in every way, and declines among them.
      const direct = async (what: string, body: Record<string, unknown>, faults: Faults | undefined, lose = false) => {
        const session = await stack.openSession();
        await withFaults(faults, lose, () => pay(what, session, payBody(body)));
      };
      await direct('visa, answer slower than the timeout', {}, slow('/api/v1/payment'));
      await direct('mastercard, 500 after the charge', { card: { number: cardNumber('success', 'mastercard'), ...EXPIRY, cvv: TEST_CVV } }, failing('/api/v1/payment', 500));
      await direct('amex, connection dropped after the charge', { card: { number: cardNumber('success', 'amex'), ...EXPIRY, cvv: TEST_AMEX_CVV } }, dropped('/api/v1/payment'));
      await direct('visa, 503 before anything happened', {}, failing('/api/v1/payment', 503, 'before'));
      await direct('visa, connection dropped before anything happened', {}, dropped('/api/v1/payment', 'before'));
      await direct('rejected, 503 after the decline', { card: card('rejected') }, failing('/api/v1/payment', 503));
      await direct('insufficient funds, webhooks lost', { card: card('insufficient_funds') }, undefined, true);
      await direct('expired card, webhooks duplicated and reordered', { card: card('expired') }, DUPLICATED_AND_REORDERED);
      await direct('slow card, webhooks delayed', { card: card('slow_pending') }, { webhook_delay_ms: 400 });
      await direct('slow card, webhooks lost', { card: card('slow_pending') }, undefined, true);

      // 3-D Secure, decided on the sandbox while webhooks misbehave.
      for (const [result, faults, lose] of [
        ['success', DUPLICATED_AND_REORDERED, false],
        ['failure', DUPLICATED_AND_REORDERED, false],
        ['success', undefined, true],
        ['failure', undefined, true],
      ] as const) {
        const session = await stack.openSession();
        const challenge = await pay(`3-D Secure ${result}`, session, payBody({ card: card('three_ds_challenge') }));
        expect(challenge.status).toBe('redirect');
        await withFaults(faults, lose, async () => {
          await stack.control('POST', `/_sandbox/3ds/${challenge.payment_id}`, { result });
          await stack.settleWebhooks();
        });
      }

      // Hosted: paid on the gateway's page with webhooks lost; cancelled with the answer dropped.
      const hostedPaid = await stack.openSession({ customer: CONTACT });
      const { redirect_url: page } = await stack.json('POST', `/api/checkout/sessions/${hostedPaid.id}/hosted`, 200, { body: {} });
      await withFaults(undefined, true, async () => {
        const submitted = await payOnHostedPage(page);
        expect(submitted.status).toBe(303);
        await stack.settleWebhooks();
      });
      const hostedCancelled = await stack.openSession({ customer: CONTACT });
      await stack.json('POST', `/api/checkout/sessions/${hostedCancelled.id}/hosted`, 200, { body: {} });
      await withFaults(dropped('/api/v1/pos/'), false, () => operate('cancel, answer dropped', hostedCancelled.order_id, 'cancel'));

      // Back office: captures, voids, refunds and split refunds whose answers go astray.
      const captured = await paidSession({ method: 'auth' });
      await withFaults(failing('/api/v1/capture', 500), false, () => operate('partial capture, 500 after', captured.order_id, 'capture', { amount: 500 }));
      const voided = await paidSession({ method: 'auth' });
      await withFaults(slow('/api/v1/void'), false, () => operate('void, slower than the timeout', voided.order_id, 'void'));
      const refunded = await paidSession({});
      await withFaults(dropped('/api/v1/refund'), false, () => operate('refund 1, dropped after', refunded.order_id, 'refund', { amount: 200 }));
      await withFaults(DUPLICATED_AND_REORDERED, false, () => operate('refund 2, webhooks duplicated', refunded.order_id, 'refund', { amount: 300 }));
      await withFaults(failing('/api/v1/refund', 503, 'before'), false, () => operate('refund 3, 503 before', refunded.order_id, 'refund', { amount: 100 }));
      const split = await paidSession({ amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 60 }, { sub_merchant_id: SUB_B, amount: 40 }] });
      await withFaults(failing('/api/v1/split/refund', 503), true, () =>
        operate('split refund, 503 after, webhooks lost', split.order_id, 'split-refund', { split: [{ sub_merchant_id: SUB_B, amount: 40 }] }),
      );

      // A saved card pays the next order while the answer is slow.
      await paidSession({ customer_id: 'faults-customer' });
      const next = await stack.openSession({ customer_id: 'faults-customer' });
      const view = await stack.json('GET', `/api/checkout/sessions/${next.id}`, 200);
      await withFaults(slow('/api/v1/payment'), false, () => pay('saved card, slow answer', next, payBody({ card: { token: view.saved_cards[0].token } })));

      // The bad day ends: every fault off, the companion reachable, time for late deliveries.
      webhooksLost = false;
      await stack.settleWebhooks();
      // The faults did their harm: without reconciliation the ledger would not be right.
      const before = await differencesFromTruth(stack);
      expect(before.length).toBeGreaterThan(0);
      const reconciler = stack.companion.companion.reconciler;
      await eventually(async () => {
        await stack.settleWebhooks();
        await reconciler.runOnce();
        expect(await differencesFromTruth(stack)).toEqual([]);
      }, 30_000);

      // Nobody was shown a 500; the faults did reach the companion (answers other than 200).
      expect(answers.filter((answer) => answer.status === 500)).toEqual([]);
      expect(answers.some((answer) => answer.status !== 200)).toBe(true);
      expect(regressions(stack.changes)).toEqual([]);
      // Successes and declines both ended the day.
      const statuses = new Set((await stack.ledger.listOrders({ limit: 200 })).orders.map((payment) => payment.status));
      expect([...statuses].sort()).toEqual(['failure', 'success']);
    }, 180_000);
  });
}

badDay('SQLite file', sqliteFileBackend);
withTestDatabase((url) => badDay('PostgreSQL', () => postgresSchemaBackend(url)));
