// Reconciliation: whatever the webhooks did not settle is settled by reading the gateway.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_SUB_MERCHANTS, testProjectCredentials } from '@payform/gateway/testing';
import { webhookForm } from '@payform/gateway';
import { TestClock } from '../../ledger/testing/databases.js';
import { card, hostedCardForm } from '../test/cards.js';
import { createLogger } from '../log/logger.js';
import { createStack, eventually, payBody } from '../test/stack.js';
import { MissingWebhooks } from './missing-webhooks.js';
import type { Json, Stack } from '../test/stack.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
let stack: Stack;
let clock: TestClock;
let failReads = false;
/** Order-state reads that never answer: each waits for its caller's signal. */
let hangReads = false;
let hung = 0;
let loseAnswers: RegExp | undefined;
/** Requests to these URLs never reach the gateway (the connection refused). */
let unreachable: RegExp | undefined;
/** The gateway keeps refunds pending (acquirer-side) in its answers and its order state. */
let refundsPending = false;
/** Reads go out with a wrong API secret: the gateway refuses them (a rotated key, a typo). */
let refuseReads = false;

async function withPendingRefunds(request: Request, response: Response): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (!refundsPending || !(path.endsWith('/refund') || /\/orders\/[^/]+$/.test(path))) return response;
  const pending = (entry: Json) => (entry.method === 'refund' ? { ...entry, status: 'pending', status_code: '2001', status_description: 'Pending' } : entry);
  const json = (await response.json()) as Json | Json[];
  return Response.json(Array.isArray(json) ? json.map(pending) : pending(json), { status: response.status });
}

beforeEach(async () => {
  clock = new TestClock(Date.now());
  failReads = false;
  hangReads = false;
  hung = 0;
  loseAnswers = undefined;
  unreachable = undefined;
  refundsPending = false;
  refuseReads = false;
  stack = await createStack({
    clock,
    gateway: {
      retry: { maxRetries: 0 },
      // The network between companion and gateway: reads may fail, answers may be lost after
      // the gateway acted on the request.
      fetch: async (input, init) => {
        const url = String(input);
        // As undici fails: the socket's error, an Error with its code, as the cause.
        if (failReads && (init?.method ?? 'GET') === 'GET') throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
        if (hangReads && /\/orders\/[^/]+$/.test(new URL(url).pathname)) {
          hung += 1;
          return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
        }
        if (unreachable?.test(url)) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
        const request = new Request(input, init);
        if (refuseReads && request.method === 'GET') request.headers.set('X-API-AUTH', `CPAY ${testProjectCredentials({}).apiKey}:not-the-secret`);
        const response = await stack.sandbox.fetch(request.clone());
        if (loseAnswers?.test(url)) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        return withPendingRefunds(request, response);
      },
    },
  });
  stack.dropWebhooks = true;
});
afterEach(async () => {
  await stack.close();
});

const reconcile = () => stack.companion.companion.reconciler.runOnce();

