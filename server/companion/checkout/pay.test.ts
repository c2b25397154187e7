// Direct payments from the widget, in process against the real sandbox and SQLite.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { CUSTOMER, EXPIRY, FINGERPRINT, TEST_AMEX_CVV, TEST_CVV, card, cardNumber } from '../test/cards.js';
import { eventually, payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack, StackOptions } from '../test/stack.js';
import { newOrderId } from '../../ledger/sessions.js';
import { keyedOrderId } from '../http/keyed-order-id.js';
import { madeHere } from './attempt-outcomes.js';

const CARD_PARAMS = { cc_number: cardNumber('success'), exp_month: EXPIRY.exp_month, exp_year: EXPIRY.exp_year, card_cvv: TEST_CVV };
const openStack = stacksPerTest();
let stack: Stack;
const open = async (options: StackOptions = {}) => (stack = await openStack(options));

async function payJson(sessionId: string, body = payBody(), status = 200) {
  const response = await stack.pay(sessionId, body);
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text);
}

describe('a direct payment', () => {
  it('succeeds with a card: the answer, the ledger and the hook agree', async () => {
    await open();
    const session = await stack.openSession();
    const answer = await payJson(session.id);
    expect(answer).toEqual({ status: 'success', order_id: session.order_id, payment_id: expect.any(String) });
    const payment = await stack.ledger.getPayment(session.order_id);
    expect(payment).toMatchObject({ status: 'success', statusCode: '1000', ccMask: '424242******4242', cardBrand: 'visa', amount: 1010 });
    expect(stack.changes.filter((change) => change.kind === 'payment')).toMatchObject([{ status: 'success', orderId: session.order_id, source: 'gateway_answer' }]);
  });

  it('reserves with an auth session (successful hold 1002)', async () => {
    await open();
    const session = await stack.openSession({ method: 'auth' });
    expect((await payJson(session.id)).status).toBe('success');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ method: 'auth', status: 'success', statusCode: '1002' });
  });

  it.each([
    ['rejected', 'The payment was declined. Try another card or contact your bank.', '4153'],
    ['insufficient_funds', 'Insufficient funds. Try another card.', '4009'],
    ['expired', 'The card has expired. Try another card.', '4001'],
  ] as const)('answers a %s decline with a customer-safe message', async (outcome, message, code) => {
    await open();
    const session = await stack.openSession();
    expect(await payJson(session.id, payBody({ card: card(outcome) }))).toMatchObject({ status: 'failure', message, order_id: session.order_id });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusCode: code });
  });

  it('fills the customer IP, browser data and the companion’s URLs from the request', async () => {
    const sent: Json[] = [];
    await open({
      gateway: {
        fetch: async (input, init) => {
          if (String(input).endsWith('/api/v1/payment')) sent.push(JSON.parse(String(init?.body)));
          return stack.sandbox.fetch(new Request(input, init));
        },
      },
    });
    const session = await stack.openSession();
    await stack.pay(session.id, payBody(), { headers: { 'User-Agent': 'Mozilla/5.0 (Test)', Accept: 'application/json' }, ip: '2001:db8::5' });
    expect(sent[0]).toMatchObject({
      customer_ip: '2001:db8::5',
      customer_fname: 'Olena',
      customer_phone: '+380501234567',
      browser_fingerprint: { ...FINGERPRINT, browserIpAddress: '2001:db8::5', browserUserAgent: 'Mozilla/5.0 (Test)', browserAcceptHeader: 'application/json' },
      server_url: `${stack.companionUrl}/webhooks/gateway`,
      result_url: `${stack.companionUrl}/checkout/return/${session.id}`,
      amount: 10.1,
      cc_number: cardNumber('success'),
    });
  });

  it('charges a split purchase session through the split endpoint', async () => {
    await open();
    const session = await stack.openSession({
      amount: 10000,
      split: [
        { sub_merchant_id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', amount: 7000 },
        { sub_merchant_id: 'c4e7b1d9-2a83-4f65-8b1c-9d0e6a2f4b71', amount: 3000 },
      ],
    });
    expect((await payJson(session.id)).status).toBe('success');
    const state = await stack.companion.companion.services.gateway.orders.get(session.order_id);
    expect(state[0]).toMatchObject({ method: 'purchase', status: 'success', amount: 10000 });
  });

  it('accepts an Amex card with its four-digit CVV and refuses a three-digit one', async () => {
    await open();
    const session = await stack.openSession();
    const amex = { number: cardNumber('success', 'amex'), exp_month: 1, exp_year: 2040, cvv: TEST_CVV };
    const wrong = await payJson(session.id, payBody({ card: amex }), 400);
    expect(wrong.error.fields).toEqual({ 'card.cvv': 'must be 4 digits for this card' });
    expect((await payJson(session.id, payBody({ card: { ...amex, cvv: TEST_AMEX_CVV } }))).status).toBe('success');
    expect((await stack.ledger.getPayment(session.order_id))?.cardBrand).toBe('amex');
  });

  it('tells the operator once, as an error, of a currency the gateway project does not take', async () => {
    const clock = new TestClock(Date.now());
    await open({ clock });
    // The sandbox's test project takes UAH, USD, EUR, PLN and XTS.
    const first = await stack.openSession({ currency: 'GBP' });
    const refused = await payJson(first.id, payBody(), 422);
    expect(refused.error).toMatchObject({ code: 'session_refused', fields: { currency: expect.stringContaining('is not enabled for this project') } });
    // No payment of it can succeed: the session is closed, so a reload says so rather than take the card again.
    expect((await stack.json('GET', `/api/checkout/sessions/${first.id}`, 200)).status).toBe('expired');
    expect((await payJson(first.id, payBody(), 409)).error.code).toBe('session_expired');
    // Another session in it: the operator has heard.
    await payJson((await stack.openSession({ currency: 'GBP' })).id, payBody(), 422);
    const told = () => stack.logs.filter((line) => line.includes('does not take payments in'));
    expect(told()).toHaveLength(1);
    const line = JSON.parse(told()[0]!);
    expect(line).toMatchObject({ level: 'error', currency: 'GBP', order_id: first.order_id });
    expect(line.msg).toContain('the gateway project does not take payments in GBP');
    expect(line.msg).toContain('UAH, USD, EUR, PLN, XTS');
    expect(line.msg).toContain('open checkout sessions in a currency the project takes, or enable GBP for the project at the gateway');
    expect(line.msg).toContain("the currencies option (PAYFORM_CURRENCIES), set to the project's currencies, refuses a session in another as it opens");
    expect(stack.logs.filter((line) => line.includes('"level":"warn"') && line.includes('currency'))).toEqual([]);
    // Another currency is news; the same one, an hour on, is said again.
    await payJson((await stack.openSession({ currency: 'CHF' })).id, payBody(), 422);
    clock.advance(3_600_000);
    await payJson((await stack.openSession({ currency: 'GBP' })).id, payBody(), 422);
    expect(told().map((text) => JSON.parse(text).currency)).toEqual(['GBP', 'CHF', 'GBP']);
  });

  it('refuses a session in a currency the shop does not name (currencies) as it opens, and tells the operator of one it names that the gateway refuses', async () => {
    await open({ companion: { currencies: ['UAH', 'GBP'] } });
    const refused = await stack.json('POST', '/api/checkout/sessions', 400, { admin: true, body: { amount: 1000, currency: 'EUR', description: 'Tea' } });
    expect(refused.error.fields).toEqual({ currency: 'is not one this shop takes (UAH, GBP; the currencies option, PAYFORM_CURRENCIES): open it in one of those, or enable EUR for the gateway project and add it there' });
    // Named, yet not taken by the sandbox's test project: the gateway still refuses, and the line says where the list is.
    const session = await stack.openSession({ currency: 'GBP' });
    await payJson(session.id, payBody(), 422);
    const [line] = stack.logs.filter((text) => text.includes('does not take payments in'));
    expect(JSON.parse(line!).msg).toContain('enable GBP for the project at the gateway, or take it out of the currencies option (PAYFORM_CURRENCIES), which names it');
  });

  it('tells the operator when the gateway refuses another field the session asked, not what the customer typed', async () => {
    await open();
    const session = await stack.openSession({ split: [{ sub_merchant_id: '00000000-0000-4000-8000-000000000000', amount: 1010 }] });
    // The session's own terms: no payment of it can succeed, and the widget closes on this code.
    expect((await payJson(session.id, payBody(), 422)).error).toMatchObject({ code: 'session_refused', fields: { 'split[0].sub_merchant_id': expect.any(String) } });
    const warned = stack.logs.filter((line) => line.includes('the gateway refused a payment for what the session asked'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('"level":"warn"');
    expect(warned[0]).toContain('split[0].sub_merchant_id is not a sub-merchant of this project');
    expect(warned[0]).toContain(session.order_id);
  });
});

describe('3-D Secure and slow payments', () => {
  it('redirects to the challenge; its success arrives by webhook', async () => {
    await open();
    const session = await stack.openSession();
    const answer = await payJson(session.id, payBody({ card: card('three_ds_challenge') }));
    expect(answer.status).toBe('redirect');
    expect(new URL(answer.redirect_url).origin).toBe(stack.sandboxUrl);
    // A customer back from the bank's page without finishing it is offered the same challenge.
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ status: 'pending', challenge_url: answer.redirect_url });
    // A second click while the challenge is open gets the same challenge, no new payment, marked as another's.
    expect(await payJson(session.id)).toEqual({ ...answer, joined: true });
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
    await stack.settleWebhooks();
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toEqual(expect.not.objectContaining({ challenge_url: expect.anything() }));
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('success');
    expect(stack.changes.filter((change) => change.kind === 'payment').map((change) => [change.status, change.source])).toEqual([
      ['pending', 'gateway_answer'],
      ['success', 'webhook'],
    ]);
  });

  it('a challenge on another origin than the sandbox origin set: refused, the customer told, the log naming both origins and the fix', async () => {
    // localhost for a sandbox at 127.0.0.1: one machine, two origins.
    await open({ companion: { sandboxOrigin: 'http://localhost:1' } });
    const session = await stack.openSession();
    // Not a pending answer to wait on for a challenge nobody can take: the widget says it cannot go on.
    const refused = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 502, { body: payBody({ card: card('three_ds_challenge') }) });
    expect(refused.error).toMatchObject({ code: 'unsafe_redirect', message: 'The gateway’s 3-D Secure page address is not safe to open' });
    // The gateway has the payment: kept as it stands, for reconciliation to settle.
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('pending');
    // A second click meets the same attempt, and is told the same.
    expect((await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 502, { body: payBody() })).error.code).toBe('unsafe_redirect');
    // Nor is the challenge the ledger did not keep offered to a customer coming back.
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toEqual(expect.not.objectContaining({ challenge_url: expect.anything() }));
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; origin?: string }).filter(({ msg }) => msg.startsWith('refused a redirect'));
    expect(said).toEqual([expect.objectContaining({ level: 'error', origin: stack.sandboxUrl })]);
    expect(said[0]!.msg).toContain(`the sandbox origin is http://localhost:1 (PAYFORM_SANDBOX_ORIGIN or the sandboxOrigin option, else the gateway URL's own origin), not ${stack.sandboxUrl} the gateway sends the customer to: set PAYFORM_SANDBOX_ORIGIN to ${stack.sandboxUrl} if that is the sandbox`);
    // That line is the whole story: no stack of the companion's after it.
    expect(stack.logs.filter((line) => line.includes('"request error"'))).toEqual([]);
  });

  it('a challenge on a plain-http gateway with no sandbox origin set: the log says where one is set, and that production takes none', async () => {
    // As a companion started in production against a sandbox: the variable it names is refused there.
    await open({ companion: { sandboxOrigin: undefined } });
    const session = await stack.openSession();
    expect((await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 502, { body: payBody({ card: card('three_ds_challenge') }) })).error.code).toBe('unsafe_redirect');
    const said = stack.logs.map((line) => JSON.parse(line) as { msg: string }).filter(({ msg }) => msg.startsWith('refused a redirect'));
    expect(said).toEqual([
      expect.objectContaining({
        msg:
          'refused a redirect that is neither https nor the sandbox: a sandbox or test gateway serving plain http pages needs its origin in PAYFORM_SANDBOX_ORIGIN (the sandboxOrigin option), ' +
          'which the companion in production (NODE_ENV=production) refuses: run it against a sandbox in development; the live gateway sends https',
      }),
    ]);
  });

  it('a refused challenge ends as a failure the customer can retry', async () => {
    await open();
    const session = await stack.openSession();
    const answer = await payJson(session.id, payBody({ card: card('three_ds_challenge') }));
    await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'failure' });
    await stack.settleWebhooks();
    const view = await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200);
    expect(view).toMatchObject({ status: 'failure', message: 'The payment was not confirmed. Try again or use another card.' });
    expect(view).not.toHaveProperty('challenge_url');
    expect((await payJson(session.id)).order_id).toBe(`${session.order_id}:2`);
  });

  it('answers pending for a card still processing; the webhook settles it', async () => {
    await open();
    const session = await stack.openSession();
    expect(await payJson(session.id, payBody({ card: card('slow_pending') }))).toMatchObject({ status: 'pending', order_id: session.order_id });
    await eventually(async () => {
      await stack.settleWebhooks();
      expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');
    });
  });
});

