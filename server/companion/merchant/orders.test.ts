// The merchant API over orders: reads, capture, void, refund, split, cancel, re-send, receipts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { minorUnits } from '@payform/gateway';
import { TEST_SUB_MERCHANTS } from '@payform/gateway/testing';
import { card, cardNumber } from '../test/cards.js';
import { createStack, payBody } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

const [SUB_A, SUB_B] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string];
let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
});
afterEach(async () => {
  await stack.close();
});

/** A paid order of 1010 (10.10 UAH, unless `extra` says otherwise): a purchase, or an auth to capture. */
async function paidOrder(method: 'purchase' | 'auth' = 'purchase', extra: Record<string, unknown> = {}): Promise<string> {
  const session = await stack.openSession({ method, amount: 1010, ...extra });
  const answer = await (await stack.pay(session.id)).json();
  expect(answer.status).toBe('success');
  return session.order_id;
}

const op = (orderId: string, action: string, status: number, body: unknown = {}) =>
  stack.json('POST', `/api/orders/${orderId}/${action}`, status, { admin: true, body });

describe('reading orders', () => {
  it('lists newest first, pages with a cursor and filters by status', async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    const page = await stack.json('GET', '/api/orders?limit=1', 200, { admin: true });
    expect(page.orders.map((order: { order_id: string }) => order.order_id)).toEqual([second]);
    const next = await stack.json('GET', `/api/orders?limit=1&cursor=${page.next_cursor}`, 200, { admin: true });
    expect(next.orders.map((order: { order_id: string }) => order.order_id)).toEqual([first]);
    expect((await stack.json('GET', '/api/orders?status=failure', 200, { admin: true })).orders).toEqual([]);
    expect((await stack.json('GET', '/api/orders?limit=0', 400, { admin: true })).error.fields.limit).toBeDefined();
    // Too large is said as such, however many digits: not as no whole number.
    for (const limit of ['10000', '9'.repeat(40)]) expect((await stack.json('GET', `/api/orders?limit=${limit}`, 400, { admin: true })).error.fields).toEqual({ limit: 'must be at most 200' });
    expect((await stack.json('GET', '/api/orders?limit=1e3', 400, { admin: true })).error.fields).toEqual({ limit: 'must be a whole number' });
    // A whole number below the least is refused as such: -1 is a whole number.
    expect((await stack.json('GET', '/api/orders?limit=-1', 400, { admin: true })).error.fields).toEqual({ limit: 'must be at least 1' });
    expect((await stack.json('GET', '/api/orders?status=lost', 400, { admin: true })).error.fields.status).toBeDefined();
    expect((await stack.json('GET', '/api/orders?cursor=bogus', 400, { admin: true })).error.code).toBe('invalid_request');
    // A parameter given twice is said as such, not as a list that "must be a string".
    expect((await stack.json('GET', '/api/orders?limit=1&status=success&limit=2&status=failure', 400, { admin: true })).error.fields).toEqual({
      limit: 'must be given once, not 2 times',
      status: 'must be given once, not 2 times',
    });
  });

  it('lists each order with what it came to: refunded, voided, captured for another amount', async () => {
    const hundred = { amount: 10000 };
    const refunded = await paidOrder('purchase', hundred);
    await op(refunded, 'refund', 200);
    const partlyRefunded = await paidOrder('purchase', hundred);
    await op(partlyRefunded, 'refund', 200, { amount: 2550 });
    const voided = await paidOrder('auth', hundred);
    await op(voided, 'void', 200);
    const capturedLess = await paidOrder('auth', hundred);
    await op(capturedLess, 'capture', 200, { amount: 6050 });
    const capturedMore = await paidOrder('auth', hundred);
    await op(capturedMore, 'capture', 200, { amount: 10850 });
    const uncaptured = await paidOrder('auth', hundred);
    const untouched = await paidOrder('purchase', hundred);

    const { orders } = await stack.json('GET', '/api/orders', 200, { admin: true });
    const totals = Object.fromEntries(orders.map((order: { order_id: string; totals: unknown }) => [order.order_id, order.totals]));
    const none = { captured: 0, capture_pending: 0, refunded: 0, refund_pending: 0, voided: false, refundable: 0, capturable: 0 };
    expect(totals).toEqual({
      [refunded]: { ...none, refunded: 10000 },
      [partlyRefunded]: { ...none, refunded: 2550, refundable: 7450 },
      [voided]: { ...none, voided: true },
      [capturedLess]: { ...none, captured: 6050, refundable: 6050 },
      [capturedMore]: { ...none, captured: 10850, refundable: 10850 },
      // The reserve with the project's over-capture allowance, as the detail says it.
      [uncaptured]: { ...none, capturable: 11500 },
      [untouched]: { ...none, refundable: 10000 },
    });
    // The payment itself is as it was asked; the totals say what became of it, as the detail's do.
    expect(orders.every((order: { amount: number; status: string }) => order.amount === 10000 && order.status === 'success')).toBe(true);
    for (const orderId of [refunded, voided, capturedMore, uncaptured]) {
      expect((await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true })).totals).toEqual(totals[orderId]);
    }
    // Looked up by a charge's Idempotency-Key, the order comes with its totals too.
    const keyed = await stack.json('POST', '/api/checkout/sessions', 201, { admin: true, headers: { 'Idempotency-Key': 'list-totals-1' }, body: { amount: 500, currency: 'UAH', description: 'Sencha, 100 g' } });
    expect((await (await stack.pay(keyed.id)).json()).status).toBe('success');
    const found = await stack.json('GET', '/api/orders?idempotency_key=list-totals-1', 200, { admin: true });
    expect(found.orders).toMatchObject([{ order_id: keyed.order_id, totals: { ...none, refundable: 500 } }]);
  });

  it('takes idempotency_key alone: a filter or page beside it is refused by name, not ignored', async () => {
    const keyed = await stack.json('POST', '/api/checkout/sessions', 201, { admin: true, headers: { 'Idempotency-Key': 'key-alone-1' }, body: { amount: 500, currency: 'UAH', description: 'Sencha, 100 g' } });
    expect((await (await stack.pay(keyed.id)).json()).status).toBe('success');
    const reason = 'is not taken with idempotency_key, which lists one order: send either';
    const refused = await stack.json('GET', '/api/orders?idempotency_key=key-alone-1&status=failure', 400, { admin: true });
    expect(refused.error).toEqual({ code: 'invalid_request', message: `Invalid request: status ${reason}`, fields: { status: reason } });
    expect((await stack.json('GET', '/api/orders?idempotency_key=key-alone-1&cursor=abc&limit=5', 400, { admin: true })).error.fields).toEqual({ limit: reason, cursor: reason });
    expect((await stack.json('GET', '/api/orders?held=true&idempotency_key=key-alone-1', 400, { admin: true })).error.fields).toEqual({ held: reason });
    expect((await stack.json('GET', '/api/orders?idempotency_key=key-alone-1', 200, { admin: true })).orders).toMatchObject([{ order_id: keyed.order_id, status: 'success' }]);
  });

  it('answers the customer in the names a session takes them (tax_id, not the ledger’s taxId)', async () => {
    const session = await stack.openSession({ amount: 1010, customer: { email: 'olena@example.com', tax_id: '1234567890' } });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const order = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    expect(order.order.customer).toMatchObject({ email: 'olena@example.com', tax_id: '1234567890' });
    expect(order.order.customer).not.toHaveProperty('taxId');
  });

  it('says what was sold: the checkout session’s description, as a support person confirms the order', async () => {
    const session = await stack.openSession({ amount: 24950, description: 'Кава «Ефіопія», 250 г' });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect(await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true })).toMatchObject({ description: 'Кава «Ефіопія», 250 г' });
  });

  it('finds orders by what a customer says on the phone: e-mail, card last four, amount, dates', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const olena = await paidOrder('purchase', { amount: 2550, customer: { email: 'Olena@Example.com' } });
    const taras = await paidOrder('purchase', { amount: 990, customer: { email: 'taras@example.com' } });
    const ids = async (query: string) =>
      (await stack.json('GET', `/api/orders?${query}`, 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id);
    const listed = await stack.json('GET', '/api/orders?email=olena%40example.com', 200, { admin: true });
    expect(listed.orders.map((order: { order_id: string }) => order.order_id)).toEqual([olena]);
    const lastFour = (listed.orders[0].card.mask as string).slice(-4);
    expect(listed.orders[0].customer.email).toBe('Olena@Example.com');
    expect(await ids(`card_last4=${lastFour}&amount=990`)).toEqual([taras]);
    expect(await ids('amount=2550&currency=UAH')).toEqual([olena]);
    expect(await ids('amount=2550&currency=EUR')).toEqual([]);
    expect(await ids(`created_from=${encodeURIComponent(before)}&created_to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=1`)).toEqual([taras]);
    expect(await ids(`created_to=${encodeURIComponent(before)}`)).toEqual([]);
    // An amount no order can have, as a body's limit says it.
    expect((await stack.json('GET', '/api/orders?amount=1000000000000000', 400, { admin: true })).error.fields).toEqual({ amount: 'must be at most 999999999999999' });
    // Nor one of nothing, said as the document's bound, which a generated client checks first.
    expect((await stack.json('GET', '/api/orders?amount=0', 400, { admin: true })).error.fields).toEqual({ amount: 'must be at least 1' });
    const { paths } = await stack.json('GET', '/api/openapi.json', 200);
    for (const path of ['/api/orders', '/api/exports/orders']) {
      expect(paths[path].get.parameters.find((parameter: { name: string }) => parameter.name === 'amount').schema, path).toMatchObject({ minimum: 1, maximum: 999999999999999 });
    }
    // Seconds left out, as ISO 8601 allows: to the minute.
    const nextMinute = `${new Date(Date.now() + 120_000).toISOString().slice(0, 16)}+00:00`;
    expect(await ids(`created_to=${encodeURIComponent(nextMinute)}&limit=1`)).toEqual([taras]);
    // A currency alone: its orders, whatever their amount.
    const dollars = await paidOrder('purchase', { amount: 4000, currency: 'USD' });
    expect(await ids('currency=USD')).toEqual([dollars]);
    expect(await ids('currency=UAH')).toEqual([taras, olena]);
    expect(await ids('currency=EUR')).toEqual([]);
    // Your customer id: what an erasure by e-mail leaves to find a customer's orders by.
    const regular = await paidOrder('purchase', { amount: 700, customer_id: 'cust-42' });
    const again = await paidOrder('purchase', { amount: 990, customer_id: 'cust-42' });
    await paidOrder('purchase', { amount: 700, customer_id: 'cust-43' });
    expect(await ids('customer_id=cust-42')).toEqual([again, regular]);
    expect(await ids('customer_id=cust-42&amount=700')).toEqual([regular]);
    expect(await ids('customer_id=cust-42&status=failure')).toEqual([]);
    expect(await ids('customer_id=nobody')).toEqual([]);
    expect((await stack.json('GET', `/api/orders?customer_id=${'c'.repeat(129)}`, 400, { admin: true })).error.fields).toEqual({ customer_id: 'must be at most 128 characters' });

    // Bad values: 400 naming the parameter and why, never quoting what was sent.
    const full = cardNumber('success');
    const refused = await stack.json('GET', `/api/orders?card_last4=${full}&email=olena&amount=25.50&currency=uah&created_from=yesterday`, 400, { admin: true });
    expect(refused.error.fields).toEqual({
      card_last4: 'must be the last four digits of the card, never more',
      email: 'must be an e-mail address',
      amount: 'must be a whole number of minor units',
      currency: 'must be an ISO 4217 code in capitals',
      created_from: 'must be an ISO 8601 date-time with its offset',
    });
    expect(JSON.stringify(refused)).not.toContain(full);
    const at = encodeURIComponent(before);
    expect((await stack.json('GET', `/api/orders?created_from=${at}&created_to=${at}`, 400, { admin: true })).error.fields).toEqual({ created_to: 'must be after created_from' });
    expect((await stack.json('GET', '/api/orders?idempotency_key=k&email=olena%40example.com', 400, { admin: true })).error.fields).toHaveProperty('email');
    // An offset's + sent unescaped reads as a space: said so, with the escape to write.
    expect((await stack.json('GET', '/api/orders?created_from=2026-11-01T00:00:00+02:00', 400, { admin: true })).error.fields).toEqual({
      created_from: 'must be an ISO 8601 date-time with its offset: its + reads as a space in a query string, write it %2B (2026-11-01T00:00:00%2B02:00)',
    });
    expect(await ids(`created_from=2026-11-01T00:00:00%2B02:00&limit=1`)).toHaveLength(1);
    // An offset without its colon, as strftime's %z writes it (Ruby's Time#to_s, PHP's DATE_ISO8601):
    // it has an offset, so the reason says what is wrong with it, on the stats' periods too.
    const colonless = 'must be an ISO 8601 date-time with its offset written +02:00, with a colon, not +0200 as strftime’s %z writes it (2026-11-01T00:00:00%2B02:00)';
    for (const written of ['2026-11-01T00:00:00%2B0200', '2026-11-01T00:00:00.123-0500', '2026-11-01%2000:00:00%20%2B0000']) {
      expect((await stack.json('GET', `/api/orders?created_from=${written}`, 400, { admin: true })).error.fields).toEqual({ created_from: colonless });
    }
    expect((await stack.json('GET', '/api/stats/money?from=2026-11-01T00:00:00%2B0200', 400, { admin: true })).error.fields).toEqual({ from: colonless });
    // Before 1970, what the ledger counts from: said so, on the journal as on the list.
    const early = encodeURIComponent('0001-01-01T00:00:00Z');
    expect((await stack.json('GET', `/api/orders?created_from=${early}`, 400, { admin: true })).error.fields).toEqual({ created_from: 'must be 1970-01-01T00:00:00Z or later' });
    expect((await stack.json('GET', `/api/movements?from=${early}`, 400, { admin: true })).error.fields).toEqual({ from: 'must be 1970-01-01T00:00:00Z or later' });
    // A cursor names its list: another list's is refused, not paged from.
    const { next_cursor: journalCursor } = await stack.json('GET', '/api/movements?limit=1', 200, { admin: true });
    expect(journalCursor).toEqual(expect.any(String));
    expect((await stack.json('GET', `/api/orders?cursor=${journalCursor}`, 400, { admin: true })).error.fields).toEqual({
      cursor: 'is a cursor of another list (movements): page each list with the next_cursor it returned',
    });
  });

  it('finds an internationalised e-mail as it was given, and its ASCII part whatever its case', async () => {
    const olena = await paidOrder('purchase', { customer: { email: 'Олена.K@Приклад.укр' } });
    const ids = async (email: string) =>
      (await stack.json('GET', `/api/orders?email=${encodeURIComponent(email)}`, 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id);
    expect(await ids('Олена.K@Приклад.укр')).toEqual([olena]);
    expect(await ids('Олена.k@Приклад.укр')).toEqual([olena]);
  });

  it('keeps one spelling of an internationalised domain, as the browser’s xn-- or as typed, and finds it by either', async () => {
    // A browser's e-mail field gives <pay-form> the domain in its ASCII form; the merchant's session the one the customer typed.
    const typed = await paidOrder('purchase', { customer: { email: 'juergen@müller.de' } });
    const browsers = await paidOrder('purchase', { customer: { email: 'juergen@xn--mller-kva.de' } });
    expect((await stack.ledger.getPayment(browsers))?.customer.email).toBe('juergen@müller.de');
    for (const email of ['juergen@müller.de', 'juergen@xn--mller-kva.de', 'JUERGEN@XN--MLLER-KVA.DE']) {
      const found = (await stack.json('GET', `/api/orders?email=${encodeURIComponent(email)}`, 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id);
      expect(found, email).toEqual([browsers, typed]);
    }
    // A card number spelt in a domain's other digits is refused once the domain reads as written.
    const refused = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', customer: { email: 'olena@xn--bibaaaaaaakbbbbbbb.com' } } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual({ 'customer.email': 'must not contain a card number' });
  });

  it('lists the orders held for a discrepancy apart', async () => {
    const plain = await paidOrder();
    const held = await paidOrder();
    // A refund made in the gateway's portal, past what was paid, as its order state reports it.
    await stack.ledger.recordGatewayOperation(held, { kind: 'refund', amount: 5000, status: 'success', operationId: 'portal-refund-1', shown: 1 });
    const listed = await stack.json('GET', '/api/orders?held=true', 200, { admin: true });
    expect(listed.orders).toMatchObject([{ order_id: held, discrepancy: { refunded_amount: 5000 } }]);
    expect((await stack.json('GET', '/api/orders', 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id)).toEqual([held, plain]);
    // `false` is no filter the list has: refused, rather than listing the held orders too.
    for (const value of ['false', 'yes']) {
      expect((await stack.json('GET', `/api/orders?held=${value}`, 400, { admin: true })).error.fields).toEqual({ held: 'must be true (leave it out to list every order, held or not)' });
    }
  });

  it('settles a held order as read, saying how: it leaves the held list, and a further report holds it again', async () => {
    const plain = await paidOrder();
    const held = await paidOrder();
    const portalRefund = (operationId: string, amount: number) =>
      stack.ledger.recordGatewayOperation(held, { kind: 'refund', amount, status: 'success', operationId, shown: 1 });
    await portalRefund('portal-refund-1', 5000);
    const settle = (orderId: string, status: number, body: unknown) => stack.json('POST', `/api/orders/${orderId}/settle-discrepancy`, status, { admin: true, body });
    expect((await stack.json('GET', `/api/orders/${held}`, 200, { admin: true })).order.discrepancy).toMatchObject({ version: 1, settled: null, settled_before: [] });

    // Refused, naming the field or the rule, and nothing changes.
    const number = cardNumber('success');
    expect((await settle(held, 400, { note: ' ', version: 1 })).error.fields).toEqual({ note: 'must say how the order was settled' });
    expect((await settle(held, 400, { note: 'Refunded', version: 0 })).error.fields).toEqual({ version: 'must be at least 1' });
    // Left out, it is said as missing, not as a number of the wrong kind.
    expect((await settle(held, 400, { note: 'Refunded' })).error.fields).toEqual({ version: 'is required' });
    expect((await settle(held, 400, { note: 'Refunded', version: 1.5 })).error.fields).toEqual({ version: 'must be a whole number' });
    expect((await settle(held, 400, { note: 'x'.repeat(501), version: 1 })).error.fields.note).toMatch(/at most 500 characters/);
    expect((await settle(held, 409, { note: 'Refunded', version: 2 })).error.code).toBe('discrepancy_changed');
    expect((await settle(plain, 409, { note: 'Refunded', version: 1 })).error.code).toBe('no_discrepancy');
    expect((await settle('no-such-order', 404, { note: 'Refunded', version: 1 })).error.code).toBe('order_not_found');
    expect((await stack.json('GET', '/api/orders?held=true', 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id)).toEqual([held]);

    const settled = await settle(held, 200, { note: `Customer called: kept the refund, card ${number}`, version: 1 });
    expect(settled.order.discrepancy).toMatchObject({ refunded_amount: 5000, version: 1, settled: { version: 1, note: 'Customer called: kept the refund, card [card number]' } });
    expect(JSON.stringify(settled)).not.toContain(number);
    expect((await stack.json('GET', '/api/orders?held=true', 200, { admin: true })).orders).toEqual([]);
    expect((await settle(held, 409, { note: 'Again', version: 1 })).error.code).toBe('discrepancy_settled');

    // Another refund in the portal: news nobody settled, held again with the first settlement kept.
    await portalRefund('portal-refund-2', 100);
    const reopened = (await stack.json('GET', `/api/orders/${held}`, 200, { admin: true })).order.discrepancy;
    expect(reopened).toMatchObject({ version: 2, settled: null, settled_before: [{ version: 1 }], later: [{ refunded_amount: 5100 }] });
    expect((await stack.json('GET', '/api/orders?held=true', 200, { admin: true })).orders.map((order: { order_id: string }) => order.order_id)).toEqual([held]);
  });

  it('shows where a session declined first was paid in the end: its attempts, and a list by session', async () => {
    const session = await stack.openSession({ amount: 1010 });
    expect((await (await stack.pay(session.id, payBody({ card: card('rejected') }))).json()).status).toBe('failure');
    const paid = await (await stack.pay(session.id)).json();
    expect(paid).toMatchObject({ status: 'success', order_id: `${session.order_id}:2` });
    const attempts = [
      { order_id: session.order_id, attempt: 1, status: 'failure' },
      { order_id: `${session.order_id}:2`, attempt: 2, status: 'success' },
    ];
    // Looked up by the id the shop gave the session, the declined attempt points at the paid one.
    expect((await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true })).attempts).toEqual(attempts);
    expect((await stack.json('GET', `/api/orders/${session.order_id}:2`, 200, { admin: true })).attempts).toEqual(attempts);
    const listed = await stack.json('GET', `/api/orders?session_id=${session.id}`, 200, { admin: true });
    expect(listed.orders.map((order: { order_id: string }) => order.order_id)).toEqual([`${session.order_id}:2`, session.order_id]);
    // Another session's order has only its own.
    const other = await paidOrder();
    expect((await stack.json('GET', `/api/orders/${other}`, 200, { admin: true })).attempts).toEqual([{ order_id: other, attempt: 1, status: 'success' }]);
    expect((await stack.json('GET', '/api/orders?session_id=', 400, { admin: true })).error.fields.session_id).toBe('must not be empty');
    expect((await stack.json('GET', '/api/orders?session_id=no-such-session', 200, { admin: true })).orders).toEqual([]);
    // A refund asked of the shop's own id is pointed at the attempt that was paid.
    expect((await stack.json('POST', `/api/orders/${session.order_id}/refund`, 409, { admin: true, body: {} })).error).toEqual({
      code: 'payment_not_successful',
      message: `Order ${session.order_id} was not paid; its checkout session was paid under order ${session.order_id}:2: refund that one`,
    });
    // The hook is told the session's order id, the shop's own, beside the attempt's.
    const told = stack.changes.flatMap((change) => (change.kind === 'payment' && change.status === 'success' && change.payment.sessionId === session.id ? [[change.orderId, change.payment.sessionOrderId]] : []));
    expect(told).toEqual([
      [`${session.order_id}:2`, session.order_id],
    ]);
  });

  it('shows an order with its payment, events and totals — no card token', async () => {
    const orderId = await paidOrder();
    const detail = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    expect(detail.order).toMatchObject({ order_id: orderId, amount: 1010, currency: 'UAH', status: 'success', card: { mask: '424242******4242', brand: 'visa' } });
    expect(detail.totals).toEqual({ captured: 0, capture_pending: 0, refunded: 0, refund_pending: 0, voided: false, refundable: 1010, capturable: 0 });
    expect(detail.operations).toEqual([]);
    // The gateway's webhook is shown in the API's one unit too: minor units, never its 10.1.
    await vi.waitFor(async () => expect((await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true })).events).not.toEqual([]));
    const { events } = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    expect(events[0].event).toMatchObject({ order_id: orderId, amount: 1010, currency: 'UAH' });
    // The token the ledger keeps for saved cards is in no part of the view (a webhook's body shows `[redacted]`).
    const token = (await stack.ledger.getPayment(orderId))?.ccToken;
    expect(token).toEqual(expect.any(String));
    expect(JSON.stringify(detail)).not.toContain(token!);
    expect(detail.order).not.toHaveProperty('cc_token');
    expect((await stack.json('GET', '/api/orders/unknown-order', 404, { admin: true })).error.code).toBe('order_not_found');
    expect((await stack.request('GET', `/api/orders/${orderId}`)).status).toBe(401);
  });
});

