// GET /metrics after a journey: every counter the operator's dashboards and alerts read, with
// the counts the journey made — payments by method and outcome, gateway calls by route, webhooks
// by outcome, idempotent replays, rate-limit refusals, ledger errors, and the ledger's backlog.
import { describe, expect, it } from 'vitest';
import { webhookForm } from '@payform/gateway';
import { testProjectCredentials } from '@payform/gateway/testing';
import { ADMIN_TOKEN, eventually, payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';
import { card } from '../test/cards.js';
import { TestClock } from '../../ledger/testing/databases.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const SECRET = testProjectCredentials({}).apiSecret;
const PER_SESSION = 4;
const open = stacksPerTest();

/** `name{labels} value` lines of the Prometheus text, as { 'name{a="b"}': value }. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

function scrape(stack: Stack, token: string | null = METRICS_TOKEN): Promise<Response> {
  // Straight to the app: /metrics is an operator's endpoint, not part of the OpenAPI document.
  return Promise.resolve(stack.companion.request('/metrics', { headers: token ? { Authorization: `Bearer ${token}` } : {} }));
}

function postWebhook(stack: Stack, form: { data: string; signature: string }): Promise<Response> {
  return stack.request('POST', '/webhooks/gateway', { body: new URLSearchParams(form).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
}

async function pay(stack: Stack, session: Json, outcome: Parameters<typeof card>[0] = 'success'): Promise<Json> {
  return stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ card: card(outcome) }) });
}

describe('GET /metrics', () => {
  it('counts what a journey did', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN, rateLimits: { perSession: PER_SESSION, perClient: 1000, wrongAdminTokens: 1000 } } });
    // Payments: two purchases paid (one through 3-D Secure), one declined, one auth paid, one challenge left open.
    const paid = await stack.openSession();
    await pay(stack, paid);
    const declined = await stack.openSession();
    expect((await pay(stack, declined, 'rejected')).status).toBe('failure');
    await pay(stack, await stack.openSession({ method: 'auth' }));
    const challenged = await pay(stack, await stack.openSession(), 'three_ds_challenge');
    expect(challenged.status).toBe('redirect');
    await stack.control('POST', `/_sandbox/3ds/${challenged.payment_id}`, { result: 'success' });
    const waiting = await pay(stack, await stack.openSession(), 'three_ds_challenge');
    expect(waiting.status).toBe('redirect');
    await stack.settleWebhooks();

    // Rate limit: the paid session's pay button pressed until the limit answers 429, once.
    for (let press = 1; press < PER_SESSION; press += 1) await pay(stack, paid);
    expect((await stack.pay(paid.id)).status).toBe(429);

    // An idempotent replay of a session creation.
    const create = { admin: true, headers: { 'Idempotency-Key': 'metrics-replay-1' }, body: { amount: 5, currency: 'UAH', description: 'Tea' } };
    expect((await stack.request('POST', '/api/checkout/sessions', create)).status).toBe(201);
    const replayed = await stack.request('POST', '/api/checkout/sessions', create);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    // Webhooks the gateway did not send: one duplicate of a real event, one for no order, one forged.
    const [delivered] = (await stack.control('GET', '/_sandbox/webhooks?status=delivered')).deliveries;
    expect((await (await postWebhook(stack, delivered.body)).json()).duplicate).toBe(true);
    const stranger = webhookForm({ ...eventFields(), order_id: 'not-an-order-of-ours' }, SECRET);
    expect((await (await postWebhook(stack, stranger)).json()).outcome).toBe('unmatched');
    expect((await postWebhook(stack, { data: stranger.data, signature: 'forged' })).status).toBe(401);

    const response = await scrape(stack);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const metrics = samples(await response.text());

    expect(metrics.get('payform_payments_total{method="purchase",outcome="success"}')).toBe(2);
    expect(metrics.get('payform_payments_total{method="purchase",outcome="failure"}')).toBe(1);
    expect(metrics.get('payform_payments_total{method="auth",outcome="success"}')).toBe(1);
    // Five payments created at the gateway, each timed once, whatever its answer's status.
    const creates = [...metrics].filter(([name]) => name.startsWith('payform_gateway_call_duration_seconds_count{route="POST /api/v1/payment"'));
    expect(creates.reduce((sum, [, count]) => sum + count, 0)).toBe(5);
    expect(creates.every(([name]) => /status="\d{3}"/.test(name))).toBe(true);

    const webhooks = (outcome: string) => metrics.get(`payform_webhooks_received_total{outcome="${outcome}"}`) ?? 0;
    const { deliveries } = await stack.control('GET', '/_sandbox/webhooks?status=delivered');
    // Every delivery the sandbox made (200) was counted under its outcome; ours three besides.
    expect(webhooks('applied') + webhooks('stale') + webhooks('parked') + webhooks('duplicate') + webhooks('unmatched') - 2).toBe(deliveries.length);
    expect(webhooks('applied')).toBeGreaterThanOrEqual(5);
    expect(webhooks('duplicate')).toBe(1);
    expect(webhooks('unmatched')).toBe(1);
    expect(webhooks('invalid_signature')).toBe(1);

    expect(metrics.get('payform_idempotent_replays_total')).toBe(1);
    expect(metrics.get('payform_rate_limit_refusals_total{route="/api/checkout/sessions/:id/pay"}')).toBe(1);
    expect(metrics.get('payform_ledger_errors_total{kind="unavailable"}')).toBe(0);
    expect(metrics.get('payform_ledger_errors_total{kind="failed"}')).toBe(0);
    // The challenge left open is the one unfinished payment; the unmatched event waits for a person.
    expect(metrics.get('payform_ledger_up')).toBe(1);
    expect(metrics.get('payform_unfinished_payments')).toBe(1);
    expect(metrics.get('payform_oldest_unfinished_payment_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(metrics.get('payform_unsettled_operations')).toBe(0);
    expect(metrics.get('payform_webhook_events_waiting{outcome="unmatched"}')).toBe(1);
    expect(metrics.get('payform_webhook_events_waiting{outcome="parked"}')).toBe(0);
  });

  it('serves the process’s own series too: memory, heap, event-loop delay, open files', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    await scrape(stack);
    const found = samples(await (await scrape(stack)).text());
    expect(found.get('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(found.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(1024 * 1024);
    expect(found.get('process_open_fds')).toBeGreaterThan(0);
    expect(found.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('gauges the orders held for a person until one settles them', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    const session = await stack.openSession();
    expect((await pay(stack, session)).status).toBe('success');
    const held = async () => samples(await (await scrape(stack)).text()).get('payform_held_orders');
    expect(await held()).toBe(0);
    // A refund made in the gateway's portal past what was paid.
    await stack.ledger.recordGatewayOperation(session.order_id, { kind: 'refund', amount: session.amount * 2, status: 'success', operationId: 'portal-refund', shown: 1 });
    expect(await held()).toBe(1);
    await stack.json('POST', `/api/orders/${session.order_id}/settle-discrepancy`, 200, { admin: true, body: { note: 'The customer returned the double refund', version: 1 } });
    expect(await held()).toBe(0);
  });

  it('counts an attempt the gateway never decided apart from the declines', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 429, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' } });
    const session = await stack.openSession();
    expect((await stack.pay(session.id)).status).toBe(503);
    await stack.control('DELETE', '/_sandbox/faults');
    const declined = await stack.openSession();
    expect(await pay(stack, declined, 'rejected')).toMatchObject({ status: 'failure' });
    const metrics = samples(await (await scrape(stack)).text());
    expect(metrics.get('payform_payments_total{method="purchase",outcome="not_sent"}')).toBe(1);
    expect(metrics.get('payform_payments_total{method="purchase",outcome="failure"}')).toBe(1);
  });

  it('counts the late decision of an attempt that was ended as never sent, as its first send landed after all', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    const session = await stack.openSession();
    const challenged = await pay(stack, session, 'three_ds_challenge');
    // Two reads that missed it (a gateway slow to show it) end it as never sent.
    for (const readAt of [Date.now() + 1_000, Date.now() + 2_000]) await stack.ledger.countAbsentPayment(session.order_id, { readAt, reads: 2, spacingMs: 0 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'pending', unsentAt: expect.any(Number) });
    await stack.control('POST', `/_sandbox/3ds/${challenged.payment_id}`, { result: 'success' });
    await eventually(async () => expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success'));
    const metrics = samples(await (await scrape(stack)).text());
    expect(metrics.get('payform_payments_total{method="purchase",outcome="success"}')).toBe(1);
  });

  it('counts an unpaid hosted payment cancelled apart from the declines, in the metrics and the stats', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    const hosted = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${hosted.id}/hosted`, 200, { body: {} });
    await stack.json('POST', `/api/orders/${hosted.order_id}/cancel`, 200, { admin: true, body: {} });
    const metrics = samples(await (await scrape(stack)).text());
    expect(metrics.get('payform_payments_total{method="purchase",outcome="cancelled"}')).toBe(1);
    expect(metrics.get('payform_payments_total{method="purchase",outcome="failure"}')).toBe(0);
    // An abandoned checkout is no customer's decline: the success rate has nothing decided yet.
    const stats = await stack.json('GET', '/api/stats', 200, { admin: true });
    expect(stats.totals).toEqual({ total: 1, succeeded: 0, failed: 0, in_flight: 0, not_sent: 0, cancelled: 1, success_rate: null });
  });

  it('counts a hosted page left to expire unpaid at the gateway as abandoned, not declined', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    const hosted = await stack.openSession({ ttl_seconds: 120, customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${hosted.id}/hosted`, 200, { body: {} });
    // The page lives as long as its session: the gateway ends it (4149) and says so by webhook.
    await stack.control('POST', '/_sandbox/clock', { advance_seconds: 180 });
    await stack.settleWebhooks();
    expect(await stack.ledger.getPayment(hosted.order_id)).toMatchObject({ status: 'failure', statusCode: '4149' });
    const metrics = samples(await (await scrape(stack)).text());
    expect(metrics.get('payform_payments_total{method="purchase",outcome="cancelled"}')).toBe(1);
    expect(metrics.get('payform_payments_total{method="purchase",outcome="failure"}')).toBe(0);
    expect((await stack.json('GET', '/api/stats', 200, { admin: true })).totals).toMatchObject({ failed: 0, cancelled: 1, success_rate: null });
  });

  // The documented PayformGatewayRefusesCredentials alert reads this gauge: a counter of 401s is
  // born at 1, and Prometheus's increase() saw no rise in it, so a shop's first refused payment
  // (or the check at start, after a key rotated) never fired the alert.
  it('says the gateway refuses the credentials from the first refusal until a payment is taken', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    const refused = async () => samples(await (await scrape(stack)).text()).get('payform_gateway_credentials_refused');
    expect(await refused()).toBe(0);
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 401, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' } });
    expect((await stack.pay((await stack.openSession()).id)).status).toBe(502);
    expect(await refused()).toBe(1);
    // A read without the endpoints key taken says nothing of that key: still refused.
    expect((await stack.request('GET', '/api/balances/accounts', { admin: true })).status).toBe(200);
    expect(await refused()).toBe(1);
    await stack.control('DELETE', '/_sandbox/faults');
    await pay(stack, await stack.openSession());
    expect(await refused()).toBe(0);
  });

  // The documented PayformGatewayTrouble alert reads this gauge: the error-rate rule on the calls'
  // counter missed a quiet shop's first failures (a series born at its first failed call shows no
  // rise to rate()), and a night of two failed payments never fired it.
  it('says the gateway fails its calls from when the error line does until a call is answered, each kind there from start', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    const trouble = async () => {
      const metrics = samples(await (await scrape(stack)).text());
      return Object.fromEntries([...metrics].filter(([name]) => name.startsWith('payform_gateway_trouble{')).map(([name, value]) => [/kind="([^"]+)"/.exec(name)![1], value]));
    };
    const none = { unreachable: 0, 'plain http': 0, tls: 0, failing: 0, busy: 0, credentials: 0, 'endpoints key': 0, elsewhere: 0 };
    expect(await trouble()).toEqual(none);
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'before' });
    // The first payment of the night: its create and the read of its outcome fail.
    await stack.pay((await stack.openSession()).id);
    await stack.pay((await stack.openSession()).id);
    expect(await trouble()).toEqual({ ...none, failing: 1 });
    await stack.control('DELETE', '/_sandbox/faults');
    await pay(stack, await stack.openSession());
    expect(await trouble()).toEqual(none);
  });

  // PayformReconciliationStalled reads this gauge: a sweep that throws, a gateway refusing or not
  // answering its reads, or a reconciler never started was said in log lines only, if at all.
  it('says reconciliation is stalled while a payment waiting for the gateway goes unread for 15 minutes', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ clock, companion: { metricsToken: METRICS_TOKEN } });
    const stalled = async () => samples(await (await scrape(stack)).text()).get('payform_reconciliation_stalled');
    expect(await stalled()).toBe(0);
    // A challenge left open is pending at the gateway, and no reconciliation pass reads it.
    expect((await pay(stack, await stack.openSession(), 'three_ds_challenge')).status).toBe('redirect');
    clock.advance(14 * 60_000);
    expect(await stalled()).toBe(0);
    clock.advance(2 * 60_000);
    expect(await stalled()).toBe(1);
    // A pass reads it (still pending there) and marks it checked: reconciliation is not stalled.
    expect(await stack.companion.companion.reconciler.runOnce()).toMatchObject({ checkedPayments: 1, failures: 0 });
    expect(await stalled()).toBe(0);
  });

  // PayformWebhooksNotArriving compares these: payments settled, no webhook accepted. A counter
  // born at its first webhook left that sum with no series at all, so the rule could never fire.
  it('has every webhook and payment series from start, so payments settled with no webhook at all show', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    stack.dropWebhooks = true;
    await pay(stack, await stack.openSession());
    await pay(stack, await stack.openSession({ method: 'auth' }));
    const metrics = samples(await (await scrape(stack)).text());
    for (const outcome of ['applied', 'stale', 'parked', 'unmatched', 'duplicate', 'invalid_signature', 'unreadable']) expect(metrics.get(`payform_webhooks_received_total{outcome="${outcome}"}`)).toBe(0);
    expect(metrics.get('payform_payments_total{method="purchase",outcome="success"}')).toBe(1);
    expect(metrics.get('payform_payments_total{method="auth",outcome="success"}')).toBe(1);
    expect(metrics.get('payform_payments_total{method="lookup",outcome="not_sent"}')).toBe(0);
  });

  // PayformDiscrepancy reads this counter: a payment held for a person was said in an error line only.
  it('counts each report of the gateway that contradicts an order, from 0', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    stack.dropWebhooks = true;
    const discrepancies = async () => samples(await (await scrape(stack)).text()).get('payform_discrepancies_total');
    expect(await discrepancies()).toBe(0);
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    // Paid short on the gateway's page: 5.00 of the order's 10.10; its redelivery is no new report.
    const short = webhookForm({ ...eventFields(), order_id: session.order_id, mode: 'hosted', processed_amount: 5, processed_currency: 'UAH' }, SECRET);
    await postWebhook(stack, short);
    await postWebhook(stack, short);
    expect(await discrepancies()).toBe(1);
  });

  it('answers only its own token, and is not there unless configured', async () => {
    const stack = await open({ companion: { metricsToken: METRICS_TOKEN } });
    expect((await scrape(stack, null)).status).toBe(401);
    const wrong = await scrape(stack, ADMIN_TOKEN);
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.message).toBe('The bearer token is not the metrics token (PAYFORM_METRICS_TOKEN)');
    expect((await scrape(stack, 'rotated-metrics-token-0123456789')).status).toBe(401);
    expect((await scrape(stack)).status).toBe(200);
    // A scraper left on another token is said once a minute, however often it scrapes; one without any token is not.
    const said = stack.logs.map((line) => JSON.parse(line)).filter((entry) => entry.msg.startsWith('GET /metrics refused'));
    expect(said).toMatchObject([{ level: 'warn', refused: 1 }]);
    expect(JSON.stringify(said)).not.toContain(ADMIN_TOKEN);

    const without = await open();
    expect((await scrape(without)).status).toBe(404);
  });

  it('refuses a metrics token that is the admin token', async () => {
    await expect(open({ companion: { metricsToken: ADMIN_TOKEN } })).rejects.toThrow('metricsToken (PAYFORM_METRICS_TOKEN) must differ from adminToken (PAYFORM_ADMIN_TOKEN)');
  });
});

function eventFields() {
  return {
    payment_id: '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    pos_id: testProjectCredentials({}).posId,
    mode: 'direct',
    method: 'purchase',
    amount: 10.1,
    currency: 'UAH',
    status: 'success',
    status_code: '1000',
    cc_mask: '424242******4242',
    created_at: '2030-01-15T09:30:00.000',
  };
}