describe('one payment per session', () => {
  it('takes ten attempts at most, then asks for a new checkout: a card tester holding one session gets no more', async () => {
    await open({ companion: { rateLimits: { perSession: 100, perClient: 100 } } });
    const session = await stack.openSession();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status, `before attempt ${attempt}`).toBe(attempt === 1 ? 'open' : 'failure');
      // The tenth decline says the session takes no more: the widget closes its form on it.
      expect(await (await stack.pay(session.id, payBody({ card: card('rejected') }))).json(), `attempt ${attempt}`).toMatchObject({ status: 'failure', retryable: attempt < 10 });
    }
    // The widget reads a session it can no longer pay, not a form that says "try again".
    expect(await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).toMatchObject({ status: 'expired', message: expect.stringMatching(/\S/) });
    const eleventh = await stack.pay(session.id);
    expect(eleventh.status).toBe(409);
    expect((await eleventh.json()).error.code).toBe('retry_unavailable');
    expect(await stack.ledger.getPayment(`${session.order_id}:11`)).toBeUndefined();
  });

  it('says a decline may be tried again by its own attempt, though another tab paid the session meanwhile', async () => {
    // Another tab pays while this decline is still being told to the merchant's hook.
    let sessionId = '';
    let other: Promise<unknown> | undefined;
    await open({
      companion: {
        onPaymentEvent: async (change) => {
          if (change.kind !== 'payment' || change.status !== 'failure' || other) return;
          other = payJson(sessionId);
          await other;
        },
      },
    });
    const session = await stack.openSession();
    sessionId = session.id;
    expect(await payJson(session.id, payBody({ card: card('rejected') }))).toMatchObject({ status: 'failure', retryable: true });
    expect(await other).toMatchObject({ status: 'success', order_id: `${session.order_id}:2` });
  });

  it('twenty simultaneous clicks create one payment', async () => {
    await open();
    const session = await stack.openSession();
    const answers = await Promise.all(Array.from({ length: 20 }, () => payJson(session.id)));
    expect(new Set(answers.map((answer) => answer.order_id))).toEqual(new Set([session.order_id]));
    expect(answers.every((answer) => ['success', 'pending'].includes(answer.status))).toBe(true);
    expect(await stack.ledger.getPayment(`${session.order_id}:2`)).toBeUndefined();
    expect((await stack.companion.companion.services.gateway.orders.get(session.order_id)).filter((entry) => entry.method === 'purchase')).toHaveLength(1);
  });

  it('a paid session answers success again without paying again', async () => {
    await open();
    const session = await stack.openSession();
    const first = await payJson(session.id);
    expect(first.joined).toBeUndefined();
    expect(await payJson(session.id, payBody({ card: card('rejected') }))).toEqual({ ...first, joined: true });
  });

  it('refuses direct payment where the merchant allows hosted only', async () => {
    await open();
    const session = await stack.openSession({ modes: ['hosted'] });
    expect((await payJson(session.id, payBody(), 409)).error.code).toBe('mode_not_allowed');
  });
});

