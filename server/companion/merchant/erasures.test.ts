// A customer's erasure through the merchant API, against the sandbox: their orders, paid through
// the companion and reported by the gateway's webhooks, keep their money and lose the person.
import { describe, expect, it } from 'vitest';
import { card } from '../test/cards.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const open = stacksPerTest();

/** A paid order of the customer `email`'s, its webhook in. */
async function paidBy(stack: Stack, email: string, extra: Json = {}): Promise<string> {
  const session = await stack.openSession({ amount: 2500, customer: { email, fname: 'Olena', lname: 'Koval', phone: '+380501234567' }, ...extra });
  expect((await (await stack.pay(session.id, payBody({ customer: { email, fname: 'Olena', lname: 'Koval', phone: '+380501234567' } }))).json()).status).toBe('success');
  await stack.settleWebhooks();
  return session.order_id as string;
}

describe('POST /api/customers/erasures', () => {
  it('erases the customer from their orders and the webhooks the gateway sent of them, keeps the orders, and logs nothing of the person', async () => {
    const stack = await open();
    const orderId = await paidBy(stack, 'olena@example.com', { customer_id: 'cust-olena' });
    const other = await paidBy(stack, 'taras@example.com');
    const before = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    // What the gateway sent of the customer is among the event's fields (the sandbox sends the phone).
    expect(JSON.stringify(before.events)).toContain('"customer_phone":"+380501234567"');

    const erased = await stack.json('POST', '/api/customers/erasures', 200, { admin: true, body: { email: 'Olena@Example.com', customer_id: 'cust-olena' } });
    expect(erased).toEqual({ order_ids: [orderId], sessions: 1, events: before.events.length, cards: 1, customer_ids: [] });

    const after = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    expect(after.order.customer).toEqual({});
    expect(after.order).toMatchObject({ status: 'success', amount: before.order.amount, card: before.order.card, customer_id: 'cust-olena' });
    expect(JSON.stringify(after.events)).not.toMatch(/olena@example\.com|Koval|\+380501234567/i);
    expect(after.events.map((event: Json) => event.id)).toEqual(before.events.map((event: Json) => event.id));
    // Said on the live feed, so a back office showing the order reads it again.
    const { changes } = await stack.json('GET', '/api/changes', 200, { admin: true });
    expect(changes.filter((change: Json) => change.kind === 'customer')).toEqual([expect.objectContaining({ order_id: orderId, status: 'erased', source: 'merchant' })]);
    expect((await stack.json('GET', '/api/customers/cust-olena/cards', 200, { admin: true })).cards).toEqual([]);
    expect((await stack.json('GET', `/api/orders/${other}`, 200, { admin: true })).order.customer.email).toBe('taras@example.com');
    expect(before.customer_erased_at).toBeNull();
    expect(Date.parse(after.customer_erased_at)).toBeGreaterThanOrEqual(Date.parse(after.order.created_at));

    // Later: a refund, and a charge the gateway made under the order (a subscription's), whose
    // webhook names the payer's phone again: kept without it.
    await stack.json('POST', `/api/orders/${orderId}/refund`, 200, { admin: true, body: { amount: 500 } });
    await stack.control('POST', '/_sandbox/recurring', { order_id: orderId });
    await stack.settleWebhooks();
    const later = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    expect(later.totals.refunded).toBe(500);
    expect(later.events.map((event: Json) => event.event?.recurring ?? null)).toContainEqual(expect.objectContaining({ id: expect.any(String) }));
    expect(JSON.stringify(later.events)).not.toMatch(/olena@example\.com|Koval|\+380501234567/i);

    const line = stack.logs.find((text) => text.includes('personal data erased'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 'info', orders: 1, sessions: 1, cards: 1 });
    expect(stack.logs.join('\n')).not.toMatch(/Olena@Example\.com/);
  });

  it('refuses a request that names nobody, naming the field, and one without the admin token', async () => {
    const stack = await open();
    const refused = await stack.json('POST', '/api/customers/erasures', 400, { admin: true, body: {} });
    expect(refused.error).toMatchObject({ code: 'invalid_request', message: 'Invalid request: email is required unless customer_id is given', fields: { email: 'is required unless customer_id is given' } });
    expect((await stack.json('POST', '/api/customers/erasures', 400, { admin: true, body: { email: 'not an address' } })).error.fields).toEqual({ email: 'must be an e-mail address' });
    expect((await stack.request('POST', '/api/customers/erasures', { body: { email: 'olena@example.com' } })).status).toBe(401);
  });

  it('answers 409 payment_in_flight, erasing nothing, while a payment of theirs waits for the gateway', async () => {
    const stack = await open();
    const paid = await paidBy(stack, 'olena@example.com');
    // 3-D Secure asked for and never completed: the payment waits for the gateway.
    const session = await stack.openSession({ amount: 1000, customer: { email: 'olena@example.com' } });
    const pending = await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json();
    expect(pending.status).toBe('redirect');
    const refused = await stack.json('POST', '/api/customers/erasures', 409, { admin: true, body: { email: 'olena@example.com' } });
    expect(refused.error).toMatchObject({ code: 'payment_in_flight', order_ids: [session.order_id], message: expect.stringContaining(session.order_id) });
    expect((await stack.json('GET', `/api/orders/${paid}`, 200, { admin: true })).order.customer.email).toBe('olena@example.com');
  });
});