describe('stale payments', () => {
  it('settles a payment whose webhook was lost from the order state', async () => {
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id, payBody({ card: card('slow_pending') }))).json()).status).toBe('pending');
    // The gateway decides; the webhook never arrives.
    await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    expect(await reconcile()).toMatchObject({ checkedPayments: 0 });
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, settled: 1, failures: 0 });
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');
    expect(stack.changes.filter((change) => change.kind === 'payment').map((change) => [change.status, change.source])).toEqual([
      ['pending', 'gateway_answer'],
      ['success', 'reconciliation'],
    ]);
  });

  it('says when payments that succeeded 5 to 30 minutes ago got no webhook, by their pay answer or by reconciliation, at most once every ten minutes', async () => {
    const missing = () => stack.logs.filter((line) => line.includes('the gateway sent no webhook for')).map((line) => JSON.parse(line) as Json);
    // Paid at once: the pay answer settles it, and its webhooks never come (a server in front refusing them).
    const paid = async () => {
      const session = await stack.openSession();
      expect((await (await stack.pay(session.id, payBody({ card: card('success') }))).json()).status).toBe('success');
      return session.order_id;
    };
    const first = await paid();
    await reconcile();
    clock.advance(5 * MINUTE);
    await reconcile();
    // Too young at the first look; the next is ten minutes after it.
    expect(missing()).toEqual([]);
    clock.advance(5 * MINUTE);
    await reconcile();
    expect(missing()).toMatchObject([{ level: 'warn', payments: 1, of: 1, last_order_id: first }]);
    expect(missing()[0]!.msg).toContain(
      "it cannot deliver to the webhook address of the companion that took them (this one's: http://companion.test/webhooks/gateway). " +
        "Check PAYFORM_PUBLIC_URL (of each companion on this ledger), that the gateway may reach that address, and that nothing in front of the companion refuses the gateway's form-encoded POST",
    );

    // One reconciliation settled, whose webhooks did not come either.
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ settled: 1 });
    expect(missing()).toHaveLength(1);
    clock.advance(9 * MINUTE);
    await reconcile();
    expect(missing()).toMatchObject([{ payments: 1 }, { payments: 2, of: 2 }]);

    // A payment the gateway did send a webhook for is counted among those asked about, not as one
    // without. The gateway has given up on the other's first: a retry let through would be one sent.
    await eventually(async () => {
      const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`);
      expect(deliveries.length).toBeGreaterThan(0);
      expect(deliveries.map((delivery: Json) => delivery.status)).toEqual(deliveries.map(() => 'failed'));
    });
    stack.dropWebhooks = false;
    const heard = await paid();
    await eventually(async () => expect((await stack.ledger.getOrder(heard))?.events.length).toBeGreaterThan(0));
    clock.advance(10 * MINUTE);
    await reconcile();
    // The first is past 30 minutes now. Some without a webhook, not all: late or lost, said at info.
    expect(missing()).toMatchObject([{ payments: 1 }, { payments: 2 }, { level: 'info', payments: 1, of: 2, last_order_id: session.order_id }]);
    expect(missing()[2]!.msg).toContain('late or lost on the way');
  });

  it('does not take webhooks the database was away for as webhooks the gateway never sent', async () => {
    const session = await stack.openSession();
    // The database goes away as the gateway sends the payment's webhooks: each is answered 503.
    const ingest = stack.ledger.ingestEvent;
    stack.ledger.ingestEvent = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    stack.dropWebhooks = false;
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    await eventually(() => expect(stack.logs.some((line) => line.includes('"status":503') && line.includes('/webhooks/gateway'))).toBe(true));
    // The gateway's resends are later than reconciliation.
    stack.dropWebhooks = true;
    stack.ledger.ingestEvent = ingest;
    await stack.companion.companion.services.outage.back();
    await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ settled: 1 });
    clock.advance(10 * MINUTE);
    await reconcile();
    expect(stack.logs.filter((line) => line.includes('sent no webhook'))).toEqual([]);
  });

  it('looks for missing webhooks on a clock less than half an hour past the epoch (a test\'s, a board without its time) and goes on with its pass', async () => {
    clock.now = 2 * MINUTE;
    // A process started then: its own look, as app.ts makes it.
    const lines: string[] = [];
    const missingWebhooks = new MissingWebhooks({ ledger: stack.ledger, logger: createLogger({ sink: (line) => lines.push(line) }), clock: () => clock.now, webhookUrl: 'http://companion.test/webhooks/gateway' });
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id, payBody({ card: card('success') }))).json()).status).toBe('success');
    clock.advance(6 * MINUTE);
    await missingWebhooks.look();
    expect(lines.map((line) => JSON.parse(line) as Json)).toMatchObject([{ level: 'warn', payments: 1, of: 1, last_order_id: session.order_id }]);
  });

  it('leaves out payments begun before the process started, whose webhooks may still be in the gateway\'s retries, and verifications', async () => {
    const before = await stack.openSession();
    expect((await (await stack.pay(before.id, payBody({ card: card('success') }))).json()).status).toBe('success');
    clock.advance(MINUTE);
    const lines: string[] = [];
    const missingWebhooks = new MissingWebhooks({ ledger: stack.ledger, logger: createLogger({ sink: (line) => lines.push(line) }), clock: () => clock.now, webhookUrl: 'http://companion.test/webhooks/gateway' });
    const verification = await stack.openSession({ method: 'lookup', customer_id: 'c-1' });
    expect((await (await stack.pay(verification.id, payBody({ card: card('success') }))).json()).status).toBe('success');
    clock.advance(10 * MINUTE);
    await missingWebhooks.look();
    expect(lines).toEqual([]);
  });

  it('checks a payment still open at the gateway again later, and asks for its webhook again', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }));
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, settled: 0 });
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`);
    expect(deliveries.map((delivery: { reason: string }) => delivery.reason)).toContain('resend');
    // Checked just now: not looked at again until it is quiet for another while.
    expect(await reconcile()).toMatchObject({ checkedPayments: 0 });
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1 });
  });

  it('ends an attempt the gateway never heard of, but only after giving it time', async () => {
    const session = await stack.openSession({ ttl_seconds: 7200 });
    const claim = await stack.ledger.claimPayAttempt(session.id, { mode: 'direct' });
    expect(claim.claimed).toBe(true);
    clock.advance(2 * MINUTE);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, givenUp: 0 });
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('init');
    clock.advance(30 * MINUTE);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, givenUp: 1 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusDescription: 'Never reached the gateway' });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('failure');
  });

  it('ends an attempt as never sent on the window’s last read, read every spacing, and its session pays it under the same order id', async () => {
    const session = await stack.openSession();
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
    // The pay path's own read of the order state is the window's first.
    expect((await stack.pay(session.id)).status).toBe(200);
    clock.advance(29 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 0 });
    clock.advance(1 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, neverSent: 0, givenUp: 0 });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('pending');
    clock.advance(30 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, neverSent: 1, givenUp: 0 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'init', unsentAt: clock.now });
    // The customer, told to wait and not pay again, reads that it did not go through.
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ status: 'failure', message: 'The payment could not be completed. Try again.' });
    // The merchant sees it ended, not awaiting payment: unsent_at says when.
    const order = async () => (await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true })).order;
    expect(await order()).toMatchObject({ status: 'init', unsent_at: new Date(clock.now).toISOString() });
    expect(await (await stack.pay(session.id)).json()).toMatchObject({ status: 'success', order_id: session.order_id });
    expect(await order()).toMatchObject({ status: 'success', unsent_at: null });
  });

  it('ends a pending payment the gateway no longer knows like a never-sent one, and its session pays it under the same order id', async () => {
    const session = await stack.openSession({ ttl_seconds: 7200 });
    expect(await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json()).toMatchObject({ status: 'redirect' });
    // The gateway loses the payment it acknowledged (the sandbox restarted).
    await stack.control('POST', '/_sandbox/reset');
    const reads: Json[] = [];
    for (let read = 0; read < 3; read += 1) {
      clock.advance(read === 0 ? MINUTE : 30 * SECOND);
      reads.push(await reconcile());
    }
    expect(reads.map((tally) => tally.neverSent)).toEqual([0, 0, 1]);
    expect(reads.every((tally) => tally.givenUp === 0)).toBe(true);
    // Its challenge is gone with it, and no decision came: the customer reads that it could not be completed.
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ status: 'failure', message: 'The payment could not be completed. Try again.' });
    expect(await (await stack.pay(session.id)).json()).toMatchObject({ status: 'success', order_id: session.order_id });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success', unsentAt: null });
  });

  it('gives up a payment the gateway acknowledged and then lost as lost, not as a decline nor as never reached, counted once', async () => {
    await stack.close();
    const token = 'metrics-token-0123456789abcdef';
    stack = await createStack({ clock, companion: { metricsToken: token } });
    const notSent = async () => {
      const text = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${token}` } })).text();
      return Object.fromEntries(['not_sent', 'failure'].map((outcome) => [outcome, Number(new RegExp(`^payform_payments_total\\{method="purchase",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1])]));
    };
    const session = await stack.openSession({ ttl_seconds: 7200 });
    const paid = await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json();
    await stack.control('POST', '/_sandbox/reset');
    for (let read = 0; read < 3; read += 1) {
      clock.advance(read === 0 ? MINUTE : 30 * SECOND);
      await reconcile();
    }
    expect(await notSent()).toEqual({ not_sent: 1, failure: 0 });
    clock.advance(30 * MINUTE);
    expect(await reconcile()).toMatchObject({ givenUp: 1 });
    // Its pending step's code (2122) is no decision, and the gateway did see it: the merchant is told to check there.
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({
      status: 'failure', statusCode: null, paymentId: paid.payment_id, statusDescription: 'Acknowledged by the gateway, then unknown to it: check it at the gateway that took it',
    });
    expect(await notSent()).toEqual({ not_sent: 1, failure: 0 });
    expect(stack.changes.filter((change) => change.kind === 'payment').map((change) => [change.status, change.source])).toEqual([['pending', 'gateway_answer'], ['failure', 'reconciliation']]);

    // The gateway away for longer than the give-up time, back without the payment: given up at the
    // first read that misses it, it is still counted and said as lost, once.
    const away = await stack.openSession({ ttl_seconds: 7200 });
    await stack.pay(away.id, payBody({ card: card('three_ds_challenge') }));
    await stack.control('POST', '/_sandbox/reset');
    clock.advance(31 * MINUTE);
    expect(await reconcile()).toMatchObject({ givenUp: 1 });
    expect(await stack.ledger.getPayment(away.order_id)).toMatchObject({ status: 'failure', statusCode: null, unsentAt: null });
    const scraped = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${token}` } })).text();
    expect(scraped).toMatch(/^payform_payments_forgotten_total 2$/m);
    expect(await notSent()).toEqual({ not_sent: 2, failure: 0 });
    expect(stack.logs.filter((line) => line.includes('the give-up time has passed')).map((line) => JSON.parse(line))).toMatchObject([{ level: 'error', order_id: away.order_id }]);
  });

  it('cancels an unpaid hosted page once its session has expired', async () => {
    const session = await stack.openSession({ ttl_seconds: 60, customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, cancelled: 1 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusCode: '6007' });
  });

  it('leaves a hosted page whose customer is at 3-D Secure when its session ends: no cancel the gateway would refuse', async () => {
    const session = await stack.openSession({ ttl_seconds: 60, customer: { email: 'olena@example.com', phone: '+380501234567' } });
    const { redirect_url: url } = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    await stack.sandbox.request(url, { method: 'POST', body: hostedCardForm('three_ds_challenge') });
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, cancelled: 0, failures: 0 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'pending' });
    expect(stack.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('cancels the unpaid hosted page of a session the merchant closed while the gateway was away', async () => {
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    unreachable = /\/cancel$/;
    await stack.json('DELETE', `/api/checkout/sessions/${session.id}`, 200, { admin: true });
    expect((await stack.ledger.getSession(session.id))?.closedAt).toEqual(expect.any(Number));
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'init' });
    unreachable = undefined;
    // Long before the session's own end (30 minutes): the page must not be paid once the shop closed it.
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, cancelled: 1 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusCode: '6007' });
  });

  it('keeps going when the gateway cannot be read, and counts the failures', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    failReads = true;
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, failures: 1 });
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('pending');
    // One warning for the pass, naming how many orders and why, with no stack.
    const warned = stack.logs.filter((line) => line.includes('"level":"warn"') && line.includes('reconcil'));
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0]!)).toMatchObject({ msg: expect.stringContaining('could not reach the gateway'), orders: 1, first_order_id: session.order_id, reason: expect.any(String) });
    expect(warned[0]).not.toContain('"stack"');
    // A failed check does not count as one: the next pass looks again.
    failReads = false;
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, settled: 1, failures: 0 });
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');
  });

  it('says a gateway it cannot read at most once a minute, not at every pass', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    failReads = true;
    clock.advance(61 * SECOND);
    const logged = stack.logs.length;
    for (const wait of [0, 15, 15, 15, 15]) {
      clock.advance(wait * SECOND);
      expect(await reconcile()).toMatchObject({ checkedPayments: 1, failures: 1 });
    }
    const lines = stack.logs.slice(logged).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level !== 'debug' && String(line.msg).includes('reconciliation'));
    // A pass that only failed to read changed nothing: no info line of its own either.
    expect(lines).toMatchObject([
      { level: 'warn', msg: expect.stringContaining('could not reach the gateway'), orders: 1 },
      { level: 'warn', msg: expect.stringContaining('could not reach the gateway'), orders: 1, passes_since_last_line: 3 },
    ]);
    expect(lines).toHaveLength(2);
  });

  it('says a gateway that starts refusing its credentials at once, though it said one out of reach a moment before', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    failReads = true;
    clock.advance(61 * SECOND);
    const logged = stack.logs.length;
    await reconcile();
    failReads = false;
    refuseReads = true;
    clock.advance(15 * SECOND);
    await reconcile();
    const lines = stack.logs.slice(logged).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 'warn' && String(line.msg).includes('reconciliation'));
    expect(lines).toMatchObject([{ msg: expect.stringContaining('could not reach the gateway') }, { msg: expect.stringContaining('refuses its reads') }]);
  });

  it('stops a pass at a gateway that refuses its credentials: one line, not an error per order, and no order marked checked', async () => {
    const sessions = [await stack.openSession(), await stack.openSession(), await stack.openSession()];
    for (const session of sessions) await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    for (const session of sessions) {
      await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    }
    refuseReads = true;
    clock.advance(61 * SECOND);
    const logged = stack.logs.length;
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, settled: 0, failures: 1 });
    const lines = stack.logs.slice(logged).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.level === 'error' && String(line.msg).includes('reconcil'))).toEqual([]);
    expect(lines.filter((line) => line.level === 'warn' && String(line.msg).includes('reconciliation'))).toMatchObject([
      { msg: expect.stringContaining('refuses its reads'), orders: 1, reason: expect.stringContaining('Invalid credentials') },
    ]);
    // The refused reads were no check: once the credentials are right, the next pass reads them all at once.
    refuseReads = false;
    expect(await reconcile()).toMatchObject({ checkedPayments: 3, settled: 3, failures: 0 });
  });

  it('one order that cannot be reconciled does not stop the pass, and waits its turn again', async () => {
    const troubled = await stack.openSession();
    const fine = await stack.openSession();
    for (const session of [troubled, fine]) await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    for (const session of [troubled, fine]) {
      await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    }
    // The database refuses every write about one order (a corrupt row, a trigger, a bug).
    const advance = stack.ledger.advancePayment;
    stack.ledger.advancePayment = (orderId, update) => (orderId === troubled.order_id ? Promise.reject(new Error('disk I/O error')) : advance(orderId, update));
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 2, settled: 1, failures: 1 });
    expect((await stack.ledger.getPayment(fine.order_id))?.status).toBe('success');
    expect(stack.logs.some((line) => line.includes('could not reconcile an order') && line.includes(troubled.order_id))).toBe(true);
    // It was looked at: not again until another quiet period has passed.
    expect(await reconcile()).toMatchObject({ checkedPayments: 0 });
    stack.ledger.advancePayment = advance;
    clock.advance(61 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedPayments: 1, settled: 1, failures: 0 });
  });

  it('ends a pass when the database refuses writes: one outage line, not an error with a stack per order, and settles once it is back', async () => {
    await stack.close();
    stack = await createStack({ clock, companion: { reconciliation: { intervalMs: 10, stalePaymentAfterMs: 0 } } });
    stack.dropWebhooks = true;
    const sessions = [await stack.openSession(), await stack.openSession()];
    for (const session of sessions) await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    for (const session of sessions) {
      await eventually(async () => expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]?.status).toBe('success'));
    }
    // The disk under a SQLite ledger is full: reads work, every write is refused.
    const advance = stack.ledger.advancePayment;
    const full = () => Promise.reject(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    stack.ledger.advancePayment = full;
    await expect(reconcile()).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    const reconciler = stack.companion.companion.reconciler;
    reconciler.start();
    await eventually(() => expect(stack.logs.some((line) => line.includes('the database cannot be reached'))).toBe(true));
    await reconciler.stop();
    expect(stack.logs.filter((line) => line.includes('could not reconcile') || line.includes('could not mark'))).toEqual([]);
    expect(stack.logs.filter((line) => line.includes('"level":"error"'))).toHaveLength(1);
    stack.ledger.advancePayment = advance;
    expect(await reconcile()).toMatchObject({ checkedPayments: 2, settled: 2, failures: 0 });
  });
});

describe('unsettled operations', () => {
  it('settles a refund whose answer and first read were both lost', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    loseAnswers = /\/api\/v1\/refund$/;
    failReads = true;
    const pending = await stack.json('POST', `/api/orders/${session.order_id}/refund`, 202, { admin: true, body: { amount: 200 } });
    expect(pending.operation).toMatchObject({ status: 'pending', amount: 200 });
    // The reserved amount already counts against the refundable.
    expect(pending.totals).toMatchObject({ refund_pending: 200, refundable: 810 });
    // The gateway trouble says the dropped connection, once for every call; the refund's own line,
    // and not a second one for the read after it lost to the same network, is info below it, as
    // a payment's is: a warning for each refund would bury the one line that says what is wrong.
    const lines = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; order_id?: string });
    expect(lines.filter((line) => line.level === 'error' && line.msg.includes('drops the companion’s connections'))).toHaveLength(1);
    expect(lines.filter((line) => line.order_id === session.order_id && line.level !== 'debug').map(({ level, msg }) => [level, msg])).toContainEqual(['info', 'the outcome of an operation is unknown; reading the order state']);
    expect(lines.filter((line) => line.order_id === session.order_id && line.level === 'warn')).toEqual([]);
    loseAnswers = undefined;
    failReads = false;
    clock.advance(31 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedOperations: 1, settled: 1 });
    const detail = await stack.ledger.getOrder(session.order_id);
    expect(detail?.operations).toMatchObject([{ kind: 'refund', status: 'success', amount: 200, operationId: expect.any(String) }]);
    expect(detail?.totals).toMatchObject({ refunded: 200, refundPending: 0 });
  });

  it('never gives up a refund the gateway still reports pending, and takes its late success', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    refundsPending = true;
    const { operation } = await stack.json('POST', `/api/orders/${session.order_id}/refund`, 200, { admin: true, body: { amount: 600 } });
    expect(operation).toMatchObject({ status: 'pending', operation_id: expect.any(String) });
    clock.advance(31 * MINUTE);
    expect(await reconcile()).toMatchObject({ checkedOperations: 1, givenUp: 0 });
    expect(await stack.ledger.getOperation(operation.id)).toMatchObject({ status: 'pending' });
    // Checked: set aside for a quiet period, then looked at again.
    expect(await reconcile()).toMatchObject({ checkedOperations: 0 });
    // The gateway settles it at last; its webhook (held back so far) arrives.
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`);
    const refund = deliveries.find((delivery: Json) => delivery.body.data && JSON.parse(Buffer.from(delivery.body.data, 'base64url').toString()).method === 'refund');
    const delivered = await stack.request('POST', '/webhooks/gateway', {
      body: new URLSearchParams(refund.body).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(await delivered.json()).toMatchObject({ outcome: 'applied' });
    expect(await stack.ledger.getOrder(session.order_id)).toMatchObject({ totals: { refunded: 600, refundPending: 0, refundable: 410 } });
    await stack.json('POST', `/api/orders/${session.order_id}/refund`, 422, { admin: true, body: { amount: 600 } });
  });

  it('counts a sub-merchant’s refund still pending against its share', async () => {
    const [subA, subB] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string];
    const session = await stack.openSession({ amount: 100, split: [{ sub_merchant_id: subA, amount: 60 }, { sub_merchant_id: subB, amount: 40 }] });
    await stack.pay(session.id);
    refundsPending = true;
    const refund = (amount: number, status: number) => stack.json('POST', `/api/orders/${session.order_id}/split-refund`, status, { admin: true, body: { split: [{ sub_merchant_id: subA, amount }] } });
    expect((await refund(50, 200)).operation).toMatchObject({ status: 'pending', amount: 50 });
    expect((await refund(20, 422)).error).toMatchObject({ code: 'exceeds_sub_merchant_share', fields: { 'split[0].amount': 'must be at most 10 (0.10 UAH)' } });
    expect((await stack.ledger.getOrder(session.order_id))?.operations).toHaveLength(1);
  });

  it('releases a reservation the gateway never received, after giving it time', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    const reservation = await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 300 });
    clock.advance(31 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedOperations: 1, settled: 0, givenUp: 0 });
    clock.advance(30 * MINUTE);
    expect(await reconcile()).toMatchObject({ givenUp: 1 });
    expect(await stack.ledger.getOperation(reservation.id)).toMatchObject({ status: 'failure' });
    expect(await stack.ledger.refundableAmount(session.order_id)).toBe(1010);
  });
});

