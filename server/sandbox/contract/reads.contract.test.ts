/**
 * Contract: health, authentication, balances, receipts, order state and webhook re-sends through
 * the client over real HTTP.
 */
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, GatewayUnavailableError, InvalidRequestError, NotFoundError } from '@payform/gateway';
import { authHeaderValue } from '@payform/gateway/wire';
import { useServedSandbox } from '../testing/served.js';
import { direct } from './params.js';

const sandbox = useServedSandbox();
const hook = () => sandbox.receiver.url();

describe('health and authentication', () => {
  it('answers the health check', async () => {
    expect(await sandbox.client().health()).toBe(true);
  });

  it('refuses wrong credentials with AuthenticationError (401) on balances, payments and reads', async () => {
    const wrongSecret = sandbox.client({ apiSecret: 'not-the-secret' });
    await expect(wrongSecret.balances.listAccounts()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(wrongSecret.payments.create(direct(hook()))).rejects.toMatchObject({ status: 401, code: 'P-401' });
    const wrongKey = sandbox.client({ endpointsKey: 'not-the-endpoints-key' });
    await expect(wrongKey.payments.create(direct(hook()))).rejects.toBeInstanceOf(AuthenticationError);
    // Order-state reads and balances need no X-API-KEY (the interface's table): one sent there is not checked.
    await expect(wrongKey.orders.get('any-order')).rejects.toBeInstanceOf(NotFoundError);
    expect(await wrongKey.balances.listAccounts()).toHaveLength(5);
    const otherPos = sandbox.client({ posId: '00000000-0000-4000-8000-000000000000' });
    await expect(otherPos.balances.listTerminals()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('balances', () => {
  it('lists accounts and terminals, reads each by id, reports the failing terminal', async () => {
    const client = sandbox.client();
    const accounts = await client.balances.listAccounts();
    expect(accounts.map((account) => [account.name, account.currency, account.balances.available])).toEqual([
      ['Settlement account', 'UAH', 1_250_000],
      ['Test account', 'XTS', 0],
      ['Settlement account (USD)', 'USD', 0],
      ['Settlement account (EUR)', 'EUR', 0],
      ['Settlement account (PLN)', 'PLN', 0],
    ]);
    const settlement = accounts[0]?.id ?? '';
    await client.payments.create(direct(hook(), { amount: 20000 }));
    expect(await client.balances.getAccount(settlement)).toMatchObject({ balances: { available: 1_250_000 + 20000 - 305 - 1000, rolling_reserve: 1000 } });
    const terminals = await client.balances.listTerminals();
    // The UAH e-commerce and recurring terminals, then an e-commerce terminal in each other accepted currency.
    expect(terminals.terminals).toHaveLength(6);
    expect(terminals.failed_terminals).toEqual([{ id: expect.any(String), message: expect.stringContaining('unavailable') }]);
    expect(await client.balances.getTerminal(terminals.terminals[0]?.id ?? '')).toMatchObject({ name: 'E-commerce terminal', balances: { available: 480_000 + 20000 - 305 } });
    // A recurring charge pays its own commission, on its own amount: 5 + 1.5 % of 12.50 (18.75, up to 19).
    const first = await client.payments.create(direct(hook(), { amount: 999 }));
    await sandbox.control('POST', '/_sandbox/recurring', { order_id: first.order_id, amount_minor: 1250 });
    const entries = await client.orders.get(first.order_id);
    expect(entries.map((entry) => [entry.amount, entry.fee?.amount])).toEqual([[999, 20], [1250, 24]]);
    expect(await client.balances.getTerminal(terminals.terminals[0]?.id ?? '')).toMatchObject({ balances: { available: 480_000 + 20000 - 305 + 999 - 20 + 1250 - 24 } });
    // 500, a status the interface lists for balances (its Errors, 1), with the gateway's error body.
    const failing = client.balances.getTerminal(terminals.failed_terminals[0]?.id ?? '');
    await expect(failing).rejects.toBeInstanceOf(GatewayUnavailableError);
    await expect(failing).rejects.toMatchObject({ status: 500, code: 'P-500' });
    await expect(client.balances.getAccount('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('receipts', () => {
  it('downloads one order’s receipt as HTML and PDF with their content types', async () => {
    const client = sandbox.client();
    const payment = await client.payments.create(direct(hook(), { amount: 1234 }));
    const html = await client.receipts.forOrder(payment.order_id, { format: 'html' });
    expect(html.contentType).toBe('text/html; charset=utf-8');
    expect(new TextDecoder().decode(html.body)).toContain('12.34 UAH');
    const pdf = await client.receipts.forOrder(payment.order_id, { format: 'pdf' });
    expect(pdf.contentType).toBe('application/pdf');
    expect(new TextDecoder().decode(pdf.body.slice(0, 5))).toBe('%PDF-');
    await expect(client.receipts.forOrder('no-such-order', { format: 'pdf' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('downloads a credit reference (signed_pdf) for a credit', async () => {
    const client = sandbox.client();
    const credit = await sandbox.control('POST', '/_sandbox/credits', { order_id: 'contract-loan', amount_minor: 250_000, currency: 'UAH' });
    const reference = await client.receipts.forOrder('contract-loan', { format: 'signed_pdf', creditReference: true, transactionId: String(credit.transaction_id) });
    expect(reference.contentType).toBe('application/pdf');
    expect((await PDFDocument.load(reference.body)).getTitle()).toBe('Credit reference CR-2026-000001');
  });

  it('makes no control-plane credit or recurring charge the API could not: a currency the project has not enabled, an amount above its limit', async () => {
    const refusal = async (path: string, body: Record<string, unknown>) => {
      const answer = await fetch(sandbox.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(answer.status).toBe(400);
      return ((await answer.json()) as { args: unknown }).args;
    };
    expect(await refusal('/_sandbox/credits', { order_id: 'contract-gbp', amount_minor: 150, currency: 'GBP' })).toEqual([
      { field_name: 'currency', violation: 'is not enabled for this project (UAH, USD, EUR, PLN, XTS)' },
    ]);
    const overLimit = sandbox.project.amountLimitMinor + 1;
    expect(await refusal('/_sandbox/credits', { order_id: 'contract-huge', amount_minor: overLimit, currency: 'UAH' })).toEqual([
      { field_name: 'amount_minor', violation: 'is above the project\'s amount limit (100000000.00 UAH): the gateway declines such a payment with 4012' },
    ]);
    const purchase = await sandbox.client().payments.create(direct(hook()));
    expect(await refusal('/_sandbox/recurring', { order_id: purchase.order_id, amount_minor: overLimit })).toEqual([
      { field_name: 'amount_minor', violation: 'is above the project\'s amount limit (100000000.00 UAH): the gateway declines such a payment with 4012' },
    ]);
    // Nothing refused was made.
    await expect(sandbox.client().orders.get('contract-gbp')).rejects.toBeInstanceOf(NotFoundError);
    await expect(sandbox.client().orders.get('contract-huge')).rejects.toBeInstanceOf(NotFoundError);
    expect(await sandbox.client().orders.get(purchase.order_id, { currency: 'UAH' })).toHaveLength(1);
  });

  it('downloads a day’s receipts as a ZIP without split purchases', async () => {
    const client = sandbox.client();
    const purchase = await client.payments.create(direct(hook()));
    const zip = await client.receipts.forDate('2026-03-02', { format: 'pdf' });
    expect(zip.contentType).toBe('application/zip');
    expect(Object.keys(unzipSync(zip.body))).toEqual([`${purchase.order_id}-${String(purchase.transaction_id)}.pdf`]);
    await expect(client.receipts.forDate('2026-03-02', { format: 'signed_pdf' })).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('order state and webhook re-send', () => {
  it('reads the order and one operation; re-sends the payment webhook on request', async () => {
    const client = sandbox.client();
    const payment = await client.payments.create(direct(hook()));
    await sandbox.receiver.waitFor(payment.order_id, 1);
    const [entry] = await client.orders.get(payment.order_id);
    expect(entry).toMatchObject({ payment_id: payment.payment_id, method: 'purchase', status: 'success', amount: 1010 });
    const resent = await client.orders.resendWebhook(payment.order_id, 'purchase');
    expect(resent).toMatchObject({ payment_id: payment.payment_id });
    const events = await sandbox.receiver.waitFor(payment.order_id, 2);
    expect(events[1]).toEqual(events[0]);
    await expect(client.orders.getOperation(payment.order_id, 'capture')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.orders.get('no-such-order')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sends nothing for a HEAD on the re-send URL (curl -I, a link checker): the GET’s status and headers only', async () => {
    const payment = await sandbox.client().payments.create(direct(hook()));
    await sandbox.receiver.waitFor(payment.order_id, 1);
    const head = await fetch(`${sandbox.url}/api/v1/pos/${sandbox.project.posId}/orders/${payment.order_id}/purchase?callback=true`, {
      method: 'HEAD',
      headers: { 'X-API-AUTH': authHeaderValue(sandbox.project.apiKey, sandbox.project.apiSecret), 'X-API-KEY': sandbox.project.endpointsKey },
    });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'application/json', '']);
    await sandbox.app.sandbox.gateway.webhooks.settle();
    expect(sandbox.receiver.events(payment.order_id)).toHaveLength(1);
    const log = await sandbox.control<{ deliveries: { reason: string }[] }>('GET', `/_sandbox/webhooks?order_id=${payment.order_id}`);
    expect(log.deliveries.map((delivery) => delivery.reason)).toEqual(['status_change']);
  });

  it('re-sends one transaction of a recurring payment by transactionId, with the recurring object', async () => {
    const client = sandbox.client();
    const payment = await client.payments.create(direct(hook(), { amount: 999 }));
    const charge = await sandbox.control('POST', '/_sandbox/recurring', { order_id: payment.order_id, amount_minor: 1250 });
    const latest = await client.orders.resendWebhook(payment.order_id, 'purchase');
    expect(latest).toMatchObject({ transaction_id: charge.transaction_id, amount: 1250, recurring: { status: 'active' } });
    const first = await client.orders.resendWebhook(payment.order_id, 'purchase', { transactionId: String(payment.transaction_id) });
    expect(first).toMatchObject({ transaction_id: payment.transaction_id, amount: 999 });
    const events = await sandbox.receiver.waitFor(payment.order_id, 4);
    expect(events.slice(2).map((event) => [event.transaction_id, (event.recurring as { id?: string } | undefined)?.id])).toEqual([
      [charge.transaction_id, (charge.recurring as { id: string }).id],
      [payment.transaction_id, (charge.recurring as { id: string }).id],
    ]);
  });
});
