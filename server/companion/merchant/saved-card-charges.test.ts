// Charges of a saved card from the merchant's server, through the sandbox over HTTP: purchase
// and auth without the customer, 3-D Secure answered with a link that completes it, and cards
// that are gone or expired refused before the gateway hears of them.
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { card, CUSTOMER, FINGERPRINT } from '../test/cards.js';
import { eventually, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const open = stacksPerTest();

/** Every request the companion's gateway client sent (real HTTP to the sandbox, only observed). */
async function observedStack(): Promise<{ stack: Stack; gatewayCalls: string[] }> {
  const gatewayCalls: string[] = [];
  const stack = await open({
    served: true,
    gateway: {
      fetch: (input, init) => {
        gatewayCalls.push(`${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`);
        return fetch(input, init);
      },
    },
  });
  return { stack, gatewayCalls };
}

/** A card saved the way customers save them: a paid checkout of theirs (or a verification). */
async function savedCard(stack: Stack, customerId: string, outcome: 'success' | 'three_ds_challenge' = 'success'): Promise<Json> {
  const session = await stack.openSession({ customer_id: customerId, ...(outcome === 'success' ? {} : { method: 'lookup' }) });
  const answer = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: { card: card(outcome), customer: CUSTOMER, fingerprint: FINGERPRINT } });
  if (answer.status === 'redirect') await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
  const cards = await eventually(async () => {
    const list = (await stack.json('GET', `/api/customers/${customerId}/cards`, 200, { admin: true })).cards;
    expect(list).toHaveLength(1);
    return list;
  });
  return cards[0];
}

const charge = (stack: Stack, customerId: string, cardId: string, body: Record<string, unknown>, key?: string) =>
  stack.request('POST', `/api/customers/${customerId}/cards/${cardId}/charges`, { admin: true, body, ...(key ? { headers: { 'Idempotency-Key': key } } : {}) });

// No method: a charge is a purchase unless it says auth, as a session is.
const renewal = { amount: 19950, currency: 'UAH', description: 'Tea club, December' };