describe('two reservations of one order', () => {
  it('counts a reservation ended as never sent by the read of another, which it gives up in the same pass', async () => {
    const session = await stack.openSession();
    await stack.pay(session.id);
    // Two refunds reserved half a minute apart, neither sent (the process stopped before each call).
    const first = await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 300 });
    clock.advance(31 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedOperations: 1, neverSent: 0 });
    clock.advance(30 * SECOND);
    const second = await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 200 });
    clock.advance(SECOND);
    expect(await reconcile()).toMatchObject({ checkedOperations: 1, neverSent: 0 });
    // The companion is stopped for half an hour. Back, the second reservation, looked at longest
    // ago, is read first: that read is the first one's last, and the second's give-up time is past.
    clock.advance(31 * MINUTE);
    expect(await reconcile()).toMatchObject({ checkedOperations: 2, neverSent: 1, givenUp: 1, settled: 0 });
    expect(await stack.ledger.listOperations(session.order_id)).toMatchObject([
      { id: first.id, status: 'failure', statusDescription: 'Never reached the gateway' },
      { id: second.id, status: 'failure', statusDescription: 'Never reached the gateway' },
    ]);
    expect(await stack.ledger.refundableAmount(session.order_id)).toBe(1010);
    const said = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => entry.msg === 'reconciliation pass' && entry.level === 'info');
    expect(said).toEqual([expect.objectContaining({ neverSent: 1, givenUp: 1, settled: 0 })]);
  });
});

