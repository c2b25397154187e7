import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountListResponse, AccountResponse, TerminalListResponse, OrderStateResponse } from '@payform/gateway/wire';
import { SUB_A, SUB_B, directPayment, hostedPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox();
});

const pos = () => `/api/v1/pos/${sandbox.project.posId}`;
const balances = () => `/api/v1/balances/pos/${sandbox.project.posId}`;
const pay = (overrides: Json = {}, card?: string) => sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, overrides, card));
/** Balances are read with X-API-AUTH only. */
const balanceRead = (path: string) => sandbox.get(path, { 'X-API-KEY': '' });

describe('balances', () => {
  it('lists the accounts with plausible balances that follow the project’s payments', async () => {
    const before = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    expect(before.accounts.map((account) => [account.name, account.currency])).toEqual([
      ['Settlement account', 'UAH'], ['Test account', 'XTS'], ['Settlement account (USD)', 'USD'], ['Settlement account (EUR)', 'EUR'], ['Settlement account (PLN)', 'PLN'],
    ]);
    expect(before.accounts[0]?.balances).toEqual({ available: 12500, rollingReserve: 0 });
    const payment = await pay({ amount: 100 });
    await sandbox.postJson('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: payment.order_id, order_currency: 'UAH', refund_amount: 40 });
    const after = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // +100 paid, -1.55 commission, -40 refunded, -5 (5%) held in the rolling reserve.
    expect(after.accounts[0]?.balances).toEqual({ available: 12553.45, rollingReserve: 5 });
  });

  it('keeps an account and an e-commerce terminal in every currency the project accepts, each moved by its own payments', async () => {
    expect(await pay({ amount: 50, currency: 'EUR' })).toMatchObject({ status: 'success', fee: { amount: 0.8, currency: 'EUR' } });
    const list = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // +50 paid, -0.80 commission (5 cents + 1.5 %), -2.50 (5 %) held in the rolling reserve; in EUR, not in UAH.
    expect(list.accounts.map((account) => [account.name, account.currency, account.balances])).toEqual([
      ['Settlement account', 'UAH', { available: 12500, rollingReserve: 0 }],
      ['Test account', 'XTS', { available: 0, rollingReserve: 0 }],
      ['Settlement account (USD)', 'USD', { available: 0, rollingReserve: 0 }],
      ['Settlement account (EUR)', 'EUR', { available: 46.7, rollingReserve: 2.5 }],
      ['Settlement account (PLN)', 'PLN', { available: 0, rollingReserve: 0 }],
    ]);
    const euros = list.accounts[3]?.id ?? '';
    expect(AccountResponse.parse(await (await balanceRead(`${balances()}/accounts/${euros}`)).json())).toMatchObject({ id: euros, balances: { available: 46.7, rolling_reserve: 2.5 } });
    const terminals = TerminalListResponse.parse(await (await balanceRead(`${balances()}/terminals`)).json());
    expect(terminals.terminals.map((terminal) => [terminal.name, terminal.currency, terminal.balances.available])).toEqual([
      ['E-commerce terminal', 'UAH', 4800],
      ['Recurring payments terminal', 'UAH', 935.5],
      ['E-commerce terminal (USD)', 'USD', 0],
      ['E-commerce terminal (EUR)', 'EUR', 49.2],
      ['E-commerce terminal (PLN)', 'PLN', 0],
      ['E-commerce terminal (XTS)', 'XTS', 0],
    ]);
    // Ids stay derived from the pos_id, so they are the same across restarts.
    const again = testSandbox();
    const ids = async (box: TestSandbox) => AccountListResponse.parse(await (await box.get(`/api/v1/balances/pos/${box.project.posId}/accounts`)).json()).accounts.map((account) => account.id);
    expect(await ids(again)).toEqual(list.accounts.map((account) => account.id));
  });

  it('keeps one account in XTS when XTS is the project’s own currency: a payment is not counted twice', async () => {
    sandbox = testSandbox({ projects: [{ currency: 'XTS', currencies: ['XTS'] }] });
    await pay({ amount: 2, currency: 'XTS' });
    const list = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // +2 paid, -0.08 commission, -0.10 reserve.
    expect(list.accounts.map((account) => [account.name, account.currency, account.balances])).toEqual([
      ['Settlement account', 'XTS', { available: 12501.82, rollingReserve: 0.1 }],
    ]);
  });

  it('charges an auth no fee, its capture the commission: the fees of answers, webhooks and order state add up to what the balance took', async () => {
    const auth = await pay({ method: 'auth', amount: 500 });
    expect(auth).toMatchObject({ status: 'success', status_code: '1002', fee: null, fixed_fee: null, percent_fee: null });
    const orderId = String(auth.order_id);
    const captured = await sandbox.postJson('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', charge_amount: 400 });
    // 5 minor units + 1.5 % of the 400 captured, not of the 500 held.
    expect(captured).toMatchObject({ status: 'success', amount: 400, fee: { amount: 6.05, currency: 'UAH' } });
    await sandbox.deliver();
    expect(sandbox.inbox.events(orderId).map((event) => [event.method, event.fee, event.fixed_fee, event.percent_fee])).toEqual([
      ['auth', null, null, null],
      ['capture', { amount: 6.05, currency: 'UAH' }, undefined, undefined],
    ]);
    const entries = await sandbox.getJson<Json[]>(`${pos()}/orders/${orderId}`);
    expect(entries.map((entry) => [entry.method, entry.fee])).toEqual([['auth', null], ['capture', { amount: 6.05, currency: 'UAH' }]]);
    const after = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // +400 captured, -6.05 commission (the only fee reported), -20 (5 %) held in the rolling reserve.
    expect(after.accounts[0]?.balances).toEqual({ available: 12873.95, rollingReserve: 20 });
  });

  it('takes a split refund’s commission, which its answer and webhook report, from the balance', async () => {
    const split = [{ amount: 70, sub_merchant_id: SUB_A }, { amount: 30, sub_merchant_id: SUB_B }];
    const purchase = await sandbox.postJson('/api/v1/split/purchase', directPayment(sandbox.project, { amount: 100, split }));
    const orderId = String(purchase.order_id);
    const refunded = await sandbox.postJson('/api/v1/split/refund', {
      pos_id: sandbox.project.posId, order_id: orderId, currency: 'UAH', refund_amount: 30,
      split: [{ amount: 20, sub_merchant_id: SUB_A }, { amount: 10, sub_merchant_id: SUB_B }],
    });
    expect(refunded).toMatchObject({ status: 'success', fee: { amount: 0.45, currency: 'UAH' } });
    await sandbox.deliver();
    const reported = sandbox.inbox.events(orderId).map((event) => (event.fee as { amount: number } | null)?.amount ?? 0);
    expect(reported).toEqual([1.55, 0.45]);
    const after = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // +100 paid, -1.55 and -0.45 commission (all the webhooks reported), -30 refunded, -5 (5 %) reserve.
    expect(after.accounts[0]?.balances).toEqual({ available: 12563, rollingReserve: 5 });
    const terminals = TerminalListResponse.parse(await (await balanceRead(`${balances()}/terminals`)).json());
    expect(terminals.terminals[0]?.balances.available).toBe(4868);
  });

  it('holds the reserve of a three-decimal currency in what the wire carries: two decimals, never 0.506 KWD', async () => {
    sandbox = testSandbox({ projects: [{ currency: 'KWD', currencies: ['KWD'] }] });
    await pay({ amount: 10.12, currency: 'KWD' });
    const after = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // +10.12 paid, -0.16 commission, -0.50 reserve: 5 % is 0.506, held back to the 10 fils the wire can say.
    expect(after.accounts[0]?.balances).toEqual({ available: 1259.46, rollingReserve: 0.5 });
  });

  it('takes a payout (method credit) out of the balance, with its commission, and holds no reserve for it', async () => {
    const { cc_number: _card, exp_month: _month, exp_year: _year, card_cvv: _cvv, browser_fingerprint: _browser, ...payer } = directPayment(sandbox.project);
    const credit = await sandbox.postJson('/api/v1/payment', { ...payer, method: 'credit', amount: '200.00', cc_number: '4242424242424242' });
    expect(credit).toMatchObject({ method: 'credit', status: 'success' });
    const after = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    // -200 paid out, -3.05 commission (5 minor units + 1.5 %); a payout is not turnover to hold back.
    expect(after.accounts[0]?.balances).toEqual({ available: 12296.95, rollingReserve: 0 });
    const terminals = (await (await balanceRead(`${balances()}/terminals`)).json()) as { terminals: { balances: { available: number } }[] };
    expect(terminals.terminals[0]?.balances.available).toBe(4596.95);
  });

  it('reads one account (reserve spelt rolling_reserve), 404 for an unknown id, 400 for a malformed one', async () => {
    const list = AccountListResponse.parse(await (await balanceRead(`${balances()}/accounts`)).json());
    const id = list.accounts[1]?.id ?? '';
    const one = await balanceRead(`${balances()}/accounts/${id}`);
    expect(AccountResponse.parse(await one.json())).toMatchObject({ id, currency: 'XTS', balances: { available: 0, rolling_reserve: 0 } });
    const unknown = await balanceRead(`${balances()}/accounts/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    const malformed = await balanceRead(`${balances()}/accounts/not-a-uuid`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ args: [{ field_name: 'account_id', violation: 'must be a UUID' }] });
  });

  it('takes UUIDs written in upper case, as RFC 4122 allows, in the path and in a body', async () => {
    const upper = sandbox.project.posId.toUpperCase();
    expect(upper).not.toBe(sandbox.project.posId);
    const list = TerminalListResponse.parse(await (await balanceRead(`/api/v1/balances/pos/${upper}/terminals`)).json());
    const terminal = await balanceRead(`/api/v1/balances/pos/${upper}/terminals/${list.terminals[0]?.id.toUpperCase() ?? ''}`);
    expect(await terminal.json()).toMatchObject({ name: 'E-commerce terminal' });
    expect(await pay({ pos_id: upper })).toMatchObject({ status: 'success', pos_id: sandbox.project.posId });
  });

  it('lists terminals with one that always fails in failed_terminals; reading that one answers 500, a status the interface lists for balances', async () => {
    const list = TerminalListResponse.parse(await (await balanceRead(`${balances()}/terminals`)).json());
    expect(list.terminals.map((terminal) => terminal.name)).toEqual([
      'E-commerce terminal', 'Recurring payments terminal', 'E-commerce terminal (USD)', 'E-commerce terminal (EUR)', 'E-commerce terminal (PLN)', 'E-commerce terminal (XTS)',
    ]);
    expect(list.failed_terminals).toEqual([{ id: expect.any(String), message: expect.stringMatching(/unavailable/) }]);
    const working = await balanceRead(`${balances()}/terminals/${list.terminals[0]?.id ?? ''}`);
    expect(await working.json()).toMatchObject({ name: 'E-commerce terminal', balances: { available: 4800 } });
    const failing = await balanceRead(`${balances()}/terminals/${list.failed_terminals?.[0]?.id ?? ''}`);
    // Balances answer 200, 400, 401 or 500 (the interface's Errors, 1), never 503.
    expect(failing.status).toBe(500);
    expect(failing.headers.get('retry-after')).toBeNull();
    expect(await failing.json()).toEqual({ message: list.failed_terminals?.[0]?.message, args: { code: 'P-500' } });
    expect((await balanceRead(`${balances()}/terminals/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('answers 401 for wrong credentials or another project’s pos_id, 400 for a malformed pos_id', async () => {
    expect((await sandbox.get(`${balances()}/accounts`, { 'X-API-AUTH': 'CPAY sandbox-test-api-key:wrong' })).status).toBe(401);
    expect((await balanceRead('/api/v1/balances/pos/00000000-0000-4000-8000-000000000000/accounts')).status).toBe(401);
    expect((await balanceRead('/api/v1/balances/pos/nope/accounts')).status).toBe(400);
  });

  it('keeps the same ids across sandboxes of the same project', async () => {
    const other = testSandbox();
    const ids = async (box: TestSandbox) =>
      AccountListResponse.parse(await (await box.get(`/api/v1/balances/pos/${box.project.posId}/accounts`)).json()).accounts.map((account) => account.id);
    expect(await ids(other)).toEqual(await ids(sandbox));
  });
});

describe('order state and webhook re-send', () => {
  it('lists every operation of an order oldest first, in the order-state shape', async () => {
    const payment = await pay({ method: 'auth', amount: 50 });
    const orderId = String(payment.order_id);
    await sandbox.postJson('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH' });
    await sandbox.postJson('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', refund_amount: 5 });
    const entries = OrderStateResponse.parse(await sandbox.getJson(`${pos()}/orders/${orderId}`));
    expect(entries.map((entry) => [entry.method, entry.status, entry.status_code, entry.amount])).toEqual([
      ['auth', 'success', '1002', 50],
      ['capture', 'success', '1000', 50],
      ['refund', 'success', '1004', 5],
    ]);
    for (const entry of entries) {
      expect(entry).toHaveProperty('processing_time');
      expect(entry).toHaveProperty('currency', 'UAH');
    }
    const one = await sandbox.getJson(`${pos()}/orders/${orderId}/capture`);
    expect(one).toMatchObject({ method: 'capture', amount: 50 });
    expect((await sandbox.get(`${pos()}/orders/${orderId}/void`)).status).toBe(404);
    expect((await sandbox.get(`${pos()}/orders/${orderId}/dance`)).status).toBe(400);
    expect((await sandbox.get(`${pos()}/orders/unknown-order`)).status).toBe(404);
  });

  it('re-sends the webhook of an operation with ?callback=true and records it as a re-send', async () => {
    const payment = await pay({ method: 'auth' });
    const orderId = String(payment.order_id);
    await sandbox.postJson('/api/v1/void', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', server_url: 'https://shop.example/hooks/void' });
    await sandbox.deliver();
    const again = await sandbox.getJson(`${pos()}/orders/${orderId}/void?callback=true`);
    expect(again).toMatchObject({ method: 'void', status_code: '1009' });
    await sandbox.getJson(`${pos()}/orders/${orderId}/auth?callback=true`);
    await sandbox.deliver();
    expect(sandbox.inbox.received.map((delivery) => [delivery.url, delivery.event.method])).toEqual([
      ['https://shop.example/webhooks/gateway', 'auth'],
      ['https://shop.example/hooks/void', 'void'],
      ['https://shop.example/hooks/void', 'void'],
      ['https://shop.example/webhooks/gateway', 'auth'],
    ]);
    const log = (await (await sandbox.control('GET', `/_sandbox/webhooks?order_id=${orderId}`)).json()) as { deliveries: Json[] };
    expect(log.deliveries.map((delivery) => delivery.reason)).toEqual(['status_change', 'status_change', 'resend', 'resend']);
  });

  it('re-sends the latest operation of the kind, a declined one too, or the one named by transactionId; 404 when none was made', async () => {
    const orderId = String((await pay({ amount: 50 })).order_id);
    const refund = (amount: number) => sandbox.postJson('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', refund_amount: amount });
    const refunded = await refund(5);
    const declined = await refund(500);
    expect(declined).toMatchObject({ status: 'failure', status_code: '4139' });
    await sandbox.deliver();
    const before = sandbox.inbox.received.length;
    expect(await sandbox.getJson(`${pos()}/orders/${orderId}/refund?callback=true`)).toMatchObject({ operation_id: declined.operation_id, status: 'failure' });
    expect(await sandbox.getJson(`${pos()}/orders/${orderId}/refund?callback=true&transactionId=${String(refunded.transaction_id)}`)).toMatchObject({ operation_id: refunded.operation_id, status: 'success' });
    await sandbox.deliver();
    expect(sandbox.inbox.received.slice(before).map((delivery) => [delivery.event.operation_id, delivery.event.status, delivery.event.status_code, delivery.event.amount])).toEqual([
      [declined.operation_id, 'failure', '4139', 0],
      [refunded.operation_id, 'success', '1004', 5],
    ]);
    const log = (await (await sandbox.control('GET', `/_sandbox/webhooks?order_id=${orderId}&method=refund`)).json()) as { deliveries: Json[] };
    expect(log.deliveries.map((delivery) => [delivery.event_status, delivery.reason])).toEqual([
      ['success', 'status_change'], ['failure', 'status_change'], ['failure', 'resend'], ['success', 'resend'],
    ]);
    // An order with no capture at all: simply not found.
    const never = await sandbox.get(`${pos()}/orders/${orderId}/capture?callback=true`);
    expect([never.status, ((await never.json()) as { message: string }).message]).toEqual([404, `capture of order ${orderId} not found`]);
  });

  it('answers a HEAD on the re-send as the GET would, without sending anything', async () => {
    const payment = await pay({ method: 'auth' });
    const orderId = String(payment.order_id);
    await sandbox.deliver();
    const sent = sandbox.inbox.received.length;
    const head = await sandbox.call('HEAD', `${pos()}/orders/${orderId}/auth?callback=true`);
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'application/json', '']);
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(sent);
    const log = (await (await sandbox.control('GET', `/_sandbox/webhooks?order_id=${orderId}`)).json()) as { deliveries: Json[] };
    expect(log.deliveries.map((delivery) => delivery.reason)).toEqual(['status_change']);
    // The inspector says why nothing went.
    const { requests } = (await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: { method: string; notes: Json[] }[] };
    expect(requests[0]).toMatchObject({
      method: 'HEAD',
      status: 200,
      response: { headers: { 'content-type': 'application/json' }, body: null },
      notes: [{ kind: 'warning', field: 'callback', what: expect.stringContaining('no webhook sent') }],
    });
    // The same checks as the GET: an unknown order, an order without server_url.
    expect((await sandbox.call('HEAD', `${pos()}/orders/unknown-order/auth?callback=true`)).status).toBe(404);
    const nowhere = String((await pay({ server_url: undefined })).order_id);
    expect((await sandbox.call('HEAD', `${pos()}/orders/${nowhere}/purchase?callback=true`)).status).toBe(400);
    // The GET still re-sends.
    await sandbox.getJson(`${pos()}/orders/${orderId}/auth?callback=true`);
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(sent + 1);
  });

  it('refuses a re-send without X-API-KEY, with callback other than true, or without a server_url', async () => {
    const payment = await pay({ server_url: undefined });
    const orderId = String(payment.order_id);
    expect((await sandbox.get(`${pos()}/orders/${orderId}/purchase?callback=true`, { 'X-API-KEY': '' })).status).toBe(401);
    expect((await sandbox.get(`${pos()}/orders/${orderId}/purchase?callback=false`)).status).toBe(400);
    const nowhere = await sandbox.get(`${pos()}/orders/${orderId}/purchase?callback=true`);
    expect(nowhere.status).toBe(400);
    expect(await nowhere.json()).toMatchObject({ args: [{ field_name: 'server_url' }] });
  });

  it('re-sends a recurring payment’s latest transaction, or the one named by transactionId, with the recurring object', async () => {
    const payment = await pay({ amount: 9.99 });
    const orderId = String(payment.order_id);
    const charge = (await (await sandbox.control('POST', '/_sandbox/recurring', { order_id: orderId })).json()) as Json;
    expect(charge).toMatchObject({ method: 'purchase', amount_minor: 999, currency: 'UAH', status: 'success', recurring: { status: 'active' } });
    expect(charge.transaction_id).not.toBe(payment.transaction_id);
    const latest = await sandbox.getJson(`${pos()}/orders/${orderId}/purchase?callback=true`);
    expect(latest).toMatchObject({ transaction_id: charge.transaction_id, recurring: charge.recurring });
    const first = await sandbox.getJson(`${pos()}/orders/${orderId}/purchase?callback=true&transactionId=${String(payment.transaction_id)}`);
    expect(first).toMatchObject({ transaction_id: payment.transaction_id, recurring: charge.recurring });
    expect((await sandbox.get(`${pos()}/orders/${orderId}/purchase?callback=true&transactionId=nope`)).status).toBe(404);
    await sandbox.deliver();
    const events = sandbox.inbox.events(orderId);
    expect(events.map((event) => [event.transaction_id, Boolean(event.recurring)])).toEqual([
      [payment.transaction_id, false],
      [charge.transaction_id, true],
      [charge.transaction_id, true],
      [payment.transaction_id, true],
    ]);
    expect(await sandbox.getJson<Json[]>(`${pos()}/orders/${orderId}`)).toHaveLength(2);
  });
});

