// notifyHook against a real node:http receiver on 127.0.0.1: what each refusal is said as (the
// URL, what happened, the fix), and verifyNotification's answer to what a sender may send.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closedPort } from '../test/closed-port.js';
import { startReceiver } from '../integration/notify-receiver.js';
import type { Receiver } from '../integration/notify-receiver.js';
import { notifyHook, signNotification, verifyNotification } from './notify-url.js';
import type { PaymentChange } from './payment-change.js';

const SECRET = 'whsec-unit-0123456789abcdefABCDEFgh';
const AT = Date.parse('2026-12-02T08:00:00Z');
/** A refund's change as the hook is given one. */
const CHANGE: PaymentChange = {
  kind: 'operation',
  id: 'refund:op-1:success',
  orderId: 'order-1',
  status: 'success',
  source: 'webhook',
  operation: {
    id: 'op-1', orderId: 'order-1', kind: 'refund', amount: 250, currency: 'UAH', status: 'success', operationId: 'g-7', transactionId: 't-7', statusCode: '1004',
    statusDescription: 'Refunded', comment: null, split: null, receiptUrl: null, origin: 'merchant', createdAt: AT, updatedAt: AT, lastSeenAt: AT, settledAt: AT,
  },
};

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver('/in');
});
afterEach(async () => {
  await receiver.close();
});

