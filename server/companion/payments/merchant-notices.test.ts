// The merchant's hook is told every change at least once: a hook that throws, a process that
// stopped before calling it, and several instances on one database — through the real sandbox.
import { describe, expect, it } from 'vitest';
import { testProjectCredentials } from '@payform/gateway/testing';
import { webhookForm } from '@payform/gateway';
import { NOTICE_GRACE_MS } from '../../ledger/index.js';
import { fileBackend, postgresBackend, TestClock, withTestDatabase } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import type { PaymentChange, PaymentEventHook } from './payment-change.js';

const HOUR = 3_600_000;
const open = stacksPerTest();
const reconcile = (stack: Pick<Stack, 'companion'>) => stack.companion.companion.reconciler.runOnce();

/** A hook that holds every call until `release()`; `entered` resolves at the first call. */
function heldHook(calls: PaymentChange[]) {
  let release = () => {};
  let enter = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const hook: PaymentEventHook = async (change) => {
    calls.push(change);
    enter();
    await released;
  };
  return { hook, entered, release };
}

/** Posts the gateway's signed event that the order's payment is a success, with `figures` (default: its own). */
async function postSuccess(stack: Stack, orderId: string, figures: Record<string, unknown> = {}): Promise<void> {
  const { apiSecret, posId } = testProjectCredentials({});
  const payment = await stack.ledger.getPayment(orderId);
  const event = {
    payment_id: payment?.paymentId, order_id: orderId, pos_id: posId, mode: 'direct', method: 'purchase', amount: 10.1, currency: 'UAH',
    status: 'success', status_code: '1000', created_at: '2030-01-15T09:30:00.000', ...figures,
  };
  const response = await stack.request('POST', '/webhooks/gateway', {
    body: new URLSearchParams({ ...webhookForm(event, apiSecret) }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(response.status).toBe(200);
}

describe('telling the merchant at least once', () => {
  it('tells a change again on later passes while the hook throws, with the same id, and not after it succeeded', async () => {
    const clock = new TestClock(Date.now());
    const calls: PaymentChange[] = [];
    let failuresLeft = 2;
    const stack = await open({
      clock,
      companion: {
        onPaymentEvent: (change) => {
          calls.push(change);
          if (failuresLeft-- > 0) throw new Error('the mail server is down');
        },
      },
    });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect(calls).toHaveLength(1);
    // The caller that made the change had its try; reconciliation waits out its grace.
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0 });
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 0 });
    expect(calls).toHaveLength(2);
    clock.advance(15_000 - 1);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0 });
    clock.advance(1);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 1 });
    clock.advance(2 * HOUR);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0 });
    expect(calls.map((change) => [change.id, change.kind, change.status, change.source])).toEqual([
      [`payment:${session.order_id}:success`, 'payment', 'success', 'gateway_answer'],
      [`payment:${session.order_id}:success`, 'payment', 'success', 'redelivery'],
      [`payment:${session.order_id}:success`, 'payment', 'success', 'redelivery'],
    ]);
    const failures = stack.logs.filter((line) => line.includes('the onPaymentEvent hook failed')).map((line) => JSON.parse(line));
    expect(failures.map((entry) => [entry.order_id, entry.attempt])).toEqual([[session.order_id, undefined], [session.order_id, 1]]);
  });

  it('a refund made while its payment’s success is still to be told again is told after it, not before', async () => {
    const clock = new TestClock(Date.now());
    const calls: PaymentChange[] = [];
    let down = true;
    const stack = await open({
      clock,
      companion: {
        onPaymentEvent: (change) => {
          calls.push(change);
          if (down) throw new Error('the fulfilment worker is restarting');
        },
      },
    });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    down = false;
    // Back up, the customer cancels: the refund is not told ahead of the success it refunds.
    const refund = await stack.json('POST', `/api/orders/${session.order_id}/refund`, 200, { admin: true, body: {} });
    expect(refund.operation.status).toBe('success');
    expect(calls.map((change) => change.id)).toEqual([`payment:${session.order_id}:success`]);
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 2, toldNotices: 2 });
    expect(calls.map((change) => [change.id, change.source])).toEqual([
      [`payment:${session.order_id}:success`, 'gateway_answer'],
      [`payment:${session.order_id}:success`, 'redelivery'],
      [`refund:${refund.operation.id}:success`, 'redelivery'],
    ]);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0 });
  });

  it('a payment whose pending was missed but whose success was told holds back none of its refunds', async () => {
    const calls: PaymentChange[] = [];
    let failuresLeft = 1;
    const stack = await open({
      companion: {
        onPaymentEvent: (change) => {
          calls.push(change);
          if (failuresLeft-- > 0) throw new Error('the fulfilment worker is restarting');
        },
      },
    });
    const slow = await stack.openSession();
    expect((await (await stack.pay(slow.id, payBody({ card: card('slow_pending') }))).json()).status).toBe('pending');
    await postSuccess(stack, slow.order_id);
    const refund = await stack.json('POST', `/api/orders/${slow.order_id}/refund`, 200, { admin: true, body: {} });
    await expect.poll(() => calls.map((change) => [change.id, change.source])).toEqual([
      [`payment:${slow.order_id}:pending`, 'gateway_answer'],
      [`payment:${slow.order_id}:success`, 'webhook'],
      // Told at once, whatever the gateway made of it (its order is still processing there).
      [`refund:${refund.operation.id}:${refund.operation.status}`, 'gateway_answer'],
    ]);
  });

  it('a hook that captures as it hears of the payment has its capture told at once, not held behind the payment it is being told', async () => {
    const calls: PaymentChange[] = [];
    const stack: Stack = await open({
      companion: {
        onPaymentEvent: async (change) => {
          calls.push(change);
          if (change.kind === 'payment' && change.status === 'success' && change.source === 'gateway_answer') {
            await stack.json('POST', `/api/orders/${change.orderId}/capture`, 200, { admin: true, body: {} });
          }
        },
      },
    });
    stack.dropWebhooks = true;
    const session = await stack.openSession({ method: 'auth' });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    await expect.poll(() => calls.map((change) => [change.kind, change.status, change.source])).toEqual([
      ['payment', 'success', 'gateway_answer'],
      ['operation', 'success', 'gateway_answer'],
    ]);
  });

  it('a hook down for many payments logs one error for those told at once, one a pass, and says when it works again', async () => {
    const clock = new TestClock(Date.now());
    let down = true;
    const stack = await open({
      clock,
      companion: {
        onPaymentEvent: () => {
          if (down) throw new Error('the receiver is down');
        },
      },
    });
    stack.dropWebhooks = true;
    for (let n = 0; n < 3; n++) expect((await (await stack.pay((await stack.openSession()).id)).json()).status).toBe('success');
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 0 });
    down = false;
    clock.advance(15_000);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 3, toldNotices: 3 });
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; failures?: number }).filter(({ msg }) => msg.includes('onPaymentEvent hook'));
    expect(said.map(({ level, msg }) => [level, msg.split(';')[0]])).toEqual([
      ['error', 'the onPaymentEvent hook failed'],
      ['debug', 'the onPaymentEvent hook failed'],
      ['debug', 'the onPaymentEvent hook failed'],
      ['error', 'the onPaymentEvent hook failed again'],
      ['info', 'the onPaymentEvent hook works again'],
    ]);
    expect(said.at(-1)?.failures).toBe(4);
  });

  it('a change committed by a companion that never told it is told by another on the same database, the first not dropping it', async () => {
    const clock = new TestClock(Date.now());
    // The first companion stands for a process that died between the commit and the hook.
    const stack = await open({ backend: fileBackend, served: true, clock, companion: { onPaymentEvent: undefined } });
    const session = await stack.openSession({ method: 'auth' });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect((await stack.json('POST', `/api/orders/${session.order_id}/void`, 200, { admin: true, body: {} })).operation.status).toBe('success');
    const told: PaymentChange[] = [];
    const second = await stack.instance({ onPaymentEvent: (change) => void told.push(change) });
    expect(await reconcile(second)).toMatchObject({ dueNotices: 0 });
    clock.advance(NOTICE_GRACE_MS);
    // The first, without a hook, still running beside it (a rolling deploy): it leaves them be.
    expect(await reconcile(stack)).toMatchObject({ droppedNotices: 0 });
    expect(await reconcile(second)).toMatchObject({ dueNotices: 2, toldNotices: 2 });
    expect(told.map((change) => [change.kind, change.status, change.source, change.orderId])).toEqual([
      ['payment', 'success', 'redelivery', session.order_id],
      ['operation', 'success', 'redelivery', session.order_id],
    ]);
    expect(told[1]?.id).toMatch(/^void:[0-9a-f-]{36}:success$/);
    clock.advance(HOUR);
    expect(await reconcile(second)).toMatchObject({ dueNotices: 0 });
  });

  it('each retelling has the whole lease: another instance does not tell what a pass claimed while its hook, quick each time, works down the batch', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ backend: fileBackend, served: true, clock, companion: { onPaymentEvent: undefined } });
    const orderIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const session = await stack.openSession();
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      orderIds.push(session.order_id);
    }
    const byOther: string[] = [];
    const other = await stack.instance({ onPaymentEvent: (change) => void byOther.push(change.id) });
    const byFirst: string[] = [];
    let otherPass: unknown;
    const first = await stack.instance({
      onPaymentEvent: async (change) => {
        byFirst.push(change.id);
        clock.advance(40_000); // each call well inside the one-minute lease
        if (byFirst.length === 2) otherPass = await reconcile(other);
      },
    });
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(first)).toMatchObject({ dueNotices: 2, toldNotices: 2 });
    expect(otherPass).toMatchObject({ dueNotices: 0 });
    expect(byOther).toEqual([]);
    expect(byFirst.sort()).toEqual(orderIds.map((orderId) => `payment:${orderId}:success`).sort());
  });

  it('a newer change that lands while the hook is told an older one is not cleared by the older one’s success', async () => {
    const clock = new TestClock(Date.now());
    const calls: PaymentChange[] = [];
    const held = heldHook(calls);
    const stack = await open({ clock, companion: { onPaymentEvent: held.hook } });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    const paying = stack.pay(session.id, payBody({ card: card('three_ds_challenge') }));
    await held.entered;
    // The customer passes 3-D Secure and the success is committed; its own telling is lost.
    await stack.ledger.advancePayment(session.order_id, { status: 'success', statusCode: '1000' });
    held.release();
    expect((await (await paying).json()).status).toBe('redirect');
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 1 });
    expect(calls.map((change) => [change.id, change.source])).toEqual([
      [`payment:${session.order_id}:pending`, 'gateway_answer'],
      [`payment:${session.order_id}:success`, 'redelivery'],
    ]);
  });

  it('a discrepancy told does not stand for the status the hook was not told, nor the other way round', async () => {
    const clock = new TestClock(Date.now());
    const calls: PaymentChange[] = [];
    let failing: PaymentChange['kind'] | undefined = 'payment';
    const stack = await open({
      clock,
      companion: {
        onPaymentEvent: (change) => {
          calls.push(change);
          if (change.kind === failing) throw new Error('the mail server is down');
        },
      },
    });
    stack.dropWebhooks = true;
    const told = () => calls.splice(0).map((change) => [change.id, change.source]);

    // The success's telling throws; then the gateway reports it again with another amount.
    const paid = await stack.openSession();
    expect((await (await stack.pay(paid.id)).json()).status).toBe('success');
    failing = undefined;
    await postSuccess(stack, paid.order_id, { amount: 1 });
    expect(told()).toEqual([[`payment:${paid.order_id}:success`, 'gateway_answer'], [`discrepancy:${paid.order_id}`, 'webhook']]);
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 1 });
    expect(told()).toContainEqual([`payment:${paid.order_id}:success`, 'redelivery']);

    // The discrepancy's telling throws; then the payment's own success comes.
    const slow = await stack.openSession();
    expect((await (await stack.pay(slow.id, payBody({ card: card('slow_pending') }))).json()).status).toBe('pending');
    failing = 'discrepancy';
    await postSuccess(stack, slow.order_id, { amount: 1 });
    failing = undefined;
    await postSuccess(stack, slow.order_id);
    expect(told()).toEqual([
      [`payment:${slow.order_id}:pending`, 'gateway_answer'],
      [`discrepancy:${slow.order_id}`, 'webhook'],
      [`payment:${slow.order_id}:success`, 'webhook'],
    ]);
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 1 });
    expect(told()).toContainEqual([`discrepancy:${slow.order_id}`, 'redelivery']);
    clock.advance(HOUR);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0 });
  });

  it('a hook that never returns does not hold the payment’s answer until it is given up on', async () => {
    const hanging: PaymentEventHook = () => new Promise<void>(() => {});
    const stack = await open({ companion: { onPaymentEvent: hanging, reconciliation: { hookTimeoutMs: 5_000 } } });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    // Answered while the call still ran: it was not yet given up on (that comes after 5 s).
    expect(stack.logs.filter((line) => line.includes('HookTimeout'))).toEqual([]);
  });

  it('a pass stops at a hook that hangs, leaves the rest for the next, and tells it again later', async () => {
    const clock = new TestClock(Date.now());
    const calls: PaymentChange[] = [];
    const hanging: PaymentEventHook = (change) => {
      calls.push(change);
      return new Promise<void>(() => {});
    };
    const stack = await open({ clock, companion: { onPaymentEvent: hanging, reconciliation: { hookTimeoutMs: 50 } } });
    stack.dropWebhooks = true;
    for (const session of [await stack.openSession(), await stack.openSession()]) {
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    }
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 0 });
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 0 });
    // Given up on, each is due again after the first back-off, as a hook that threw.
    clock.advance(15_000);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 1, toldNotices: 0 });
    expect(calls.map((change) => change.source)).toEqual(['gateway_answer', 'gateway_answer', 'redelivery', 'redelivery', 'redelivery']);
    expect(stack.logs.filter((line) => line.includes('HookTimeout'))).toHaveLength(5);
  });

  it('with no hook, nothing is kept for telling and payments and refunds work as before', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ clock, companion: { onPaymentEvent: undefined } });
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect((await stack.json('POST', `/api/orders/${session.order_id}/refund`, 200, { admin: true, body: { amount: 1 } })).operation.status).toBe('success');
    // Kept while an instance with a hook could still tell them (a rolling deploy adding one)…
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0, droppedNotices: 0, failures: 0 });
    // …then, told by no one for reconciliation's give-up time, cleared.
    clock.advance(HOUR);
    expect(await reconcile(stack)).toMatchObject({ dueNotices: 0, droppedNotices: 2, failures: 0 });
    expect(await reconcile(stack)).toMatchObject({ droppedNotices: 0 });
    // Routine, as each payment's comes half an hour on: not a pass line at info.
    expect(stack.logs.filter((line) => line.includes('"msg":"reconciliation pass"') && line.includes('"level":"info"'))).toEqual([]);
    clock.advance(HOUR);
    expect(await stack.ledger.claimNotices({ limit: 50, leaseMs: 1 })).toEqual([]);
    expect(await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true })).toMatchObject({ order: { status: 'success' } });
  });
});

withTestDatabase((url) => {
  describe('several instances on one PostgreSQL', () => {
    it('tell a due change from one instance only while its hook runs', async () => {
      const clock = new TestClock(Date.now());
      const stack = await open({ backend: postgresBackend(url), served: true, clock, companion: { onPaymentEvent: undefined } });
      const session = await stack.openSession();
      expect((await (await stack.pay(session.id)).json()).status).toBe('success');
      const calls: PaymentChange[] = [];
      const held = heldHook(calls);
      const first = await stack.instance({ onPaymentEvent: held.hook });
      const second = await stack.instance({ onPaymentEvent: (change) => void calls.push(change) });
      clock.advance(NOTICE_GRACE_MS);
      const telling = reconcile(first);
      try {
        await held.entered;
        expect(await reconcile(second)).toMatchObject({ dueNotices: 0 });
      } finally {
        held.release();
      }
      expect(await telling).toMatchObject({ dueNotices: 1, toldNotices: 1 });
      expect(calls.map((change) => change.id)).toEqual([`payment:${session.order_id}:success`]);
    });
  });
});
