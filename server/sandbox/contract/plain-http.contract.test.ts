/**
 * Contract: an integration that is not payform's, over plain HTTP. Every request is written out
 * here the way a PHP or Python shop plugin sends it — JSON built by hand, amounts as decimal
 * strings, fields the interface does not list (dates, amounts under other names) beside those it
 * does — with no code of server/gateway. Webhooks are checked with the receiver's own signature
 * code. The sandbox is tolerant, as the live gateway is.
 */
import { describe, expect, it } from 'vitest';
import { useServedSandbox } from '../testing/served.js';
import { interfaceSignature } from '../testing/webhook-receiver.js';

const sandbox = useServedSandbox({ projects: [{ strict: false }], frozenClock: false });

type Json = Record<string, unknown>;

/** One request as a shop plugin sends it: CPAY credentials, the endpoints key, JSON, no redirects followed. */
function send(method: 'GET' | 'POST', path: string, body?: Json): Promise<Response> {
  const { apiKey, apiSecret, endpointsKey } = sandbox.project;
  return fetch(`${sandbox.url}/api/v1/${path}`, {
    method,
    redirect: 'manual',
    headers: {
      'X-API-Auth': `CPAY ${apiKey}:${apiSecret}`,
      'X-API-KEY': endpointsKey,
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function json(response: Response, status = 200): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Json;
}

let orders = 0;
/** A hosted payment as the plugin creates it, paid on the sandbox's page with a test card. */
async function hostedPaid(method: 'purchase' | 'auth', amount: string, currency: string): Promise<{ orderId: string; created: Json }> {
  orders += 1;
  const orderId = `wc-${Date.now()}-${orders}`;
  const created = {
    pos_id: sandbox.project.posId,
    mode: 'hosted',
    method,
    amount,
    currency,
    description: `Order #${orderId}`,
    order_id: orderId,
    order_3ds_bypass: 'supported',
    customer_id: 'olena@example.com',
    customer_email: 'olena@example.com',
    customer_fname: 'Olena',
    customer_lname: 'Koval',
    customer_phone: '+380501234567',
    products: [{ id: '17', name: 'Green tea', url: 'https://shop.example/tea', currency, amount, qty: 1 }],
    server_url: sandbox.receiver.url('/?wc-api=gateway'),
    result_url: `https://shop.example/checkout/order-received/${orderId}`,
  };
  const answer = await send('POST', 'payment', created);
  expect(answer.status, await answer.clone().text()).toBe(303);
  const page = answer.headers.get('location') ?? '';
  expect(page).toMatch(/\/api\/v1\/checkout\/[^/]+\/form$/);

  const form = await fetch(page);
  expect(form.status).toBe(200);
  expect(await form.text()).toContain('name="cc_number"');
  const paid = await fetch(page, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cc_number: '4242 4242 4242 4242', exp_month: '12', exp_year: '2030', card_cvv: '123' }).toString(),
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(created.result_url);
  return { orderId, created };
}

/** The webhooks of an order once `count` have come, each signature checked by the receiver's own code. */
async function webhooks(orderId: string, count: number): Promise<Json[]> {
  const events = await sandbox.receiver.waitFor(orderId, count);
  const received = sandbox.receiver.received.filter((webhook) => webhook.event.order_id === orderId);
  expect(received.map((webhook) => [webhook.contentType, webhook.signatureValid])).toEqual(
    received.map(() => ['application/x-www-form-urlencoded', true]),
  );
  return events;
}

/** The fields the plugin sends with every capture, void and refund, listed or not. */
const operationBody = (orderId: string, amount: string, currency: string): Json => ({
  pos_id: sandbox.project.posId,
  order_currency: currency,
  refund_date: '2026-03-02 12:00:00',
  order_id: orderId,
  order_amount: amount,
  provider_order_id: '',
  server_url: sandbox.receiver.url('/?wc-api=gateway'),
});

describe('a shop plugin that is not payform’s, over plain HTTP', () => {
  it('checks signatures with code that reproduces the published example', () => {
    expect(interfaceSignature('eyJuYW1lIjoiSm9lIiwiYWdlIjoyMH0=', 'changeme')).toBe('Bcj3hb-h00HrEMIoJ5nPW5ZHlVQ=');
  });

  it('hosted purchase paid on the page, duplicate answer, status read, partial refund with extra fields and a string amount', async () => {
    const { orderId, created } = await hostedPaid('purchase', '250.00', 'XTS');
    const [paid] = await webhooks(orderId, 1);
    expect(paid).toMatchObject({ method: 'purchase', mode: 'hosted', order_id: orderId, amount: 250, currency: 'XTS', status: 'success', status_code: '1000' });

    // The plugin keeps the checkout address and reuses it when the order is created twice.
    expect(await json(await send('POST', 'payment', created), 409)).toMatchObject({ args: { code: 'P-409' } });

    const [state] = (await json(await send('GET', `pos/${sandbox.project.posId}/orders/${orderId}`))) as unknown as Json[];
    expect(state).toMatchObject({ method: 'purchase', status: 'success', status_code: '1000', amount: 250 });

    const refund = await json(await send('POST', 'refund', { ...operationBody(orderId, '250.00', 'XTS'), refund_amount: '100.50' }));
    expect(refund).toMatchObject({ method: 'refund', order_id: orderId, status: 'success', status_code: '1004', amount: 100.5 });
    expect(refund.receipt_url).toEqual(expect.any(String));
    const events = await webhooks(orderId, 2);
    expect(events[1]).toMatchObject({ method: 'refund', operation_id: refund.operation_id, order_id: orderId, amount: 100.5, status: 'success' });
  });

  it('hosted auths paid on the page, then a partial capture and a void with extra fields and string amounts', async () => {
    const captured = await hostedPaid('auth', '300.00', 'UAH');
    const [held] = await webhooks(captured.orderId, 1);
    expect(held).toMatchObject({ method: 'auth', status: 'success', status_code: '1002', amount: 300 });
    const capture = await json(await send('POST', 'capture', { ...operationBody(captured.orderId, '300.00', 'UAH'), charge_amount: '150.25' }));
    expect(capture).toMatchObject({ method: 'capture', order_id: captured.orderId, status: 'success', status_code: '1000', amount: 150.25 });
    expect((await webhooks(captured.orderId, 2))[1]).toMatchObject({ method: 'capture', operation_id: capture.operation_id, amount: 150.25 });

    const voided = await hostedPaid('auth', '80.10', 'UAH');
    await webhooks(voided.orderId, 1);
    const voidAnswer = await json(await send('POST', 'void', operationBody(voided.orderId, '80.10', 'UAH')));
    expect(voidAnswer).toMatchObject({ method: 'void', order_id: voided.orderId, status: 'success', status_code: '1009' });
    expect((await webhooks(voided.orderId, 2))[1]).toMatchObject({ method: 'void', operation_id: voidAnswer.operation_id, status: 'success' });

    const states = (await json(await send('GET', `pos/${sandbox.project.posId}/orders/${captured.orderId}`))) as unknown as Json[];
    expect(states.map((entry) => [entry.method, entry.status])).toEqual([['auth', 'success'], ['capture', 'success']]);
  });
});
