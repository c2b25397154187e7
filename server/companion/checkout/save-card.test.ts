// `save_card` of a session for a known customer: without the customer's consent to keep the card,
// the paid order is still the customer's (order history), and no card is kept — by the widget's
// direct payment or the gateway's hosted page, through the sandbox over HTTP.
import { describe, expect, it } from 'vitest';
import { hostedCardForm } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const open = stacksPerTest();
const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };

/** The merchant's view of the order and the customer's saved cards, once every webhook applied. */
async function afterPayment(stack: Stack, orderId: string, customerId: string): Promise<{ order: Json; cards: Json[] }> {
  await stack.settleWebhooks();
  const { order } = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
  const { cards } = await stack.json('GET', `/api/customers/${customerId}/cards`, 200, { admin: true });
  return { order, cards };
}

describe('a session of a known customer and save_card', () => {
  it('false: the card payment is the customer’s order, and no card is kept', async () => {
    const stack = await open();
    const session = await stack.openSession({ customer_id: 'cust-no-consent', save_card: false });
    expect((await stack.pay(session.id, payBody())).status).toBe(200);
    const { order, cards } = await afterPayment(stack, session.order_id, 'cust-no-consent');
    expect(order).toMatchObject({ status: 'success', customer_id: 'cust-no-consent' });
    expect(cards).toEqual([]);
  });

  it('false: a payment on the gateway’s hosted page keeps no card either', async () => {
    const stack = await open();
    const session = await stack.openSession({ customer_id: 'cust-hosted', save_card: false, customer: CONTACT });
    const { redirect_url: url } = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect((await stack.sandbox.request(url, { method: 'POST', body: hostedCardForm() })).status).toBe(303);
    const { order, cards } = await afterPayment(stack, session.order_id, 'cust-hosted');
    expect(order).toMatchObject({ status: 'success', mode: 'hosted', customer_id: 'cust-hosted' });
    expect(cards).toEqual([]);
  });

  it.each([{}, { save_card: true }])('%j keeps the card, as before the field', async (consent) => {
    const stack = await open();
    const session = await stack.openSession({ customer_id: 'cust-consents', ...consent });
    expect((await stack.pay(session.id, payBody())).status).toBe(200);
    const { cards } = await afterPayment(stack, session.order_id, 'cust-consents');
    expect(cards).toMatchObject([{ mask: '424242******4242' }]);
  });

  it.each([
    [{ save_card: false }, 'needs customer_id'],
    [{ save_card: true }, 'needs customer_id'],
    [{ customer_id: 'cust-1', save_card: 'no' }, 'must be'],
    [{ customer_id: 'cust-1', method: 'lookup', save_card: false }, 'cannot be false for method lookup'],
  ])('answers 400 naming save_card for %j, and opens nothing', async (change, reason) => {
    const stack = await open();
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', ...change } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.fields.save_card).toContain(reason);
    expect((await stack.ledger.listOrders()).orders).toHaveLength(0);
  });

  it('takes save_card true for a lookup, which saves the card', async () => {
    const stack = await open();
    expect(await stack.openSession({ customer_id: 'cust-1', method: 'lookup', save_card: true })).toMatchObject({ method: 'lookup', customer_id: 'cust-1' });
  });
});