describe('waiting webhook events', () => {
  it('applies an event that could not be applied when it came, on a later pass', async () => {
    const credentials = testProjectCredentials({});
    // The event arrives before this ledger knows its order (restored from a backup taken earlier).
    const event = {
      payment_id: '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b', order_id: 'restored-1001', pos_id: credentials.posId, mode: 'direct',
      method: 'purchase', amount: 10.1, currency: 'UAH', status: 'success', status_code: '1000', created_at: '2030-01-15T09:30:00.000',
    };
    const posted = await stack.request('POST', '/webhooks/gateway', {
      body: new URLSearchParams({ ...webhookForm(event, credentials.apiSecret) }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(await posted.json()).toMatchObject({ outcome: 'unmatched' });
    const session = await stack.openSession({ order_id: 'restored-1001' });
    await stack.ledger.claimPayAttempt(session.id, { mode: 'direct' });
    clock.advance(31 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedEvents: 1, appliedEvents: 1 });
    expect(await stack.ledger.getPayment('restored-1001')).toMatchObject({ status: 'success', statusCode: '1000' });
    expect(stack.changes.map((change) => [change.kind, change.status, change.source])).toContainEqual(['payment', 'success', 'reconciliation']);
    const detail = await stack.ledger.getOrder('restored-1001');
    expect(detail?.events.map((stored) => stored.outcome)).toEqual(['applied']);
    // Applied: nothing left waiting.
    clock.advance(31 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedEvents: 0 });
  });
  it('keeps trying an event that applies to nothing, and warns once, when it has waited longer than giving up takes', async () => {
    const credentials = testProjectCredentials({});
    const event = {
      payment_id: '1c7e6b8f-2d3e-4f5a-9b0c-1d2e3f4a5b6c', order_id: 'lost-2002', pos_id: credentials.posId, mode: 'direct',
      method: 'purchase', amount: 25, currency: 'UAH', status: 'success', status_code: '1000', created_at: '2030-01-15T09:30:00.000',
    };
    await stack.request('POST', '/webhooks/gateway', {
      body: new URLSearchParams({ ...webhookForm(event, credentials.apiSecret) }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const warnings = () => stack.logs.filter((line) => line.includes('a webhook event still applies to nothing'));
    clock.advance(31 * SECOND);
    expect(await reconcile()).toMatchObject({ checkedEvents: 1, appliedEvents: 0 });
    expect(warnings(), 'too early to call it lost').toEqual([]);
    clock.advance(30 * MINUTE);
    expect(await reconcile()).toMatchObject({ checkedEvents: 1, appliedEvents: 0 });
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 'warn', order_id: 'lost-2002', method: 'purchase', status: 'success', outcome: 'unmatched' });
    // Tried again every pass, warned of once: a line per event each half minute buried the log.
    for (let pass = 0; pass < 3; pass++) {
      clock.advance(31 * SECOND);
      expect(await reconcile()).toMatchObject({ checkedEvents: 1, appliedEvents: 0 });
    }
    expect(warnings()).toHaveLength(1);
    // Nothing changed in those passes: their summary is not at info.
    expect(stack.logs.filter((line) => line.includes('"msg":"reconciliation pass"') && line.includes('"level":"info"'))).toEqual([]);
  });
});

describe('many pending payments', () => {
  it('ends a never-sent attempt within its window, however many open challenges wait before it', async () => {
    await stack.close();
    stack = await createStack({ clock, companion: { reconciliation: { batchSize: 2 } } });
    // Customers who left their 3-D Secure challenge: pending at the gateway for a long while.
    for (let i = 0; i < 3; i += 1) {
      const left = await stack.openSession();
      expect((await (await stack.pay(left.id, payBody({ card: card('three_ds_challenge') }))).json()).status).toBe('redirect');
      clock.advance(SECOND);
    }
    // This customer's payment never reached the gateway, and they wait to pay again.
    const waiting = await stack.openSession();
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });
    expect((await stack.pay(waiting.id)).status).toBe(200);
    clock.advance(61 * SECOND);
    await reconcile();
    clock.advance(30 * SECOND);
    await reconcile();
    expect(await stack.ledger.getPayment(waiting.order_id)).toMatchObject({ status: 'init', unsentAt: clock.now });
  });
});