describe('what the browser sends is checked before anything is stored', () => {
  const cases: [string, Record<string, unknown>, Record<string, string>][] = [
    ['a number failing Luhn', { card: { ...card(), number: '4242 4242 4242 4241' } }, { 'card.number': 'fails the Luhn check' }],
    ['letters in the number', { card: { ...card(), number: '4242abcd' } }, { 'card.number': 'must be 14 to 19 digits' }],
    // The masks that keep card numbers out of logs start at 14 digits: none shorter is taken.
    ['a 13-digit Visa, no longer issued', { card: { ...card(), number: '4222 2222 22222' } }, { 'card.number': 'must be 14 to 19 digits' }],
    ['a missing CVV', { card: { number: cardNumber('success'), exp_month: 12, exp_year: 2031 } }, { 'card.cvv': 'is required' }],
    ['month 13', { card: { ...card(), exp_month: 13 } }, { 'card.exp_month': 'must be at most 12' }],
    ['a year past any number', { card: { ...card(), exp_year: 1e18 } }, { 'card.exp_year': 'must be a year of 2 or 4 digits (30 or 2030)' }],
    ['a year of five digits', { card: { ...card(), exp_year: 20301 } }, { 'card.exp_year': 'must be a year of 2 or 4 digits (30 or 2030)' }],
    ['a token with card data', { card: { token: 'x', cvv: TEST_CVV } }, { 'card.cvv': 'is not sent with a saved card token' }],
    ['an amount (the session sets it)', { amount: 0.01 }, { amount: 'is not allowed' }],
    ['no fingerprint', { fingerprint: undefined }, { fingerprint: 'is required' }],
    // The wire takes any string in the browser's fields: a card number there would reach the gateway unmasked.
    [
      'a card number in the browser’s language',
      { fingerprint: { ...FINGERPRINT, browserLanguage: 'en-4242-4242-4242-4242' } },
      { 'fingerprint.browserLanguage': 'must not contain a card number' },
    ],
    [
      'a card number as the browser’s language',
      { fingerprint: { ...FINGERPRINT, browserLanguage: '4242424242424242' } },
      { 'fingerprint.browserLanguage': 'must be a BCP 47 language tag, as navigator.language gives it (uk-UA)' },
    ],
    [
      'a card number after a time zone’s name',
      { fingerprint: { ...FINGERPRINT, browserTimeZone: 'Europe/4242424242424242' } },
      { 'fingerprint.browserTimeZone': 'must be a time zone’s name, as Intl.DateTimeFormat gives it (Europe/Kyiv)' },
    ],
    [
      'text for the screen’s size and colour depth',
      { fingerprint: { ...FINGERPRINT, browserScreenWidth: '1920px', browserColorDepth: '30' } },
      {
        'fingerprint.browserScreenWidth': 'must be the screen’s width in pixels, up to 6 digits',
        'fingerprint.browserColorDepth': 'must be a colour depth EMV 3-D Secure takes: 1, 4, 8, 15, 16, 24, 32 or 48',
      },
    ],
    ['a bad e-mail', { customer: { ...CUSTOMER, email: 'x' } }, { 'customer.email': 'must be an e-mail address' }],
  ];
  it.each(cases)('%s → 400 naming the field, never echoing the card', async (_name, change, fields) => {
    await open();
    const session = await stack.openSession();
    const response = await stack.pay(session.id, payBody(change));
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(JSON.parse(text).error.fields).toEqual(fields);
    expect(text).not.toContain(TEST_CVV);
    expect(text).not.toMatch(/\d{12,}/);
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
  });

  it('asks for the customer fields the merchant did not prefill (422), and the merchant’s win', async () => {
    await open();
    const session = await stack.openSession({ customer: { fname: 'Merchant', lname: 'Given' } });
    const missing = await payJson(session.id, payBody({ customer: { fname: 'Payer' } }), 422);
    expect(missing.error).toMatchObject({ code: 'customer_required', fields: { 'customer.email': 'is required', 'customer.phone': 'is required' } });
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    await payJson(session.id, payBody({ customer: { ...CUSTOMER, fname: 'Payer' } }));
    expect((await stack.ledger.getPayment(session.order_id))?.customer).toMatchObject({ fname: 'Merchant', lname: 'Given', email: CUSTOMER.email });
  });

  it('refuses a card of a scheme the shop does not take (acceptedBrands) without asking the gateway, naming the scheme, not the number', async () => {
    await open({ companion: { acceptedBrands: ['visa', 'amex'] } });
    const session = await stack.openSession();
    const number = cardNumber('success', 'mastercard');
    const response = await stack.pay(session.id, payBody({ card: { ...card(), number } }));
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(JSON.parse(text).error).toMatchObject({
      code: 'card_brand_not_accepted',
      fields: { 'card.number': 'is a Mastercard card; this shop takes Visa, American Express' },
    });
    expect(text).not.toContain(number.slice(-8));
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    // Its own schemes go through.
    await payJson(session.id, payBody());
  });

  it('refuses an expired card without asking the gateway', async () => {
    await open();
    const session = await stack.openSession();
    const answer = await payJson(session.id, payBody({ card: { ...card(), exp_month: 1, exp_year: 2020 } }), 422);
    expect(answer.error).toMatchObject({ code: 'card_expired', fields: { 'card.exp_month': 'the card has expired' } });
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
  });
});

