/**
 * A shop backend in any language is told of payments over HTTP: the installed `payform-companion`
 * bin, given PAYFORM_NOTIFY_URL and PAYFORM_NOTIFY_SECRET, POSTs each change there, signed, and
 * the installed package's `verifyNotification` checks it as a receiver in Node would.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { card, CUSTOMER, FINGERPRINT } from '../../server/companion/test/cards.js';
import { startPackagedStack } from './merchant.js';
import type { PackagedStack } from './merchant.js';

interface Received {
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

const secret = randomBytes(32).toString('hex');
const received: Received[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
    response.writeHead(204).end();
  });
});
let stack: PackagedStack;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payform/notifications`;
  stack = await startPackagedStack(inject('packages').shop, { env: { PAYFORM_NOTIFY_URL: url, PAYFORM_NOTIFY_SECRET: secret } });
});

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

it('POSTs a paid payment to PAYFORM_NOTIFY_URL, signed so that the installed verifyNotification takes it and nothing else', async () => {
  const { companionUrl, adminToken } = stack;
  const post = async (path: string, body: unknown, admin = false) => {
    const response = await fetch(`${companionUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(admin ? { Authorization: `Bearer ${adminToken}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.ok, await response.clone().text()).toBe(true);
    return response.json() as Promise<Record<string, string>>;
  };
  const session = await post('/api/checkout/sessions', { amount: 24950, currency: 'UAH', description: 'Green tea' }, true);
  expect((await post(`/api/checkout/sessions/${session.id}/pay`, { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT })).status).toBe('success');

  const paid = await vi.waitFor(
    () => {
      const found = received.find(({ body }) => JSON.parse(body).status === 'success');
      expect(found, 'no notification of the success').toBeDefined();
      return found!;
    },
    { timeout: 10_000, interval: 50 },
  );
  const change = JSON.parse(paid.body);
  expect(change).toMatchObject({ kind: 'payment', order_id: session.order_id, session_order_id: session.order_id, status: 'success', payment: { amount: 24950, currency: 'UAH' } });
  expect(paid.headers['payform-change-id']).toBe(change.id);
  expect(paid.headers['content-type']).toBe('application/json');

  const shop = inject('packages').shop;
  const { verifyNotification } = (await import(/* @vite-ignore */ pathToFileURL(createRequire(join(shop, 'package.json')).resolve('@payform/companion')).href)) as {
    verifyNotification: (body: string, header: unknown, secret: string, options?: { now?: number }) => boolean;
  };
  const header = paid.headers['payform-signature'];
  expect(verifyNotification(paid.body, header, secret)).toBe(true);
  expect(verifyNotification(paid.body.replace('24950', '24951'), header, secret), 'a body changed on the way').toBe(false);
  expect(verifyNotification(paid.body, header, secret.replace(/.$/, (last) => (last === '0' ? '1' : '0'))), 'another secret').toBe(false);
  expect(verifyNotification(paid.body, header, secret, { now: Date.now() + 10 * 60_000 }), 'replayed ten minutes later').toBe(false);
});
