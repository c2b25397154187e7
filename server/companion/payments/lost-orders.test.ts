// A gateway that no longer knows orders it took (a sandbox restarted, another gateway put at the
// address): reconciliation ends what waits on them within the never-sent window, and says
// loudly what it could only have lost.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { createStack, payBody } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
let stack: Stack;
let clock: TestClock;
let loseAnswers: RegExp | undefined;

beforeEach(async () => {
  clock = new TestClock(Date.now());
  loseAnswers = undefined;
  stack = await createStack({
    clock,
    companion: { metricsToken: METRICS_TOKEN },
    gateway: {
      retry: { maxRetries: 0 },
      fetch: async (input, init) => {
        const response = await stack.sandbox.fetch(new Request(input, init));
        if (loseAnswers?.test(String(input))) throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
        return response;
      },
    },
  });
  stack.dropWebhooks = true;
});
afterEach(async () => {
  await stack.close();
});

const reconcile = () => stack.companion.companion.reconciler.runOnce();
/** The reconciliation passes of a never-sent window: the first once stale, then every spacing. */
async function windowOfReads(): Promise<void> {
  for (const wait of [MINUTE, 30 * SECOND, 30 * SECOND]) {
    clock.advance(wait);
    await reconcile();
  }
}
const lines = (pattern: RegExp) => stack.logs.map((line) => JSON.parse(line) as Json).filter((line) => pattern.test(String(line.msg)));

describe('orders the gateway no longer knows', () => {
  it('releases a capture whose answer was lost within the window, not after the 30-minute give-up', async () => {
    const session = await stack.openSession({ method: 'auth' });
    expect(await (await stack.pay(session.id)).json()).toMatchObject({ status: 'success' });
    // The capture's answer is lost, and so is the read of the order that follows it.
    loseAnswers = /\/api\/v1\/(capture$|pos\/)/;
    await stack.json('POST', `/api/orders/${session.order_id}/capture`, 202, { admin: true, body: {} });
    loseAnswers = undefined;
    await stack.control('POST', '/_sandbox/reset');
    await windowOfReads();
    const [capture] = await stack.ledger.listOperations(session.order_id);
    expect(capture).toMatchObject({ kind: 'capture', status: 'failure', statusDescription: 'Never reached the gateway' });
    // Its paid order is gone too: not an operation the gateway never saw, but one to check where the payment was taken.
    expect(lines(/never saw this operation/)).toEqual([]);
    expect(lines(/no longer knows the paid order of this operation/)).toMatchObject([{ level: 'error', msg: expect.stringContaining('PAYFORM_GATEWAY_BASE_URL') }]);
  });

  it('says a pending payment it acknowledged and lost as an error naming its payment id, not as one it never saw', async () => {
    const session = await stack.openSession({ ttl_seconds: 7200 });
    const paid = await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json();
    expect(paid).toMatchObject({ status: 'redirect', payment_id: expect.any(String) });
    await stack.control('POST', '/_sandbox/reset');
    await windowOfReads();
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'pending', unsentAt: clock.now });
    // Its customer may pay again, and is not told a card was declined: no decision came.
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ status: 'failure', message: 'The payment could not be completed. Try again.' });
    expect(lines(/never saw this payment attempt/)).toEqual([]);
    const said = lines(/no longer knows a payment it acknowledged/);
    expect(said).toMatchObject([{ level: 'error', order_id: session.order_id, payment_id: paid.payment_id, msg: expect.stringContaining('PAYFORM_GATEWAY_BASE_URL') }]);
    // Counted for an alert, apart from the attempts the gateway never saw.
    const metrics = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^payform_payments_forgotten_total 1$/m);
    expect(metrics).toMatch(/^payform_payments_total\{method="purchase",outcome="not_sent"\} 1$/m);
  });

  it('says a hosted page it opened and lost as one it acknowledged, which has no payment id, and counts it', async () => {
    const session = await stack.openSession({ ttl_seconds: 7200, customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', paymentId: null, checkoutUrl: expect.any(String) });
    await stack.control('POST', '/_sandbox/reset');
    await windowOfReads();
    expect(lines(/never saw this payment attempt/)).toEqual([]);
    expect(lines(/no longer knows a payment it acknowledged/)).toMatchObject([{ level: 'error', order_id: session.order_id, msg: expect.stringContaining("a hosted page's order_id") }]);
    const metrics = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^payform_payments_forgotten_total 1$/m);
  });
});
