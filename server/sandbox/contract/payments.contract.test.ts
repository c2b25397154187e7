/**
 * Contract: the gateway client of server/gateway against the sandbox over real HTTP — primary
 * payments, every test card, tokens, hosted checkout, cancel, expiry, duplicates, split purchase.
 */
import { describe, expect, it } from 'vitest';
import { DuplicateOrderError, InvalidRequestError, NotFoundError } from '@payform/gateway';
import type { Payment } from '@payform/gateway';
import { TEST_CARDS, TEST_SUB_MERCHANTS } from '@payform/gateway/testing';
import { expectedOutcome } from '../testing/in-process.js';
import { useServedSandbox } from '../testing/served.js';
import { byToken, direct, directSplit, hosted, hostedSplit, orderId } from './params.js';

const sandbox = useServedSandbox();
const hook = () => sandbox.receiver.url();


describe('every test card through the client', () => {
  for (const card of TEST_CARDS) {
    for (const method of ['purchase', 'auth'] as const) {
      it(`${card.number} ${method}: ${card.label}`, async () => {
        const client = sandbox.client();
        const payment = await client.payments.create(direct(hook(), { method, amount: 4999 }, card.number));
        const expected = expectedOutcome(card, method);
        expect(payment).toMatchObject({ method, amount: 4999, currency: 'UAH', ...expected });
        const events = await sandbox.receiver.waitFor(payment.order_id, 1);
        expect(events[0]).toMatchObject({ ...expected, payment_id: payment.payment_id });
        expect(sandbox.receiver.received.every((webhook) => webhook.signatureValid)).toBe(true);

        if (card.outcome === 'three_ds_challenge') {
          expect(payment.user_action_required).toBe(true);
          expect(payment.user_action_url).toMatch(new RegExp(`^${sandbox.url}/3ds/[0-9a-f]{32}$`));
          await sandbox.control('POST', `/_sandbox/3ds/${payment.payment_id}`, { result: 'success' });
          await sandbox.receiver.waitFor(payment.order_id, 2);
          const [state] = await client.orders.get(payment.order_id);
          expect(state).toMatchObject({ status: 'success', status_code: method === 'auth' ? '1002' : '1000' });
        }
        if (card.outcome === 'slow_pending') {
          await sandbox.control('POST', '/_sandbox/clock', { advance_ms: 5_000 });
          const finished = await sandbox.receiver.waitFor(payment.order_id, 2);
          expect(finished[1]).toMatchObject({ status: 'success', status_code: method === 'auth' ? '1002' : '1000' });
          expect((await client.orders.getOperation(payment.order_id, method)).status).toBe('success');
        }
      });
    }
  }
});

