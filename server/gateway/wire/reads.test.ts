import { describe, expect, it } from 'vitest';
import * as samples from '../test/samples.js';
import { AccountListResponse, AccountParams, TerminalListResponse } from './balance.js';
import { ErrorBody, readErrorArgs, violationArgs } from './error.js';
import { parseWire } from './issues.js';
import type { FieldIssue } from './issues.js';
import { OrderOperationResponse, OrderStateResponse, ResendWebhookQuery } from './order.js';
import { DateReceiptsQuery, OrderReceiptQuery } from './receipt.js';
import { authHeaderValue, readAuthHeader, routePath, routes } from './routes.js';
import { StatusCode, statusCodeInfo } from './status.js';

function issues(schema: Parameters<typeof parseWire>[0], input: unknown): FieldIssue[] {
  const result = parseWire(schema, input);
  return result.success ? [] : result.issues;
}

describe('balances', () => {
  it('read both spellings of the rolling reserve and failed terminals', () => {
    const list = AccountListResponse.parse({
      accounts: [
        { id: samples.SUB_MERCHANT_A, name: 'Main', currency: 'UAH', balances: { available: 1500.5, rollingReserve: 10 } },
        { id: samples.SUB_MERCHANT_B, name: 'EUR', currency: 'EUR', balances: { available: '-3.20', rolling_reserve: '1.00' } },
      ],
    });
    expect(list.accounts[0]?.balances.rollingReserve).toBe(10);
    expect(list.accounts[1]?.balances.rolling_reserve).toBe('1.00');
    const terminals = TerminalListResponse.parse({
      terminals: [],
      failed_terminals: [{ id: samples.SUB_MERCHANT_A, message: 'Terminal unavailable' }],
    });
    expect(terminals.failed_terminals?.[0]?.message).toBe('Terminal unavailable');
  });

  it('validate path ids as UUIDs', () => {
    expect(issues(AccountParams, { pos_id: samples.POS_ID, account_id: '../../etc' })).toEqual([
      { field: 'account_id', reason: 'must be a UUID' },
    ]);
  });
});

describe('receipt queries', () => {
  it('tie signed_pdf to credit references', () => {
    expect(issues(OrderReceiptQuery, { format: 'pdf' })).toEqual([]);
    expect(issues(OrderReceiptQuery, { format: 'signed_pdf', creditReference: 'true', transactionId: samples.TRANSACTION_ID })).toEqual([]);
    expect(issues(OrderReceiptQuery, { format: 'pdf', creditReference: 'true' })).toEqual([
      { field: 'format', reason: 'is signed_pdf exactly when creditReference is true' },
      { field: 'transactionId', reason: 'is required for a credit reference' },
    ]);
    expect(issues(OrderReceiptQuery, { format: 'docx' })).toEqual([{ field: 'format', reason: 'must be one of html, pdf, signed_pdf' }]);
    expect(issues(DateReceiptsQuery, { format: 'signed_pdf', method: 'credit' })).toEqual([]);
    expect(issues(DateReceiptsQuery, { format: 'signed_pdf' })).toEqual([{ field: 'format', reason: 'signed_pdf needs method credit' }]);
  });
});

describe('order state', () => {
  it('reads a mix of payment and operations with few promised fields', () => {
    const state = OrderStateResponse.parse([
      { ...samples.paymentResponse, method: 'auth', status: 'success', status_code: '1002' },
      { method: 'capture', status: 'success', status_code: 1000, amount: '7.50', created_at: '2025-03-01T10:05:00', processing_time: null },
    ]);
    expect(state).toHaveLength(2);
    expect(issues(OrderOperationResponse, { method: 'capture', amount: 1 })).toEqual([{ field: 'status', reason: 'is required' }]);
  });

  it('re-sends only with callback=true', () => {
    expect(issues(ResendWebhookQuery, { callback: 'true' })).toEqual([]);
    expect(issues(ResendWebhookQuery, { callback: 'false' })).toEqual([{ field: 'callback', reason: 'must be one of true' }]);
  });
});

describe('error bodies', () => {
  it('read all three shapes of args', () => {
    expect(readErrorArgs({ code: 'P-409' })).toEqual({ code: 'P-409', fields: [] });
    expect(readErrorArgs([{ field_name: 'amount', violation: 'must be greater than 0' }])).toEqual({
      fields: [{ field: 'amount', reason: 'must be greater than 0' }],
    });
    expect(readErrorArgs({ 'obj.amount': [{ msg: ['error.min', 'error.required'] }], obj: [{ msg: ['error.expected.jsobject'] }] })).toEqual({
      fields: [
        { field: 'amount', reason: 'error.min; error.required' },
        { field: '', reason: 'error.expected.jsobject' },
      ],
    });
    expect(readErrorArgs('weird')).toEqual({ fields: [] });
    expect(readErrorArgs(undefined)).toEqual({ fields: [] });
  });

  it('build the violation form the sandbox answers with', () => {
    const body = { message: 'Invalid request', args: violationArgs([{ field: 'split[0].amount', reason: 'must be greater than 0' }]) };
    expect(ErrorBody.parse(body).args).toEqual([{ field_name: 'split[0].amount', violation: 'must be greater than 0' }]);
    expect(issues(ErrorBody, { message: 'm'.repeat(513) })).toEqual([{ field: 'message', reason: 'must be at most 512 characters' }]);
  });
});

describe('routes', () => {
  it('fill templates with encoded values', () => {
    expect(routePath(routes.cancel, { pos_id: samples.POS_ID, order_id: 'a/b c' })).toBe(
      `/api/v1/pos/${samples.POS_ID}/order/a%2Fb%20c/cancel`,
    );
    expect(() => routePath(routes.account, { pos_id: samples.POS_ID })).toThrow(/account_id/);
  });

  it('send X-API-KEY everywhere but on balances and health', () => {
    const without = Object.entries(routes).filter(([, route]) => !route.endpointsKey).map(([name]) => name);
    expect(without).toEqual(['accounts', 'account', 'terminals', 'terminal', 'health']);
  });

  it('write and read the CPAY authentication value', () => {
    expect(authHeaderValue('key', 'secret')).toBe('CPAY key:secret');
    expect(readAuthHeader('CPAY key:se:cret')).toEqual({ apiKey: 'key', apiSecret: 'se:cret' });
    expect(readAuthHeader('Basic a2V5OnNlY3JldA==')).toBeUndefined();
    expect(readAuthHeader(null)).toBeUndefined();
  });
});

describe('status codes', () => {
  it('describe each code with its status', () => {
    expect(statusCodeInfo[StatusCode.HoldSuccessful]).toEqual({ status: 'success', description: 'Successful hold' });
    expect(statusCodeInfo[StatusCode.ThreeDsRequired].status).toBe('pending');
    expect(statusCodeInfo[StatusCode.PaymentCancelled].status).toBe('failure');
    expect(Object.keys(statusCodeInfo).sort()).toEqual(Object.values(StatusCode).sort());
  });
});
