// Hosted checkout (the gateway's own page) and the customer's return to the shop.
import { describe, expect, it } from 'vitest';
import { testProjectCredentials } from '@payform/gateway/testing';
import { GatewayClient } from '@payform/gateway';
import { card, hostedCardForm } from '../test/cards.js';
import { openLedger } from '../../ledger/index.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { eventually, stacksPerTest, payBody } from '../test/stack.js';
import type { Stack, StackOptions } from '../test/stack.js';

const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };
const openStack = stacksPerTest();
let stack: Stack;
const open = async (options: StackOptions = {}) => (stack = await openStack(options));

const hosted = (sessionId: string, status: number, body: unknown = {}) => stack.json('POST', `/api/checkout/sessions/${sessionId}/hosted`, status, { body });

/** What a customer does on the sandbox's payment page: type the card and submit. */
async function payOnPage(url: string): Promise<Response> {
  return stack.sandbox.request(url, { method: 'POST', body: hostedCardForm() });
}

describe('POST /api/checkout/sessions/:id/hosted', () => {
  it('opens the gateway’s page, gives the same page to a second click, and the payment arrives by webhook', async () => {
    await open();
    const session = await stack.openSession({ customer: CONTACT, return_url: 'https://shop.example/done?cart=7' });
    const { redirect_url: url } = await hosted(session.id, 200);
    expect(new URL(url).origin).toBe(stack.sandboxUrl);
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', status: 'init', checkoutUrl: url });
    expect(await hosted(session.id, 200)).toEqual({ redirect_url: url });
    // A page opened and not paid yet is no payment under way: the widget offers its button again.
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('open');

    const page = await payOnPage(url);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${stack.companionUrl}/checkout/return/${session.id}`);
    await stack.settleWebhooks();
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');

    const back = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(back.status).toBe(303);
    const target = new URL(back.headers.get('location')!);
    expect(target.origin + target.pathname).toBe('https://shop.example/done');
    expect(Object.fromEntries(target.searchParams)).toEqual({ cart: '7', checkout_session: session.id, order_id: session.order_id, status: 'success' });
    expect((await hosted(session.id, 409)).error.code).toBe('already_paid');
  });

  it('takes the contact details the page needs from the payer when the merchant gave none', async () => {
    await open();
    const session = await stack.openSession();
    expect((await hosted(session.id, 422)).error).toMatchObject({ code: 'customer_required', fields: { 'customer.email': 'is required', 'customer.phone': 'is required' } });
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    // Asked with none, as a <pay-button> asks: the operator hears why, once.
    await hosted(session.id, 422);
    expect(stack.logs.filter((line) => line.includes('a <pay-button> cannot ask for them'))).toEqual([expect.stringContaining('"level":"warn"')]);
    expect((await hosted(session.id, 400, { customer: { email: 'nope' } })).error.fields['customer.email']).toBeDefined();
    expect((await hosted(session.id, 200, { customer: CONTACT })).redirect_url).toMatch(/\/form$/);
  });

  it('opens the page in the customer\'s language when the merchant named none, as its own pages do', async () => {
    await open();
    const languages = async (customer: Record<string, string>, acceptLanguage: string) => {
      const session = await stack.openSession({ customer });
      await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {}, headers: { 'Accept-Language': acceptLanguage } });
      const { requests } = await stack.control('GET', '/_sandbox/requests');
      const created = requests.filter((request: { path: string; body: { order_id?: string } }) => request.path === '/api/v1/payment' && request.body.order_id === session.order_id);
      return created.map((request: { body: { customer_lang?: string } }) => request.body.customer_lang ?? null);
    };
    expect(await languages(CONTACT, 'fr-CH, fr;q=0.9, en;q=0.8')).toEqual(['FR']);
    expect(await languages(CONTACT, 'ja, ko;q=0.5, de;q=0.4')).toEqual(['DE']);
    // The merchant's word stands; a browser naming no language the pages speak leaves the gateway's own.
    expect(await languages({ ...CONTACT, lang: 'UK' }, 'de')).toEqual(['UK']);
    expect(await languages(CONTACT, 'ja, *;q=0.1')).toEqual([null]);
  });

  it('a session the merchant closes cancels its page left unpaid, which then takes no card', async () => {
    await open();
    const session = await stack.openSession({ customer: CONTACT });
    const { redirect_url: url } = await hosted(session.id, 200);
    const closed = await stack.json('DELETE', `/api/checkout/sessions/${session.id}`, 200, { admin: true });
    expect(closed.status).toBe('expired');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', status: 'failure', statusCode: '6007' });
    const [atGateway] = await stack.companion.companion.services.gateway.orders.get(session.order_id);
    expect(atGateway).toMatchObject({ status: 'failure', status_code: '6007' });
    // The customer still on the page: their card is not taken.
    await payOnPage(url);
    await stack.settleWebhooks();
    expect((await stack.companion.companion.services.gateway.orders.get(session.order_id))[0]).toMatchObject({ status: 'failure', status_code: '6007' });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusCode: '6007' });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe(closed.status);
  });

  it('a session closed while its page cannot be cancelled reads pending, not open to pay again', async () => {
    await open();
    const session = await stack.openSession({ customer: CONTACT });
    await hosted(session.id, 200);
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'before', scope: { method: 'POST', path: '/api/v1/pos/' } });
    const closed = await stack.json('DELETE', `/api/checkout/sessions/${session.id}`, 200, { admin: true });
    expect(closed.status).toBe('pending');
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('pending');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', status: 'init' });
    expect(stack.logs.filter((line) => line.includes('a hosted payment could not be cancelled now; reconciliation will look at it'))).toHaveLength(1);
    await stack.control('DELETE', '/_sandbox/faults');
  });

  it('a hosted page left unpaid gives way to paying by card in the widget', async () => {
    await open();
    const session = await stack.openSession({ customer: CONTACT, return_url: 'https://shop.example/done' });
    await hosted(session.id, 200);
    // "Return without paying": back on the shop, the session reads open, not a payment being confirmed.
    const back = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(new URL(back.headers.get('location')!).searchParams.get('status')).toBe('open');
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('open');
    const answer = await (await stack.pay(session.id)).json();
    expect(answer).toMatchObject({ status: 'success', order_id: `${session.order_id}:2` });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', status: 'failure', statusCode: '6007' });
    const [page] = await stack.companion.companion.services.gateway.orders.get(session.order_id);
    expect(page).toMatchObject({ status: 'failure', status_code: '6007' });
  });

  it('never hands out a page cancelled while it was being opened (the customer paid by card meanwhile)', async () => {
    let meanwhile: (() => Promise<void>) | undefined;
    await open({
      gateway: {
        fetch: async (input, init) => {
          const response = await stack.sandbox.fetch(new Request(input, init));
          const run = meanwhile;
          if (run && String(input).endsWith('/api/v1/payment') && JSON.parse(String(init?.body)).mode === 'hosted') {
            meanwhile = undefined;
            await run();
          }
          return response;
        },
      },
    });
    const session = await stack.openSession({ customer: CONTACT });
    let card: { status?: string } = {};
    meanwhile = async () => {
      card = await (await stack.pay(session.id)).json();
    };
    expect((await hosted(session.id, 409)).error.code).toBe('already_paid');
    expect(card.status).toBe('success');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', status: 'failure', statusCode: '6007', checkoutUrl: null });
  });

  it('refuses where hosted is not allowed or a direct payment is under way', async () => {
    await open();
    const directOnly = await stack.openSession({ modes: ['direct'], customer: CONTACT });
    expect((await hosted(directOnly.id, 409)).error.code).toBe('mode_not_allowed');
    const challenged = await stack.openSession({ customer: CONTACT });
    expect((await (await stack.pay(challenged.id, payBody({ card: card('three_ds_challenge') }))).json()).status).toBe('redirect');
    expect((await hosted(challenged.id, 409)).error.code).toBe('payment_in_progress');
  });

  it('an order id someone else already used at the gateway (P-409): their page is left alone, ours opens under a fresh id', async () => {
    await open();
    // The merchant's own order id, which another integration used too (the same amount even).
    const session = await stack.openSession({ customer: CONTACT, order_id: 'SHOP-2001' });
    const direct = new GatewayClient({ baseUrl: stack.sandboxUrl, ...testProjectCredentials({}), fetch: (input, init) => Promise.resolve(stack.sandbox.fetch(new Request(input, init))) });
    await direct.payments.create({ mode: 'hosted', method: 'purchase', amount: 1010, currency: 'UAH', description: 'someone else', order_id: session.order_id, customer_email: CONTACT.email, customer_phone: CONTACT.phone });
    const { redirect_url: url } = await hosted(session.id, 200);
    const ours = (await stack.ledger.getSession(session.id))?.payment;
    expect(ours).toMatchObject({ status: 'init', checkoutUrl: url });
    expect(ours?.orderId).not.toBe(session.order_id);
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusCode: null, checkoutUrl: null });
    const [theirs] = await direct.orders.get(session.order_id);
    expect(theirs).toMatchObject({ status: 'init', amount: 1010 });
    const [page] = await direct.orders.get(ours!.orderId);
    expect(page).toMatchObject({ status: 'init', amount: 1010 });
  });

  it('a page this companion opened before its ledger was restored from an older backup (P-409, the same terms) is the attempt’s own: no second page', async () => {
    await open();
    const session = await stack.openSession({ customer: CONTACT });
    const direct = new GatewayClient({ baseUrl: stack.sandboxUrl, ...testProjectCredentials({}), fetch: (input, init) => Promise.resolve(stack.sandbox.fetch(new Request(input, init))) });
    await direct.payments.create({ mode: 'hosted', method: 'purchase', amount: session.amount, currency: session.currency, description: session.description, order_id: session.order_id, customer_email: CONTACT.email, customer_phone: CONTACT.phone });
    const answer = await stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { body: {} });
    // Its address is not in the order's state: the page is lost, and stays the session's until
    // reconciliation cancels it (pageLost); the customer tries again meanwhile.
    expect(answer.status).toBe(503);
    expect((await answer.json()).error.message).toBe('The payment page could not be opened; try again');
    // Never another page, under another order id, for the same checkout.
    expect((await stack.ledger.getSession(session.id))?.payment?.orderId).toBe(session.order_id);
    await expect(direct.orders.get(`${session.order_id}:2`)).rejects.toThrow();
  });

  it('never hands out a page address that is neither https nor the sandbox', async () => {
    await open({ sandbox: { publicUrl: 'http://elsewhere.test' } });
    const session = await stack.openSession({ customer: CONTACT });
    const refused = await hosted(session.id, 502);
    expect(refused.error.code).toBe('unsafe_redirect');
    expect(JSON.stringify(refused)).not.toContain('elsewhere');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', checkoutUrl: null });
    // The operator is told where the page pointed, and that the sandbox origin set is another.
    const logged = stack.logs.filter((line) => line.includes('neither https nor the sandbox')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const fix = `the sandbox origin is ${stack.sandboxUrl} (PAYFORM_SANDBOX_ORIGIN or the sandboxOrigin option, else the gateway URL's own origin), not http://elsewhere.test the gateway sends the customer to: set PAYFORM_SANDBOX_ORIGIN to http://elsewhere.test if that is the sandbox`;
    expect(logged).toEqual([expect.objectContaining({ msg: expect.stringContaining(fix), origin: 'http://elsewhere.test' })]);
  });
});

describe('GET /checkout/return/:id', () => {
  it('a page opened whose address was lost while the gateway could not be read either: try again, and reconciliation frees the session', async () => {
    const clock = new TestClock(Date.now());
    await open({ clock, gateway: { timeoutMs: 1_000 }, companion: { reconciliation: { stalePaymentAfterMs: 0 } } });
    const session = await stack.openSession({ customer: CONTACT });
    // Every answer of the gateway lost on the way: the page's creation, then each read of the order.
    await stack.control('PUT', '/_sandbox/faults', { drop_connection: 1, phase: 'after', times: 8, scope: { path: '/api/v1' } });
    const lost = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 503, { body: {} });
    expect(lost.error.code).toBe('gateway_unavailable');
    await stack.control('DELETE', '/_sandbox/faults');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ mode: 'hosted', status: 'init', checkoutUrl: null });
    // As young as a page another instance may be opening right now: left alone, in progress.
    await stack.companion.companion.reconciler.runOnce();
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'init' });
    expect((await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 409, { body: {} })).error.code).toBe('payment_in_progress');
    // Older than any create's tries: not "in progress" to a customer who was told to try again.
    clock.advance(4_000);
    expect((await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 503, { body: {} })).error.code).toBe('gateway_unavailable');
    await stack.companion.companion.reconciler.runOnce();
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure' });
    // The next click opens a fresh page, which pays.
    const { redirect_url: page } = await hosted(session.id, 200);
    expect((await payOnPage(page)).status).toBeLessThan(400);
    await eventually(async () => expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('success'));
  });

  it('reads the order’s state when the webhook has not come, then sends the customer on', async () => {
    await open();
    stack.dropWebhooks = true;
    const session = await stack.openSession({ return_url: 'https://shop.example/done' });
    const answer = await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json();
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('pending');
    const back = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(new URL(back.headers.get('location')!).searchParams.get('status')).toBe('success');
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');
    expect(stack.changes.map((change) => [change.status, change.source])).toContainEqual(['success', 'order_state']);
  });

  it('shows a short page when the merchant gave no return URL, and 404 for an unknown session', async () => {
    await open();
    const session = await stack.openSession();
    await stack.pay(session.id, payBody({ card: card('insufficient_funds') }));
    const page = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = await page.text();
    expect(text).toContain('Payment not completed');
    expect(text).toContain('Insufficient funds');
    const missing = await stack.request('GET', '/checkout/return/<script>');
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<script>');
  });

  it('shows the customer a page, not the API\'s JSON, while the database cannot be reached', async () => {
    let away = false;
    await open({
      backend: {
        name: 'in memory, then away',
        persistent: false,
        async open(clock) {
          const ledger = await openLedger(':memory:', { clock: clock.read });
          const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          return {
            ledger: { ...ledger, getSession: (id: string) => (away ? Promise.reject(refused) : ledger.getSession(id)) },
            dispose: () => ledger.close(),
          };
        },
      },
    });
    const session = await stack.openSession();
    away = true;
    for (const path of [`/checkout/return/${session.id}`, `/checkout/challenge/${session.id}`]) {
      const page = await stack.request('GET', path);
      expect([page.status, page.headers.get('content-type'), page.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^text\/html/), '2']);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await page.text()).toContain('Your payment is not lost: reload this page in a few seconds, and please do not pay again.');
    }
    // Said once, as any outage, and no request of them logged as a failure.
    expect(stack.logs.filter((line) => line.includes('"level":"error"'))).toEqual([expect.stringContaining('the database cannot be reached')]);
    away = false;
    expect((await stack.request('GET', `/checkout/challenge/${session.id}`)).status).toBe(303);
    const unknown = await stack.request('GET', `/checkout/challenge/${'x'.repeat(43)}`);
    expect([unknown.status, unknown.headers.get('content-type')]).toEqual([404, expect.stringMatching(/^text\/html/)]);
  });
});