describe('saved cards', () => {
  it('pay with the token of the customer’s own saved card, not another’s', async () => {
    await open();
    const first = await stack.openSession({ customer_id: 'alice' });
    await payJson(first.id);
    const [saved] = await stack.ledger.listCards('alice');
    const second = await stack.openSession({ customer_id: 'alice' });
    expect((await payJson(second.id, payBody({ card: { token: saved!.id } }))).status).toBe('success');
    expect(await stack.ledger.getPayment(second.order_id)).toMatchObject({ status: 'success', ccMask: saved!.ccMask });

    const bob = await stack.openSession({ customer_id: 'bob' });
    const refused = await payJson(bob.id, payBody({ card: { token: saved!.id } }), 422);
    expect(refused.error).toMatchObject({ code: 'unknown_card', fields: { 'card.token': 'is not a saved card of this customer' } });
    const anonymous = await stack.openSession();
    expect((await payJson(anonymous.id, payBody({ card: { token: saved!.ccToken } }), 422)).error.code).toBe('unknown_card');
  });

  it('neither offers nor takes a saved card of a scheme the shop no longer takes (acceptedBrands)', async () => {
    await open({ companion: { acceptedBrands: ['visa'] } });
    await payJson((await stack.openSession({ customer_id: 'dana' })).id);
    // Saved when the shop took Mastercard too.
    const mastercard = await stack.ledger.saveCard({ customerId: 'dana', ccToken: 'gateway-token-of-a-mastercard', ccMask: '545454******5454', brand: 'mastercard' });
    const session = await stack.openSession({ customer_id: 'dana' });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).saved_cards).toEqual([expect.objectContaining({ mask: '424242******4242' })]);
    const refused = await payJson(session.id, payBody({ card: { token: mastercard.id } }), 422);
    expect(refused.error).toMatchObject({ code: 'card_brand_not_accepted', fields: { 'card.token': 'is a Mastercard card; this shop takes Visa' } });
  });

  it('the merchant lists and deletes a customer’s cards; a deleted card is no longer offered', async () => {
    await open();
    await payJson((await stack.openSession({ customer_id: 'carol' })).id);
    const listed = await stack.json('GET', '/api/customers/carol/cards', 200, { admin: true });
    expect(listed.cards).toEqual([expect.objectContaining({ mask: '424242******4242', brand: 'visa' })]);
    expect(JSON.stringify(listed)).not.toContain('cc_token');
    expect((await stack.request('GET', '/api/customers/carol/cards')).status).toBe(401);
    // A body or query the route does not take is refused by name, and the card stays.
    const card = `/api/customers/carol/cards/${listed.cards[0].id}`;
    expect((await stack.json('DELETE', card, 400, { admin: true, body: { x: 1 } })).error.fields).toEqual({ x: 'is not allowed' });
    expect((await stack.json('DELETE', `${card}?x=1`, 400, { admin: true })).error.fields).toEqual({ x: 'is not allowed' });
    expect((await stack.json('GET', '/api/customers/carol/cards', 200, { admin: true })).cards).toHaveLength(1);
    await stack.json('DELETE', `/api/customers/carol/cards/${listed.cards[0].id}`, 204, { admin: true });
    expect(await stack.json('DELETE', `/api/customers/carol/cards/${listed.cards[0].id}`, 404, { admin: true })).toMatchObject({ error: { code: 'card_not_found' } });
    const next = await stack.openSession({ customer_id: 'carol' });
    expect((await stack.json('GET', `/api/checkout/sessions/${next.id}`, 200)).saved_cards).toEqual([]);
  });
});