describe('many pending operations', () => {
  it('checks every pending reservation in turn, not the oldest batch over and over', async () => {
    await stack.close();
    const read: string[] = [];
    stack = await createStack({
      clock,
      companion: { reconciliation: { batchSize: 1 } },
      gateway: {
        fetch: async (input, init) => {
          const path = new URL(String(input)).pathname;
          if ((init?.method ?? 'GET') === 'GET' && path.includes('/orders/')) read.push(decodeURIComponent(path.split('/').at(-1)!));
          return stack.sandbox.fetch(new Request(input, init));
        },
      },
    });
    const orders: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const session = await stack.openSession();
      await stack.pay(session.id);
      await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 100 });
      orders.push(session.order_id);
      clock.advance(SECOND);
    }
    clock.advance(31 * SECOND);
    await reconcile();
    clock.advance(31 * SECOND);
    await reconcile();
    expect(read).toEqual(orders);
  });
});

describe('abandoned checkout sessions', () => {
  it('deletes a session that expired a month ago with no payment attempt, and keeps one with an attempt', async () => {
    const abandoned = await stack.openSession({ ttl_seconds: 60 });
    const declined = await stack.openSession({ ttl_seconds: 60 });
    expect((await (await stack.pay(declined.id, payBody({ card: card('rejected') }))).json()).status).toBe('failure');
    clock.advance(MINUTE + 29 * DAY);
    expect(await reconcile()).toMatchObject({ abandonedSessions: 0 });
    clock.advance(2 * DAY);
    expect(await reconcile()).toMatchObject({ abandonedSessions: 1 });
    expect((await stack.request('GET', `/api/checkout/sessions/${abandoned.id}`)).status).toBe(404);
    expect((await stack.request('GET', `/api/checkout/sessions/${declined.id}`)).status).toBe(200);
    expect((await stack.ledger.getOrder(declined.order_id))?.payment.status).toBe('failure');
    expect(await reconcile()).toMatchObject({ abandonedSessions: 0 });
  });
});

