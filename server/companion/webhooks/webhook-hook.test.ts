// The merchant's hook and the gateway's acknowledgement: a slow hook does not hold the answer,
// still runs once per status change, and shutdown waits for it.
import { describe, expect, it } from 'vitest';
import type { PaymentChange } from '../payments/reactions.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Json } from '../test/stack.js';

const open = stacksPerTest();

describe('onPaymentEvent and the webhook answer', () => {
  it('the gateway is answered without waiting for a slow hook, which runs once and is waited for on stop', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const entered: PaymentChange[] = [];
    const finished: PaymentChange[] = [];
    const stack = await open({
      companion: {
        onPaymentEvent: async (change) => {
          if (change.kind !== 'payment' || change.status !== 'success') return;
          entered.push(change);
          await released; // the merchant's fulfilment, stuck
          finished.push(change);
        },
      },
    });
    const session = await stack.openSession();
    const answer = await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json();
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
    await stack.settleWebhooks();
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`);
    const success = deliveries.filter((delivery: Json) => delivery.event_status === 'success');
    expect(success.map((delivery: Json) => [delivery.status, delivery.attempts.map((attempt: Json) => attempt.http_status)])).toEqual([['delivered', [200]]]);
    expect(entered.map((change) => change.source)).toEqual(['webhook']);
    expect(finished).toEqual([]);

    // A re-sent webhook is a duplicate: the hook is not called again.
    expect((await stack.request('POST', `/api/orders/${session.order_id}/resend-webhook`, { admin: true, body: {} })).status).toBe(202);
    await stack.settleWebhooks();
    expect(entered).toHaveLength(1);

    const stopped = stack.companion.companion.stop();
    release();
    await stopped;
    expect(finished).toHaveLength(1);
  });
});
