// Card verification sessions (`lookup`, "save a card") through the sandbox over HTTP: direct,
// with 3-D Secure, and on the gateway's hosted page; on success the card is saved for the
// session's customer, and the back office lists the verification apart from payments.
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { card, FINGERPRINT, payOnHostedPage } from '../test/cards.js';
import { eventually, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const open = stacksPerTest();

const verification = (customerId: string) => ({ amount: 1, currency: 'UAH', description: 'Save a card for renewals', method: 'lookup', customer_id: customerId });

async function savedCards(stack: Stack, customerId: string): Promise<Json[]> {
  return (await stack.json('GET', `/api/customers/${customerId}/cards`, 200, { admin: true })).cards;
}

/** The card is saved once the gateway's webhook has told the companion (or its answer did). */
async function expectSaved(stack: Stack, customerId: string, mask: RegExp): Promise<void> {
  const cards = await eventually(async () => {
    const list = await savedCards(stack, customerId);
    expect(list).toHaveLength(1);
    return list;
  });
  expect(cards[0]).toMatchObject({ mask: expect.stringMatching(mask), id: expect.any(String) });
}

describe('a card verification session', () => {
  it('is a lookup the widget sees as such: no customer fields, no saved cards to pick', async () => {
    const stack = await open({ served: true });
    // The customer already has a card: a verification still asks for a new one.
    await stack.ledger.saveCard({ customerId: 'cust-view', ccToken: 'tok-old', ccMask: '545454******5454' });
    const session = await stack.openSession(verification('cust-view'));
    expect(session).toMatchObject({ method: 'lookup', amount: 1, customer_id: 'cust-view' });
    const view = await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200);
    expect(view).toMatchObject({ method: 'lookup', customer_fields: [], saved_cards: [] });
  });

  it('verifies the card directly and saves it for the customer; the back office lists it apart', async () => {
    const stack = await open({ served: true });
    const session = await stack.openSession(verification('cust-direct'));
    // No customer details: a lookup needs none.
    const answer = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: { card: card(), fingerprint: FINGERPRINT } });
    expect(answer).toMatchObject({ status: 'success', order_id: session.order_id });
    await expectSaved(stack, 'cust-direct', /^424242\*+4242$/);
    const lookups = await stack.json('GET', '/api/orders?kind=verifications', 200, { admin: true });
    expect(lookups.orders.map((order: Json) => [order.order_id, order.method, order.status])).toEqual([[session.order_id, 'lookup', 'success']]);
    expect((await stack.json('GET', '/api/orders?kind=payments', 200, { admin: true })).orders).toEqual([]);
    // Its webhook is applied like a payment's.
    await eventually(async () => {
      const detail = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
      expect(detail.events.map((event: Json) => [event.method, event.status, event.outcome])).toContainEqual(['lookup', 'success', expect.stringMatching(/applied|stale/)]);
    });
    // The gateway sends its webhook again on request, as for any payment.
    await stack.json('POST', `/api/orders/${session.order_id}/resend-webhook`, 202, { admin: true, body: { operation: 'lookup' } });
    await eventually(async () => {
      const resent = (await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`)).deliveries.filter((delivery: Json) => delivery.reason === 'resend');
      expect(resent.map((delivery: Json) => [delivery.method, delivery.event_status])).toEqual([['lookup', 'success']]);
    });
    // Nothing was paid: nothing to refund.
    const refund = await stack.request('POST', `/api/orders/${session.order_id}/refund`, { admin: true, body: {} });
    expect(refund.status).toBe(409);
    expect((await refund.json()).error.code).toBe('not_a_payment');
    // Nor a receipt: said as such, not as an order the gateway lost.
    const receipt = await stack.json('GET', `/api/orders/${session.order_id}/receipt`, 409, { admin: true });
    expect(receipt.error).toEqual({ code: 'not_a_payment', message: 'A card verification takes no money, so the gateway makes it no receipt' });
  });

  it('follows 3-D Secure like a payment and saves the card once the challenge passes', async () => {
    const stack = await open({ served: true });
    const session = await stack.openSession(verification('cust-3ds'));
    const answer = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: { card: card('three_ds_challenge'), fingerprint: FINGERPRINT } });
    expect(answer).toMatchObject({ status: 'redirect', redirect_url: expect.stringContaining(stack.sandboxUrl) });
    expect(await savedCards(stack, 'cust-3ds')).toEqual([]);
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
    await expectSaved(stack, 'cust-3ds', /^400000\*+3220$/);
    expect(stack.changes.some((change) => change.orderId === session.order_id && change.status === 'success')).toBe(true);
  });

  it('verifies on the hosted page too, and saves the card', async () => {
    const stack = await open({ served: true });
    const session = await stack.openSession(verification('cust-hosted'));
    const { redirect_url: url } = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect(url).toMatch(/\/form$/);
    const submitted = await payOnHostedPage(url);
    expect(submitted.status).toBeLessThan(400);
    await expectSaved(stack, 'cust-hosted', /^424242\*+4242$/);
    const detail = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    expect(detail.order).toMatchObject({ method: 'lookup', mode: 'hosted', status: 'success' });
    // Back on the companion's return page: it speaks of the card, not of a payment.
    const landing = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(await landing.text()).toContain('<h1>Card saved</h1>');
  });

  it('needs a customer to save the card for, and is never split', async () => {
    const stack = await open();
    const refused = await stack.request('POST', '/api/checkout/sessions', {
      admin: true,
      body: { ...verification('x'), customer_id: undefined, split: [{ sub_merchant_id: '2b5c5e0e-6f0a-4c55-9a53-4c2a3b1d7e01', amount: 1 }] },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toMatchObject({ customer_id: expect.stringMatching(/required/), split: expect.any(String) });
  });
});

describe('reconciliation of a card verification', () => {
  it('settles one whose webhook was lost from the order state, and saves the card', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ clock });
    stack.dropWebhooks = true;
    const session = await stack.openSession(verification('cust-quiet'));
    const answer = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: { card: card('three_ds_challenge'), fingerprint: FINGERPRINT } });
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
    expect(await savedCards(stack, 'cust-quiet')).toEqual([]);
    clock.advance(61_000);
    expect(await stack.companion.companion.reconciler.runOnce()).toMatchObject({ checkedPayments: 1, settled: 1 });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ method: 'lookup', status: 'success' });
    expect(await savedCards(stack, 'cust-quiet')).toEqual([expect.objectContaining({ mask: expect.stringMatching(/3220$/) })]);
    expect(stack.changes.filter((change) => change.orderId === session.order_id).map((change) => [change.status, change.source])).toContainEqual(['success', 'reconciliation']);
  });
});