describe('capture and void', () => {
  it('captures the whole reserve when no amount is given', async () => {
    const orderId = await paidOrder('auth');
    expect((await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true })).totals.capturable).toBe(1161);
    const full = await op(orderId, 'capture', 200);
    expect(full.operation).toMatchObject({ kind: 'capture', amount: 1010, currency: 'UAH', status: 'success', status_code: '1000' });
    expect(full.totals).toMatchObject({ captured: 1010, refundable: 1010, capturable: 0 });
  });

  it('captures in part once: the rest of the reserve is released', async () => {
    const orderId = await paidOrder('auth');
    const partial = await op(orderId, 'capture', 200, { amount: 700, comment: 'first box' });
    expect(partial.operation).toMatchObject({ kind: 'capture', amount: 700, status: 'success', comment: 'first box', operation_id: expect.any(String) });
    expect(partial.totals).toMatchObject({ captured: 700, refundable: 700, capturable: 0 });
    expect((await op(orderId, 'capture', 409)).error.code).toBe('already_captured');
    const gateway = await stack.companion.companion.services.gateway.orders.get(orderId);
    expect(gateway.filter((entry) => entry.method === 'capture').map((entry) => entry.amount)).toEqual([700]);
  });

  it('two partial captures at once: one is made, the other refused before the gateway', async () => {
    const orderId = await paidOrder('auth');
    const answers = await Promise.all([100, 200].map(async (amount) => {
      const response = await stack.request('POST', `/api/orders/${orderId}/capture`, { admin: true, body: { amount } });
      return { status: response.status, body: await response.json() };
    }));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.error.code).toBe('already_captured');
    const gateway = await stack.companion.companion.services.gateway.orders.get(orderId);
    expect(gateway.filter((entry) => entry.method === 'capture')).toHaveLength(1);
    expect((await stack.ledger.getOrder(orderId))?.operations).toHaveLength(1);
  });

  it('captures above the reserve within the project’s limit, and refuses beyond it', async () => {
    const orderId = await paidOrder('auth');
    const beyond = await op(orderId, 'capture', 422, { amount: 1162 });
    expect(beyond.error).toEqual({ code: 'exceeds_capturable', message: 'At most 1161 (11.61 UAH) can be captured', fields: { amount: 'must be at most 1161 (11.61 UAH)' } });
    expect((await stack.ledger.getOrder(orderId))?.operations).toEqual([]);
    expect((await op(orderId, 'capture', 200, { amount: 1161 })).operation).toMatchObject({ amount: 1161, status: 'success' });
  });

  it('names the over-capture setting when it is 0 and a capture asks more than the reserve', async () => {
    await stack.close();
    stack = await createStack({ companion: { captureOverReservePercent: 0 } });
    const orderId = await paidOrder('auth');
    expect((await op(orderId, 'capture', 422, { amount: 1011 })).error).toEqual({
      code: 'exceeds_capturable',
      message: 'At most 1010 (10.10 UAH) can be captured: the reserve, as PAYFORM_CAPTURE_OVER_RESERVE_PERCENT (captureOverReservePercent) is 0; to capture more than was held, set it to the over-capture percentage of the gateway project’s settings',
      fields: { amount: 'must be at most 1010 (10.10 UAH)' },
    });
    expect((await stack.ledger.getOrder(orderId))?.operations).toEqual([]);
  });

  it('refuses capture and void of a purchase, and of an auth that did not succeed', async () => {
    const purchase = await paidOrder();
    expect((await op(purchase, 'capture', 409)).error.code).toBe('not_an_auth');
    expect((await op(purchase, 'void', 409)).error.code).toBe('not_an_auth');
    const session = await stack.openSession({ method: 'auth' });
    await stack.pay(session.id, { card: { number: '4000000000000002', exp_month: 12, exp_year: 2040, cvv: '737' }, customer: { fname: 'A', lname: 'B', email: 'a@b.co', phone: '+380501234567' }, fingerprint: { browserColorDepth: '24', browserScreenHeight: '1', browserScreenWidth: '1', browserJavaEnabled: 'false', browserLanguage: 'en', browserTimeZone: 'UTC', browserTimeZoneOffset: '0' } });
    expect((await op(session.order_id, 'capture', 409)).error.code).toBe('payment_not_successful');
    expect((await op(session.order_id, 'refund', 409)).error.code).toBe('payment_not_successful');
    // Nor has it a receipt: the gateway's 404 is said as what it is, not as an order it lost.
    const receipt = await stack.json('GET', `/api/orders/${session.order_id}/receipt`, 409, { admin: true });
    expect(receipt.error).toMatchObject({ code: 'payment_not_successful', message: expect.stringContaining('(it is failure)') });
  });

  it('voids an uncaptured auth; nothing can be captured or voided after', async () => {
    const orderId = await paidOrder('auth');
    const voided = await op(orderId, 'void', 200, { comment: 'out of stock' });
    expect(voided.operation).toMatchObject({ kind: 'void', status: 'success', amount: 1010, status_code: '1009' });
    expect((await op(orderId, 'capture', 409)).error.code).toBe('already_voided');
    expect((await op(orderId, 'void', 409)).error.code).toBe('already_voided');
  });

  it('refuses to void a captured auth', async () => {
    const orderId = await paidOrder('auth');
    await op(orderId, 'capture', 200, { amount: 100 });
    expect((await op(orderId, 'void', 409)).error.code).toBe('already_captured');
  });

  it('refuses an empty body sent as JSON, saying what sends the defaults; no body at all reads as {}', async () => {
    const json = { 'Content-Type': 'application/json' };
    const orderId = await paidOrder('auth');
    const broken = await stack.json('POST', `/api/orders/${orderId}/void`, 400, { admin: true, body: '{"comment":', headers: json });
    expect(broken.error).toEqual({ code: 'invalid_json', message: 'The body is not valid JSON', fields: { body: 'is not valid JSON' } });
    const purchase = await paidOrder();
    for (const body of ['', ' \r\n\t']) {
      // A body lost on the way must not refund everything.
      const empty = await stack.json('POST', `/api/orders/${purchase}/refund`, 400, { admin: true, body, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
      expect(empty.error).toEqual({
        code: 'invalid_json',
        message: 'The body is empty, though Content-Type says JSON: send {} for the defaults, or no body and no Content-Type',
        fields: { body: 'must be JSON ({} for the defaults)' },
      });
    }
    expect((await stack.json('POST', `/api/orders/${purchase}/refund`, 200, { admin: true, body: '{}', headers: json })).operation.amount, 'nothing was refunded before').toBe(1010);
    expect((await stack.json('POST', `/api/orders/${orderId}/void`, 200, { admin: true })).operation).toMatchObject({ kind: 'void', amount: 1010, status: 'success' });
  });

  it("names PHP's shapes of JSON with their fix: [] for an empty object, numbered keys for a list", async () => {
    // json_encode([]) is "[]", and a list filtered with gaps is {"1":…}: "must be an object"
    // alone reads as nonsense to whoever sent a PHP array.
    const purchase = await paidOrder();
    const empty = await stack.json('POST', `/api/orders/${purchase}/refund`, 400, { admin: true, body: [] });
    expect(empty.error.fields).toEqual({ body: "must be an object, not [] (PHP's json_encode writes an empty array so: send (object) [] for {})" });
    const opened = await stack.json('POST', '/api/checkout/sessions', 400, {
      admin: true,
      body: { amount: 1010, currency: 'UAH', description: 'Green tea', customer: [], modes: { 1: 'hosted' } },
    });
    expect(opened.error.fields).toEqual({
      customer: "must be an object, not [] (PHP's json_encode writes an empty array so: send (object) [] for {})",
      modes: "must be an array, not an object of numbered keys (PHP's json_encode writes a list with gaps so: array_values() it)",
    });
    expect((await stack.json('POST', `/api/orders/${purchase}/refund`, 200, { admin: true, body: {} })).operation.amount, 'nothing was refunded before').toBe(1010);
  });

  it('validates bodies: unknown fields, amounts, comment length', async () => {
    const orderId = await paidOrder('auth');
    expect((await op(orderId, 'capture', 400, { amount: 10.5 })).error.fields.amount).toBe('must be an integer number of minor units (24950 = 249.50 UAH)');
    expect((await op(orderId, 'capture', 400, { amount: '1000' })).error.fields.amount).toBe('must be a JSON number, not a string: an integer number of minor units of the currency (24950 = 249.50 UAH, 500 = 500 JPY)');
    expect((await op(orderId, 'capture', 400, { charge_amount: 1 })).error.fields.charge_amount).toBe('is not allowed');
    // The gateway's own name for a refund's amount, dropped, would refund everything.
    expect((await op(orderId, 'refund', 400, { refund_amount: 1 })).error.fields.refund_amount).toBe('is not allowed');
    expect((await op(orderId, 'capture', 400, { amount: 0 })).error.fields.amount).toBe('must be greater than 0');
    // Every amount the order's currency refuses is named in one answer, as validation names fields.
    const halves = { amount: 12_000.5, split: [{ sub_merchant_id: SUB_A, amount: 6_000.5 }, { sub_merchant_id: SUB_B, amount: 6_000 }, { sub_merchant_id: TEST_SUB_MERCHANTS[2].id, amount: -1 }] };
    expect((await op(orderId, 'split-capture', 400, halves)).error.fields).toEqual({
      amount: 'must be an integer number of minor units (24950 = 249.50 UAH)',
      'split[0].amount': 'must be an integer number of minor units (24950 = 249.50 UAH)',
      'split[2].amount': 'must be greater than 0',
    });
    expect((await op(orderId, 'void', 400, { comment: 'x'.repeat(2049) })).error.fields.comment).toContain('2048');
    // Printed on the customer's receipt: an override would show it reordered there.
    expect((await op(orderId, 'void', 400, { comment: 'abc\u202edef' })).error.fields).toEqual({
      comment: 'must not hold bidirectional overrides or isolates (U+202A–202E, U+2066–2069): they would show it reordered',
    });
    expect((await op('no-such-order', 'capture', 404)).error.code).toBe('order_not_found');
  });
});