describe('the loop', () => {
  it('ends a pass held by a gateway read that does not answer when it stops, and takes no further order', async () => {
    for (let i = 0; i < 2; i += 1) {
      const session = await stack.openSession();
      expect((await (await stack.pay(session.id, payBody({ card: card('slow_pending') }))).json()).status).toBe('pending');
    }
    clock.advance(61 * SECOND);
    hangReads = true;
    const pass = reconcile();
    await eventually(() => expect(hung).toBe(1));
    await stack.companion.companion.reconciler.stop();
    expect(await pass).toMatchObject({ checkedPayments: 1, failures: 0, settled: 0 });
    expect(hung, 'the second order was not read').toBe(1);
    expect(stack.logs.filter((line) => line.includes('could not reconcile'))).toEqual([]);
  });

  it('runs passes on its timer until stopped', async () => {
    await stack.close();
    stack = await createStack({ clock, companion: { reconciliation: { intervalMs: 10, stalePaymentAfterMs: 0 } } });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    const reconciler = stack.companion.companion.reconciler;
    reconciler.start();
    await eventually(async () => expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success'));
    await reconciler.stop();
    const passes = stack.logs.filter((line) => line.includes('reconciliation pass')).length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stack.logs.filter((line) => line.includes('reconciliation pass')).length).toBe(passes);
  });

  it('runs no pass on a ledger of another point of sale, and says so once, naming the handover', async () => {
    await stack.close();
    stack = await createStack({ clock, companion: { reconciliation: { intervalMs: 10, stalePaymentAfterMs: 0 } } });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('slow_pending') }));
    const other = 'a0a0a0a0-1111-4222-8333-444455556666';
    // Another point of sale's companion opened this ledger first (here: before the first pass).
    expect(await stack.ledger.claimPointOfSale(other)).toBe(other);
    const reconciler = stack.companion.companion.reconciler;
    const { posId } = stack.companion.companion.services.gateway;
    await expect(reconciler.runOnce()).rejects.toMatchObject({ code: 'PAYFORM_LEDGER_OF_ANOTHER_POS', message: expect.stringContaining(`claimPointOfSale('${posId}', '${other}')`) });
    reconciler.start();
    await new Promise((resolve) => setTimeout(resolve, 80));
    await reconciler.stop();
    const told = stack.logs.filter((line) => line.includes(`the ledger holds the payments of point of sale ${other}`));
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0]!)).toMatchObject({ level: 'error', msg: expect.stringContaining(`Handed over to ${other} (going live)? Then this companion is the old one: stop it.`) });
    expect(stack.logs.filter((line) => line.includes('reconciliation pass'))).toEqual([]);
    // Its payment was left as it was: not settled, not ended.
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('pending');
    // Handed over, the next pass runs.
    expect(await stack.ledger.claimPointOfSale(posId, other)).toBe(posId.toLowerCase());
    await expect(reconciler.runOnce()).resolves.toMatchObject({ checkedPayments: 1 });
  });

  it('notices a handover to another point of sale while it runs: no pass, no payment, not ready, until it is handed back', async () => {
    const reconciler = stack.companion.companion.reconciler;
    const { posId } = stack.companion.companion.services.gateway;
    await reconciler.runOnce();
    const session = await stack.openSession();
    // A rolling deploy: the new point of sale's first companion takes the ledger over.
    const other = 'b0b0b0b0-1111-4222-8333-444455556666';
    expect(await stack.ledger.claimPointOfSale(other, posId)).toBe(other);
    await expect(reconciler.runOnce()).rejects.toMatchObject({ code: 'PAYFORM_LEDGER_OF_ANOTHER_POS' });
    const refused = await stack.pay(session.id);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'ledger_of_another_pos' } });
    const sessionBody = { amount: 100, currency: 'XTS', description: 'Tea' };
    const keyed = { admin: true, body: sessionBody, headers: { 'Idempotency-Key': 'open-while-foreign' } };
    expect((await stack.request('POST', '/api/checkout/sessions', keyed)).status).toBe(503);
    expect(await stack.json('GET', '/readyz', 503)).toEqual({ status: 'foreign_ledger' });
    // Nor a saved card's charge: refused before the card is even looked up.
    const charged = await stack.request('POST', '/api/customers/olena/cards/any/charges', { admin: true, body: sessionBody, headers: { 'Idempotency-Key': 'charge-while-foreign' } });
    expect(charged.status).toBe(503);
    expect(await charged.json()).toMatchObject({ error: { code: 'ledger_of_another_pos' } });
    // Nothing was claimed for the old point of sale.
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    expect(await stack.ledger.claimPointOfSale(posId, other)).toBe(posId.toLowerCase());
    await reconciler.runOnce();
    expect(await stack.json('GET', '/readyz', 200)).toEqual({ status: 'ready' });
    expect(await (await stack.pay(session.id)).json()).toMatchObject({ status: 'success' });
    // A refusal that ran nothing is not kept under its key: the retry the Retry-After asked for works.
    const retried = await stack.request('POST', '/api/checkout/sessions', keyed);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const recharged = await stack.request('POST', '/api/customers/olena/cards/any/charges', { admin: true, body: sessionBody, headers: { 'Idempotency-Key': 'charge-while-foreign' } });
    expect(recharged.headers.get('idempotent-replayed')).toBeNull();
    expect(recharged.status).not.toBe(503);
  });
});
