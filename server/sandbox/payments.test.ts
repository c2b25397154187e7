import { beforeEach, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '@payform/gateway/testing';
import { PaymentResponse } from '@payform/gateway/wire';
import { verifyWebhook } from '@payform/gateway';
import { SUB_A, directPayment, expectedOutcome, hostedPayment, newOrderId, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox();
});

type Json = Record<string, unknown>;

const pay = (overrides: Json = {}, card?: string) => sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, overrides, card));

async function orderState(orderId: string): Promise<Json[]> {
  return sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`);
}

describe('direct payments and the test cards', () => {
  
  for (const card of TEST_CARDS) {
    for (const method of ['purchase', 'auth'] as const) {
      it(`${card.number} (${card.outcome}) ${method} → ${expectedOutcome(card, method).status_code}`, async () => {
        const payment = await pay({ method }, card.number);
        expect(payment).toMatchObject({ ...expectedOutcome(card, method), method, mode: 'direct' });
        expect(PaymentResponse.safeParse(payment).success).toBe(true);
        expect(payment.cc_mask).toBe(`${card.number.slice(0, 6)}${'*'.repeat(card.number.length - 10)}${card.number.slice(-4)}`);
      });
    }
  }

  it('charges fees of a three-decimal currency in what the wire carries: two decimals at most', async () => {
    const kwd = testSandbox({ projects: [{ currencies: ['KWD', 'UAH'] }] });
    const payment = await kwd.postJson<Json>('/api/v1/payment', directPayment(kwd.project, { amount: 100.5, currency: 'KWD' }));
    // 1.5 % of 100.500 KWD is 1.5075; the fixed part 5 fils: each to the nearest 10 fils.
    expect(payment).toMatchObject({ fixed_fee: { amount: 0.01, currency: 'KWD' }, percent_fee: { amount: 1.51, currency: 'KWD' }, fee: { amount: 1.52, currency: 'KWD' } });
    // What is left to refund is said as people write the money (every ISO digit), not in fils.
    const refund = await kwd.postJson<Json>('/api/v1/refund', { pos_id: kwd.project.posId, order_id: payment.order_id, order_currency: 'KWD', refund_amount: 200 });
    expect(refund).toMatchObject({ status: 'failure', status_description: 'Invalid amount: at most 100.500 KWD is left to refund' });
  });

  it('answers a direct purchase with the interface fields: processed_at, fees, receipt link, exact decimals', async () => {
    const payment = await pay({ amount: 10.1 });
    expect(payment).toMatchObject({
      amount: 10.1,
      currency: 'UAH',
      status_description: 'Transaction successful',
      user_action_required: false,
      user_action_url: null,
      eci: '07',
      mcc: '5999',
      options_3ds: 'supported',
      customer_fname: 'Olena',
      customer_ip: '203.0.113.7',
      bank_short_name: 'Sandbox Bank',
      // 1.5% of 1010 = 15.15 → 15 minor units, plus the fixed 5.
      fee: { amount: 0.2, currency: 'UAH' },
      fixed_fee: { amount: 0.05, currency: 'UAH' },
      percent_fee: { amount: 0.15, currency: 'UAH' },
      created_at: '2026-03-02T10:00:00.000',
      processed_at: '2026-03-02T10:00:00.000',
    });
    expect(payment).not.toHaveProperty('processing_time');
    expect(payment.receipt_url).toMatch(/^http:\/\/localhost\/receipts\/[0-9a-f]{32}$/);
    expect(payment.payment_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(payment.gateway_order_id).toMatch(/^\d{12}$/);
    expect(payment.cc_token).toMatch(/^[0-9a-f]{40}$/);
    expect(payment.cc_token_expiration).toBe('2030-12-31T23:59:59');
  });

  it('keeps and echoes a description and a comment with card data in them masked: answers, reads, receipts', async () => {
    const written = 'card 4242424242424242|12|30|987';
    const payment = await pay({ description: written });
    const refund = await sandbox.postJson('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: payment.order_id, refund_amount: 1, order_currency: 'UAH', comment: 'cvv 123 was given' });
    const receipt = await (await sandbox.app.request(new URL(String(payment.receipt_url)).pathname)).text();
    for (const [seen, text] of [['answer', JSON.stringify(payment)], ['order read', JSON.stringify(await orderState(String(payment.order_id)))], ['refund', JSON.stringify(refund)], ['receipt', receipt]] as const) {
      expect(text, seen).not.toMatch(/4242424242424242|\|987|cvv 123/);
    }
    expect(payment).toMatchObject({ description: 'card [card number]|12|30|[cvv]' });
  });

  it('names the update time processing_time in the two-step (auth) answer', async () => {
    const auth = await pay({ method: 'auth' });
    expect(auth).toHaveProperty('processing_time', '2026-03-02T10:00:00.000');
    expect(auth).not.toHaveProperty('processed_at');
  });

  it('gives Mastercard its own ECI and Amex a four-digit code', async () => {
    expect((await pay({}, '5454545454545454')).eci).toBe('00');
    expect((await pay({}, '378282246310005')).status).toBe('success');
  });

  it('refuses a CVV of the wrong length for the brand (400) without taking the order_id', async () => {
    const request = directPayment(sandbox.project, { card_cvv: '123' }, '378282246310005');
    const response = await sandbox.post('/api/v1/payment', request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: 'Invalid request: card_cvv: must be 4 digits for American Express cards',
      args: [{ field_name: 'card_cvv', violation: 'must be 4 digits for American Express cards' }],
    });
    expect((await sandbox.postJson('/api/v1/payment', { ...request, card_cvv: '1234' })).status).toBe('success');
  });

  it('declines a card past its expiry with 4001 and a card that is not a test card with 4153', async () => {
    expect(await pay({ exp_month: 2, exp_year: 2026 })).toMatchObject({ status: 'failure', status_code: '4001' });
    expect(await pay({ exp_month: 3, exp_year: 2026 })).toMatchObject({ status: 'success' });
    const stranger = await pay({}, '4111111111111111');
    expect(stranger).toMatchObject({ status: 'failure', status_code: '4153' });
    expect(stranger.status_description).toMatch(/test cards only/);
  });

  it('takes an amount up to the project’s limit and declines one a minor unit above it with 4012', async () => {
    const limit = sandbox.project.amountLimitMinor;
    expect(await pay({ amount: limit / 100 })).toMatchObject({ status: 'success', amount: limit / 100 });
    expect(await pay({ amount: (limit + 1) / 100 })).toMatchObject({ status: 'failure', status_code: '4012' });
  });

  it('refuses a currency the project has not enabled', async () => {
    const response = await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { currency: 'GBP' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ args: [{ field_name: 'currency' }] });
  });

  it('accepts the ISO test currency XTS', async () => {
    expect(await pay({ currency: 'XTS', amount: 1.5 })).toMatchObject({ status: 'success', amount: 1.5, currency: 'XTS' });
  });
});

describe('card tokens', () => {
  it('issues the same cc_token for the same card and accepts it for a later payment', async () => {
    const first = await pay();
    const second = await pay();
    expect(second.cc_token).toBe(first.cc_token);
    const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...withoutCard } = directPayment(sandbox.project);
    const byToken = await sandbox.postJson('/api/v1/payment', { ...withoutCard, cc_token: first.cc_token });
    expect(byToken).toMatchObject({ status: 'success', cc_token: first.cc_token, cc_mask: '424242******4242' });
  });

  it('keeps the card behaviour behind a token: the 3-D Secure card challenges again', async () => {
    const first = await pay({}, '4000000000003220');
    await sandbox.postJson(`/_sandbox/3ds/${String(first.payment_id)}`, { result: 'success' });
    const [paid] = await orderState(String(first.order_id));
    const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...withoutCard } = directPayment(sandbox.project);
    const again = await sandbox.postJson('/api/v1/payment', { ...withoutCard, cc_token: paid?.cc_token });
    expect(again).toMatchObject({ status: 'pending', status_code: '2122', user_action_required: true });
  });

  it('accepts rcr: wallet tokens and declines an unknown token with 4144', async () => {
    const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...withoutCard } = directPayment(sandbox.project);
    const wallet = await sandbox.postJson('/api/v1/payment', { ...withoutCard, cc_token: 'rcr:google-pay-4f1a' });
    expect(wallet).toMatchObject({ status: 'success', cc_token: 'rcr:google-pay-4f1a' });
    const unknown = await sandbox.postJson('/api/v1/payment', { ...withoutCard, order_id: newOrderId(), cc_token: 'not-issued' });
    expect(unknown).toMatchObject({ status: 'failure', status_code: '4144' });
  });

  it('does not accept a token of another project', async () => {
    const other = testSandbox({ projects: [{}, { posId: 'a6c7e0f1-5b2d-4e8f-9a1c-3d4e5f6a7b8c', apiKey: 'other-key' }] });
    const paid = await other.postJson('/api/v1/payment', directPayment(other.project));
    const token = other.app.sandbox.gateway.vault.resolve('a6c7e0f1-5b2d-4e8f-9a1c-3d4e5f6a7b8c', String(paid.cc_token));
    expect(token).toBeUndefined();
  });
});

describe('duplicate order_id', () => {
  it('is refused with P-409 (HTTP 409), also when the first payment failed, and the first stays as it was', async () => {
    const orderId = newOrderId();
    const declined = await pay({ order_id: orderId }, '4000000000000002');
    expect(declined.status).toBe('failure');
    const response = await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { order_id: orderId }));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: `Order ${orderId} already exists`, args: { code: 'P-409' } });
    const state = await orderState(orderId);
    expect(state).toHaveLength(1);
    expect(state[0]).toMatchObject({ payment_id: declined.payment_id, status: 'failure', status_code: '4153' });
  });

  it('is refused across create endpoints (hosted, split) too', async () => {
    const orderId = newOrderId();
    await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project, { order_id: orderId }));
    expect((await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { order_id: orderId }))).status).toBe(409);
  });
});

describe('the log', () => {
  it('masks a card number an order id or a receiver URL carries, however written', async () => {
    const lines: string[] = [];
    sandbox = testSandbox({ log: (line) => lines.push(line), webhooks: { retryDelaysMs: [] } });
    sandbox.inbox.status = 500;
    await pay({ order_id: '4111 1111 1111 1111', server_url: 'http://127.0.0.1:1/hook?pan=4242-4242-4242-4242' });
    await sandbox.deliver();
    expect(lines).toEqual([expect.stringMatching(/^webhook purchase for order \[card number\] to .*hook\?pan=\[card number\] given up after 1 attempts: it answered HTTP 500; only a 2xx answer counts as received$/)]);
  });
});

describe('an order_id longer than capture, void and refund take (32)', () => {
  type Recorded = { method: string; path: string; status: number; notes: Json[] };
  const recorded = async () => ((await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: Recorded[] }).requests;
  const long = () => `${newOrderId('long')}-`.padEnd(33, 'x');

  it('is created by a tolerant project, with a warning in the inspector and the log; the refund then fails as it would live', async () => {
    const lines: string[] = [];
    sandbox = testSandbox({ log: (line) => lines.push(line) });
    const orderId = long();
    const payment = await pay({ order_id: orderId });
    expect(payment).toMatchObject({ order_id: orderId, status: 'success' });
    const [create] = await recorded();
    expect(create).toMatchObject({ method: 'POST', path: '/api/v1/payment', status: 200 });
    expect(create?.notes).toEqual([
      {
        kind: 'warning',
        field: 'order_id',
        what: '33 characters: capture, void and refund take an order_id of at most 32 characters, so this payment could never be captured, voided or refunded',
        rule: expect.stringContaining('at most 32 characters in capture, void and refund requests'),
      },
    ]);
    expect(lines).toEqual([expect.stringContaining('an order_id of 33 characters (over 32) can never be captured, voided or refunded')]);
    const refund = await sandbox.post('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH' });
    expect(refund.status).toBe(400);
    expect(await refund.json()).toMatchObject({ args: [{ field_name: 'order_id', violation: 'must be at most 32 characters' }] });
  });

  it('warns of nothing at 32 characters, nor for a lookup, which takes no capture, void or refund', async () => {
    await pay({ order_id: long().slice(0, 32) });
    await pay({ order_id: long(), method: 'lookup' });
    expect((await recorded()).flatMap((request) => request.notes)).toEqual([]);
  });

  it('counts characters as the refund does: 32 emoji are 32, not the 64 UTF-16 units they take', async () => {
    sandbox = testSandbox({ projects: [{ strict: true }] });
    const orderId = `${newOrderId('e')}-`.padEnd(16, 'x') + '\u{1F600}'.repeat(16);
    expect(await pay({ order_id: orderId })).toMatchObject({ order_id: orderId, status: 'success' });
    expect((await recorded()).flatMap((request) => request.notes)).toEqual([]);
    const refund = await sandbox.postJson('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH' });
    expect(refund).toMatchObject({ status: 'success' });
  });

  it('is refused by a strict project (auth, purchase, hosted, split), without taking the order_id', async () => {
    sandbox = testSandbox({ projects: [{ strict: true }] });
    const orderId = long();
    for (const [path, body] of [
      ['/api/v1/payment', directPayment(sandbox.project, { order_id: orderId, method: 'auth' })],
      ['/api/v1/payment', hostedPayment(sandbox.project, { order_id: orderId })],
      ['/api/v1/split/purchase', directPayment(sandbox.project, { order_id: orderId, amount: 100, split: [{ amount: 100, sub_merchant_id: SUB_A }] })],
    ] as const) {
      const refused = await sandbox.post(path, body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        args: [{ field_name: 'order_id', violation: expect.stringMatching(/^must be at most 32 characters in a strict project: capture, void and refund take/) }],
      });
    }
    expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, orderId)).toBeUndefined();
    // A lookup is never captured or refunded: a strict project creates it.
    expect(await pay({ order_id: orderId, method: 'lookup' })).toMatchObject({ order_id: orderId, status: 'success' });
  });
});

describe('a server_url on a port the live gateway does not post webhooks to', () => {
  type Recorded = { path: string; notes: Json[] };
  const notes = async () => ((await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: Recorded[] }).requests.reverse().map((request) => request.notes);
  const warning = (port: string) => ({
    kind: 'warning',
    field: 'server_url',
    what: `port ${port}: the live gateway posts webhooks to ports 443 and 8443, and to another only after the service has been told`,
    rule: expect.stringContaining('other ports need prior notice to the service'),
  });

  it('is delivered to, as a receiver here needs, with a warning in the inspector on the payment and the operation', async () => {
    for (const strict of [false, true]) {
      sandbox = testSandbox({ projects: [{ strict }] });
      const payment = await pay({ method: 'auth', server_url: 'https://shop.example:8080/webhooks' });
      expect(payment).toMatchObject({ status: 'success' });
      const capture = await sandbox.postJson('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: payment.order_id, order_currency: 'UAH', server_url: 'http://shop.example/webhooks' });
      expect(capture).toMatchObject({ status: 'success' });
      expect(await notes()).toEqual([[warning('8080')], [warning('80')]]);
      await sandbox.deliver();
      expect(sandbox.inbox.received.map(({ url, event }) => [url, event.method])).toEqual([
        ['https://shop.example:8080/webhooks', 'auth'],
        ['http://shop.example/webhooks', 'capture'],
      ]);
    }
  });

  it('warns of nothing on ports 443 and 8443, nor for a receiver on this machine', async () => {
    for (const server_url of ['https://shop.example/webhooks', 'https://shop.example:8443/webhooks', 'http://shop.example:443/webhooks', 'http://127.0.0.1:3000/hook', 'http://localhost:8080/hook', 'http://shop.localhost:8080/hook', 'http://[::1]:8080/hook']) {
      await pay({ server_url });
    }
    expect((await notes()).flat()).toEqual([]);
  });
});

describe('3-D Secure and the slow card', () => {
  it('answers pending 2122 with a challenge URL; the control plane completes it and a webhook follows', async () => {
    const pending = await pay({}, '4000000000003220');
    expect(pending).toMatchObject({ status: 'pending', status_code: '2122', user_action_required: true, eci: null, fee: null, cc_token: null });
    expect(pending.user_action_url).toMatch(/^http:\/\/localhost\/3ds\/[0-9a-f]{32}$/);
    const done = await sandbox.postJson(`/_sandbox/3ds/${String(pending.payment_id)}`, { result: 'success' });
    expect(done).toMatchObject({ status: 'success', status_code: '1000', amount_minor: 1010, currency: 'UAH' });
    expect((await orderState(String(pending.order_id)))[0]).toMatchObject({ status: 'success', eci: '05', user_action_required: false });
    await sandbox.deliver();
    expect(sandbox.inbox.events(String(pending.order_id)).map((event) => [event.status, event.status_code])).toEqual([
      ['pending', '2122'],
      ['success', '1000'],
    ]);
  });

  it('fails a challenge answered failure (4153) and refuses a second answer', async () => {
    const pending = await pay({ method: 'auth' }, '4000000000003220');
    const failed = await sandbox.postJson(`/_sandbox/3ds/${String(pending.payment_id)}`, { result: 'failure' });
    expect(failed).toMatchObject({ status: 'failure', status_code: '4153' });
    const again = await sandbox.post(`/_sandbox/3ds/${String(pending.payment_id)}`, { result: 'success' });
    expect(again.status).toBe(400);
    expect((await orderState(String(pending.order_id)))[0]).toMatchObject({ status: 'failure' });
  });

  it('times out an unanswered challenge with 4147 after 15 minutes of sandbox time', async () => {
    const pending = await pay({}, '4000000000003220');
    await sandbox.advance(15 * 60_000 - 1);
    expect((await orderState(String(pending.order_id)))[0]).toMatchObject({ status: 'pending' });
    await sandbox.advance(1);
    expect((await orderState(String(pending.order_id)))[0]).toMatchObject({ status: 'failure', status_code: '4147' });
  });

  it('keeps the 0119 card pending 2119, then succeeds after the delay with a webhook', async () => {
    const pending = await pay({ method: 'auth' }, '4000000000000119');
    expect(pending).toMatchObject({ status: 'pending', status_code: '2119', user_action_required: false });
    await sandbox.advance(4_999);
    expect((await orderState(String(pending.order_id)))[0]).toMatchObject({ status: 'pending' });
    await sandbox.advance(1);
    expect((await orderState(String(pending.order_id)))[0]).toMatchObject({ status: 'success', status_code: '1002' });
    await sandbox.deliver();
    expect(sandbox.inbox.events(String(pending.order_id)).map((event) => event.status_code)).toEqual(['2119', '1002']);
  });
});

describe('lookup', () => {
  it('verifies a card directly: success 1000 with a token, no fee, no receipt', async () => {
    const { cc_number, exp_month, exp_year, card_cvv } = directPayment(sandbox.project);
    const lookup = await sandbox.postJson('/api/v1/payment', {
      pos_id: sandbox.project.posId, mode: 'direct', method: 'lookup', amount: 1, currency: 'UAH', description: 'Card check',
      order_id: newOrderId('lookup'), order_3ds_bypass: 'supported', browser_fingerprint: directPayment(sandbox.project).browser_fingerprint,
      cc_number, exp_month, exp_year, card_cvv,
    });
    expect(lookup).toMatchObject({ method: 'lookup', status: 'success', status_code: '1000', customer_patronym: null, customer_birthday: null });
    expect(lookup.cc_token).toEqual(expect.any(String));
    expect(lookup).not.toHaveProperty('fee');
    expect(lookup).not.toHaveProperty('receipt_url');
  });

  it('verifies a card for more than the project’s amount limit, which only a charge meets (4012)', async () => {
    const limited = testSandbox({ projects: [{ amountLimitMinor: 1000 }] });
    const { cc_number, exp_month, exp_year, card_cvv, browser_fingerprint } = directPayment(limited.project);
    const lookup = await limited.postJson('/api/v1/payment', {
      pos_id: limited.project.posId, mode: 'direct', method: 'lookup', amount: 50, currency: 'UAH', description: 'Card check for a subscription',
      order_id: newOrderId('lookup'), order_3ds_bypass: 'supported', browser_fingerprint, cc_number, exp_month, exp_year, card_cvv,
    });
    expect(lookup).toMatchObject({ method: 'lookup', status: 'success', status_code: '1000', cc_token: expect.any(String) });
    expect(await limited.postJson('/api/v1/payment', directPayment(limited.project, { amount: 50 }))).toMatchObject({ status: 'failure', status_code: '4012' });
  });

  it('sends a direct lookup without card data to the gateway card form (pending 2124)', async () => {
    const lookup = await sandbox.postJson('/api/v1/payment', {
      pos_id: sandbox.project.posId, mode: 'direct', method: 'lookup', amount: 1, currency: 'UAH', description: 'Card check',
      order_id: newOrderId('lookup'), order_3ds_bypass: 'supported', browser_fingerprint: directPayment(sandbox.project).browser_fingerprint,
    });
    expect(lookup).toMatchObject({ status: 'pending', status_code: '2124', user_action_required: true });
    expect(lookup.user_action_url).toMatch(/\/api\/v1\/checkout\/[0-9a-f]{32}\/form$/);
  });
});

describe('hosted payments', () => {
  it('answers 303 with Location {base}/api/v1/checkout/<id>/form and an empty body; the order is init 2123', async () => {
    const request = hostedPayment(sandbox.project);
    const response = await sandbox.post('/api/v1/payment', request);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^http:\/\/localhost\/api\/v1\/checkout\/[0-9a-f]{32}\/form$/);
    expect(await response.text()).toBe('');
    expect((await orderState(request.order_id))[0]).toMatchObject({ mode: 'hosted', status: 'init', status_code: '2123', amount: 250 });
    await sandbox.deliver();
    expect(sandbox.inbox.events(request.order_id)).toEqual([]); // init is the answer itself, not a webhook
  });

  it('uses the configured public URL in Location', async () => {
    const configured = testSandbox({ publicUrl: 'https://sandbox.example/' });
    const response = await configured.post('/api/v1/payment', hostedPayment(configured.project));
    expect(response.headers.get('location')).toMatch(/^https:\/\/sandbox\.example\/api\/v1\/checkout\/[0-9a-f]{32}\/form$/);
  });

  it('cancels an init hosted purchase or auth: failure 6007, a webhook, and the reduced cancel object', async () => {
    for (const method of ['purchase', 'auth']) {
      const request = hostedPayment(sandbox.project, { method, customer_patronym: 'Ivanivna', customer_birthday: '1990-04-01' });
      await sandbox.post('/api/v1/payment', request);
      const cancelled = await sandbox.postJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/order/${request.order_id}/cancel`, undefined);
      expect(cancelled).toHaveLength(1);
      expect(cancelled[0]).toMatchObject({
        order_id: request.order_id, method, mode: 'hosted', status: 'failure', status_code: '6007',
        status_description: 'Payment cancelled', user_action_required: false, customer_city: null,
        customer_patronym: 'Ivanivna', customer_birthday: '1990-04-01',
      });
      expect(cancelled[0]).not.toHaveProperty('fee');
      await sandbox.deliver();
      expect(sandbox.inbox.events(request.order_id).map((event) => event.status_code)).toEqual(['6007']);
    }
  });

  it('refuses to cancel a direct payment, a hosted lookup, or a hosted payment no longer in init', async () => {
    const direct = await pay();
    const lookup = hostedPayment(sandbox.project, { method: 'lookup', customer_lang: undefined });
    await sandbox.post('/api/v1/payment', lookup);
    const hosted = hostedPayment(sandbox.project);
    await sandbox.post('/api/v1/payment', hosted);
    await sandbox.post(`/api/v1/pos/${sandbox.project.posId}/order/${hosted.order_id}/cancel`, undefined);
    for (const orderId of [String(direct.order_id), lookup.order_id, hosted.order_id]) {
      const response = await sandbox.post(`/api/v1/pos/${sandbox.project.posId}/order/${orderId}/cancel`, undefined);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ args: { code: '4150' } });
    }
    expect((await orderState(String(direct.order_id)))[0]).toMatchObject({ status: 'success' });
  });

  it('expires an unpaid hosted payment at order_timeout (failure 4149) and sends the webhook', async () => {
    const request = hostedPayment(sandbox.project, { order_timeout: 600 });
    await sandbox.post('/api/v1/payment', request);
    await sandbox.advance(599_999);
    expect((await orderState(request.order_id))[0]).toMatchObject({ status: 'init' });
    await sandbox.advance(1);
    expect((await orderState(request.order_id))[0]).toMatchObject({ status: 'failure', status_code: '4149' });
    await sandbox.deliver();
    expect(sandbox.inbox.events(request.order_id).map((event) => event.status_code)).toEqual(['4149']);
    const cancel = await sandbox.post(`/api/v1/pos/${sandbox.project.posId}/order/${request.order_id}/cancel`, undefined);
    expect(cancel.status).toBe(400);
  });

  it('expires a hosted payment without order_timeout after 24 hours', async () => {
    const request = hostedPayment(sandbox.project);
    await sandbox.post('/api/v1/payment', request);
    await sandbox.advance(24 * 3600_000);
    expect((await orderState(request.order_id))[0]).toMatchObject({ status: 'failure', status_code: '4149' });
  });
});

