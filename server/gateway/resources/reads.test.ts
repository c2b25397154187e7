import { describe, expect, it } from 'vitest';
import { InvalidRequestError, UnexpectedResponseError } from '../errors.js';
import { useGatewayDouble } from '../test/client-setup.js';
import * as samples from '../test/samples.js';

const double = useGatewayDouble();
const ACCOUNT = samples.SUB_MERCHANT_A;
const TERMINAL = samples.SUB_MERCHANT_B;
const balancesPath = `/api/v1/balances/pos/${samples.POS_ID}`;

describe('balances', () => {
  it('lists accounts, reading both rolling-reserve spellings, without X-API-KEY', async () => {
    double.gateway.answer({
      body: {
        accounts: [
          { id: ACCOUNT, name: 'Main', currency: 'UAH', balances: { available: 1500.5, rollingReserve: 10 } },
          { id: TERMINAL, name: 'Yen', currency: 'JPY', balances: { available: '-300', rolling_reserve: 0 } },
        ],
      },
    });
    const accounts = await double.client().balances.listAccounts();
    const request = double.gateway.onlyRequest;
    expect(request).toMatchObject({ method: 'GET', url: `${balancesPath}/accounts`, body: '' });
    expect(request.headers['x-api-auth']).toBe('CPAY test-key:test-secret');
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(accounts).toEqual([
      { id: ACCOUNT, name: 'Main', currency: 'UAH', balances: { available: 150050, rolling_reserve: 1000 } },
      { id: TERMINAL, name: 'Yen', currency: 'JPY', balances: { available: -300, rolling_reserve: 0 } },
    ]);
  });

  it('reads one account and one terminal by id', async () => {
    double.gateway.answer(
      { body: { id: ACCOUNT, name: 'Main', currency: 'UAH', balances: { available: 1 } } },
      { body: { id: TERMINAL, name: 'POS 1', currency: 'UAH', balances: { available: '2.5' } } },
    );
    const client = double.client();
    expect(await client.balances.getAccount(ACCOUNT)).toEqual({ id: ACCOUNT, name: 'Main', currency: 'UAH', balances: { available: 100 } });
    expect(await client.balances.getTerminal(TERMINAL)).toMatchObject({ balances: { available: 250 } });
    expect(double.gateway.requests.map((r) => r.url)).toEqual([`${balancesPath}/accounts/${ACCOUNT}`, `${balancesPath}/terminals/${TERMINAL}`]);
  });

  it('lists terminals with the ones that failed', async () => {
    double.gateway.answer(
      { body: { terminals: [{ id: TERMINAL, name: 'POS 1', currency: 'UAH', balances: { available: 3 } }], failed_terminals: [{ id: ACCOUNT, message: 'Terminal unavailable' }] } },
      { body: { terminals: [] } },
    );
    const client = double.client();
    expect(await client.balances.listTerminals()).toEqual({
      terminals: [{ id: TERMINAL, name: 'POS 1', currency: 'UAH', balances: { available: 300 } }],
      failed_terminals: [{ id: ACCOUNT, message: 'Terminal unavailable' }],
    });
    expect(await client.balances.listTerminals()).toEqual({ terminals: [], failed_terminals: [] });
  });

  it('refuses a malformed id before sending', async () => {
    await expect(double.client().balances.getAccount('../admin')).rejects.toMatchObject({
      fields: [{ field: 'account_id', reason: 'must be a UUID' }],
    });
    expect(double.gateway.requests).toHaveLength(0);
  });

  it('reports an answer of the wrong shape as UnexpectedResponseError', async () => {
    double.gateway.answer({ body: { accounts: [{ id: ACCOUNT, name: 'Main', balances: { available: 'lots' } }] } });
    const error = await double.client().balances.listAccounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).fields).toEqual([
      { field: 'accounts[0].currency', reason: 'is required' },
      { field: 'accounts[0].balances.available', reason: 'must be a plain decimal number' },
    ]);
  });
});

describe('receipts', () => {
  it('fetches one order\'s receipt as HTML bytes, with X-API-KEY', async () => {
    double.gateway.answer({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html>Receipt</html>' });
    const receipt = await double.client().receipts.forOrder('order-1001', { format: 'html' });
    const request = double.gateway.onlyRequest;
    expect(request.url).toBe(`/api/v1/pos/${samples.POS_ID}/orders/order-1001/report/receipt?format=html`);
    expect(request.headers['x-api-key']).toBe('test-endpoints-key');
    expect(receipt.contentType).toBe('text/html; charset=utf-8');
    expect(new TextDecoder().decode(receipt.body)).toBe('<html>Receipt</html>');
  });

  it('asks for a credit reference and keeps PDF bytes intact', async () => {
    const pdf = Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x80]);
    double.gateway.answer({ headers: { 'content-type': 'application/pdf' }, body: pdf });
    const receipt = await double.client().receipts.forOrder('order-1001', {
      format: 'signed_pdf',
      creditReference: true,
      transactionId: samples.TRANSACTION_ID,
    });
    expect(double.gateway.onlyRequest.url).toBe(
      `/api/v1/pos/${samples.POS_ID}/orders/order-1001/report/receipt?format=signed_pdf&transactionId=${samples.TRANSACTION_ID}&creditReference=true`,
    );
    expect(receipt).toEqual({ contentType: 'application/pdf', body: pdf });
  });

  it('fetches a day\'s receipts as a ZIP, implying the type when none is sent', async () => {
    double.gateway.answer({ body: 'PK\u0003\u0004', headers: { 'content-type': '' } });
    const archive = await double.client().receipts.forDate('2025-03-01', { format: 'pdf', method: 'auth' });
    expect(double.gateway.onlyRequest.url).toBe(`/api/v1/pos/${samples.POS_ID}/date/2025-03-01/report/receipt?format=pdf&method=auth`);
    expect(archive.contentType).toBe('application/zip');
  });

  it('checks the date and the credit-reference rules before sending', async () => {
    const client = double.client();
    await expect(client.receipts.forDate('01.03.2025', { format: 'pdf' })).rejects.toMatchObject({
      fields: [{ field: 'date', reason: 'must be a date yyyy-MM-dd' }],
    });
    await expect(client.receipts.forOrder('o', { format: 'pdf', creditReference: true })).rejects.toBeInstanceOf(InvalidRequestError);
    expect(double.gateway.requests).toHaveLength(0);
  });
});