describe('notifyHook', () => {
  it('takes any 2xx as delivered', async () => {
    receiver.answers.push({ status: 204 });
    await notifyHook({ url: receiver.url, secret: SECRET })(CHANGE);
    expect(receiver.received[0]?.headers['payform-change-id']).toBe(CHANGE.id);
  });

  it('tells an operation in the merchant API’s words: snake_case, ISO times, minor units', async () => {
    receiver.answers.push({ status: 204 });
    await notifyHook({ url: receiver.url, secret: SECRET })(CHANGE);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({
      id: 'refund:op-1:success', kind: 'operation', order_id: 'order-1', status: 'success', source: 'webhook',
      operation: {
        id: 'op-1', operation_id: 'g-7', transaction_id: 't-7', kind: 'refund', amount: 250, currency: 'UAH', status: 'success', status_code: '1004',
        status_description: 'Refunded', comment: null, split: null, receipt_url: null, origin: 'merchant', created_at: '2026-12-02T08:00:00.000Z', settled_at: '2026-12-02T08:00:00.000Z',
      },
    });
  });

  it('takes a web page answered 200 as a wrong path, where a catch-all route answers, and a short text/html ok as delivered', async () => {
    receiver.answers.push({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html>\n<html><div id="app"></div></html>' });
    receiver.answers.push({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: 'OK' });
    const hook = notifyHook({ url: receiver.url, secret: SECRET });
    await expect(hook(CHANGE)).rejects.toThrow(
      `the notification to ${receiver.url} was answered 200 with a web page, not by a receiver: a catch-all route answers that path; check the path in PAYFORM_NOTIFY_URL`,
    );
    await hook(CHANGE);
    expect(receiver.received).toHaveLength(2);
  });

  it('does not follow a redirect, and says where to point the URL instead', async () => {
    receiver.answers.push({ status: 308, headers: { location: '/in/v2' } });
    await expect(notifyHook({ url: receiver.url, secret: SECRET })(CHANGE)).rejects.toThrow(
      `the notification to ${receiver.url} was answered 308, a redirect to ${receiver.url}/v2: redirects are not followed, set PAYFORM_NOTIFY_URL to that address`,
    );
    expect(receiver.received).toHaveLength(1);
  });

  it('says a refused signature and a wrong path with their fixes', async () => {
    receiver.answers.push({ status: 401 }, { status: 404 });
    const hook = notifyHook({ url: receiver.url, secret: SECRET });
    await expect(hook(CHANGE)).rejects.toThrow(/answered 401 Unauthorized: check that the receiver verifies with the same secret as PAYFORM_NOTIFY_SECRET, over the body as received \(its raw bytes/);
    await expect(hook(CHANGE)).rejects.toThrow(/answered 404 Not Found: check the path in PAYFORM_NOTIFY_URL/);
  });

  it('says nothing listens, its password masked', async () => {
    const url = `http://shop:s3cret-pass@127.0.0.1:${await closedPort()}/in`;
    const failed = await Promise.resolve(notifyHook({ url, secret: SECRET })(CHANGE)).then(() => undefined, (error: Error) => error);
    expect(failed?.message).toMatch(/^the notification to http:\/\/shop:\*\*\*@127\.0\.0\.1:\d+\/in could not be sent: nothing listens there \(.*ECONNREFUSED.*\); start the receiver/);
    expect(failed?.message).not.toContain('s3cret-pass');
  });

  it('is refused at once with a URL or secret that could never work', () => {
    expect(() => notifyHook({ url: 'mailto:shop@example.com', secret: 'short' })).toThrow(
      'Invalid notifyHook options: url must be an http(s) URL, e.g. https://shop.example/payform/notifications; secret must be at least 32 characters (it is 5): use e.g. the output of `openssl rand -hex 32`',
    );
    // A password no decoding reads (its % not followed by two hex digits), and a secret typed rather than drawn.
    expect(() => notifyHook({ url: 'https://shop:50%off@shop.example/in', secret: 'ab'.repeat(16) })).toThrow(
      'Invalid notifyHook options: url has a user name or password that is not percent-encoded right (a % not followed by two hex digits): write a % in it as %25; secret is easy to guess (a few characters, repeated): use a random one, e.g. the output of `openssl rand -hex 32`',
    );
  });

  it('is refused plain http to another machine when the process runs in production, as PAYFORM_NOTIFY_URL is', () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      expect(() => notifyHook({ url: 'http://shop:pw@10.0.0.5/in', secret: SECRET })).toThrow(
        "Invalid notifyHook options: url is plain http to another machine, and NODE_ENV is production: payment changes (customers' details) would cross the network unencrypted; give the receiver an https address",
      );
      // This machine's receiver, and https anywhere, are taken.
      expect(notifyHook({ url: receiver.url, secret: SECRET })).toBeTypeOf('function');
      expect(notifyHook({ url: 'https://shop.example/in', secret: SECRET })).toBeTypeOf('function');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(notifyHook({ url: 'http://10.0.0.5/in', secret: SECRET })).toBeTypeOf('function');
  });
});

describe('verifyNotification', () => {
  const body = JSON.stringify(CHANGE);
  const now = 1_900_000_000_000;
  const t = now / 1000;

  it('takes the signature of the exact body within the tolerance, either side', () => {
    const header = signNotification(body, SECRET, t);
    expect(verifyNotification(body, header, SECRET, { now })).toBe(true);
    expect(verifyNotification(body, header, SECRET, { now: now - 300_000 })).toBe(true);
    expect(verifyNotification(body, header, SECRET, { now: now + 300_001 })).toBe(false);
    expect(verifyNotification(`${body} `, header, SECRET, { now })).toBe(false);
  });

  it('takes any one of several v1 (a secret being replaced), and refuses what is malformed', () => {
    const good = signNotification(body, SECRET, t);
    const other = signNotification(body, 'another-secret-of-32-characters!', t).split(',')[1];
    expect(verifyNotification(body, `${good.split(',')[0]},${other},${good.split(',')[1]}`, SECRET, { now })).toBe(true);
    for (const header of [undefined, null, '', 't=abc,v1=00', good.split(',')[1], `t=${t}`, `${good.split(',')[0]},v1`, `t${t},${good.split(',')[1]}`, `${good.split(',')[0]},v1=${'0'.repeat(64)}`, `${good.split(',')[0]},v1=zz`]) {
      expect(verifyNotification(body, header, SECRET, { now })).toBe(false);
    }
    expect(verifyNotification(body, good, '', { now })).toBe(false);
  });
});