describe('card testing defences', () => {
  it('limits pay attempts per session with 429 and Retry-After', async () => {
    await open({ companion: { rateLimits: { perSession: 3, perClient: 100 } } });
    const session = await stack.openSession();
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await stack.pay(session.id, payBody({ card: card('rejected') }))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await stack.pay(session.id);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe('rate_limited');
    // Said once as the session crossed its limit, not for each request refused after.
    expect(stack.logs.filter((line) => line.includes('pay attempts rate limited'))).toEqual([expect.stringContaining('"by":"session"')]);
    expect(stack.logs.find((line) => line.includes('pay attempts rate limited'))).toContain('"limit":"3 per 60 s, set by PAYFORM_RATE_LIMITS (the rateLimits setting)"');
  });

  it('limits pay attempts per client address across sessions', async () => {
    await open({ companion: { rateLimits: { perSession: 100, perClient: 2 } } });
    const sessions = await Promise.all([1, 2, 3].map(() => stack.openSession()));
    expect((await stack.pay(sessions[0]!.id)).status).toBe(200);
    expect((await stack.pay(sessions[1]!.id)).status).toBe(200);
    expect((await stack.pay(sessions[2]!.id)).status).toBe(429);
    expect((await stack.pay(sessions[2]!.id, payBody(), { ip: '192.0.2.99' })).status).toBe(200);
    expect((await stack.ledger.getSession(sessions[2]!.id))?.payment?.status).toBe('success');
  });
});