describe('direct payments', () => {
  it('reads amounts back exactly in minor units, with fees and the interface fields', async () => {
    const payment = await sandbox.client().payments.create(direct(hook(), { amount: 1010, payload: 'basket-7' }));
    expect(payment).toMatchObject({
      amount: 1010,
      fee: { amount: 20, currency: 'UAH' },
      fixed_fee: { amount: 5, currency: 'UAH' },
      percent_fee: { amount: 15, currency: 'UAH' },
      eci: '07',
      cc_mask: '424242******4242',
      payload: 'basket-7',
      processed_at: '2026-03-02T10:00:00.000',
      bank_short_name: 'Sandbox Bank',
    });
    expect(payment.receipt_url).toMatch(new RegExp(`^${sandbox.url}/receipts/`));
  });

  it('pays with a cc_token issued earlier, with an rcr: wallet token, and declines an unknown token', async () => {
    const client = sandbox.client();
    const first = await client.payments.create(direct(hook()));
    expect(first.cc_token).toEqual(expect.any(String));
    const again = await client.payments.create(byToken(hook(), first.cc_token ?? ''));
    expect(again).toMatchObject({ status: 'success', cc_token: first.cc_token, cc_mask: first.cc_mask });
    expect(await client.payments.create(byToken(hook(), 'rcr:apple-pay-token-1'))).toMatchObject({ status: 'success' });
    expect(await client.payments.create(byToken(hook(), 'forged'))).toMatchObject({ status: 'failure', status_code: '4144' });
  });

  it('verifies a card with lookup', async () => {
    const lookup = await sandbox.client().payments.create({
      mode: 'direct', method: 'lookup', amount: 100, currency: 'UAH', description: 'Card check', order_id: orderId('lookup'),
      cc_number: '5454545454545454', exp_month: 1, exp_year: 2031, card_cvv: '321', browser_fingerprint: direct(hook()).browser_fingerprint,
    });
    expect(lookup).toMatchObject({ method: 'lookup', status: 'success', status_code: '1000', cc_mask: '545454******5454' });
  });

  it('rejects a duplicate order_id with DuplicateOrderError (P-409, HTTP 409), even after a decline', async () => {
    const client = sandbox.client();
    const params = direct(hook(), {}, '4000000000000002');
    expect((await client.payments.create(params)).status).toBe('failure');
    const error = await client.payments.create({ ...params, cc_number: '4242424242424242' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ status: 409, code: 'P-409' });
    const hostedError = await client.payments.create(hosted(hook(), { order_id: params.order_id })).catch((e: unknown) => e);
    expect(hostedError).toBeInstanceOf(DuplicateOrderError);
  });

  it('reports the sandbox’s field refusals as InvalidRequestError with fields', async () => {
    const error = await sandbox.client().payments.create(direct(hook(), { currency: 'GBP' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).fields).toEqual([{ field: 'currency', reason: 'is not enabled for this project (UAH, USD, EUR, PLN, XTS)' }]);
  });
});

describe('hosted payments', () => {
  it('creates a checkout (303 Location) and cancels it while init: failure 6007 and a webhook', async () => {
    const client = sandbox.client();
    const params = hosted(hook(), { method: 'auth', order_timeout: 900 });
    const checkout = await client.payments.create(params);
    expect(checkout.checkout_url).toMatch(new RegExp(`^${sandbox.url}/api/v1/checkout/[0-9a-f]{32}/form$`));
    const page = await fetch(checkout.checkout_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Card number');
    const [init] = await client.orders.get(params.order_id);
    expect(init).toMatchObject({ status: 'init', status_code: '2123', mode: 'hosted' });
    const cancelled: Payment[] = await client.payments.cancel(params.order_id);
    expect(cancelled).toEqual([expect.objectContaining({ order_id: params.order_id, status: 'failure', status_code: '6007', customer_city: null })]);
    const [event] = await sandbox.receiver.waitFor(params.order_id, 1);
    expect(event).toMatchObject({ method: 'auth', mode: 'hosted', status: 'failure', status_code: '6007' });
    await expect(client.payments.cancel(params.order_id)).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('refuses to cancel direct payments and unknown orders', async () => {
    const client = sandbox.client();
    const payment = await client.payments.create(direct(hook()));
    await expect(client.payments.cancel(payment.order_id)).rejects.toMatchObject({ status: 400, code: '4150' });
    await expect(client.payments.cancel('no-such-order')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('expires at order_timeout: failure 4149, by webhook', async () => {
    const client = sandbox.client();
    const params = hosted(hook(), { order_timeout: 120 });
    await client.payments.create(params);
    await sandbox.control('POST', '/_sandbox/clock', { advance_seconds: 120 });
    const [event] = await sandbox.receiver.waitFor(params.order_id, 1);
    expect(event).toMatchObject({ status: 'failure', status_code: '4149' });
    expect((await client.orders.get(params.order_id))[0]).toMatchObject({ status: 'failure', status_code: '4149' });
  });

  it('pays on the checkout page with the form post a browser sends', async () => {
    const client = sandbox.client();
    const params = hosted(hook());
    const { checkout_url } = await client.payments.create(params);
    const answer = await fetch(checkout_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: sandbox.url },
      body: new URLSearchParams({ cc_number: '5454 5454 5454 5454', exp_month: '09', exp_year: '2029', card_cvv: '999' }),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('https://shop.example/return');
    const [event] = await sandbox.receiver.waitFor(params.order_id, 1);
    expect(event).toMatchObject({ status: 'success', status_code: '1000', cc_mask: '545454******5454', eci: '00' });
  });
});

describe('split purchase', () => {
  it('creates direct and hosted split purchases; shares that do not add up never leave the client', async () => {
    const client = sandbox.client();
    const [a, b] = TEST_SUB_MERCHANTS;
    const split = [
      { amount: 7000, sub_merchant_id: a.id },
      { amount: 3000, sub_merchant_id: b.id },
    ];
    const payment = await client.payments.createSplit(directSplit(hook(), split));
    expect(payment).toMatchObject({ status: 'success', amount: 10000, processed_at: '2026-03-02T10:00:00.000' });
    const checkout = await client.payments.createSplit(hostedSplit(hook(), split));
    expect(checkout).toHaveProperty('checkout_url');
    await expect(client.payments.createSplit(directSplit(hook(), split, { amount: 9999 }))).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('refuses a sub-merchant the project does not have (sandbox-side 400)', async () => {
    const split = [{ amount: 500, sub_merchant_id: '0f0e0d0c-0b0a-4908-8706-050403020100' }];
    const error = await sandbox.client().payments.createSplit(directSplit(hook(), split)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, fields: [{ field: 'split[0].sub_merchant_id', reason: 'is not a sub-merchant of this project' }] });
  });
});

describe('payouts (method: credit)', () => {
  it('pays out to a card or a token in minor units, with its credit webhook, receipt and credit reference', async () => {
    const client = sandbox.client();
    const payout = { currency: 'UAH', description: 'Loan 77', customer_ip: '203.0.113.7', server_url: hook() } as const;
    const credit = await client.payments.payout({ ...payout, order_id: orderId('payout'), amount: 250_000, cc_number: '4242424242424242' });
    expect(credit).toMatchObject({ mode: 'direct', method: 'credit', status: 'success', status_code: '1000', amount: 250_000, currency: 'UAH' });
    const [event] = await sandbox.receiver.waitFor(credit.order_id, 1);
    expect(event).toMatchObject({ method: 'credit', status: 'success', payment_id: credit.payment_id });
    const reference = await client.receipts.forOrder(credit.order_id, { format: 'signed_pdf', creditReference: true, transactionId: String(credit.transaction_id) });
    expect(reference.contentType).toBe('application/pdf');

    const declined = await client.payments.payout({ ...payout, order_id: orderId('payout'), amount: 100, cc_number: '4000000000009995' });
    expect(declined).toMatchObject({ method: 'credit', status: 'failure', status_code: '4009' });
    const paid = await client.payments.create(direct(hook()));
    expect(await client.payments.payout({ ...payout, order_id: orderId('payout'), amount: 100, cc_token: String(paid.cc_token) })).toMatchObject({ status: 'success' });
    // Checked before sending: a card number or a token, and never both.
    await expect(client.payments.payout({ ...payout, order_id: orderId('payout'), amount: 100 })).rejects.toMatchObject({
      fields: [{ field: 'cc_number', reason: 'is required unless cc_token is sent' }],
    });
  });
});