describe('input a route does not declare', () => {
  it('refuses a query parameter on a capture or refund by name, and moves no money', async () => {
    const auth = await paidOrder('auth');
    const purchase = await paidOrder();
    const capture = await stack.json('POST', `/api/orders/${auth}/capture?amount=100`, 400, { admin: true });
    expect(capture.error).toEqual({ code: 'invalid_request', message: 'Invalid request: amount is not allowed', fields: { amount: 'is not allowed' } });
    expect((await stack.json('POST', `/api/orders/${purchase}/refund?amount=1`, 400, { admin: true })).error.fields).toEqual({ amount: 'is not allowed' });
    // Beside a body, and under an Idempotency-Key, which is then free for the request corrected.
    const keyed = { admin: true, body: { comment: 'part' }, headers: { 'Idempotency-Key': 'query-refund-1' } };
    expect((await stack.json('POST', `/api/orders/${purchase}/refund?amount=1`, 400, keyed)).error.fields).toEqual({ amount: 'is not allowed' });
    for (const action of ['void', 'split-capture', 'split-refund', 'cancel', 'resend-webhook']) {
      expect((await stack.json('POST', `/api/orders/${auth}/${action}?x=1`, 400, { admin: true })).error.fields, action).toEqual({ x: 'is not allowed' });
    }
    for (const orderId of [auth, purchase]) {
      expect((await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true })).operations, orderId).toEqual([]);
    }
    expect((await stack.json('GET', `/api/orders/${auth}?expand=events`, 400, { admin: true })).error.fields).toEqual({ expand: 'is not allowed' });
    expect((await stack.json('POST', `/api/orders/${purchase}/refund`, 200, keyed)).operation.amount).toBe(1010);
  });

  it('refuses a field on a route that takes no body, before it runs', async () => {
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect((await op(session.order_id, 'cancel', 400, { x: 1 })).error.fields).toEqual({ x: 'is not allowed' });
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('init');
    expect((await op(session.order_id, 'cancel', 200)).order.status).toBe('failure');
  });
});