describe('card data at rest', () => {
  it('is not in the database files, the logs or the hook’s payloads after every kind of payment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-at-rest-'));
    const path = join(dir, 'ledger.db');
    const onFile: LedgerBackend = {
      name: 'SQLite file',
      persistent: false,
      open: async (clock) => {
        const ledger = await openLedger(path, { clock: clock.read });
        return { ledger, dispose: () => ledger.close() };
      },
    };
    await open({ backend: onFile });
    const outcomes = ['success', 'rejected', 'three_ds_challenge', 'slow_pending'] as const;
    for (const outcome of outcomes) {
      const session = await stack.openSession({ customer_id: 'dave' });
      await stack.pay(session.id, payBody({ card: card(outcome) }));
    }
    await stack.settleWebhooks();
    const stored = readdirSync(dir).map((file) => readFileSync(join(dir, file)).toString('latin1')).join('\n');
    expect(stored).toContain('424242******4242');
    const everything = [stored, stack.logs.join('\n'), JSON.stringify(stack.changes)].join('\n');
    for (const outcome of outcomes) expect(everything).not.toContain(cardNumber(outcome));
    expect(stack.logs.join('\n')).not.toContain(`"${TEST_CVV}"`);
    expect(stack.logs.some((line) => line.includes('/pay'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('an order id someone else already used at the gateway (P-409)', () => {
  it('is never answered with that payment: the attempt ends and goes on under a fresh order id', async () => {
    await open();
    // Another integration paid under the merchant's order id, the same amount even: an id the merchant chose may be theirs.
    const foreign = await stack.companion.companion.services.gateway.payments.create({
      mode: 'direct', method: 'purchase', amount: 500_000, currency: 'UAH', description: 'someone else', order_id: 'SHOP-1001', ...CARD_PARAMS,
      customer_fname: 'A', customer_lname: 'B', customer_email: 'a@example.com', customer_phone: '+380501112233', customer_ip: '198.51.100.9',
      browser_fingerprint: { ...FINGERPRINT, browserAcceptHeader: '*/*', browserIpAddress: '198.51.100.9', browserUserAgent: 'x' },
    });
    expect(foreign.status).toBe('success');
    const session = await stack.openSession({ amount: 500_000, order_id: 'SHOP-1001' });

    const declined = await payJson(session.id, payBody({ card: card('rejected') }));
    expect(declined).toMatchObject({ status: 'failure', message: 'The payment was declined. Try another card or contact your bank.' });
    expect(declined.order_id).not.toBe('SHOP-1001');
    expect(await stack.ledger.getPayment('SHOP-1001')).toMatchObject({ status: 'failure', paymentId: null, statusDescription: 'The order id is already used at the gateway by another payment' });
    expect(stack.changes.filter((change) => change.kind === 'payment' && change.status === 'success')).toEqual([]);

    const paid = await payJson(session.id);
    expect(paid.status).toBe('success');
    const [entry] = await stack.companion.companion.services.gateway.orders.get(paid.order_id);
    expect(entry).toMatchObject({ status: 'success', amount: 500_000 });
    const [theirs] = await stack.companion.companion.services.gateway.orders.get('SHOP-1001');
    expect(theirs).toMatchObject({ status: 'success', amount: 500_000, payment_id: foreign.payment_id });
  });
});

describe('an order id this companion used before its ledger was restored from an older backup (P-409)', () => {
  it('is known by its making: the ids the companion makes, never a merchant’s', () => {
    const of = (sessionOrderId: string) => madeHere({ sessionOrderId });
    for (const id of [newOrderId(), newOrderId(), keyedOrderId('admin-token', 'key-1')]) expect(of(id), id).toBe(true);
    for (const id of ['SHOP-1001', '20261122143015123456', 'k-shop-order', 'ABCDEF0123456789ABCD', `${newOrderId()}0`]) expect(of(id), id).toBe(false);
  });

  it('reads the payment the gateway holds under it as the attempt’s own: the customer is not charged again', async () => {
    await open();
    const session = await stack.openSession();
    // What the companion sent before the backup it was restored from: the same terms, paid.
    const earlier = await stack.companion.companion.services.gateway.payments.create({
      mode: 'direct', method: 'purchase', amount: session.amount, currency: session.currency, description: session.description, order_id: session.order_id, ...CARD_PARAMS,
      customer_fname: 'Olena', customer_lname: 'Koval', customer_email: 'olena@example.com', customer_phone: '+380501234567', customer_ip: '198.51.100.9',
      browser_fingerprint: { ...FINGERPRINT, browserAcceptHeader: '*/*', browserIpAddress: '198.51.100.9', browserUserAgent: 'x' },
    });
    expect(earlier.status).toBe('success');

    const paid = await payJson(session.id);
    expect(paid).toMatchObject({ status: 'success', order_id: session.order_id });
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'success', paymentId: earlier.payment_id });
    // One payment at the gateway: none under the session's next order id.
    await expect(stack.companion.companion.services.gateway.orders.get(`${session.order_id}:2`)).rejects.toThrow();
  });
});

describe('gateway trouble', () => {
  it('a gateway that cannot be reached: 503, the attempt ends, the customer may try again', async () => {
    await open({
      gateway: {
        fetch: () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })),
      },
    });
    const session = await stack.openSession();
    const response = await stack.pay(session.id);
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe('gateway_unavailable');
    expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure', statusCode: null });
    const view = await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200);
    expect(view).toMatchObject({ status: 'failure', message: 'The payment could not be completed. Try again.' });
    // Told, and logged, as ended by the companion: the gateway never answered.
    expect(stack.changes.map((change) => [change.status, change.source])).toEqual([['failure', 'not_sent']]);
    expect(stack.logs.filter((line) => line.includes('payment status changed')).map((line) => JSON.parse(line).source)).toEqual(['not_sent']);
  });
});

