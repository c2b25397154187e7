// The gateway's webhooks: verified on the raw field first, stored once, applied forward only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { encodeWebhookData, signWebhook, webhookForm } from '@payform/gateway';
import { testProjectCredentials } from '@payform/gateway/testing';
import { card, cardNumber, TEST_CVV } from '../test/cards.js';
import { fileBackend } from '../../ledger/testing/databases.js';
import { CLIENT_IP, createStack, payBody } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const SECRET = testProjectCredentials({}).apiSecret;
let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
  stack.dropWebhooks = true; // these tests post the events themselves
});
afterEach(async () => {
  await stack.close();
});

function post(form: { readonly data?: string; readonly signature?: string } | string, contentType = 'application/x-www-form-urlencoded') {
  const body = typeof form === 'string' ? form : new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  return stack.request('POST', '/webhooks/gateway', { body, headers: { 'Content-Type': contentType } });
}

/** The gateway's payment id of each order the tests made, as its events carry it. */
const paymentIds = new Map<string, string>();

function paymentEvent(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    payment_id: paymentIds.get(orderId) ?? '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    order_id: orderId,
    pos_id: testProjectCredentials({}).posId,
    mode: 'direct',
    method: 'purchase',
    amount: 10.1,
    currency: 'UAH',
    status,
    status_code: status === 'success' ? '1000' : status === 'failure' ? '4153' : '2119',
    cc_mask: '400000******0119',
    created_at: '2030-01-15T09:30:00.000',
    ...extra,
  };
}

/** A session whose payment is pending (the slow card) and whose webhook never came. */
async function pendingOrder(): Promise<string> {
  const session = await stack.openSession();
  const answer = await (await stack.pay(session.id, payBody({ card: card('slow_pending') }))).json();
  expect(answer.status).toBe('pending');
  paymentIds.set(session.order_id, answer.payment_id);
  return session.order_id;
}

describe('an event about another payment under the order id', () => {
  it('is kept but never applied: another payment id, amount or currency', async () => {
    const orderId = await pendingOrder();
    const payment = await stack.ledger.getPayment(orderId);
    expect(payment?.paymentId).toEqual(expect.any(String));
    for (const other of [{ payment_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f' }, { amount: 1 }, { currency: 'USD' }]) {
      const answer = await (await post(webhookForm(paymentEvent(orderId, 'success', { payment_id: payment!.paymentId, ...other }), SECRET))).json();
      expect(answer).toMatchObject({ received: true, outcome: 'unmatched' });
    }
    expect(await stack.ledger.getPayment(orderId)).toMatchObject({ status: 'pending', paymentId: payment?.paymentId });
    expect(stack.changes.filter((change) => change.kind === 'payment' && change.status === 'success')).toEqual([]);
    const own = await (await post(webhookForm(paymentEvent(orderId, 'success', { payment_id: payment!.paymentId }), SECRET))).json();
    expect(own).toMatchObject({ outcome: 'applied' });
  });
});

describe('a payment the gateway reports with other amounts', () => {
  it('a hosted payment paid short is held for review, flagged once, never a plain success', async () => {
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    // An alternative method on the page let the payer change the amount: 5.00 of 10.10 paid.
    const short = webhookForm(paymentEvent(session.order_id, 'success', { mode: 'hosted', processed_amount: 5, processed_currency: 'UAH' }), SECRET);
    expect(await (await post(short)).json()).toMatchObject({ received: true, outcome: 'unmatched' });
    expect(await (await post(short)).json()).toMatchObject({ duplicate: true });
    const detail = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    expect(detail.order).toMatchObject({
      status: 'init',
      discrepancy: { status: 'success', amount: 1010, currency: 'UAH', paid_amount: 500, paid_currency: 'UAH', noted_at: expect.any(String) },
    });
    expect(stack.changes.filter((change) => change.kind === 'payment')).toEqual([]);
    expect(stack.changes.filter((change) => change.kind === 'discrepancy')).toMatchObject([{ orderId: session.order_id, status: 'success', source: 'webhook' }]);
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('pending');
    // Held for a person to look at: reconciliation does not keep re-reading it.
    expect(await stack.ledger.listStalePayments({ quietForMs: 0 })).toEqual([]);
  });

  it('holds a success whose amount paid the client could not count in minor units, never a plain success', async () => {
    // 0.00012345 in a unit no currency code names, and 5.005 UAH: each kept as sent by the client.
    for (const paid of [{ processed_amount: 0.00012345, processed_currency: 'USDT' }, { processed_amount: 5.005, processed_currency: 'UAH' }]) {
      const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
      await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
      const event = webhookForm(paymentEvent(session.order_id, 'success', { mode: 'hosted', ...paid }), SECRET);
      expect(await (await post(event)).json(), paid.processed_currency).toMatchObject({ received: true, outcome: 'unmatched' });
      const detail = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
      expect(detail.order, paid.processed_currency).toMatchObject({ status: 'init', discrepancy: { status: 'success', amount: 1010, paid_amount: 0, paid_currency: 'UAH' } });
    }
  });

  /** A hosted session whose page the gateway then takes payment on, its webhook reported as `reported`, not delivered. */
  async function paidOnGatewayPage(reported: Record<string, unknown>): Promise<Json> {
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    const hosted = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect(await (await post(webhookForm(paymentEvent(session.order_id, 'success', { mode: 'hosted', ...reported }), SECRET))).json()).toMatchObject({ outcome: 'unmatched' });
    // The gateway's page is paid; its order state's entry shows the order's amount, no processed_amount.
    stack.dropWebhooks = true;
    const page = new URL(hosted.redirect_url);
    const paid = await stack.sandbox.request(page.pathname + page.search, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cc_number: cardNumber('success'), exp_month: '12', exp_year: '2030', card_cvv: TEST_CVV }).toString(),
    });
    expect(paid.status).toBe(303);
    expect((await stack.request('GET', `/checkout/return/${session.id}`)).status).toBe(200);
    return session;
  }

  it('a payment held as paid short stays held when the customer reloads the return page and the order state says success', async () => {
    const session = await paidOnGatewayPage({ processed_amount: 5, processed_currency: 'UAH' });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'init', discrepancy: { paidAmount: 500 } });
    expect(stack.changes.filter((change) => change.kind === 'payment')).toEqual([]);
  });

  it('a payment held for a webhook of no readable amount is settled by the order state the return page reads', async () => {
    const session = await paidOnGatewayPage({ amount: 1e-9 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success' });
  });
});