describe('refunds', () => {
  it('refunds in part with receipt delivery, then the rest; nothing is left after', async () => {
    const orderId = await paidOrder();
    const part = await op(orderId, 'refund', 200, { amount: 250, comment: 'damaged', f_receipt_delivery: 'email' });
    expect(part.operation).toMatchObject({ kind: 'refund', amount: 250, status: 'success', status_code: '1004', receipt_url: expect.stringMatching(/^http/) });
    expect(part.totals).toMatchObject({ refunded: 250, refundable: 760 });
    expect((await op(orderId, 'refund', 422, { amount: 761 })).error).toMatchObject({ code: 'exceeds_refundable', fields: { amount: 'must be at most 760 (7.60 UAH)' } });
    expect((await op(orderId, 'refund', 200)).operation.amount).toBe(760);
    expect((await op(orderId, 'refund', 409, { amount: 1 })).error.code).toBe('nothing_left');
    expect((await op(orderId, 'refund', 400, { f_receipt_delivery: 'pigeon' })).error.fields.f_receipt_delivery).toBeDefined();
  });

  it('refunds an auth only as far as it was captured', async () => {
    const orderId = await paidOrder('auth');
    expect((await op(orderId, 'refund', 409)).error.code).toBe('nothing_captured');
    await op(orderId, 'capture', 200, { amount: 400 });
    expect((await op(orderId, 'refund', 422, { amount: 401 })).error.code).toBe('exceeds_refundable');
    expect((await op(orderId, 'refund', 200)).operation.amount).toBe(400);
  });

  it('names each refund\'s transaction, and its receipt page', async () => {
    const orderId = await paidOrder();
    const { operation } = await op(orderId, 'refund', 200, { amount: 250 });
    expect(operation.transaction_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const detail = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    expect(detail.operations).toMatchObject([{ id: operation.id, transaction_id: operation.transaction_id }]);
    // The gateway's own word on it: the webhook it sent names the same transaction.
    await stack.settleWebhooks();
    const told = await stack.control<{ deliveries: { event: { transaction_id: string | null; receipt_url?: string } }[] }>('GET', `/_sandbox/webhooks?order_id=${orderId}&method=refund`);
    expect(told.deliveries.map((delivery) => delivery.event.transaction_id)).toContain(operation.transaction_id);
    // A refund's documented receipt is the page its answer and webhook name, which the back office links.
    expect(operation.receipt_url).toMatch(/\/receipts\/[0-9a-f]{32}$/);
    expect(told.deliveries.map((delivery) => delivery.event.receipt_url)).toContain(operation.receipt_url);
    // A transaction the gateway has no receipt of for this order: the 404 names the field, not the order.
    const stranger = '0b7f6e5d-4c3b-4a29-8817-0f6e5d4c3b2a';
    const missing = await stack.json('GET', `/api/orders/${orderId}/receipt?transaction_id=${stranger}`, 404, { admin: true });
    expect(missing.error).toMatchObject({ code: 'not_found_at_gateway', message: expect.stringContaining(`transaction_id ${stranger} has no receipt at the gateway for this order`) });
    expect(missing.error.fields).toEqual({ transaction_id: expect.stringContaining('a refund’s is its operation’s receipt_url') });
  });

  it('keeps a refund\'s transaction when its webhook names none, and learns it from the webhook when the answer was lost', async () => {
    const orderId = await paidOrder();
    // The live gateway's webhooks may carry the transaction as null: what the answer named stays.
    await stack.control('PUT', '/_sandbox/faults', { shapes: ['null_fields'] });
    const answered = (await op(orderId, 'refund', 200, { amount: 100 })).operation;
    await stack.settleWebhooks();
    expect((await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true })).operations).toMatchObject([{ id: answered.id, transaction_id: answered.transaction_id }]);
    expect(answered.transaction_id).toEqual(expect.any(String));

    // The answer lost on the way: the order's state settles it, its webhook names the transaction.
    await stack.control('DELETE', '/_sandbox/faults');
    await stack.control('PUT', '/_sandbox/faults', { drop_connection: 1, phase: 'after', times: 1, scope: { method: 'POST', path: '/api/v1/refund' } });
    const lost = await stack.request('POST', `/api/orders/${orderId}/refund`, { admin: true, body: { amount: 200 } });
    expect(lost.status).toBe(200);
    expect(stack.logs.filter((line) => line.includes('the outcome of an operation is unknown'))).toHaveLength(1);
    const { operation } = (await lost.json()) as { operation: { id: string } };
    await stack.settleWebhooks();
    const refunds = (await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true })).operations as { id: string; status: string; transaction_id: string | null }[];
    const settled = refunds.find((refund) => refund.id === operation.id);
    expect(settled).toMatchObject({ status: 'success', transaction_id: expect.any(String) });
    expect(settled!.transaction_id).not.toBe(answered.transaction_id);
    // The very transaction the gateway's webhook of that refund named.
    const told = await stack.control<{ deliveries: { event: { transaction_id: string | null } }[] }>('GET', `/_sandbox/webhooks?order_id=${orderId}&method=refund`);
    expect(told.deliveries.map((delivery) => delivery.event.transaction_id)).toContain(settled!.transaction_id);
  });

  it('says when the gateway makes a full refund another amount than the ledger\'s rest: one made at the gateway never reached it', async () => {
    const orderId = await paidOrder();
    // A refund made in the gateway's portal, whose webhook was lost.
    await stack.control('PUT', '/_sandbox/faults', { webhook_drop: true });
    await stack.companion.companion.services.gateway.operations.refund({ order_id: orderId, order_currency: 'UAH', refund_amount: minorUnits(600) });
    await stack.control('DELETE', '/_sandbox/faults');
    // The whole payment goes in the interface's full form: the gateway refunds its rest, 4.10.
    const { operation } = await op(orderId, 'refund', 200, { amount: 1010 });
    expect(operation).toMatchObject({ kind: 'refund', amount: 410, status: 'success' });
    const said = stack.logs.filter((line) => line.includes('has not reached this ledger')).map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(said).toMatchObject([{ level: 'warn', msg: expect.stringContaining("the gateway's full refund came to 410 (4.10 UAH), where the ledger had 1010 (10.10 UAH) left") }]);
    expect(said[0]!.msg).toContain(`POST /api/orders/${orderId}/resend-webhook with its operation and transaction_id`);
    // An ordinary refund, of part of a payment, says nothing.
    const other = await paidOrder();
    await op(other, 'refund', 200, { amount: 100 });
    expect(stack.logs.filter((line) => line.includes('has not reached this ledger'))).toHaveLength(1);
  });

  it('ends a refund the gateway never got as not sent, not refused, and the money stays to refund', async () => {
    await stack.close();
    let away = false;
    const refused = () => new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    stack = await createStack({ gateway: { fetch: (input, init) => (away ? Promise.reject(refused()) : Promise.resolve(stack.sandbox.fetch(new Request(input, init)))) } });
    const orderId = await paidOrder();
    away = true;
    expect((await op(orderId, 'refund', 503, { amount: 250 })).error.code).toBe('gateway_unavailable');
    const detail = await stack.json('GET', `/api/orders/${orderId}`, 200, { admin: true });
    expect(detail.operations.map((operation: { status: string; status_description: string }) => [operation.status, operation.status_description])).toEqual([
      ['failure', 'Not sent: the gateway could not be reached'],
    ]);
    const said = stack.logs.map((line) => JSON.parse(line) as { msg: string }).filter(({ msg }) => msg.includes('an operation'));
    expect(said.map(({ msg }) => msg)).toEqual(['an operation could not be sent to the gateway']);
    away = false;
    expect((await op(orderId, 'refund', 200, { amount: 250 })).totals).toMatchObject({ refunded: 250, refundable: 760 });
  });

  it('50 racing refunds never return more than was paid, here or at the gateway', async () => {
    const orderId = await paidOrder();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => stack.request('POST', `/api/orders/${orderId}/refund`, { admin: true, body: { amount: 30 } })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(33);
    expect(statuses.filter((status) => status === 422)).toHaveLength(17);
    const detail = await stack.ledger.getOrder(orderId);
    expect(detail?.totals.refunded).toBe(990);
    const gatewayRefunds = (await stack.companion.companion.services.gateway.orders.get(orderId)).filter((entry) => entry.method === 'refund');
    expect(gatewayRefunds.reduce((sum, entry) => sum + entry.amount, 0)).toBe(990);
  });
});