describe('a gateway outage the customer clicks through', () => {
  it('does not use up the checkout: once the gateway is back the same session pays', async () => {
    let away = true;
    await open({
      gateway: {
        fetch: (input, init) =>
          away ? Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })) : Promise.resolve(stack.sandbox.fetch(new Request(input, init))),
      },
    });
    const session = await stack.openSession();
    // More clicks than the ten attempts a session takes.
    for (let click = 1; click <= 11; click += 1) expect((await stack.pay(session.id)).status, `click ${click}`).toBe(503);
    // One error says the gateway is away; each payment's line names its order at info, not a warning apiece.
    const lines = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.filter(({ level }) => level === 'error').map(({ msg }) => msg)).toEqual([expect.stringContaining('cannot be reached')]);
    expect(lines.filter(({ msg }) => msg === 'a payment could not be sent to the gateway').map(({ level }) => level)).toEqual(Array(11).fill('info'));
    // (The in-process stack's public URL names no host: its check's warning aside.)
    expect(lines.filter(({ level, msg }) => level === 'warn' && !msg.startsWith('PAYFORM_PUBLIC_URL'))).toEqual([]);
    away = false;
    expect(await payJson(session.id)).toMatchObject({ status: 'success', order_id: `${session.order_id}:12` });
  });
});

describe('a gateway that takes the payment and never answers', () => {
  it('has the customer answered pending after the call’s timeout and one read of the order, its retries inside the read’s limit', async () => {
    let frozen = false;
    const orderReads: string[] = [];
    const hang = (signal: AbortSignal | null | undefined) => new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error)));
    await open({
      gateway: {
        timeoutMs: 300,
        fetch: (input, init) => {
          const request = new Request(input, init);
          if (!frozen) return Promise.resolve(stack.sandbox.fetch(request));
          if (request.method === 'GET' && /\/orders\//.test(new URL(request.url).pathname)) orderReads.push(request.url);
          return hang(init?.signal);
        },
      },
    });
    const session = await stack.openSession();
    frozen = true;
    expect(await payJson(session.id)).toMatchObject({ status: 'pending', order_id: session.order_id });
    // One attempt of RECOVERY_READ_MS: a retry of it would have kept the customer waiting as long again.
    expect(orderReads).toHaveLength(1);
  }, 20_000);
});

