import type { AddressInfo } from 'node:net';
import express from 'express';
import type { RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import * as samples from './test/samples.js';
import {
  WebhookFormError, WebhookPayloadError, WebhookSignatureError, decodeWebhook, encodeWebhookData, parseWebhookData, readWebhook, readWebhookEvent, signWebhook,
  verifyWebhook, webhookForm,
} from './webhook.js';

// The example published with the live gateway's documentation.
const SECRET = 'changeme';
const DATA = 'eyJuYW1lIjoiSm9lIiwiYWdlIjoyMH0=';
const SIGNATURE = 'Bcj3hb-h00HrEMIoJ5nPW5ZHlVQ=';

const paymentEvent = {
  payment_id: samples.PAYMENT_ID,
  order_id: 'order-1001',
  pos_id: samples.POS_ID,
  mode: 'direct',
  method: 'purchase',
  amount: 10.1,
  currency: 'UAH',
  status: 'success',
  status_code: '1000',
  created_at: '2025-03-01T10:00:00',
  processed_at: '2025-03-01T10:00:02Z',
  fee: { amount: 0.25, currency: 'UAH' },
  limit_info: { retry_after: '2025-03-02T00:00:00', description: 'daily limit' },
  payway: 'card',
  cc_mask: '424242******4242',
  new_field_enabled_by_support: 'kept',
};

describe('signWebhook / verifyWebhook', () => {
  it('reproduces the published example', () => {
    expect(signWebhook(DATA, SECRET)).toBe(SIGNATURE);
    expect(SIGNATURE).toHaveLength(28);
    expect(verifyWebhook(DATA, SIGNATURE, SECRET)).toBe(true);
    expect(Buffer.from(DATA, 'base64url').toString()).toBe('{"name":"Joe","age":20}');
  });

  it('rejects a signature without its padding', () => {
    expect(verifyWebhook(DATA, SIGNATURE.replace(/=+$/, ''), SECRET)).toBe(false);
  });

  it('rejects tampered data, a tampered signature, a wrong secret and the standard base64 alphabet', () => {
    expect(verifyWebhook('eyJuYW1lIjoiSm9lIiwiYWdlIjoyMX0=', SIGNATURE, SECRET)).toBe(false);
    expect(verifyWebhook(DATA, `A${SIGNATURE.slice(1)}`, SECRET)).toBe(false);
    expect(verifyWebhook(DATA, SIGNATURE, 'changeme2')).toBe(false);
    expect(verifyWebhook(DATA, SIGNATURE.replace('-', '+'), SECRET)).toBe(false);
    expect(verifyWebhook(DATA, '', SECRET)).toBe(false);
  });

  it('verifies on the raw string: re-encoded JSON with the same meaning does not pass', () => {
    const reencoded = encodeWebhookData({ age: 20, name: 'Joe' });
    expect(verifyWebhook(reencoded, SIGNATURE, SECRET)).toBe(false);
  });
});

describe('webhookForm / encodeWebhookData', () => {
  it('encodes base64url with padding, signed so that verify accepts it', () => {
    const form = webhookForm({ name: 'Joe', age: 20 }, SECRET);
    expect(form).toEqual({ data: DATA, signature: SIGNATURE });
    // Bytes that map to + and / in standard base64 come out URL-safe.
    expect(encodeWebhookData({ s: '>>>???' })).toMatch(/^[A-Za-z0-9_-]+=*$/);
  });
});

describe('decodeWebhook', () => {
  it('decodes a primary event into minor units, keeping unknown fields', () => {
    const event = decodeWebhook(encodeWebhookData(paymentEvent));
    expect(event).toMatchObject({
      method: 'purchase',
      amount: 1010,
      currency: 'UAH',
      fee: { amount: 25, currency: 'UAH' },
      status_code: '1000',
      processed_at: '2025-03-01T10:00:02Z',
      limit_info: { retry_after: '2025-03-02T00:00:00', description: 'daily limit' },
      new_field_enabled_by_support: 'kept',
    });
  });

  it('decodes secondary events with the primary order_id and their own operation_id', () => {
    const refund = {
      operation_id: samples.OPERATION_ID,
      payment_id: samples.PAYMENT_ID,
      order_id: 'order-1001',
      pos_id: null,
      transaction_id: null,
      mode: 'direct',
      method: 'refund',
      amount: '2.50',
      currency: 'UAH',
      status: 'success',
      status_code: 1004,
      created_at: '2025-03-01T11:00:00',
      processing_time: null,
      fee: null,
      receipt_url: 'https://gateway.example/receipt/1',
    };
    const event = decodeWebhook(encodeWebhookData(refund));
    expect(event).toMatchObject({ method: 'refund', operation_id: samples.OPERATION_ID, amount: 250, status_code: '1004', fee: null, processed_at: null });
  });

  it('reads limit_info sent as a string, as typed in the tables', () => {
    const event = decodeWebhook(encodeWebhookData({ ...paymentEvent, limit_info: 'daily limit' }));
    expect(event.limit_info).toBe('daily limit');
  });

  it('reads processed_amount in minor units, and keeps as sent one in a unit it cannot count, instead of refusing the event', () => {
    const paidLess = readWebhook(webhookForm({ ...paymentEvent, processed_amount: 5, processed_currency: 'UAH' }, SECRET), SECRET);
    expect(paidLess).toMatchObject({ amount: 1010, processed_amount: 500, processed_currency: 'UAH' });
    // processed_currency is a String(≤256) in the interface, not a CURRENCY: an alternative method's own unit.
    const inCrypto = readWebhook(webhookForm({ ...paymentEvent, processed_amount: 0.00012345, processed_currency: 'USDT' }, SECRET), SECRET);
    expect(inCrypto).toMatchObject({ amount: 1010, status: 'success', processed_amount_as_sent: 0.00012345, processed_currency: 'USDT' });
    expect(inCrypto).not.toHaveProperty('processed_amount');
    // An ISO currency, finer than its minor unit: no decimal is ever left in the minor-unit field.
    const finer = readWebhook(webhookForm({ ...paymentEvent, processed_amount: '1.5', processed_currency: 'JPY' }, SECRET), SECRET);
    expect(finer).toMatchObject({ processed_amount_as_sent: '1.5' });
    expect(finer).not.toHaveProperty('processed_amount');
  });

  it('names processed_currency in upper case when it reads processed_amount in it, and takes an empty one as none', () => {
    // A String in the interface: 'uah' is UAH, which a receiver compares with the payment's currency.
    const lower = readWebhook(webhookForm({ ...paymentEvent, processed_amount: 5, processed_currency: 'uah' }, SECRET), SECRET);
    expect(lower).toMatchObject({ processed_amount: 500, processed_currency: 'UAH' });
    const empty = readWebhook(webhookForm({ ...paymentEvent, processed_amount: '5.00', processed_currency: '' }, SECRET), SECRET);
    expect(empty).toMatchObject({ processed_amount: 500, processed_currency: '' });
    expect(empty).not.toHaveProperty('processed_amount_as_sent');
    // Not read in it: kept as sent, the amount too.
    const other = readWebhook(webhookForm({ ...paymentEvent, processed_amount: 5, processed_currency: 'usdt' }, SECRET), SECRET);
    expect(other).toMatchObject({ processed_amount_as_sent: 5, processed_currency: 'usdt' });
  });

  it('rejects what is not base64url JSON of a known event', () => {
    expect(() => decodeWebhook('not base64!')).toThrow(WebhookPayloadError);
    expect(() => decodeWebhook(Buffer.from('{oops').toString('base64url'))).toThrow(/not JSON/);
    expect(() => decodeWebhook(DATA)).toThrow(/method: is required/);
    expect(() => decodeWebhook(encodeWebhookData({ ...paymentEvent, method: 'teleport' }))).toThrow(WebhookPayloadError);
    expect(() => decodeWebhook(encodeWebhookData({ ...paymentEvent, amount: 10.5, currency: 'JPY' }))).toThrow(/finer than the JPY/);
  });
});

describe('parseWebhookData', () => {
  it('gives the JSON as sent, which readWebhookEvent reads as decodeWebhook does', () => {
    const data = encodeWebhookData(paymentEvent);
    const json = parseWebhookData(data);
    expect(json).toEqual(paymentEvent);
    expect(readWebhookEvent(json)).toEqual(decodeWebhook(data));
    // Reading the event leaves the JSON as it was: a receiver keeps it as sent.
    expect(json).toEqual(paymentEvent);
  });

  it('rejects what is not base64url JSON, and only that', () => {
    expect(() => parseWebhookData('not base64!')).toThrow(WebhookPayloadError);
    expect(() => parseWebhookData(Buffer.from('{oops').toString('base64url'))).toThrow(/not JSON/);
    expect(parseWebhookData(DATA)).toEqual({ name: 'Joe', age: 20 });
  });
});

describe('readWebhook', () => {
  it('verifies before decoding', () => {
    const form = webhookForm(paymentEvent, SECRET);
    expect(readWebhook(form, SECRET).order_id).toBe('order-1001');
    expect(() => readWebhook({ ...form, signature: form.signature.slice(0, -1) }, SECRET)).toThrow(WebhookSignatureError);
    // A forged event with a valid-looking shape never reaches the decoder.
    expect(() => readWebhook({ data: encodeWebhookData(paymentEvent), signature: SIGNATURE }, SECRET)).toThrow(WebhookSignatureError);
  });
});

describe('readWebhook on what a receiver is really handed', () => {
  const form = webhookForm(paymentEvent, SECRET);

  it('reads a post without a field as unsigned, and a route that parsed no form as its own fault', () => {
    // A post that lacks a field, or a body as received that is no form: unsigned.
    for (const received of ['data=x', '{"data":"x"}', Buffer.from('{}'), new URLSearchParams(), { data: form.data }, { signature: form.signature }, { data: [form.data], signature: form.signature }]) {
      expect(() => readWebhook(received as never, SECRET)).toThrow(WebhookSignatureError);
    }
    // What a handler gets when the framework parsed no form (req.body undefined, or {} from
    // Express 4): the receiver's set-up, answered 5xx so the gateway sends it again once fixed.
    for (const received of [undefined, null, {}]) {
      expect(() => readWebhook(received as never, SECRET)).toThrow(WebhookFormError);
      expect(() => readWebhook(received as never, SECRET)).not.toThrow(WebhookSignatureError);
    }
    expect(() => readWebhook({ data: form.data } as never, SECRET)).toThrow('webhook form has no signature field');
    expect(verifyWebhook(undefined as never, form.signature, SECRET)).toBe(false);
    expect(verifyWebhook(form.data, null as never, SECRET)).toBe(false);
  });

  it('says the secret is missing (an unset variable) rather than calling every webhook forged', () => {
    for (const secret of [undefined, '']) {
      expect(() => readWebhook(form, secret as never)).toThrow(/webhook secret must be the project's API secret/);
      expect(() => verifyWebhook(form.data, form.signature, secret as never)).toThrow(TypeError);
    }
  });

  it('tells data that is not a string from data that is not JSON', () => {
    expect(() => parseWebhookData(undefined as never)).toThrow('webhook data is not a string');
  });
});

describe('readWebhook behind Express, as the gateway posts it', () => {
  const form = webhookForm(paymentEvent, SECRET);

  // A receiver as its README writes it: 403 for a webhook it cannot verify, 503 for one it read no
  // form of (the gateway sends it again), the reason answered.
  async function post(parser: RequestHandler, body: URLSearchParams): Promise<{ status: number; text: string }> {
    const app = express().post('/webhooks/gateway', parser, (request, response) => {
      try {
        response.send(readWebhook(request.body, SECRET).order_id);
      } catch (error) {
        response.status(error instanceof WebhookSignatureError ? 403 : error instanceof WebhookFormError ? 503 : 500).send((error as Error).message);
      }
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/gateway`, { method: 'POST', body });
      return { status: answer.status, text: await answer.text() };
    } finally {
      server.close();
    }
  }

  it.each([
    ['express.raw(), as bytes', express.raw({ type: 'application/x-www-form-urlencoded' })],
    ['express.text(), as text', express.text({ type: 'application/x-www-form-urlencoded' })],
  ])('reads the body as received from %s', async (_parser, parser) => {
    expect(await post(parser, new URLSearchParams({ ...form }))).toEqual({ status: 200, text: 'order-1001' });
  });

  it('refuses a tampered body as raw bytes too', async () => {
    const tampered = new URLSearchParams({ data: encodeWebhookData({ ...paymentEvent, amount: 1 }), signature: form.signature });
    expect(await post(express.raw({ type: 'application/x-www-form-urlencoded' }), tampered)).toEqual({ status: 403, text: 'webhook signature does not match' });
  });

  it('names the fix when only express.json() ran, which leaves a form unread, and is not taken for a forgery', async () => {
    const { status, text } = await post(express.json(), new URLSearchParams({ ...form }));
    expect(status).toBe(503);
    expect(text).toContain('express.json() leaves it unread');
  });

  it('names the fix for the empty object Express 4 leaves when only express.json() ran', () => {
    // body-parser 1.x sets req.body to {} for a body it did not parse.
    expect(() => readWebhook({} as never, SECRET)).toThrow('express.json() leaves it unread');
    expect(() => readWebhook({ signature: form.signature } as never, SECRET)).toThrow('webhook form has no data field');
  });

  it('reads URLSearchParams and FormData, and refuses a field posted twice', () => {
    expect(readWebhook(new URLSearchParams({ ...form }), SECRET).order_id).toBe('order-1001');
    const formData = new FormData();
    formData.set('data', form.data);
    formData.set('signature', form.signature);
    expect(readWebhook(formData, SECRET).order_id).toBe('order-1001');
    const twice = new URLSearchParams({ ...form });
    twice.append('signature', form.signature);
    expect(() => readWebhook(twice, SECRET)).toThrow('webhook form has no signature field');
  });
});