describe('split operations', () => {
  it('captures an auth split among sub-merchants, then refunds one share in part', async () => {
    const orderId = await paidOrder('auth', { amount: 100 });
    const captured = await op(orderId, 'split-capture', 200, { split: [{ sub_merchant_id: SUB_A, amount: 70 }, { sub_merchant_id: SUB_B, amount: 30 }] });
    expect(captured.operation).toMatchObject({ kind: 'capture', amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 70 }, { sub_merchant_id: SUB_B, amount: 30 }] });
    const refunded = await op(orderId, 'split-refund', 200, { split: [{ sub_merchant_id: SUB_A, amount: 20 }] });
    expect(refunded.operation).toMatchObject({ kind: 'refund', amount: 20, status: 'success' });
    expect((await op(orderId, 'split-refund', 422, { split: [{ sub_merchant_id: SUB_A, amount: 1 }, { sub_merchant_id: SUB_B, amount: 31 }] })).error).toEqual({
      code: 'exceeds_sub_merchant_share',
      message: `At most 30 (0.30 UAH) can be refunded to sub-merchant ${SUB_B}`,
      fields: { 'split[1].amount': 'must be at most 30 (0.30 UAH)' },
    });
  });

  it('a split capture without an amount takes the whole reserve: shares of less or more are refused, nothing reserved or sent', async () => {
    const orderId = await paidOrder('auth', { amount: 100 });
    for (const split of [[{ sub_merchant_id: SUB_A, amount: 70 }], [{ sub_merchant_id: SUB_A, amount: 70 }, { sub_merchant_id: SUB_B, amount: 31 }]]) {
      expect((await op(orderId, 'split-capture', 422, { split })).error).toEqual({
        code: 'split_not_whole_reserve',
        message: 'A split capture without an amount captures the whole reserve, 100 (1.00 UAH): its shares must add up to it (to capture another amount, part of it or more, give amount)',
        fields: { split: 'must add up to 100 (1.00 UAH), the whole reserve, when amount is left out' },
      });
    }
    expect((await stack.ledger.getOrder(orderId))?.operations).toEqual([]);
    expect((await stack.companion.companion.services.gateway.orders.get(orderId)).filter((entry) => entry.method === 'capture')).toEqual([]);
    // Part of it, asked for as such.
    expect((await op(orderId, 'split-capture', 200, { amount: 70, split: [{ sub_merchant_id: SUB_A, amount: 70 }] })).operation).toMatchObject({ amount: 70, status: 'success' });
  });

  it('refunds a split purchase by share and refuses a sub-merchant without one', async () => {
    const session = await stack.openSession({ amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 60 }, { sub_merchant_id: SUB_B, amount: 40 }] });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect((await op(session.order_id, 'split-refund', 200, { amount: 10, split: [{ sub_merchant_id: SUB_B, amount: 10 }] })).operation.amount).toBe(10);
    const stranger = TEST_SUB_MERCHANTS[2].id;
    expect((await op(session.order_id, 'split-refund', 422, { split: [{ sub_merchant_id: stranger, amount: 1 }] })).error).toEqual({
      code: 'unknown_sub_merchant',
      message: `Sub-merchant ${stranger} has no share in this order`,
      fields: { 'split[0].sub_merchant_id': 'has no share in this order' },
    });
    expect((await op(session.order_id, 'split-refund', 400, { amount: 5, split: [{ sub_merchant_id: SUB_A, amount: 4 }] })).error.code).toBe('invalid_request');
  });

  it('refunds a sub-merchant the whole rest of its share, and nothing past it', async () => {
    const session = await stack.openSession({ amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 60 }, { sub_merchant_id: SUB_B, amount: 40 }] });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect((await op(session.order_id, 'split-refund', 200, { split: [{ sub_merchant_id: SUB_B, amount: 15 }] })).operation).toMatchObject({ amount: 15, status: 'success' });
    expect((await op(session.order_id, 'split-refund', 200, { split: [{ sub_merchant_id: SUB_B, amount: 25 }] })).operation).toMatchObject({ amount: 25, status: 'success' });
    expect((await op(session.order_id, 'split-refund', 422, { split: [{ sub_merchant_id: SUB_B, amount: 1 }] })).error.code).toBe('exceeds_sub_merchant_share');
    expect((await op(session.order_id, 'split-refund', 200, { split: [{ sub_merchant_id: SUB_A, amount: 60 }] })).operation).toMatchObject({ amount: 60, status: 'success' });
  });

  it('refunds part of a payment shared to one sub-merchant only through a split refund, as the gateway would', async () => {
    const session = await stack.openSession({ amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 100 }] });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    expect((await op(session.order_id, 'refund', 422, { amount: 10 })).error.code).toBe('split_refund_required');
    expect((await stack.ledger.getOrder(session.order_id))?.operations).toEqual([]);
    expect((await op(session.order_id, 'split-refund', 200, { split: [{ sub_merchant_id: SUB_A, amount: 10 }] })).operation).toMatchObject({ amount: 10, status: 'success' });
  });

  it('refuses what the gateway would refuse of a split payment before reserving anything', async () => {
    const session = await stack.openSession({ amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 60 }, { sub_merchant_id: SUB_B, amount: 40 }] });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    // Part of a split payment is refunded per sub-merchant (split refund), not as a plain refund.
    const part = await op(session.order_id, 'refund', 422, { amount: 10 });
    expect(part.error).toMatchObject({ code: 'split_refund_required', fields: { split: 'is required to refund part of a split payment' } });
    const mismatch = await op(session.order_id, 'split-refund', 400, { amount: 5, split: [{ sub_merchant_id: SUB_A, amount: 4 }] });
    expect(mismatch.error.fields).toEqual({ split: 'amounts must add up to amount, 5: they make 4' });
    expect((await stack.ledger.getOrder(session.order_id))?.operations).toEqual([]);
    expect((await stack.companion.companion.services.gateway.orders.get(session.order_id)).filter((entry) => entry.method === 'refund')).toEqual([]);
    // The whole rest may go as a plain refund: every share's rest is returned.
    expect((await op(session.order_id, 'refund', 200, {})).operation).toMatchObject({ amount: 100, status: 'success' });

    const auth = await paidOrder('auth', { amount: 100 });
    await op(auth, 'split-capture', 200, { split: [{ sub_merchant_id: SUB_A, amount: 70 }, { sub_merchant_id: SUB_B, amount: 30 }] });
    expect((await op(auth, 'refund', 422, { amount: 10 })).error.code).toBe('split_refund_required');
    expect((await op(auth, 'split-capture', 400, { amount: 50, split: [{ sub_merchant_id: SUB_A, amount: 30 }] })).error.fields).toEqual({ split: 'amounts must add up to amount, 50: they make 30' });
  });
});

