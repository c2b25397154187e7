/**
 * The whole endpoint table through the client: method, path, and which headers each call
 * sends — X-API-AUTH always, X-API-KEY as the interface's Authentication table says.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from './client.js';
import { useGatewayDouble } from './test/client-setup.js';
import * as samples from './test/samples.js';
import type { ProgrammedAnswer } from './test/gateway-double.js';

const double = useGatewayDouble();
const pos = `/api/v1/pos/${samples.POS_ID}`;
const balances = `/api/v1/balances/pos/${samples.POS_ID}`;
const operation = { body: samples.captureResponse };
const account = { body: { id: samples.SUB_MERCHANT_A, name: 'Main', currency: 'UAH', balances: { available: 1 } } };
const document = { headers: { 'content-type': 'application/pdf' }, body: '%PDF' };
const split = [{ amount: 100, sub_merchant_id: samples.SUB_MERCHANT_A }] as const;
const hosted = {
  mode: 'hosted', method: 'purchase', amount: 100, currency: 'UAH', description: 'd', order_id: 'o-1',
  customer_email: 'a@example.com', customer_phone: '+380501234567',
} as const;

const calls: [string, (client: GatewayClient) => Promise<unknown>, ProgrammedAnswer, string, string, boolean][] = [
  ['create payment', (c) => c.payments.create(hosted), { status: 303, headers: { location: '/api/v1/checkout/x/form' } }, 'POST', '/api/v1/payment', true],
  ['split purchase', (c) => c.payments.createSplit({ ...hosted, split }), { status: 303, headers: { location: '/x' } }, 'POST', '/api/v1/split/purchase', true],
  ['capture', (c) => c.operations.capture({ order_id: 'o-1', order_currency: 'UAH' }), operation, 'POST', '/api/v1/capture', true],
  ['split capture', (c) => c.operations.splitCapture({ order_id: 'o-1', order_currency: 'UAH', split }), operation, 'POST', '/api/v1/split/capture', true],
  ['void', (c) => c.operations.void({ order_id: 'o-1', order_currency: 'UAH' }), operation, 'POST', '/api/v1/void', true],
  ['refund', (c) => c.operations.refund({ order_id: 'o-1', order_currency: 'UAH' }), operation, 'POST', '/api/v1/refund', true],
  ['split refund', (c) => c.operations.splitRefund({ order_id: 'o-1', currency: 'UAH', refund_amount: 100, split }), operation, 'POST', '/api/v1/split/refund', true],
  ['cancel', (c) => c.payments.cancel('o-1'), { body: [] }, 'POST', `${pos}/order/o-1/cancel`, true],
  ['accounts', (c) => c.balances.listAccounts(), { body: { accounts: [] } }, 'GET', `${balances}/accounts`, false],
  ['account', (c) => c.balances.getAccount(samples.SUB_MERCHANT_A), account, 'GET', `${balances}/accounts/${samples.SUB_MERCHANT_A}`, false],
  ['terminals', (c) => c.balances.listTerminals(), { body: { terminals: [] } }, 'GET', `${balances}/terminals`, false],
  ['terminal', (c) => c.balances.getTerminal(samples.SUB_MERCHANT_A), account, 'GET', `${balances}/terminals/${samples.SUB_MERCHANT_A}`, false],
  ['order receipt', (c) => c.receipts.forOrder('o-1', { format: 'pdf' }), document, 'GET', `${pos}/orders/o-1/report/receipt?format=pdf`, true],
  ['date receipts', (c) => c.receipts.forDate('2025-03-01', { format: 'html' }), document, 'GET', `${pos}/date/2025-03-01/report/receipt?format=html`, true],
  ['order state', (c) => c.orders.get('o-1'), { body: [] }, 'GET', `${pos}/orders/o-1`, true],
  ['one operation', (c) => c.orders.getOperation('o-1', 'void'), operation, 'GET', `${pos}/orders/o-1/void`, true],
  ['webhook re-send', (c) => c.orders.resendWebhook('o-1', 'refund'), operation, 'GET', `${pos}/orders/o-1/refund?callback=true`, true],
  ['health', (c) => c.health(), { body: 'OK' }, 'GET', '/health', false],
];

describe('every endpoint', () => {
  it.each(calls)('%s: %s %s', async (_, call, answer, method, url, endpointsKey) => {
    double.gateway.answer(answer);
    await call(double.client());
    const request = double.gateway.onlyRequest;
    expect(request.method).toBe(method);
    expect(request.url).toBe(url);
    expect(request.headers['x-api-auth']).toBe('CPAY test-key:test-secret');
    expect(request.headers['x-api-key']).toBe(endpointsKey ? 'test-endpoints-key' : undefined);
    expect(request.headers['content-type']).toBe(method === 'POST' && !url.endsWith('/cancel') ? 'application/json' : undefined);
  });
});