describe('POST /webhooks/gateway', () => {
  it('names, once as an error, a webhook posted under another path: a proxy that does not strip the public URL\'s', async () => {
    const form = webhookForm(paymentEvent('order-1', 'success'), SECRET);
    const stray = (path: string) => stack.request('POST', path, { body: new URLSearchParams({ data: form.data, signature: form.signature }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect((await stray('/payments/webhooks/gateway')).status).toBe(404);
    expect((await stray('/pay/webhooks/gateway')).status).toBe(404);
    const said = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => /a webhook came to/.test(entry.msg));
    expect(said).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: expect.stringContaining("a webhook came to /payments/webhooks/gateway, but this companion takes them at /webhooks/gateway only and answered 404"),
      }),
    ]);
    expect(said[0]!.msg).toContain("set basePath to /payments");
  });

  it('says a stray webhook only when the gateway signed it: an unsigned post neither uses the line up nor names its path', async () => {
    const form = webhookForm(paymentEvent('order-1', 'success'), SECRET);
    const stray = (path: string, signature: string) =>
      stack.request('POST', path, { body: new URLSearchParams({ data: form.data, signature }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    // Until 0.3 a stranger's post was said as the gateway's, once, with its made-up path and fix.
    expect((await stray('/forged/webhooks/gateway', 'not-the-signature')).status).toBe(404);
    expect((await stray('/payments/webhooks/gateway', form.signature)).status).toBe(404);
    const said = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => /a webhook came to/.test(entry.msg));
    expect(said.map((entry) => entry.msg)).toEqual([expect.stringContaining('a webhook came to /payments/webhooks/gateway')]);
    expect(stack.logs.join('\n')).not.toContain('/forged');
  });

  it('names the public URL, not the base path, when the stray webhook came to the very address the companion gave the gateway', async () => {
    // PAYFORM_PUBLIC_URL given with the base path in it, mounted under that base path: server_url is /payments/payments/…
    await stack.close();
    stack = await createStack({ companion: { publicUrl: 'https://shop.example/payments', basePath: '/payments' } });
    stack.dropWebhooks = true;
    const form = webhookForm(paymentEvent('order-1', 'success'), SECRET);
    const body = new URLSearchParams({ data: form.data, signature: form.signature }).toString();
    const answer = await stack.request('POST', '/payments/payments/webhooks/gateway', { body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(404);
    const said = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => /a webhook came to/.test(entry.msg));
    expect(said).toHaveLength(1);
    expect(said[0]!.msg).toContain(
      'a webhook came to /payments/payments/webhooks/gateway, the address this companion gives the gateway (https://shop.example/payments/payments/webhooks/gateway), ' +
        'but it takes them at /payments/webhooks/gateway only and answered 404',
    );
    expect(said[0]!.msg).toContain("PAYFORM_PUBLIC_URL (the publicUrl option, mounted) has the path /payments: give it without that path (the companion adds its base path itself), or have the proxy in front strip it");
    // Setting basePath to the whole prefix would only move the address the gateway is given further along.
    expect(said[0]!.msg).not.toContain('set basePath');
  });

  it('names a stray webhook\'s path only as a base path is written: never digits a card number could hide in', async () => {
    const form = webhookForm(paymentEvent('order-1', 'success'), SECRET);
    const body = new URLSearchParams({ data: form.data, signature: form.signature }).toString();
    const path = '/4111-1111-1111-11110000000000000000/webhooks/gateway';
    expect((await stack.request('POST', path, { body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
    const said = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => /a webhook came to/.test(entry.msg));
    expect(said).toHaveLength(1);
    expect(said[0]!.msg).toContain('a webhook came to another path');
    expect(said[0]!.msg).not.toMatch(/4111|1111|0000/);
  });

  it('applies a genuine event once and tells the hook once', async () => {
    const orderId = await pendingOrder();
    const form = webhookForm(paymentEvent(orderId, 'success'), SECRET);
    const first = await post(form);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false, outcome: 'applied' });
    const again = await post(form);
    expect(await again.json()).toEqual({ received: true, duplicate: true, outcome: 'applied' });
    // The log says what each delivery did: the second, nothing (as the metric counts it).
    const received = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => entry.msg === 'webhook received');
    expect(received).toMatchObject([
      { duplicate: false, outcome: 'applied' },
      { duplicate: true, outcome: 'duplicate', stored_outcome: 'applied' },
    ]);
    const detail = await stack.ledger.getOrder(orderId);
    expect(detail?.payment).toMatchObject({ status: 'success', statusCode: '1000' });
    expect(detail?.events).toHaveLength(1);
    expect(stack.changes.filter((change) => change.kind === 'payment' && change.status === 'success')).toHaveLength(1);
  });

  it('logs a repeat that applies an event kept unmatched as what it did, not as a duplicate', async () => {
    // The event comes before this ledger knows its order (restored from an earlier backup).
    const form = webhookForm(paymentEvent('restored-1001', 'success'), SECRET);
    expect(await (await post(form)).json()).toMatchObject({ duplicate: false, outcome: 'unmatched' });
    expect(await (await post(form)).json()).toMatchObject({ duplicate: true, outcome: 'unmatched' });
    const session = await stack.openSession({ order_id: 'restored-1001' });
    await stack.ledger.claimPayAttempt(session.id, { mode: 'direct' });
    // The gateway's next try applies it.
    expect(await (await post(form)).json()).toMatchObject({ duplicate: true, outcome: 'applied' });
    expect(await (await post(form)).json()).toMatchObject({ duplicate: true, outcome: 'applied' });
    const received = stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => entry.msg === 'webhook received');
    expect(received.map(({ duplicate, outcome, stored_outcome }) => [duplicate, outcome, stored_outcome])).toEqual([
      [false, 'unmatched', undefined],
      [true, 'duplicate', 'unmatched'],
      [true, 'applied', 'applied'],
      [true, 'duplicate', 'applied'],
    ]);
    expect((await stack.ledger.getPayment('restored-1001'))?.status).toBe('success');
  });

  it('keeps and shows the event with card data the gateway echoed masked, and its tokens replaced', async () => {
    const orderId = await pendingOrder();
    const echoing = paymentEvent(orderId, 'failure', {
      status_description: 'Declined: card 4242 4242 4242 4242, cvv2 123',
      cc_token: 'a'.repeat(40),
      extra: { card_cvv: '123', note: 'pan 4000000000000002' },
    });
    expect((await post(webhookForm(echoing, SECRET))).status).toBe(200);
    const stored = (await stack.ledger.getOrder(orderId))!.events[0]!.body;
    const shown = JSON.stringify((await (await stack.request('GET', `/api/orders/${orderId}`, { admin: true })).json()).events[0].event);
    for (const text of [stored, shown]) {
      expect(text).toContain(orderId);
      expect(text).not.toMatch(/4242 4242|4000000000000002|\b123\b|a{40}/);
      expect(text).toContain('[card number]');
    }
  });

  it('keeps the event with card numbers masked however written, in keys and numbers too, and its ids and phone whole', async () => {
    const orderId = await pendingOrder();
    const { gatewayOrderId } = (await stack.ledger.getPayment(orderId))!;
    expect(gatewayOrderId).toMatch(/^\d{12}$/);
    const echoing = paymentEvent(orderId, 'failure', {
      gateway_order_id: gatewayOrderId,
      customer_phone: '+380501234567',
      status_description: 'Declined: card 4242.4242.4242.4242',
      rrn: '987654321098',
      extra: { note: 'pan 4000\u00a00000\u00a00000\u00a00002', '4111 1111 1111 1111': 'a card number as a key', ref: 4111111111111111 },
    });
    expect((await post(webhookForm(echoing, SECRET))).status).toBe(200);
    const stored = (await stack.ledger.getOrder(orderId))!.events[0]!.body;
    const shown = JSON.stringify((await (await stack.request('GET', `/api/orders/${orderId}`, { admin: true })).json()).events[0].event);
    for (const text of [stored, shown]) {
      expect(text).not.toMatch(/4242\.4242|4000\u00a00000|4111 1111|4111111111111111/);
      expect(JSON.parse(text).extra).toEqual({ note: 'pan [card number]', '[card number]': 'a card number as a key', ref: '[card number]' });
      for (const kept of [`"gateway_order_id":"${gatewayOrderId}"`, '"customer_phone":"+380501234567"', '"rrn":"987654321098"']) expect(text).toContain(kept);
    }
    expect((await stack.ledger.getPayment(orderId))?.statusDescription).toBe('Declined: card [card number]');
  });

  it('keeps an event for an order id that holds a card number with that id masked, and stores it nowhere whole', async () => {
    await stack.close();
    stack = await createStack({ backend: fileBackend });
    stack.dropWebhooks = true;
    for (const orderId of ['4111 1111 1111 1111', '411111|1111111111', '４１１１１１１１１１１１１１１１']) {
      const response = await post(webhookForm(paymentEvent(orderId, 'success'), SECRET));
      expect(await response.json()).toMatchObject({ outcome: 'unmatched' });
    }
    const listed = await (await stack.request('GET', '/api/webhook-events?limit=10', { admin: true })).text();
    expect(JSON.parse(listed).events.map((event: { order_id: string }) => event.order_id)).toEqual(['[card number]', '[card number]', '[card number]']);
    const stored = await stack.testLedger.contents!();
    for (const text of [listed, stored]) expect(text).not.toMatch(/4111|1111|１１１１/);
  });

  it('never moves a final state back: a late pending after success is stale', async () => {
    const orderId = await pendingOrder();
    await post(webhookForm(paymentEvent(orderId, 'success'), SECRET));
    const late = await post(webhookForm(paymentEvent(orderId, 'pending', { processed_at: 'earlier' }), SECRET));
    expect(await late.json()).toMatchObject({ outcome: 'stale' });
    const failure = await post(webhookForm(paymentEvent(orderId, 'failure'), SECRET));
    expect(await failure.json()).toMatchObject({ outcome: 'stale' });
    expect((await stack.ledger.getPayment(orderId))?.status).toBe('success');
  });

  it.each([
    ['a wrong secret', (data: string) => ({ data, signature: signWebhook(data, 'not-the-secret') })],
    ['data tampered with after signing', (data: string) => ({ data: encodeWebhookData({ tampered: true }), signature: signWebhook(data, SECRET) })],
    ['the padding stripped', (data: string) => ({ data, signature: signWebhook(data, SECRET).replace(/=+$/, '') })],
    ['the standard base64 alphabet', (data: string) => ({ data, signature: signWebhook(data, SECRET).replaceAll('-', '+').replaceAll('_', '/') + '' })],
    ['an empty signature', (data: string) => ({ data, signature: ' ' })],
  ])('refuses a forged webhook (%s) with 401 and stores nothing', async (_name, forge) => {
    const orderId = await pendingOrder();
    const data = encodeWebhookData(paymentEvent(orderId, 'success'));
    const forged = forge(data);
    // Make sure the alphabet case really differs from the genuine signature.
    if (forged.signature === signWebhook(data, SECRET)) forged.signature = `${forged.signature.slice(0, -2)}x=`;
    const response = await post(forged);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('invalid_signature');
    const detail = await stack.ledger.getOrder(orderId);
    expect(detail?.payment.status).toBe('pending');
    expect(detail?.events).toEqual([]);
    expect(stack.logs.some((line) => line.includes('wrong signature') && line.includes('PAYFORM_GATEWAY_API_SECRET'))).toBe(true);
  });

  it('takes webhooks signed with the previous API secret while it is rotated, and says so once an hour', async () => {
    // Today, which the test cards' expiry is after.
    const clock = new TestClock(Date.now());
    const before = 'the-api-secret-before-rotation!';
    await stack.close();
    stack = await createStack({ clock, companion: { gatewayApiSecretPrevious: before } });
    const orderId = await pendingOrder();
    const data = encodeWebhookData(paymentEvent(orderId, 'success'));
    expect((await post({ data, signature: signWebhook(data, before) })).status).toBe(200);
    expect((await stack.ledger.getPayment(orderId))?.status).toBe('success');
    const taken = () => stack.logs.filter((line) => line.includes('took a webhook signed with the previous API secret'));
    expect(taken()).toHaveLength(1);
    expect((await post({ data, signature: signWebhook(data, before) })).status).toBe(200);
    expect(taken()).toHaveLength(1);
    // Neither secret: refused as ever, the line naming the variable for a rotation.
    expect((await post({ data, signature: signWebhook(data, 'a-third-secret') })).status).toBe(401);
    expect(stack.logs.some((line) => line.includes('wrong signature') && line.includes('PAYFORM_GATEWAY_API_SECRET_PREVIOUS'))).toBe(true);
    clock.advance(3_601_000);
    expect((await post({ data, signature: signWebhook(data, before) })).status).toBe(200);
    expect(taken()).toHaveLength(2);
    expect(taken()[1]).toContain('"taken_since_last_line":1');
    // One of those retries posted under another path is the gateway's too: the lost webhooks are said.
    const stray = await stack.request('POST', '/payments/webhooks/gateway', {
      body: new URLSearchParams({ data, signature: signWebhook(data, before) }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(stray.status).toBe(404);
    expect(stack.logs.filter((line) => line.includes('a webhook came to /payments/webhooks/gateway'))).toHaveLength(1);
  });

  it('logs wrong signatures once a minute at most, with how many came meanwhile', async () => {
    const clock = new TestClock();
    await stack.close();
    stack = await createStack({ clock });
    const forged = { data: encodeWebhookData({ order_id: 'o-1', status: 'success' }), signature: signWebhook('other data', SECRET) };
    const lines = () => stack.logs.filter((line) => line.includes('refused a webhook with a wrong signature'));
    for (let i = 0; i < 3; i++) expect((await post(forged)).status).toBe(401);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).not.toContain('refused_since_last_line');
    // Who sent it: the gateway's servers, or someone probing the route.
    expect(lines()[0]).toContain(`"client":"${CLIENT_IP}"`);
    clock.advance(61_000);
    expect((await post(forged)).status).toBe(401);
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toContain('"refused_since_last_line":2');
  });

  it('refuses what is not a webhook form with a clear 4xx', async () => {
    expect((await post({ data: 'abc' })).status).toBe(400);
    expect(await (await post({ signature: 'abc' })).json()).toMatchObject({ error: { fields: { data: 'is required' } } });
    expect((await post(JSON.stringify({ data: 'x', signature: 'y' }), 'application/json')).status).toBe(415);
    expect((await post('data=' + 'A'.repeat(70 * 1024) + '&signature=x')).status).toBe(413);
    expect((await stack.request('GET', '/webhooks/gateway')).status).toBe(405);
  });

  it('keeps a correctly signed payload that is no event, or no JSON, unmatched, answering 200 (never resent for ever)', async () => {
    for (const data of [encodeWebhookData({ hello: 'world' }), Buffer.from('not json').toString('base64url')]) {
      const response = await post({ data, signature: signWebhook(data, SECRET) });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ received: true, duplicate: false, outcome: 'unmatched' });
    }
    expect(stack.logs.filter((line) => line.includes('could not be read'))).toHaveLength(2);
  });

  it('keeps an event for an order it does not know (unmatched), answering 200', async () => {
    const response = await post(webhookForm(paymentEvent('someone-elses-order', 'success'), SECRET));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: 'unmatched', duplicate: false });
  });

  /** A refund made at the gateway (its portal), not through the companion, of a paid order. */
  async function outsideRefund(amount: number | string) {
    const session = await stack.openSession();
    await stack.pay(session.id);
    const refund = {
      operation_id: '5f0c8b1e-2d3a-4b5c-9d8e-7f6a5b4c3d2e',
      payment_id: '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
      order_id: session.order_id,
      pos_id: testProjectCredentials({}).posId,
      mode: 'direct',
      method: 'refund',
      amount,
      currency: 'UAH',
      status: 'success',
      status_code: '1004',
      created_at: '2030-01-15T09:31:00',
    };
    return { orderId: session.order_id, refund };
  }

  it('records a refund made outside the companion, and a duplicate of it once', async () => {
    const { orderId, refund } = await outsideRefund(2.5);
    await post(webhookForm(refund, SECRET));
    await post(webhookForm(refund, SECRET));
    const detail = await stack.ledger.getOrder(orderId);
    expect(detail?.operations).toMatchObject([{ kind: 'refund', amount: 250, currency: 'UAH', status: 'success', origin: 'gateway', operationId: refund.operation_id }]);
    expect(detail?.totals.refundable).toBe(1010 - 250);
    // The merchant is told the amount with the currency it counts, not left to look it up.
    expect(stack.changes.filter((change) => change.kind === 'operation')).toMatchObject([{ operation: { amount: 250, currency: 'UAH' } }]);
  });

  it('keeps, and does not record, an operation whose amount has more digits than can be shown exactly', async () => {
    const { orderId, refund } = await outsideRefund('12345678901234.56');
    const answer = await post(webhookForm(refund, SECRET));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ outcome: 'unmatched' });
    const order = await stack.request('GET', `/api/orders/${orderId}`, { admin: true });
    expect(order.status).toBe(200);
    expect((await order.json()).operations).toEqual([]);
  });

  it('a failing onPaymentEvent hook is logged and does not fail the webhook', async () => {
    await stack.close();
    stack = await createStack({ companion: { onPaymentEvent: () => Promise.reject(new Error('fulfilment down')) } });
    stack.dropWebhooks = true;
    const orderId = await pendingOrder();
    const response = await post(webhookForm(paymentEvent(orderId, 'success'), SECRET));
    expect(response.status).toBe(200);
    expect((await stack.ledger.getPayment(orderId))?.status).toBe('success');
    expect(stack.logs.some((line) => line.includes('onPaymentEvent hook failed') && line.includes('fulfilment down'))).toBe(true);
  });
});

describe('a SQLite ledger whose disk stops syncing', () => {
  it('answers the webhook whose commit could not be synced, and what follows, 503 with a retry: an outage, not a 500', async () => {
    await stack.close();
    const dir = mkdtempSync(join(tmpdir(), 'payform-webhooks-'));
    stack = await createStack({
      backend: {
        name: 'SQLite file',
        persistent: false,
        async open(clock) {
          const ledger = await openLedger(join(dir, 'ledger.db'), { clock: clock.read });
          return {
            ledger,
            async dispose() {
              await ledger.close().catch(() => undefined);
              rmSync(dir, { recursive: true, force: true });
            },
          };
        },
      },
    });
    stack.dropWebhooks = true;
    const orderId = await pendingOrder();
    const session = await stack.ledger.findSessionOfOrder(orderId);
    // The WAL gone from under the open file: the event's COMMIT lands, its sync cannot.
    rmSync(join(dir, 'ledger.db-wal'));
    for (const answer of [await post(webhookForm(paymentEvent(orderId, 'success'), SECRET)), await stack.request('GET', `/api/checkout/sessions/${session!.id}`)]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('Retry-After')).not.toBeNull();
      expect((await answer.json()).error.code).toBe('ledger_unavailable');
    }
  });
});