describe('cancel and re-send', () => {
  it('cancels an unpaid hosted payment (6007) and closes its session; a direct one is refused', async () => {
    const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    const cancelled = await op(session.order_id, 'cancel', 200);
    expect(cancelled.order).toMatchObject({ status: 'failure', status_code: '6007' });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('expired');
    expect((await op(session.order_id, 'cancel', 409)).error.code).toBe('not_cancellable');
    const direct = await paidOrder();
    expect((await op(direct, 'cancel', 409)).error.code).toBe('not_cancellable');
  });

  it('asks the gateway to send a webhook again', async () => {
    const orderId = await paidOrder();
    await stack.settleWebhooks();
    expect(await op(orderId, 'resend-webhook', 202)).toEqual({ requested: true, operation: 'purchase' });
    await stack.settleWebhooks();
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${orderId}`);
    expect(deliveries.filter((delivery: { reason: string }) => delivery.reason === 'resend')).toHaveLength(1);
    const detail = await stack.ledger.getOrder(orderId);
    expect(detail?.events.length).toBeGreaterThanOrEqual(1);
    expect((await op(orderId, 'resend-webhook', 400, { operation: 'teleport' })).error.fields.operation).toBeDefined();
    // An operation or transaction the gateway does not know of this order: its 404, as the
    // document says it, naming the field rather than an order it lost.
    expect((await op(orderId, 'resend-webhook', 404, { operation: 'refund' })).error).toMatchObject({
      code: 'not_found_at_gateway', message: 'The gateway has no such refund of this order: nothing was sent again', fields: { operation: 'the gateway has no refund of this order to send again' },
    });
    const stranger = await op(orderId, 'resend-webhook', 404, { transaction_id: '0b5d2c1e-8f3a-4e6b-9c7d-2a1f4e8b6c3d' });
    expect(stranger.error.fields).toEqual({ transaction_id: 'is no transaction of this order at the gateway' });
    expect((await op(orderId, 'resend-webhook', 400, { transaction_id: 'x' })).error.fields).toEqual({ transaction_id: 'must be a UUID' });
    const documented = (await stack.json('GET', '/api/openapi.json', 200)).paths['/api/orders/{order_id}/resend-webhook'].post.responses;
    expect(documented['404'].description).toContain('not_found_at_gateway');
  });
});

describe('receipts and balances', () => {
  it('streams an order’s receipt as HTML (sandboxed) or PDF, and a day’s receipts as ZIP', async () => {
    const orderId = await paidOrder();
    const html = await stack.request('GET', `/api/orders/${orderId}/receipt`, { admin: true });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(await html.text()).toContain('<html');
    const pdf = await stack.request('GET', `/api/orders/${orderId}/receipt?format=pdf`, { admin: true });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${orderId}.pdf"`);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    const today = new Date().toISOString().slice(0, 10);
    const zip = await stack.request('GET', `/api/receipts/${today}?format=pdf`, { admin: true });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    expect((await stack.json('GET', '/api/receipts/2030-13-45', 400, { admin: true })).error.fields.date).toBeDefined();
    expect((await stack.json('GET', `/api/orders/${orderId}/receipt?format=docx`, 400, { admin: true })).error.fields.format).toBeDefined();
  });

  it('shows account and terminal balances, with the terminals that failed', async () => {
    const accounts = await stack.json('GET', '/api/balances/accounts', 200, { admin: true });
    expect(accounts.accounts.length).toBeGreaterThan(0);
    const [account] = accounts.accounts;
    expect(typeof account.balances.available).toBe('number');
    expect(await stack.json('GET', `/api/balances/accounts/${account.id}`, 200, { admin: true })).toMatchObject({ id: account.id, currency: account.currency });
    const terminals = await stack.json('GET', '/api/balances/terminals', 200, { admin: true });
    expect(terminals.terminals.length).toBeGreaterThan(0);
    expect(Array.isArray(terminals.failed_terminals)).toBe(true);
    expect(await stack.json('GET', `/api/balances/terminals/${terminals.terminals[0].id}`, 200, { admin: true })).toMatchObject({ id: terminals.terminals[0].id });
    // A failed terminal read alone: its reason as the gateway gives it, not the gateway away, and no outage logged.
    const [failed] = terminals.failed_terminals;
    const unread = await stack.request('GET', `/api/balances/terminals/${failed.id}`, { admin: true });
    expect(unread.status).toBe(503);
    expect(unread.headers.get('retry-after')).toBe('30');
    expect((await unread.json()).error).toEqual({ code: 'terminal_unavailable', message: `The gateway cannot read this terminal’s balance now: ${failed.message}` });
    expect(stack.logs.filter((line) => line.includes('keeps failing'))).toEqual([]);
    expect((await stack.json('GET', '/api/balances/accounts/not-a-uuid', 400, { admin: true })).error.fields.id).toBe('must be a UUID');
    expect((await stack.json('GET', '/api/balances/accounts/00000000-0000-0000-0000-000000000000', 404, { admin: true })).error).toMatchObject({ code: 'not_found_at_gateway', message: 'The gateway knows no account of this point of sale with this id' });
    expect((await stack.json('GET', '/api/balances/terminals/00000000-0000-0000-0000-000000000000', 404, { admin: true })).error).toMatchObject({ code: 'not_found_at_gateway', message: 'The gateway knows no terminal of this point of sale with this id' });
  });
});