describe('client address behind a proxy', () => {
  it('counts the address the trusted proxy saw, not what the client claims', async () => {
    await open({ companion: { trustProxy: true, rateLimits: { perSession: 100, perClient: 1 } } });
    const first = await stack.openSession();
    const second = await stack.openSession();
    const viaProxy = (claimed: string) => ({ ip: '10.0.0.5', headers: { 'X-Forwarded-For': `${claimed}, 198.51.100.20` } });
    expect((await stack.pay(first.id, payBody(), viaProxy('203.0.113.1'))).status).toBe(200);
    // Another claimed address from the same real client is still the same client.
    expect((await stack.pay(second.id, payBody(), viaProxy('203.0.113.2'))).status).toBe(429);
    expect(stack.logs.filter((line) => line.includes('PAYFORM_TRUST_PROXY is on'))).toEqual([]);
  });

  it('says once when no proxy adds X-Forwarded-For, since any client may then choose its address', async () => {
    await open({ companion: { trustProxy: true } });
    const session = await stack.openSession();
    // A payment straight from the client; then one claiming an address of its choosing.
    expect((await stack.pay(session.id)).status).toBe(200);
    const forged = await stack.openSession();
    expect((await stack.pay(forged.id, payBody(), { headers: { 'X-Forwarded-For': '6.6.6.6' } })).status).toBe(200);
    expect((await stack.pay((await stack.openSession()).id)).status).toBe(200);
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('PAYFORM_TRUST_PROXY is on'));
    expect(said).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringContaining('without X-Forwarded-For: nothing in front of the companion adds the header') })]);
    expect(said[0]!.msg).toContain('Turn PAYFORM_TRUST_PROXY off, or have your proxy set X-Forwarded-For');
  });

  // nginx in front of the bin, PAYFORM_TRUST_PROXY forgotten: every customer is nginx, which
  // else shows only once the shop's customers together pass the per-client limit and get 429.
  it('says once, at the first payment, when its own proxy forwards payments but PAYFORM_TRUST_PROXY is off', async () => {
    await open();
    const viaProxy = (customer: string) => ({ ip: '127.0.0.1', headers: { 'X-Forwarded-For': customer } });
    for (const customer of ['198.51.100.1', '198.51.100.2']) expect((await stack.pay((await stack.openSession()).id, payBody(), viaProxy(customer))).status).toBe(200);
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; proxy?: string }).filter(({ msg }) => msg.includes('PAYFORM_TRUST_PROXY is off'));
    expect(said).toEqual([expect.objectContaining({ level: 'warn', proxy: '127.0.0.1' })]);
    expect(said[0]!.msg).toContain('every customer counts as 127.0.0.1');
    expect(said[0]!.msg).toContain('set PAYFORM_TRUST_PROXY=true');
  });

  /** The client each pay attempt's line names. */
  const clients = () =>
    stack.logs
      .map((line) => JSON.parse(line) as { msg: string; source?: string; client?: string })
      .filter((entry) => entry.msg === 'payment status changed' && entry.source === 'gateway_answer')
      .map((entry) => entry.client);

  it('reads X-Forwarded-For from its end past every proxy of yours: a balancer before nginx, ports, brackets', async () => {
    await open({ companion: { trustProxy: true } });
    const forwarded = ['198.51.100.30, 10.0.0.9', '6.6.6.6, 198.51.100.31:5678, 100.64.1.2', '[2001:db8:7::5]:443', '10.0.0.7, 172.16.0.1', 'unknown, 10.0.0.8'];
    for (const header of forwarded) await stack.pay((await stack.openSession()).id, payBody(), { ip: '127.0.0.1', headers: { 'X-Forwarded-For': header } });
    // Every entry trusted: the first is the client; one that is no address ends the walk, said once.
    expect(clients()).toEqual(['198.51.100.30', '198.51.100.31', '2001:db8:7::5', '10.0.0.7', '10.0.0.8']);
    const said = (words: string) => stack.logs.filter((line) => line.includes(words));
    const unreadable = said('no address, before the addresses proxies you trust vouch for');
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]).toContain('X-Forwarded-For holds \\"unknown\\", no address');
    expect(unreadable[0]).toContain('10.0.0.8 is taken for the client');
    // Only trusted addresses (a customer on a private network, or a proxy that overwrote the header): said once too.
    const onlyProxies = said('X-Forwarded-For named only addresses PAYFORM_TRUST_PROXY trusts');
    expect(onlyProxies).toHaveLength(1);
    expect(onlyProxies[0]).toContain('the first, 10.0.0.7, is taken for the client');
    expect(onlyProxies[0]).toContain('$proxy_add_x_forwarded_for, not $remote_addr');
  });

  it('takes an IPv4 client however its mapped IPv6 form is written, and no zone or unspecified address', async () => {
    await open({ companion: { trustProxy: true } });
    for (const ip of ['::ffff:198.51.100.9', '::ffff:c633:640a', '0:0:0:0:0:ffff:198.51.100.11', 'fe80::1%eth0']) await stack.pay((await stack.openSession()).id, payBody(), { ip });
    await stack.pay((await stack.openSession()).id, payBody(), { ip: '10.0.0.5', headers: { 'X-Forwarded-For': '::' } });
    expect(clients()).toEqual(['198.51.100.9', '198.51.100.10', '198.51.100.11', 'fe80::1', '10.0.0.5']);
  });

  it('ignores the header from a public peer it does not list, says so once, and reads it from one it lists', async () => {
    await open({ companion: { trustProxy: true, rateLimits: { perSession: 100, perClient: 1 } } });
    const around = (claimed: string) => ({ ip: '198.51.100.40', headers: { 'X-Forwarded-For': claimed } });
    expect((await stack.pay((await stack.openSession()).id, payBody(), around('203.0.113.50'))).status).toBe(200);
    // A new address claimed at each attempt is the same peer: its limit holds.
    expect((await stack.pay((await stack.openSession()).id, payBody(), around('203.0.113.51'))).status).toBe(429);
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; proxy?: string }).filter(({ msg }) => msg.includes('a peer PAYFORM_TRUST_PROXY does not trust'));
    expect(said).toEqual([expect.objectContaining({ level: 'error', proxy: '198.51.100.40' })]);
    expect(said[0]!.msg).toContain('does not trust (proxies on this machine or a private network): the header is ignored');
    expect(said[0]!.msg).toContain('list its networks, comma-separated: PAYFORM_TRUST_PROXY=private,203.0.113.0/24');
    expect(clients()).toEqual(['198.51.100.40']);

    // A list trusts exactly what it names: this machine too only when it says private.
    await open({ companion: { trustProxy: ['198.51.100.0/26'] } });
    await stack.pay((await stack.openSession()).id, payBody(), around('203.0.113.52, 198.51.100.41'));
    await stack.pay((await stack.openSession()).id, payBody(), { ip: '127.0.0.1', headers: { 'X-Forwarded-For': '203.0.113.53' } });
    expect(clients()).toEqual(['203.0.113.52', '127.0.0.1']);
    await open({ companion: { trustProxy: ['private', '198.51.100.0/26'] } });
    await stack.pay((await stack.openSession()).id, payBody(), { ip: '127.0.0.1', headers: { 'X-Forwarded-For': '203.0.113.54, 198.51.100.42' } });
    expect(clients()).toEqual(['203.0.113.54']);
  });

  it('makes no payment for a client gone before its address was read, and does not read its header', async () => {
    await open({ companion: { trustProxy: true } });
    const session = await stack.openSession();
    // A Node host's socket, reset right after the request was sent: destroyed, its peer unread.
    const gone = { incoming: { socket: { destroyed: true }, destroyed: false, complete: true } };
    const headers = { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.77' };
    const answer = await stack.companion.request(`/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers, body: JSON.stringify(payBody()) }, gone as never);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toMatchObject({ code: 'request_aborted' });
    expect(await stack.ledger.getPayment(session.order_id)).toBeUndefined();
    expect(clients()).toEqual([]);
  });

  it('says nothing of a proxy for a header from a public address, which any client can send', async () => {
    await open();
    expect((await stack.pay((await stack.openSession()).id, payBody(), { headers: { 'X-Forwarded-For': '198.51.100.1' } })).status).toBe(200);
    expect((await stack.pay((await stack.openSession()).id)).status).toBe(200);
    expect(stack.logs.filter((line) => line.includes('PAYFORM_TRUST_PROXY'))).toEqual([]);
  });
});