describe('a charge of a saved card', () => {
  it('is refused in a currency the shop does not name (currencies), before the card is looked up', async () => {
    const stack = await open({ companion: { currencies: ['UAH'] } });
    const saved = await savedCard(stack, 'cust-currency');
    const response = await charge(stack, 'cust-currency', saved.id, { ...renewal, currency: 'EUR' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual({ currency: expect.stringContaining('is not one this shop takes (UAH; the currencies option, PAYFORM_CURRENCIES)') });
    expect((await charge(stack, 'cust-currency', saved.id, renewal)).status).toBe(201);
  });

  it('pays with the card’s token without the customer, as any payment is recorded and told', async () => {
    const { stack, gatewayCalls } = await observedStack();
    const saved = await savedCard(stack, 'cust-renew');
    gatewayCalls.length = 0;
    const response = await charge(stack, 'cust-renew', saved.id, { ...renewal, order_id: 'renewal-2030-12' });
    expect(response.status).toBe(201);
    const answer = await response.json();
    expect(answer).toMatchObject({ order_id: 'renewal-2030-12', status: 'success', method: 'purchase', amount: 19950, currency: 'UAH', card_id: saved.id, payment_id: expect.any(String) });
    expect(gatewayCalls).toEqual(['POST /api/v1/payment']);
    const detail = await stack.json('GET', '/api/orders/renewal-2030-12', 200, { admin: true });
    expect(detail.order).toMatchObject({ method: 'purchase', mode: 'direct', status: 'success', amount: 19950, customer_id: 'cust-renew', card: { mask: saved.mask } });
    // Told apart from the customer's own payments at checkout, which the back office says were paid on the card form.
    expect(detail.source).toBe('saved_card_charge');
    const { orders } = await stack.json('GET', '/api/orders', 200, { admin: true });
    const atCheckout = orders.find((order: Json) => order.customer_id === 'cust-renew' && order.order_id !== 'renewal-2030-12');
    expect((await stack.json('GET', `/api/orders/${atCheckout.order_id}`, 200, { admin: true })).source).toBe('checkout');
    // The sandbox's webhook for it arrives and applies; the merchant's hook hears of it.
    await eventually(async () => {
      const deliveries = (await stack.control('GET', '/_sandbox/webhooks?order_id=renewal-2030-12')).deliveries;
      expect(deliveries.map((delivery: Json) => [delivery.method, delivery.event_status, delivery.status])).toContainEqual(['purchase', 'success', 'delivered']);
      expect(stack.changes.some((change) => change.orderId === 'renewal-2030-12' && change.status === 'success')).toBe(true);
    });
  });

  it('reserves with auth, and the reservation captures like any other', async () => {
    const stack = await open({ served: true });
    const saved = await savedCard(stack, 'cust-auth');
    const answer = await (await charge(stack, 'cust-auth', saved.id, { ...renewal, method: 'auth' })).json();
    expect(answer).toMatchObject({ status: 'success', method: 'auth' });
    const captured = await stack.json('POST', `/api/orders/${answer.order_id}/capture`, 200, { admin: true, body: { amount: 10000 } });
    expect(captured.operation ?? captured).toMatchObject({ status: 'success' });
  });

  it('answers 3-D Secure with a link that takes the customer to the challenge; its end arrives as for any payment', async () => {
    const stack = await open({ served: true });
    const saved = await savedCard(stack, 'cust-3ds', 'three_ds_challenge');
    // A right-to-left override in the description (a seller's title, say) would turn the amount after it around: 199.50 read 05.991.
    // Its own PDI first would end the isolate before the override: left out of the page.
    const answer = await (await charge(stack, 'cust-3ds', saved.id, { ...renewal, description: 'Tea club\u2069\u202e, December' })).json();
    expect(answer).toMatchObject({ status: 'action_required', challenge_url: expect.stringMatching(new RegExp(`^${stack.companionUrl}/checkout/challenge/[A-Za-z0-9_-]{43}$`)) });
    // A page first, not a redirect: a mail scanner opening the link spends nothing.
    const link = await fetch(answer.challenge_url, { redirect: 'manual' });
    expect(link.status).toBe(200);
    const text = await link.text();
    expect(text).toContain('<p>\u2068Tea club, December\u2069: 199.50 UAH. ');
    const challengePage = (/<a href="([^"]+)">Continue to your bank<\/a>/.exec(text)?.[1] ?? '').replaceAll('&amp;', '&');
    expect(challengePage.startsWith(stack.sandboxUrl)).toBe(true);
    expect((await fetch(challengePage)).status).toBe(200);
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
    await eventually(async () => {
      expect((await stack.json('GET', `/api/orders/${answer.order_id}`, 200, { admin: true })).order.status).toBe('success');
    });
    // Once done, the link shows how it ended instead.
    const after = await fetch(answer.challenge_url, { redirect: 'manual' });
    expect(after.headers.get('location')).toMatch(/^\/checkout\/return\//);
  });

  it('gives a link that pays that charge with that card only, also after a failed challenge', async () => {
    const stack = await open({ served: true });
    const challenged = await savedCard(stack, 'cust-two', 'three_ds_challenge');
    // A second card of the customer's that needs no 3-D Secure.
    const other = await stack.openSession({ customer_id: 'cust-two' });
    await stack.json('POST', `/api/checkout/sessions/${other.id}/pay`, 200, { body: { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT } });
    const cards = await eventually(async () => {
      const list = (await stack.json('GET', '/api/customers/cust-two/cards', 200, { admin: true })).cards;
      expect(list).toHaveLength(2);
      return list as Json[];
    });
    const frictionless = cards.find((saved) => saved.id !== challenged.id)!;
    const answer = await (await charge(stack, 'cust-two', challenged.id, renewal)).json();
    expect(answer.status).toBe('action_required');
    const sessionId = String(answer.challenge_url).split('/').at(-1)!;
    // Waiting for its challenge, the link's session offers no card (it cannot be paid meanwhile).
    expect((await stack.json('GET', `/api/checkout/sessions/${sessionId}`, 200)).saved_cards).toEqual([]);
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'failure' });
    await eventually(async () => expect((await stack.json('GET', `/api/orders/${answer.order_id}`, 200, { admin: true })).order.status).toBe('failure'));
    // Failed, it offers the charged card alone.
    const view = await stack.json('GET', `/api/checkout/sessions/${sessionId}`, 200);
    expect(view.saved_cards).toEqual([expect.objectContaining({ token: challenged.id })]);
    // Whoever holds the link cannot pay the charge with another card: saved or typed in.
    for (const paying of [{ token: frictionless.id }, card()]) {
      const refused = await stack.request('POST', `/api/checkout/sessions/${sessionId}/pay`, { body: { card: paying, customer: CUSTOMER, fingerprint: FINGERPRINT } });
      expect(refused.status).toBe(422);
      expect((await refused.json()).error).toMatchObject({ code: 'card_not_allowed', fields: { card: expect.any(String) } });
    }
    const orders = (await stack.json('GET', '/api/orders', 200, { admin: true })).orders as Json[];
    expect(orders.filter((order) => order.status === 'success')).toHaveLength(2); // the two that saved the cards
    expect(orders.filter((order) => order.order_id.startsWith(answer.order_id))).toHaveLength(1);
  });

  it('refuses a deleted card with 409 before the gateway is called', async () => {
    const { stack, gatewayCalls } = await observedStack();
    const saved = await savedCard(stack, 'cust-gone');
    await stack.json('DELETE', `/api/customers/cust-gone/cards/${saved.id}`, 204, { admin: true });
    const before = (await stack.deliveries()).length;
    gatewayCalls.length = 0;
    const response = await charge(stack, 'cust-gone', saved.id, renewal);
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('card_not_saved');
    expect(gatewayCalls).toEqual([]);
    expect(await stack.deliveries()).toHaveLength(before);
    expect((await stack.json('GET', '/api/orders', 200, { admin: true })).orders).toHaveLength(1);
  });

  it('refuses an expired card with 409 before the gateway is called', async () => {
    const { stack, gatewayCalls } = await observedStack();
    // A card saved years ago whose token has expired since.
    const old = await stack.ledger.saveCard({ customerId: 'cust-old', ccToken: 'tok-old', ccMask: '424242******4242', tokenExpiration: '2021-03-31T23:59:59' });
    const response = await charge(stack, 'cust-old', old.id, { ...renewal, customer: CUSTOMER });
    expect(response.status).toBe(409);
    expect((await response.json()).error).toMatchObject({ code: 'card_expired', message: expect.stringContaining('expired at 2021-03-31T23:59:59.000Z;') });
    expect(gatewayCalls).toEqual([]);
    expect(await stack.deliveries()).toEqual([]);
    expect((await stack.json('GET', '/api/orders', 200, { admin: true })).orders).toEqual([]);
  });

  it('sends a charge the gateway refused up front again when retried as it was, as its next attempt; a changed one is refused, saying why', async () => {
    const { stack, gatewayCalls } = await observedStack();
    const saved = await savedCard(stack, 'cust-refused');
    const send = (extra: Record<string, unknown>, key?: string) =>
      stack.request('POST', `/api/customers/cust-refused/cards/${saved.id}/charges`, { admin: true, body: { ...renewal, ...extra }, ...(key ? { headers: { 'Idempotency-Key': key } } : {}) });
    const refuseNextPayment = () => stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 400, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' }, times: 1 });

    await refuseNextPayment();
    expect((await send({ order_id: 'renewal-r-1', customer: { ...CUSTOMER, email: 'olena.old@example.com' } })).status).toBe(422);
    // Other terms under that order id: not this charge, and the gateway is not called.
    gatewayCalls.length = 0;
    for (const other of [{ amount: renewal.amount + 1 }, { description: 'Tea club, another month' }]) {
      const changed = await send({ order_id: 'renewal-r-1', ...other });
      expect(changed.status).toBe(409);
      expect((await changed.json()).error).toMatchObject({ code: 'order_id_taken', message: expect.stringContaining('a charge the gateway never took, of other terms') });
    }
    expect(gatewayCalls).toEqual([]);
    // As it was, its customer's e-mail changed: sent again as the order's second attempt, once, with it.
    const again = await send({ order_id: 'renewal-r-1', customer: CUSTOMER });
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ order_id: 'renewal-r-1:2', status: 'success', amount: renewal.amount });
    expect(gatewayCalls).toEqual(['POST /api/v1/payment']);
    expect((await stack.json('GET', '/api/orders/renewal-r-1:2', 200, { admin: true })).order.customer.email).toBe(CUSTOMER.email);
    const detail = await stack.json('GET', '/api/orders/renewal-r-1', 200, { admin: true });
    expect(detail.attempts.map((attempt: Json) => [attempt.order_id, attempt.status])).toEqual([
      ['renewal-r-1', 'failure'],
      ['renewal-r-1:2', 'success'],
    ]);
    // Paid: the order id is the payment's, and the answer says so.
    const paid = await send({ order_id: 'renewal-r-1' });
    expect(paid.status).toBe(409);
    expect((await paid.json()).error.message).toBe('order id renewal-r-1 succeeded (its attempt renewal-r-1:2)');
    // Another customer's charge under it learns nothing of it.
    const stranger = await savedCard(stack, 'cust-stranger');
    const theirs = await stack.request('POST', `/api/customers/cust-stranger/cards/${stranger.id}/charges`, { admin: true, body: { ...renewal, order_id: 'renewal-r-1' } });
    expect((await theirs.json()).error).toEqual({ code: 'order_id_taken', message: 'order id renewal-r-1 is already used' });

    // Under an Idempotency-Key, whose 422 frees it: the same request again runs.
    await refuseNextPayment();
    expect((await send({}, 'renew-r-2')).status).toBe(422);
    const keyed = await send({}, 'renew-r-2');
    expect(keyed.status).toBe(201);
    expect(keyed.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await keyed.json()).toMatchObject({ order_id: expect.stringMatching(/^k-[a-p]{26}:2$/), status: 'success' });

    // Refused for its own terms (a split to someone not a sub-merchant): sent again when asked, for
    // the fix may be the gateway project's; a split to another sub-merchant is another charge.
    const unknownShare = (subMerchant: string) => ({ order_id: 'renewal-r-3', split: [{ sub_merchant_id: subMerchant, amount: renewal.amount }] });
    expect((await (await send(unknownShare('00000000-0000-4000-8000-00000000000f'))).json()).error.code).toBe('session_refused');
    gatewayCalls.length = 0;
    expect((await (await send(unknownShare('00000000-0000-4000-8000-00000000000f'))).json()).error.code).toBe('session_refused');
    expect(gatewayCalls).toEqual(['POST /api/v1/split/purchase']);
    expect((await stack.json('GET', '/api/orders/renewal-r-3', 200, { admin: true })).attempts).toHaveLength(2);
    // Its ten attempts refused, a charge takes no more, and says so of itself, not of a checkout.
    for (let refused = 2; refused < 10; refused += 1) expect((await send(unknownShare('00000000-0000-4000-8000-00000000000f'))).status).toBe(422);
    const spent = await send(unknownShare('00000000-0000-4000-8000-00000000000f'));
    expect(spent.status).toBe(409);
    expect((await spent.json()).error).toEqual({ code: 'retry_unavailable', message: 'order id renewal-r-3 takes no more attempts (its ten attempts are used up); charge again under a new order id' });
    const otherShare = await send(unknownShare('00000000-0000-4000-8000-00000000000e'));
    expect(otherShare.status).toBe(409);
    expect((await otherShare.json()).error.message).toContain('of other terms');
    expect(gatewayCalls).toHaveLength(9);
  });

  it('runs again after a 503 that never reached the gateway, the next day too and under the same key; never after a decline', async () => {
    const clock = new TestClock(Date.now());
    let away = false;
    const unreachable = () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED' }) }));
    const stack = await open({ served: true, clock, gateway: { fetch: (input, init) => (away ? unreachable() : fetch(input, init)) } });
    const saved = await savedCard(stack, 'cust-away');
    const send = (extra: Record<string, unknown>, key?: string) => charge(stack, 'cust-away', saved.id, { ...renewal, ...extra }, key);

    away = true;
    const unreached = await send({ order_id: 'renewal-a-1' });
    expect(unreached.status).toBe(503);
    expect((await unreached.json()).error.code).toBe('gateway_unavailable');
    expect((await send({}, 'renew-a-2')).status).toBe(503);
    expect((await send({ order_id: 'renewal-a-4' })).status).toBe(503);
    away = false;
    // Its key freed: the retry its Retry-After invites runs, and is then kept.
    clock.advance(5_000);
    const keyed = await send({}, 'renew-a-2');
    expect(keyed.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await keyed.json()).toMatchObject({ status: 'success' });
    expect((await send({}, 'renew-a-2')).headers.get('Idempotent-Replayed')).toBe('true');
    // Looked up by its key, the order is the attempt that paid, not the one never sent.
    expect((await stack.json('GET', '/api/orders?idempotency_key=renew-a-2', 200, { admin: true })).orders).toEqual([
      expect.objectContaining({ order_id: expect.stringMatching(/^k-[a-p]{26}:2$/), status: 'success' }),
    ]);
    // After the key's 24 hours, it still names that order, paid.
    clock.advance(25 * 3_600_000);
    expect((await (await send({}, 'renew-a-2')).json()).error.message).toMatch(/^order id k-[a-p]{26} succeeded \(its attempt k-[a-p]{26}:2\)$/);
    // The next day: the charge's session had expired meanwhile, and takes the retry all the same.
    expect(await (await send({ order_id: 'renewal-a-1' })).json()).toMatchObject({ order_id: 'renewal-a-1:2', status: 'success' });
    // Unless the merchant closed it meanwhile: a close stands.
    const { order } = await stack.json('GET', '/api/orders/renewal-a-4', 200, { admin: true });
    await stack.json('DELETE', `/api/checkout/sessions/${order.session_id}`, 200, { admin: true });
    const closed = await send({ order_id: 'renewal-a-4' });
    expect(closed.status).toBe(409);
    expect((await closed.json()).error.message).toContain('a charge whose session was closed');

    // A token the gateway does not know is its failure, a payment of its own: the order id stays used.
    const unknown = await stack.ledger.saveCard({ customerId: 'cust-away', ccToken: 'tok-unknown', ccMask: '424242******4242', tokenExpiration: '2099-12-31T23:59:59' });
    const declined = await (await charge(stack, 'cust-away', unknown.id, { ...renewal, order_id: 'renewal-a-3', customer: CUSTOMER })).json();
    // With the gateway's reason, which a merchant charging again later decides on.
    expect(declined).toMatchObject({ status: 'failure', payment_id: expect.any(String), status_code: expect.stringMatching(/^\d{4}$/) });
    const retried = await charge(stack, 'cust-away', unknown.id, { ...renewal, order_id: 'renewal-a-3', customer: CUSTOMER });
    expect(retried.status).toBe(409);
    expect((await retried.json()).error.message).toMatch(/^order id renewal-a-3 failed at the gateway \(\d{4}\); charge again under a new order id$/);
    // One whose order id its key made: a new key is the way on, once the first's 24 hours are over.
    expect((await (await charge(stack, 'cust-away', unknown.id, { ...renewal, customer: CUSTOMER }, 'renew-a-5')).json()).status).toBe('failure');
    clock.advance(25 * 3_600_000);
    const keyedAgain = await charge(stack, 'cust-away', unknown.id, { ...renewal, customer: CUSTOMER }, 'renew-a-5');
    expect((await keyedAgain.json()).error.message).toContain('charge again under a new Idempotency-Key (this order id is its key’s)');
  });

  it('sends an attempt reconciliation ended as never sent again under its own order id', async () => {
    const clock = new TestClock(Date.now());
    let lose = false;
    const stack = await open({
      served: true,
      clock,
      gateway: {
        retry: { maxRetries: 0 },
        // The connection drops before the gateway reads the payment: its outcome is unknown here.
        fetch: (input, init) => (lose && init?.method === 'POST' ? Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })) : fetch(input, init)),
      },
    });
    const saved = await savedCard(stack, 'cust-lost');
    lose = true;
    expect(await (await charge(stack, 'cust-lost', saved.id, { ...renewal, order_id: 'renewal-l-1' })).json()).toMatchObject({ status: 'pending' });
    lose = false;
    // While its outcome is unknown, a retry is told to look, not to charge under a new order id.
    const early = await charge(stack, 'cust-lost', saved.id, { ...renewal, order_id: 'renewal-l-1' });
    expect(early.status).toBe(409);
    expect((await early.json()).error.message).toContain('is being charged: its outcome is not known yet, and GET /api/orders/renewal-l-1 tells it');
    for (const wait of [60_000, 30_000, 30_000]) {
      clock.advance(wait);
      await stack.companion.companion.reconciler.runOnce();
    }
    expect(await stack.ledger.getPayment('renewal-l-1')).toMatchObject({ status: 'init', unsentAt: expect.any(Number) });
    expect(await (await charge(stack, 'cust-lost', saved.id, { ...renewal, order_id: 'renewal-l-1' })).json()).toMatchObject({ order_id: 'renewal-l-1', status: 'success' });
  });

  it('names what is wrong with a request, and asks for the cardholder when nobody paid with the card', async () => {
    const stack = await open();
    const saved = await stack.ledger.saveCard({ customerId: 'cust-x', ccToken: 'tok-x', ccMask: '424242******4242', tokenExpiration: '2099-12-31T23:59:59' });
    const lookup = await charge(stack, 'cust-x', saved.id, { ...renewal, method: 'lookup', amount: 'lots' });
    expect(lookup.status).toBe(400);
    expect((await lookup.json()).error.fields).toMatchObject({ method: expect.any(String), amount: expect.any(String) });
    const anonymous = await charge(stack, 'cust-x', saved.id, renewal);
    expect(anonymous.status).toBe(422);
    expect((await anonymous.json()).error.fields).toMatchObject({ 'customer.email': 'is required' });
    const unauthorised = await stack.request('POST', `/api/customers/cust-x/cards/${saved.id}/charges`, { body: renewal });
    expect(unauthorised.status).toBe(401);
  });
});