describe('customers’ details erased by age (personalDataDays)', () => {
  it('erases an order past the days at a reconciliation pass, over HTTP with the sandbox, and keeps a younger one; one line of counts, nothing on the live feed', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ served: true, clock, companion: { personalDataDays: 30 } });
    const old = await paidBy(stack, 'olena@example.com', { customer_id: 'cust-olena' });
    const before = await stack.json('GET', `/api/orders/${old}`, 200, { admin: true });
    expect(JSON.stringify(before.events)).toContain('"customer_phone":"+380501234567"');
    // Days, not hours: an order 29 days old is kept as one of a minute.
    clock.advance(2 * 24 * 3_600_000);
    const young = await paidBy(stack, 'taras@example.com');
    clock.advance(29 * 24 * 3_600_000);

    const pass = await stack.companion.companion.reconciler.runOnce();
    expect(pass.erasedByAge).toBe(1);

    const after = await stack.json('GET', `/api/orders/${old}`, 200, { admin: true });
    expect(after.order.customer).toEqual({});
    expect(after.order).toMatchObject({ status: 'success', amount: before.order.amount, card: before.order.card, customer_id: 'cust-olena' });
    expect(Date.parse(after.customer_erased_at)).toBe(clock.now);
    expect(JSON.stringify(after.events)).not.toMatch(/olena@example\.com|Koval|\+380501234567/i);
    // The saved card stays: the customer's standing choice, not a detail of the order.
    expect((await stack.json('GET', '/api/customers/cust-olena/cards', 200, { admin: true })).cards).toHaveLength(1);
    const kept = await stack.json('GET', `/api/orders/${young}`, 200, { admin: true });
    expect(kept).toMatchObject({ customer_erased_at: null, order: { customer: { email: 'taras@example.com' } } });

    const line = stack.logs.find((text) => text.includes('erased by age'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 'info', orders: 1, sessions: 1, personal_data_days: 30 });
    expect(stack.logs.join('\n')).not.toMatch(/olena@example\.com/i);
    const { changes } = await stack.json('GET', '/api/changes', 200, { admin: true });
    expect(changes.filter((change: Json) => change.kind === 'customer')).toEqual([]);
    // Nothing more due: no line.
    expect((await stack.companion.companion.reconciler.runOnce()).erasedByAge).toBe(0);
    expect(stack.logs.filter((text) => text.includes('erased by age'))).toHaveLength(1);
  });

  it('is off unless the option is set', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ clock });
    const old = await paidBy(stack, 'olena@example.com');
    clock.advance(400 * 24 * 3_600_000);
    expect((await stack.companion.companion.reconciler.runOnce()).erasedByAge).toBe(0);
    expect((await stack.json('GET', `/api/orders/${old}`, 200, { admin: true })).order.customer.email).toBe('olena@example.com');
  });
});