describe('merchant sectors', () => {
  it('requires names in hosted mode for iGaming and birthday or tax id for microfinance', async () => {
    const gaming = testSandbox({ projects: [{ sector: 'igaming' }] });
    const refused = await gaming.post('/api/v1/payment', hostedPayment(gaming.project));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      args: [
        { field_name: 'customer_fname', violation: 'is required for igaming merchants' },
        { field_name: 'customer_lname', violation: 'is required for igaming merchants' },
      ],
    });
    const microfinance = testSandbox({ projects: [{ sector: 'microfinance' }] });
    const response = await microfinance.post('/api/v1/payment', directPayment(microfinance.project, { amount: 30_000.01 }));
    expect(await response.json()).toMatchObject({
      args: [{ field_name: 'customer_birthday' }, { field_name: 'customer_tax_id' }],
    });
    const ok = await microfinance.postJson('/api/v1/payment', directPayment(microfinance.project, { amount: 30_000.01, customer_tax_id: '1234567890' }));
    expect(ok.status).toBe('success');
  });
});

describe('webhooks of payments', () => {
  it('posts data + signature to server_url, signed with the project secret, with the primary event fields', async () => {
    const payment = await pay({ payload: 'cart-17', customer_id: 'customer-9' });
    await sandbox.deliver();
    const [delivery] = sandbox.inbox.received;
    expect(delivery?.url).toBe('https://shop.example/webhooks/gateway');
    expect(verifyWebhook(delivery?.data ?? '', delivery?.signature ?? '', sandbox.project.apiSecret)).toBe(true);
    expect(delivery?.event).toMatchObject({
      payment_id: payment.payment_id,
      order_id: payment.order_id,
      pos_id: sandbox.project.posId,
      mode: 'direct',
      method: 'purchase',
      amount: 10.1,
      currency: 'UAH',
      payway: 'card',
      status: 'success',
      status_code: '1000',
      cc_mask: '424242******4242',
      customer_id: 'customer-9',
      customer_phone: '+380501234567',
      payload: 'cart-17',
      receipt_url: payment.receipt_url,
      processed_at: '2026-03-02T10:00:00.000',
    });
    expect(delivery?.event).not.toHaveProperty('customer_email');
  });

  it('sends nothing when the request had no server_url', async () => {
    await pay({ server_url: undefined });
    await sandbox.deliver();
    expect(sandbox.inbox.received).toEqual([]);
  });
});