describe('receipts', () => {
  const receipt = (orderId: string, query: string) => sandbox.get(`${pos()}/orders/${orderId}/report/receipt?${query}`);

  it('renders a successful purchase receipt as HTML and as a real PDF', async () => {
    const payment = await pay({ description: 'Кава та круасан' });
    const orderId = String(payment.order_id);
    const htmlAnswer = await receipt(orderId, 'format=html');
    expect(htmlAnswer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(htmlAnswer.headers.get('content-security-policy')).toMatch(/style-src 'sha256-/);
    const text = await htmlAnswer.text();
    expect(text).toContain('Payment receipt');
    expect(text).toContain('Кава та круасан');
    expect(text).toContain('10.10 UAH');
    expect(text).toContain('Visa 424242******4242');
    const pdfAnswer = await receipt(orderId, 'format=pdf');
    expect(pdfAnswer.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdfAnswer.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const document = await PDFDocument.load(bytes);
    expect(document.getPageCount()).toBe(1);
    expect(document.getTitle()).toMatch(/^Payment receipt R-\d{12}$/);
  });

  it('serves the receipt_url without credentials', async () => {
    const payment = await pay();
    const link = new URL(String(payment.receipt_url));
    const open = await sandbox.app.request(link.pathname);
    expect(open.status).toBe(200);
    expect(await open.text()).toContain(String(payment.transaction_id));
    const pdf = await sandbox.app.request(`${link.pathname}?format=pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await sandbox.app.request('/receipts/0123456789abcdef0123456789abcdef')).status).toBe(404);
  });

  it('has receipts for auths, a refund\'s at its receipt_url only, none for declines, lookups or unknown transactions', async () => {
    const auth = await pay({ method: 'auth' });
    expect(await (await receipt(String(auth.order_id), 'format=html')).text()).toContain('Pre-authorisation receipt');
    const purchase = await pay();
    const refunded = await sandbox.postJson('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: purchase.order_id, order_currency: 'UAH' });
    // The interface's order receipts are of purchases, auths and credits: a refund's is the page its answer links.
    const byTransaction = await receipt(String(purchase.order_id), `format=html&transactionId=${String(refunded.transaction_id)}`);
    expect(byTransaction.status).toBe(404);
    expect(await byTransaction.text()).toContain('a refund');
    expect(await (await sandbox.app.request(new URL(String(refunded.receipt_url)).pathname)).text()).toContain('Refund receipt');
    const declined = await pay({}, '4000000000000002');
    expect((await receipt(String(declined.order_id), 'format=html')).status).toBe(404);
    expect((await receipt(String(purchase.order_id), 'format=pdf&transactionId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await receipt(String(purchase.order_id), 'format=docx')).status).toBe(400);
    expect((await receipt(String(purchase.order_id), 'format=signed_pdf')).status).toBe(400);
  });

  it('takes the control plane’s amounts in minor units, and names the field that replaced one in major units', async () => {
    sandbox = testSandbox({ projects: [{ currencies: ['UAH', 'KWD'] }] });
    const refusal = async (path: string, body: Json) => {
      const answer = await sandbox.control('POST', path, body);
      expect(answer.status).toBe(400);
      return ((await answer.json()) as { message: string }).message;
    };
    expect(await refusal('/_sandbox/credits', { order_id: 'old', amount: 12.5, currency: 'UAH' })).toContain(
      'amount: is not taken here (in the sandbox 0.2 it was major units): send amount_minor, in integer minor units: amount_minor: 1250 for 12.50 UAH',
    );
    // A whole number may already be minor units: both readings are given, neither assumed.
    expect(await refusal('/_sandbox/credits', { order_id: 'old', amount: 1500, currency: 'UAH' })).toContain(
      'amount_minor: 1500 for 15.00 UAH, or 150000 for 1500.00 UAH',
    );
    expect(await refusal('/_sandbox/credits', { order_id: 'fils', amount_minor: 1005, currency: 'KWD' })).toContain('amount_minor: must be a multiple of 10 minor units');
    expect(await refusal('/_sandbox/credits', { order_id: 'zero', amount_minor: 0, currency: 'UAH' })).toContain('amount_minor: must be greater than 0');
    expect(await refusal('/_sandbox/credits', { order_id: 'half', amount_minor: 10.5, currency: 'UAH' })).toContain('amount_minor: must be an integer number of minor units');
    // Written with a point or an exponent, a whole number read as such was minor units nobody meant (10.00 UAH as 0.10).
    for (const written of ['10.00', '1e3', '1.0000000000000001']) {
      const answer = await sandbox.app.request('/_sandbox/credits', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"order_id":"written","amount_minor":${written},"currency":"UAH"}` });
      expect(answer.status, written).toBe(400);
      expect(((await answer.json()) as { message: string }).message, written).toMatch(/^Invalid request: amount_minor: must be (?:written as )?a whole number of minor units/);
    }
    const purchase = await pay();
    const recurring = await sandbox.app.request('/_sandbox/recurring', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"order_id":"${String(purchase.order_id)}","amount_minor":350.0}` });
    expect(recurring.status).toBe(400);
    expect(await refusal('/_sandbox/recurring', { order_id: purchase.order_id, amount: 3.5 })).toContain('amount_minor: 350 for 3.50 UAH');
    // An order it cannot find gives no currency to say the amount in.
    expect(await refusal('/_sandbox/recurring', { order_id: 'nowhere', amount: 3.5 })).toMatch(/send amount_minor, in integer minor units$/);
    // Nothing refused was made.
    for (const orderId of ['old', 'fils', 'zero', 'half', 'written']) expect((await sandbox.get(`${pos()}/orders/${orderId}`)).status).toBe(404);
    expect(await sandbox.getJson<Json[]>(`${pos()}/orders/${String(purchase.order_id)}`)).toHaveLength(1);

    const credit = (await (await sandbox.control('POST', '/_sandbox/credits', { order_id: 'kwd', amount_minor: 1230, currency: 'KWD' })).json()) as Json;
    expect(credit).toMatchObject({ order_id: 'kwd', amount_minor: 1230, currency: 'KWD', status: 'success' });
    const [entry] = await sandbox.getJson<Json[]>(`${pos()}/orders/kwd`);
    expect(entry).toMatchObject({ amount: 1.23, currency: 'KWD' }); // the interface's decimals, under /api/v1 only
  });

  it('issues credit references for credits, each with a new number; refuses them when support has not enabled them', async () => {
    const credit = (await (await sandbox.control('POST', '/_sandbox/credits', { order_id: 'loan-1', amount_minor: 150_000, currency: 'UAH' })).json()) as Json;
    expect(credit).toMatchObject({ method: 'credit', status: 'success', amount_minor: 150_000, currency: 'UAH' });
    const query = `format=signed_pdf&creditReference=true&transactionId=${String(credit.transaction_id)}`;
    const first = await receipt('loan-1', query);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    const firstDoc = await PDFDocument.load(new Uint8Array(await first.arrayBuffer()));
    const secondDoc = await PDFDocument.load(new Uint8Array(await (await receipt('loan-1', query)).arrayBuffer()));
    expect(firstDoc.getTitle()).toBe('Credit reference CR-2026-000001');
    expect(secondDoc.getTitle()).toBe('Credit reference CR-2026-000002');
    expect(firstDoc.getSubject()).toMatch(/^Sandbox signature [0-9a-f]{64}$/);
    // A HEAD issues no reference: the next GET has the next number still.
    const head = await sandbox.call('HEAD', `${pos()}/orders/loan-1/report/receipt?${query}`);
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    await sandbox.call('HEAD', `${pos()}/date/2026-03-02/report/receipt?format=signed_pdf&method=credit`);
    const thirdDoc = await PDFDocument.load(new Uint8Array(await (await receipt('loan-1', query)).arrayBuffer()));
    expect(thirdDoc.getTitle()).toBe('Credit reference CR-2026-000003');
    expect((await receipt('loan-1', 'format=signed_pdf&creditReference=true')).status).toBe(400); // transactionId required
    const purchase = await pay();
    expect((await receipt(String(purchase.order_id), `format=signed_pdf&creditReference=true&transactionId=${String(purchase.transaction_id)}`)).status).toBe(404);

    const disabled = testSandbox({ projects: [{ creditReferences: false }] });
    await disabled.control('POST', '/_sandbox/credits', { order_id: 'loan-2', amount_minor: 1000, currency: 'UAH' });
    const [entry] = await disabled.getJson<Json[]>(`/api/v1/pos/${disabled.project.posId}/orders/loan-2`);
    const refused = await disabled.get(`/api/v1/pos/${disabled.project.posId}/orders/loan-2/report/receipt?format=signed_pdf&creditReference=true&transactionId=${String(entry?.transaction_id)}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ args: { code: 'P-403' } });
  });

  it('sends no webhook again for a hosted payment still init, for none was sent, and says why', async () => {
    const hosted = hostedPayment(sandbox.project);
    expect((await sandbox.post('/api/v1/payment', hosted)).status).toBe(303);
    const orderId = hosted.order_id;
    await sandbox.deliver();
    const sent = sandbox.inbox.received.length;
    expect(await sandbox.getJson(`${pos()}/orders/${orderId}/purchase?callback=true`)).toMatchObject({ order_id: orderId, status: 'init' });
    await sandbox.deliver();
    expect(sandbox.inbox.received).toHaveLength(sent);
    const { requests } = (await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: { notes: Json[] }[] };
    expect(requests[0]!.notes).toEqual([expect.objectContaining({ kind: 'warning', field: 'callback', what: expect.stringContaining('no webhook sent') })]);
  });

  it('zips a day’s receipts of successful purchases and auths, without split purchases, declines or other days', async () => {
    const purchase = await pay();
    const auth = await pay({ method: 'auth' });
    await pay({}, '4000000000000002');
    await sandbox.postJson('/api/v1/split/purchase', directPayment(sandbox.project, { amount: 100, split: [{ amount: 60, sub_merchant_id: SUB_A }, { amount: 40, sub_merchant_id: SUB_B }] }));
    await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project));
    await sandbox.advance(24 * 3600_000);
    const nextDay = await pay();

    const day = async (date: string, query: string) => {
      const answer = await sandbox.get(`${pos()}/date/${date}/report/receipt?${query}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/zip');
      return unzipSync(new Uint8Array(await answer.arrayBuffer()));
    };
    const names = Object.keys(await day('2026-03-02', 'format=html'));
    expect(names.sort()).toEqual([`${String(purchase.order_id)}-${String(purchase.transaction_id)}.html`, `${String(auth.order_id)}-${String(auth.transaction_id)}.html`].sort());
    const pdfs = await day('2026-03-02', 'format=pdf&method=auth');
    expect(Object.keys(pdfs)).toEqual([`${String(auth.order_id)}-${String(auth.transaction_id)}.pdf`]);
    expect(new TextDecoder().decode(Object.values(pdfs)[0]?.slice(0, 5))).toBe('%PDF-');
    expect(Object.keys(await day('2026-03-03', 'format=html'))).toEqual([`${String(nextDay.order_id)}-${String(nextDay.transaction_id)}.html`]);
    expect(Object.keys(await day('2026-03-01', 'format=html'))).toEqual([]);
    expect((await sandbox.get(`${pos()}/date/2026-02-30/report/receipt?format=html`)).status).toBe(400);
    expect((await sandbox.get(`${pos()}/date/2026-03-02/report/receipt?format=signed_pdf`)).status).toBe(400);
  });

  it('zips a day’s credit references', async () => {
    await sandbox.control('POST', '/_sandbox/credits', { order_id: 'loan-3', amount_minor: 70_000, currency: 'UAH' });
    const answer = await sandbox.get(`${pos()}/date/2026-03-02/report/receipt?format=signed_pdf&method=credit`);
    const files = unzipSync(new Uint8Array(await answer.arrayBuffer()));
    expect(Object.keys(files)).toEqual([expect.stringMatching(/^loan-3-[0-9a-f-]{36}-CR-2026-000001\.pdf$/)]);
  });
});

describe('health', () => {
  it('answers OK without credentials', async () => {
    const answer = await sandbox.app.request('/health');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('OK');
  });
});