describe('orders', () => {
  it('reads every operation of an order, in minor units of the order\'s currency', async () => {
    double.gateway.answer({
      body: [
        { ...samples.paymentResponse, method: 'auth', status: 'success', status_code: '1002', processed_at: undefined, processing_time: '2025-03-01T10:00:02' },
        { method: 'capture', status: 'success', status_code: 1000, amount: '7.50', created_at: '2025-03-01T10:05:00', processing_time: null },
      ],
    });
    const state = await double.client().orders.get('order-1001');
    expect(double.gateway.onlyRequest.url).toBe(`/api/v1/pos/${samples.POS_ID}/orders/order-1001`);
    expect(double.gateway.onlyRequest.headers['x-api-key']).toBe('test-endpoints-key');
    expect(state).toEqual([
      expect.objectContaining({ method: 'auth', amount: 1010, currency: 'UAH', status_code: '1002', processed_at: '2025-03-01T10:00:02' }),
      { method: 'capture', status: 'success', status_code: '1000', amount: 750, currency: 'UAH', created_at: '2025-03-01T10:05:00', processed_at: null },
    ]);
  });

  it('reads entries that name no currency (all the live service promises) in the currency the caller knows', async () => {
    const live = { method: 'refund', status: 'pending', status_code: '2001', amount: '2.50', created_at: '2025-03-01T10:07:00', processing_time: null };
    double.gateway.answer({ body: [{ method: 'purchase', status: 'success', status_code: '1000', amount: 10.1, created_at: '2025-03-01T10:00:00' }, live] });
    expect(await double.client().orders.get('order-1001', { currency: 'UAH' })).toEqual([
      { method: 'purchase', status: 'success', status_code: '1000', amount: 1010, currency: 'UAH', created_at: '2025-03-01T10:00:00', processed_at: null },
      { method: 'refund', status: 'pending', status_code: '2001', amount: 250, currency: 'UAH', created_at: '2025-03-01T10:07:00', processed_at: null },
    ]);
    // Zero-decimal: the caller's currency decides the unit.
    double.gateway.answer({ body: [{ method: 'purchase', status: 'success', amount: 500, created_at: '2025-03-01T10:00:00' }] });
    expect((await double.client().orders.get('order-1001', { currency: 'JPY' }))[0]).toMatchObject({ amount: 500, currency: 'JPY' });
    double.gateway.answer({ body: { method: 'refund', status: 'success', amount: '1.5', created_at: '2025-03-01T10:07:00' } });
    expect(await double.client().orders.getOperation('order-1001', 'refund', { currency: 'UAH' })).toMatchObject({ amount: 150, currency: 'UAH' });
  });

  it('reports an order state that names no currency when the caller gives none either', async () => {
    double.gateway.answer({ body: [{ method: 'capture', status: 'success', amount: 1 }] });
    await expect(double.client().orders.get('order-1001')).rejects.toThrow(/names no currency/);
  });

  it('reads one operation', async () => {
    double.gateway.answer({ body: { ...samples.captureResponse } });
    const capture = await double.client().orders.getOperation('order-1001', 'capture');
    expect(double.gateway.onlyRequest.url).toBe(`/api/v1/pos/${samples.POS_ID}/orders/order-1001/capture`);
    expect(capture).toMatchObject({ operation_id: samples.OPERATION_ID, amount: 750 });
  });

  it('re-sends a webhook with callback=true, for one transaction of a recurring payment', async () => {
    double.gateway.answer({ body: { ...samples.paymentResponse, method: 'auth', recurring: { id: 'sub-1', status: 'active' } } });
    const resent = await double.client().orders.resendWebhook('order-1001', 'purchase', { transactionId: 'tx-7' });
    const request = double.gateway.onlyRequest;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`/api/v1/pos/${samples.POS_ID}/orders/order-1001/purchase?callback=true&transactionId=tx-7`);
    expect(request.headers['x-api-key']).toBe('test-endpoints-key');
    expect(resent).toMatchObject({ method: 'auth', recurring: { id: 'sub-1', status: 'active' }, amount: 1010 });
  });

  it('refuses an unknown operation name before sending', async () => {
    await expect(double.client().orders.getOperation('order-1001', 'teleport' as 'purchase')).rejects.toMatchObject({
      fields: [{ field: 'operation', reason: 'must be one of auth, purchase, lookup, capture, void, refund, credit, p2p' }],
    });
  });
});

describe('health', () => {
  it('is true when the gateway answers OK', async () => {
    double.gateway.answer({ body: 'OK' }, { body: 'DEGRADED' });
    const client = double.client();
    expect(await client.health()).toBe(true);
    expect(await client.health()).toBe(false);
    expect(double.gateway.requests[0]?.url).toBe('/health');
  });
});