describe('validation_url preflight', () => {
  it('asks the merchant first with a signed form post; a 2xx lets the payment go on', async () => {
    const payment = await pay({ validation_url: 'https://shop.example/validate' });
    expect(payment).toMatchObject({ status: 'success' });
    const [preflight] = sandbox.inbox.received;
    expect(preflight?.url).toBe('https://shop.example/validate');
    expect(preflight?.event).toMatchObject({ order_id: payment.order_id, status: 'pending', status_code: '2001', amount: 10.1 });
    expect(verifyWebhook(preflight?.data ?? '', preflight?.signature ?? '', sandbox.project.apiSecret)).toBe(true);
    const log = (await (await sandbox.control('GET', `/_sandbox/webhooks?order_id=${String(payment.order_id)}`)).json()) as { deliveries: Json[] };
    expect(log.deliveries[0]).toMatchObject({ reason: 'validation', status: 'delivered' });
  });

  it('declines the payment (4153) without charging the card when the merchant does not confirm', async () => {
    sandbox.inbox.status = 409;
    const payment = await pay({ validation_url: 'https://shop.example/validate' }, '4000000000003220');
    expect(payment).toMatchObject({ status: 'failure', status_code: '4153', cc_mask: null, user_action_required: false });
    expect(String(payment.status_description)).toContain('validation_url');
  });

  it('asks before a hosted payment’s card is taken on the checkout page', async () => {
    sandbox.inbox.status = 500;
    const request = hostedPayment(sandbox.project, { validation_url: 'https://shop.example/validate' });
    const created = await sandbox.post('/api/v1/payment', request);
    const form = new URL(created.headers.get('location') ?? '').pathname;
    const answer = await sandbox.app.request(form, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cc_number: '4242424242424242', exp_month: '12', exp_year: '30', card_cvv: '123' }).toString(),
    });
    expect(answer.status).toBe(303);
    expect((await orderState(request.order_id))[0]).toMatchObject({ status: 'failure', status_code: '4153' });
  });
});