describe('an order nobody has paid yet', () => {
  it('answers 409 with the session state, not 404, for an order id the companion handed out', async () => {
    const session = await stack.openSession({ method: 'auth' });
    const document = await stack.json('GET', '/api/openapi.json', 200);
    for (const action of ['refund', 'capture', 'void', 'cancel', 'resend-webhook']) {
      const refusal = await op(session.order_id, action, 409);
      expect(refusal.error.code).toBe('order_not_paid');
      expect(refusal.error.session).toEqual({ id: session.id, status: 'open' });
      // The document names the refusal under its status, as a generated client reads it.
      expect(document.paths[`/api/orders/{order_id}/${action}`].post.responses['409'].description, action).toContain('order_not_paid');
    }
    // Nor is it held: settling it is refused as the other actions are.
    const settled = await stack.json('POST', `/api/orders/${session.order_id}/settle-discrepancy`, 409, { admin: true, body: { note: 'Settled with the customer', version: 1 } });
    expect(settled.error).toMatchObject({ code: 'order_not_paid', session: { id: session.id, status: 'open' } });
    expect(document.paths['/api/orders/{order_id}/settle-discrepancy'].post.responses['409'].description).toContain('order_not_paid');
    // Its receipt too: not an order the gateway lost, one nobody has paid yet.
    const receipt = await stack.json('GET', `/api/orders/${session.order_id}/receipt`, 409, { admin: true });
    expect(receipt.error).toMatchObject({ code: 'order_not_paid', session: { id: session.id, status: 'open' } });
    expect(document.paths['/api/orders/{order_id}/receipt'].get.responses['409'].description).toContain('order_not_paid');
    expect((await stack.json('GET', '/api/orders/never-handed-out/receipt', 404, { admin: true })).error.code).toBe('order_not_found');
    expect((await op('never-handed-out', 'refund', 404)).error.code).toBe('order_not_found');
  });

  it('reads as not found yet, naming its open checkout session by a field, where a made-up id is simply not found', async () => {
    const session = await stack.openSession({ method: 'auth' });
    const unpaid = await stack.json('GET', `/api/orders/${session.order_id}`, 404, { admin: true });
    // The same code as before, for the clients that check it; `session` says which of the two it is.
    expect(unpaid.error).toEqual({
      code: 'order_not_found',
      message: `The order has no payment yet: its checkout session ${session.id} is open`,
      session: { id: session.id, status: 'open' },
    });
    expect((await stack.json('GET', '/api/orders/never-handed-out', 404, { admin: true })).error).toEqual({ code: 'order_not_found', message: 'The order was not found' });
    // Closed, it reads as its view does (createCheckoutSession, closeCheckoutSession): expired.
    await stack.json('DELETE', `/api/checkout/sessions/${session.id}`, 200, { admin: true });
    expect((await stack.json('GET', `/api/orders/${session.order_id}`, 404, { admin: true })).error.session).toEqual({ id: session.id, status: 'expired' });
    const document = await stack.json('GET', '/api/openapi.json', 200);
    expect(document.components.schemas.Error.properties.error.properties.session.required).toEqual(['id', 'status']);
    expect(document.paths['/api/orders/{order_id}'].get.responses['404'].description).toMatch(/order_not_found.*`session`/);
  });
});
