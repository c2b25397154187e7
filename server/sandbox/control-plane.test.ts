import { beforeEach, describe, expect, it } from 'vitest';
import { directPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox({ webhooks: { retryDelaysMs: [1_000, 5_000], reorderHoldMs: 2_000 } });
});

const control = (method: string, path: string, body?: unknown) => sandbox.control(method, `/_sandbox${path}`, body);
const faults = (settings: Json) => control('PUT', '/faults', settings);
const pay = (overrides: Json = {}, card?: string) => sandbox.post('/api/v1/payment', directPayment(sandbox.project, overrides, card));
const deliveries = async (query = '') => ((await (await control('GET', `/webhooks${query}`)).json()) as { deliveries: Json[] }).deliveries;
const orderCount = () => sandbox.app.sandbox.gateway.store.orders(sandbox.project.posId).length;

describe('faults on the API', () => {
  it('error_rate 1 answers every API request with error_status and the error body; state untouched', async () => {
    await faults({ error_rate: 1, error_status: 503 });
    const answer = await pay();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await answer.json()).toEqual({ message: 'Injected fault: the sandbox answers HTTP 503', args: { code: 'P-503' } });
    expect(orderCount()).toBe(0);
    expect((await sandbox.app.request('/health')).status).toBe(200); // not the API
  });

  it('times limits the faults to the next N matching requests; scope narrows them', async () => {
    await faults({ error_rate: 1, times: 2, scope: { method: 'POST', path: '/api/v1/payment' } });
    expect((await sandbox.get(`/api/v1/balances/pos/${sandbox.project.posId}/accounts`)).status).toBe(200);
    expect((await pay()).status).toBe(500);
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ remaining: 1 });
    expect((await pay()).status).toBe(500);
    expect((await pay()).status).toBe(200);
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ error_rate: 0 });
  });

  it('leaves a HEAD alone: it neither uses up times nor moves the seeded sequence', async () => {
    await faults({ error_rate: 1, times: 1, scope: { path: '/api/v1/balances' } });
    const accounts = `/api/v1/balances/pos/${sandbox.project.posId}/accounts`;
    expect((await sandbox.call('HEAD', accounts)).status).toBe(200);
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ error_rate: 1, remaining: 1 });
    expect((await sandbox.get(accounts)).status).toBe(500);
    expect((await sandbox.get(accounts)).status).toBe(200);
  });

  it('phase after: the request is handled, then its answer is replaced (the caller cannot know)', async () => {
    await faults({ error_rate: 1, phase: 'after', times: 1 });
    const request = directPayment(sandbox.project);
    expect((await sandbox.post('/api/v1/payment', request)).status).toBe(500);
    expect(orderCount()).toBe(1);
    expect(await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${request.order_id}`)).toHaveLength(1);
  });

  it('phase after on a hosted create drops its Location with the answer', async () => {
    await faults({ error_rate: 1, error_status: 502, phase: 'after', times: 1 });
    const answer = await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), mode: 'hosted', cc_number: undefined, exp_month: undefined, exp_year: undefined, card_cvv: undefined, customer_ip: undefined, browser_fingerprint: undefined });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('location')).toBeNull();
  });

  it('error rates between 0 and 1 follow the seed: the same seed, the same sequence', async () => {
    const run = async () => {
      const box = testSandbox();
      await box.control('PUT', '/_sandbox/faults', { error_rate: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) statuses.push((await box.get(`/api/v1/balances/pos/${box.project.posId}/accounts`)).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('latency delays the answer', async () => {
    await faults({ latency_ms: 120, times: 1 });
    const started = performance.now();
    expect((await sandbox.get(`/api/v1/balances/pos/${sandbox.project.posId}/accounts`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('drop_connection in-process (no socket) answers 503', async () => {
    await faults({ drop_connection: true });
    expect((await pay()).status).toBe(503);
  });

  it('DELETE and PUT {} clear the faults; reset clears them too', async () => {
    await faults({ error_rate: 1 });
    await control('DELETE', '/faults');
    expect((await pay()).status).toBe(200);
    await faults({ error_rate: 1 });
    await faults({});
    expect((await pay()).status).toBe(200);
    await faults({ error_rate: 1, webhook_reorder: true });
    await control('POST', '/reset');
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ error_rate: 0, webhook_reorder: false });
  });

  it('refuses scope, times or phase after without an API fault to narrow, and keeps the faults set', async () => {
    await faults({ webhook_reorder: true });
    const narrowed = [{ shapes: 'varied', scope: { path: '/api/v1/payment' } }, { webhook_duplicates: 1, times: 1 }, { shapes: 'varied', phase: 'after' }, { error_rate: 0, scope: { method: 'POST' } }];
    for (const settings of narrowed) {
      const answer = await faults(settings);
      expect(answer.status, JSON.stringify(settings)).toBe(400);
      const field = Object.keys(settings).find((name) => ['scope', 'times', 'phase'].includes(name))!;
      expect(await answer.text()).toContain(`${field}: acts on the API faults (latency_ms, error_rate, drop_connection), and none is set`);
    }
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ webhook_reorder: true });
    expect((await faults({ latency_ms: 1, scope: { path: '/api/v1/payment' }, times: 1, shapes: 'varied' })).status).toBe(200);
  });
});

describe('webhook delivery', () => {
  it('retries a failing receiver on the schedule, records every attempt, and gives up after the last', async () => {
    sandbox.inbox.status = 500;
    const answer = await pay();
    const orderId = String(((await answer.json()) as Json).order_id);
    await sandbox.deliver();
    let [delivery] = await deliveries(`?order_id=${orderId}`);
    expect(delivery).toMatchObject({ status: 'retrying', method: 'purchase', event_status: 'success', next_attempt_at: '2026-03-02T10:00:01.000' });
    // The event as posted keeps the interface's decimals; the amount beside it is payform's.
    expect(delivery).toMatchObject({ amount_minor: 1010, currency: 'UAH', event: { amount: 10.1, currency: 'UAH' } });
    expect(delivery?.attempts).toEqual([{ at: '2026-03-02T10:00:00.000', http_status: 500, duration_ms: expect.any(Number) }]);
    await sandbox.advance(1_000);
    await sandbox.deliver();
    await sandbox.advance(5_000);
    await sandbox.deliver();
    [delivery] = await deliveries(`?order_id=${orderId}`);
    expect(delivery).toMatchObject({ status: 'failed' });
    expect((delivery?.attempts as Json[]).map((attempt) => attempt.at)).toEqual(['2026-03-02T10:00:00.000', '2026-03-02T10:00:01.000', '2026-03-02T10:00:06.000']);
    expect(sandbox.inbox.received).toHaveLength(3);
  });

  it('stops retrying once the receiver answers 2xx', async () => {
    sandbox.inbox.status = 503;
    await pay();
    await sandbox.deliver();
    sandbox.inbox.status = 204;
    await sandbox.advance(1_000);
    await sandbox.deliver();
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'delivered' });
    expect(delivery?.attempts).toHaveLength(2);
  });

  it('records an unreachable receiver as an error attempt', async () => {
    const unreachable = testSandbox({ fetch: () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })) });
    await unreachable.post('/api/v1/payment', directPayment(unreachable.project));
    await unreachable.deliver();
    const [delivery] = unreachable.app.sandbox.gateway.webhooks.list();
    expect(delivery?.attempts).toEqual([{ at: expect.any(String), error: 'fetch failed', duration_ms: expect.any(Number) }]);
  });

  it('webhook_duplicates sends extra identical copies, marked as such in the log', async () => {
    await faults({ webhook_duplicates: 2 });
    await pay();
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(3);
    expect(new Set(sandbox.inbox.received.map((delivery) => delivery.data)).size).toBe(1);
    const log = await deliveries();
    expect(log.filter((delivery) => delivery.duplicate_of === log[0]?.id)).toHaveLength(2);
  });

  it('webhook_drop loses the status-change webhook, copies too, listed as dropped; the order state and a re-send still tell', async () => {
    await faults({ webhook_drop: true, webhook_duplicates: 2 });
    const paid = (await (await pay()).json()) as Json;
    const orderId = String(paid.order_id);
    await sandbox.advance(3_600_000);
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(0);
    expect(await deliveries()).toEqual([expect.objectContaining({ order_id: orderId, method: 'purchase', event_status: 'success', status: 'dropped', attempts: [] })]);
    expect(await deliveries('?status=dropped')).toHaveLength(1);
    expect(await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`)).toEqual([expect.objectContaining({ status: 'success' })]);
    // The re-send is how a receiver recovers: never dropped.
    expect((await sandbox.get(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}/purchase?callback=true`)).status).toBe(200);
    await sandbox.deliver();
    // The re-send, with the two copies webhook_duplicates still asks for.
    expect(sandbox.inbox.events(orderId).map((event) => event.status)).toEqual(['success', 'success', 'success']);
  });

  it('webhook_drop as a rate drops that share by the seeded sequence, the same every run', async () => {
    const dropped = async () => {
      sandbox = testSandbox();
      await faults({ webhook_drop: 0.5, seed: 7 });
      for (let payment = 0; payment < 8; payment += 1) await pay();
      await sandbox.deliver();
      return (await deliveries()).map((delivery) => delivery.status);
    };
    const first = await dropped();
    expect(first.filter((status) => status === 'dropped').length).toBeGreaterThan(0);
    expect(first.filter((status) => status === 'delivered').length).toBeGreaterThan(0);
    expect(await dropped()).toEqual(first);
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ webhook_drop: 0.5 });
    expect((await faults({ webhook_drop: 2 })).status).toBe(400);
  });

  it('webhook_delay_ms holds the first attempt back', async () => {
    await faults({ webhook_delay_ms: 30_000 });
    await pay();
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(0);
    expect((await deliveries())[0]).toMatchObject({ status: 'scheduled', next_attempt_at: '2026-03-02T10:00:30.000' });
    await sandbox.advance(30_000);
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(1);
  });

  it('webhook_reorder lets the later event overtake: success arrives before pending', async () => {
    await faults({ webhook_reorder: true });
    const pending = (await (await pay({}, '4000000000003220')).json()) as Json;
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(0); // held back for the next event
    await control('POST', `/3ds/${String(pending.payment_id)}`, { result: 'success' });
    await sandbox.deliver();
    await sandbox.deliver();
    expect(sandbox.inbox.events(String(pending.order_id)).map((event) => event.status)).toEqual(['success', 'pending']);
  });

  it('webhook_reorder with duplicates: every copy of the later event comes before the held one', async () => {
    await faults({ webhook_reorder: true, webhook_duplicates: 2 });
    const pending = (await (await pay({}, '4000000000003220')).json()) as Json;
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(0); // the pending event and its copies wait together
    await control('POST', `/3ds/${String(pending.payment_id)}`, { result: 'success' });
    await sandbox.deliver();
    await sandbox.deliver();
    const statuses = sandbox.inbox.events(String(pending.order_id)).map((event) => event.status);
    expect(statuses.slice(0, 1)).toEqual(['success']);
    expect(statuses.filter((status) => status === 'pending')).toHaveLength(3);
    expect(statuses.lastIndexOf('success')).toBeLessThan(statuses.indexOf('pending'));
  });

  it('webhook_reorder by default holds the slow card’s pending until its success overtakes it', async () => {
    const defaults = testSandbox();
    await defaults.control('PUT', '/_sandbox/faults', { webhook_reorder: true });
    const pending = (await (await defaults.post('/api/v1/payment', directPayment(defaults.project, {}, '4000000000000119'))).json()) as Json;
    expect(pending.status).toBe('pending');
    await defaults.advance(5_000);
    await defaults.deliver();
    await defaults.deliver();
    expect(defaults.inbox.events(String(pending.order_id)).map((event) => event.status)).toEqual(['success', 'pending']);
  });

  it('webhook_reorder sends a held event alone when nothing overtakes it in time', async () => {
    await faults({ webhook_reorder: true });
    await pay();
    await sandbox.advance(2_000);
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(1);
  });
});

describe('clock and reset', () => {
  it('reports and advances the sandbox time', async () => {
    expect(await (await control('GET', '/clock')).json()).toEqual({ now: '2026-03-02T10:00:00.000', frozen: true });
    expect(await (await control('POST', '/clock', { advance_seconds: 90 })).json()).toEqual({ now: '2026-03-02T10:01:30.000', frozen: true });
  });

  it('reset forgets orders, deliveries and clock changes', async () => {
    const request = directPayment(sandbox.project);
    await sandbox.post('/api/v1/payment', request);
    await control('POST', '/clock', { advance_seconds: 60 });
    await sandbox.deliver();
    expect(await (await control('POST', '/reset')).json()).toEqual({ reset: true, clock: '2026-03-02T10:00:00.000' });
    expect(orderCount()).toBe(0);
    expect(await deliveries()).toEqual([]);
    expect((await sandbox.post('/api/v1/payment', request)).status).toBe(200); // the order_id is free again
  });

  it('describes the projects: ids, sub-merchants, balance ids, the failing terminal', async () => {
    const description = (await (await control('GET', '')).json()) as { projects: Json[] };
    expect(description.projects[0]).toMatchObject({
      pos_id: sandbox.project.posId,
      currency: 'UAH',
      capture_over_reserve_percent: 15,
      sub_merchants: sandbox.project.subMerchants,
    });
    expect((description.projects[0]?.terminals as Json[]).filter((terminal) => terminal.fails)).toHaveLength(1);
    // Opening balances as a projects file writes them: minor units.
    expect(description.projects[0]?.accounts).toContainEqual(expect.objectContaining({ name: 'Settlement account', opening_balance_minor: 1_250_000 }));
    expect(description.projects[0]?.terminals).toContainEqual(expect.objectContaining({ name: 'E-commerce terminal', opening_balance_minor: 480_000 }));
  });
});
