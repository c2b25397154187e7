// Payment changes told over HTTP (PAYFORM_NOTIFY_URL): a real companion on SQLite beside the
// real sandbox over HTTP, and a real node:http receiver on 127.0.0.1 standing for a shop backend
// in any language — signed, told again while it refuses, and the bin refusing bad settings.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundled } from '../../../e2e/entry-points.mjs';
import { NOTICE_GRACE_MS } from '../../ledger/index.js';
import { fileBackend, TestClock } from '../../ledger/testing/databases.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { eachServedSandbox } from '../test/served-sandbox.js';
import { createLogger, memorySink } from '../log/logger.js';
import { notifyHook, verifyNotification } from '../index.js';
import type { PaymentChange } from '../index.js';
import { readCompanionConfig } from '../settings.js';
import { startCompanion } from '../start.js';
import { loopbackSettings } from '../test/loopback-settings.js';
import { eventually, payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import { startReceiver } from './notify-receiver.js';
import type { Receiver } from './notify-receiver.js';

const SECRET = 'whsec-notify-test-0123456789abcdefABCDEF';
const open = stacksPerTest();
let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

/** A served stack on an SQLite file whose hook is notifyHook, as a mounted shop would compose it; the sandbox's webhooks held back. */
async function notifyingStack(clock: TestClock): Promise<{ stack: Stack; told: PaymentChange[] }> {
  const told: PaymentChange[] = [];
  const notify = notifyHook({ url: receiver.url, secret: SECRET });
  const stack = await open({
    backend: fileBackend,
    served: true,
    clock,
    companion: {
      onPaymentEvent: async (change) => {
        told.push(change);
        await notify(change);
      },
    },
  });
  await stack.control('PUT', '/_sandbox/faults', { webhook_delay_ms: 3_600_000 });
  return { stack, told };
}

const failureLines = (stack: Stack) => stack.logs.filter((line) => line.includes('the onPaymentEvent hook failed')).map((line) => JSON.parse(line));

describe('payment changes told over HTTP', () => {
  it('POSTs a paid payment as JSON, signed over the raw body; a tampered body or an old timestamp does not verify', async () => {
    const { stack, told } = await notifyingStack(new TestClock(Date.now()));
    const session = await stack.openSession({ amount: 1010, currency: 'UAH' });
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const [notification] = receiver.received;
    const change = told[0]!;
    expect(notification).toMatchObject({ method: 'POST', path: '/payform/notifications' });
    expect(notification!.headers).toMatchObject({
      'content-type': 'application/json',
      'payform-change-id': `payment:${session.order_id}:success`,
      'user-agent': expect.stringMatching(/^payform-companion\/\d+\.\d+\.\d+/),
    });
    // The change the Node hook is given, in the merchant API's words: its payment as the order's
    // detail shows it (minor units, ISO times), never the gateway's card token (shown nowhere).
    const sent = JSON.parse(notification!.body);
    expect(change.kind === 'payment' && change.payment.ccToken).toMatch(/\S/);
    expect(notification!.body).not.toContain(change.kind === 'payment' ? change.payment.ccToken : '');
    const { order: shown } = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    expect(sent).toEqual({ id: change.id, kind: 'payment', order_id: session.order_id, session_order_id: session.order_id, status: 'success', source: 'gateway_answer', payment: shown });
    expect(sent.payment).toMatchObject({ amount: 1010, currency: 'UAH', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });

    const signature = notification!.headers['payform-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyNotification(notification!.body, signature, SECRET)).toBe(true);
    expect(verifyNotification(Buffer.from(notification!.body), signature, SECRET)).toBe(true);
    expect(verifyNotification(notification!.body.replace('"amount":1010', '"amount":1'), signature, SECRET)).toBe(false);
    expect(verifyNotification(notification!.body, signature, `${SECRET}x`)).toBe(false);
    const sentAt = Number(/t=(\d+)/.exec(signature)![1]) * 1000;
    expect(verifyNotification(notification!.body, signature, SECRET, { now: sentAt + 301_000 })).toBe(false);
    expect(verifyNotification(notification!.body, signature, SECRET, { now: sentAt + 299_000 })).toBe(true);
    expect(verifyNotification(notification!.body, signature, SECRET, { now: sentAt + 3_600_000, toleranceSeconds: 7_200 })).toBe(true);
    expect(stack.logs.join('\n')).not.toContain(SECRET);
  });

  it('tells a change the receiver refused again on later notices passes, with the same id, until it answers 2xx', async () => {
    const clock = new TestClock(Date.now());
    const { stack } = await notifyingStack(clock);
    const reconcile = () => stack.companion.companion.reconciler.runOnce();
    receiver.answers.push({ status: 500 }, { status: 503 });
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    await eventually(() => expect(failureLines(stack)).toHaveLength(1));
    clock.advance(NOTICE_GRACE_MS);
    expect(await reconcile()).toMatchObject({ dueNotices: 1, toldNotices: 0 });
    // The notices machinery's backoff: 15 s after the first failed retry.
    clock.advance(15_000 - 1);
    expect(await reconcile()).toMatchObject({ dueNotices: 0 });
    clock.advance(1);
    expect(await reconcile()).toMatchObject({ dueNotices: 1, toldNotices: 1 });
    clock.advance(3_600_000);
    expect(await reconcile()).toMatchObject({ dueNotices: 0 });

    const id = `payment:${session.order_id}:success`;
    expect(receiver.received.map((request) => [request.headers['payform-change-id'], JSON.parse(request.body).source])).toEqual([
      [id, 'gateway_answer'],
      [id, 'redelivery'],
      [id, 'redelivery'],
    ]);
    for (const request of receiver.received) expect(verifyNotification(request.body, request.headers['payform-signature'] as string, SECRET)).toBe(true);
    // Each failure is said with the URL, the status and the fix; never the secret or the body.
    const failures = failureLines(stack);
    expect(failures.map((line) => line.err.message)).toEqual([
      `the notification to ${receiver.url} was answered 500 Internal Server Error: the receiver should answer 2xx once it has stored the change (a change it already has: 2xx too); the change is told again later`,
      `the notification to ${receiver.url} was answered 503 Service Unavailable: the receiver should answer 2xx once it has stored the change (a change it already has: 2xx too); the change is told again later`,
    ]);
    expect(failures.every((line) => line.err.stack === undefined)).toBe(true);
    const logged = stack.logs.join('\n');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(receiver.received[0]!.body);
  });
});

describe('the bin with PAYFORM_NOTIFY_URL', () => {
  let sandbox: ServedSandbox;
  let dir: string;
  eachServedSandbox('payform-notify-', (made) => ({ sandbox, dir } = made));

  it('says where changes go, its password masked, and POSTs a payment’s there signed, after a mounted onPaymentEvent option', async () => {
    const withPassword = new URL(receiver.url);
    withPassword.username = 'shop';
    withPassword.password = 'hunter2-basic-auth';
    const settings = loopbackSettings({ PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_NOTIFY_URL: withPassword.href, PAYFORM_NOTIFY_SECRET: SECRET });
    const memory = memorySink();
    // Composed in a host too: its own hook is told first, then the URL.
    const told: string[] = [];
    const onPaymentEvent = (change: PaymentChange) => void told.push(`${change.id} ${receiver.received.length}`);
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }), onPaymentEvent });
    try {
      const masked = withPassword.href.replace('hunter2-basic-auth', '***');
      expect(memory.lines.join('\n')).toContain(`payment changes: POSTed to ${masked} (PAYFORM_NOTIFY_URL), signed with PAYFORM_NOTIFY_SECRET`);
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      const paid = await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      expect((await paid.json()).status).toBe('success');
      await eventually(() => expect(receiver.received.length).toBeGreaterThanOrEqual(1));
      const [notification] = receiver.received;
      expect(notification!.headers.authorization).toBe(`Basic ${Buffer.from('shop:hunter2-basic-auth').toString('base64')}`);
      expect(notification!.headers['payform-change-id']).toBe(`payment:${session.order_id}:success`);
      expect(verifyNotification(notification!.body, notification!.headers['payform-signature'] as string, SECRET)).toBe(true);
      expect(told, 'the option told first, before any notification arrived').toEqual([`payment:${session.order_id}:success 0`]);
      expect(memory.lines.join('\n')).not.toMatch(/hunter2-basic-auth|whsec-notify/);
    } finally {
      await companion.close();
    }
  });

  it('names the URL, not an onPaymentEvent the bin user never wrote, when the receiver fails and when it works again', async () => {
    const settings = loopbackSettings({ PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_NOTIFY_URL: receiver.url, PAYFORM_NOTIFY_SECRET: SECRET });
    const memory = memorySink();
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const payOnce = async () => {
        const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
        const paid = await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
        expect((await paid.json()).status).toBe('success');
      };
      receiver.answers.push({ status: 503 });
      await payOnce();
      await eventually(() => expect(receiver.received).toHaveLength(1));
      await payOnce();
      await eventually(() => expect(receiver.received).toHaveLength(2));
      const name = `the notification URL ${receiver.url} (PAYFORM_NOTIFY_URL)`;
      await eventually(() => expect(memory.lines.join('\n')).toContain(`${name} works again`));
      const lines = memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string });
      expect(lines.filter((line) => line.msg.startsWith(name)).map((line) => [line.level, line.msg])).toEqual([
        ['error', `${name} failed; reconciliation tells the change again (the next failures of changes told at once are logged at debug until it works again)`],
        ['info', `${name} works again`],
      ]);
      expect(memory.lines.join('\n')).not.toContain('onPaymentEvent');
    } finally {
      await companion.close();
    }
  });

  it('refuses to start on a wrong setting, naming the variable and the fix', async () => {
    const starting = (env: Record<string, string>) => () => readCompanionConfig(env);
    expect(starting({ PAYFORM_NOTIFY_URL: 'ftp://shop.example/in', PAYFORM_NOTIFY_SECRET: SECRET })).toThrow(
      new TypeError('Invalid environment: PAYFORM_NOTIFY_URL: must be an http(s) URL, e.g. https://shop.example/payform/notifications'),
    );
    expect(starting({ PAYFORM_NOTIFY_URL: 'https://shop.example/in' })).toThrow(/^Invalid environment: PAYFORM_NOTIFY_URL is set without PAYFORM_NOTIFY_SECRET: set it to a random secret of at least 32 characters/);
    expect(starting({ PAYFORM_NOTIFY_SECRET: SECRET })).toThrow(/^Invalid environment: PAYFORM_NOTIFY_SECRET is set without PAYFORM_NOTIFY_URL: set PAYFORM_NOTIFY_URL/);
    expect(starting({ PAYFORM_NOTIFY_URL: 'https://shop.example/in', PAYFORM_NOTIFY_SECRET: 'short' })).toThrow(
      new TypeError('Invalid environment: PAYFORM_NOTIFY_SECRET: must be at least 32 characters (it is 5): use e.g. the output of `openssl rand -hex 32`'),
    );
    expect(starting({ PAYFORM_NOTIFY_URL: 'https://shop.example/in', PAYFORM_NOTIFY_SECRET: `${SECRET} é` })).toThrow(/^Invalid environment: PAYFORM_NOTIFY_SECRET: must be printable ASCII without spaces/);
    const production = {
      NODE_ENV: 'production', PAYFORM_ADMIN_TOKEN: 'Zx8-q2Lm_Vr5tYp0', PAYFORM_GATEWAY_BASE_URL: 'https://gateway.example', PAYFORM_PUBLIC_URL: 'https://pay.shop.example',
      PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_GATEWAY_POS_ID: '1f0e9d8c-7b6a-4954-8372-615049382716', PAYFORM_GATEWAY_API_KEY: 'live-key',
      PAYFORM_GATEWAY_API_SECRET: 'live-secret', PAYFORM_GATEWAY_ENDPOINTS_KEY: 'live-endpoints', PAYFORM_NOTIFY_SECRET: SECRET,
    };
    expect(starting({ ...production, PAYFORM_NOTIFY_URL: 'http://shop:pw@10.0.0.5/in' })).toThrow(
      new TypeError('Invalid environment: production needs https for PAYFORM_NOTIFY_URL (plain http only to this machine): PAYFORM_NOTIFY_URL is http://shop:***@10.0.0.5/in'),
    );
    expect(readCompanionConfig({ ...production, PAYFORM_NOTIFY_URL: 'http://127.0.0.1:8000/in' }).notify).toEqual({ url: 'http://127.0.0.1:8000/in', secret: SECRET });
    // In development, plain http elsewhere runs, said once.
    expect(readCompanionConfig({ PAYFORM_NOTIFY_URL: 'http://10.0.0.5/in', PAYFORM_NOTIFY_SECRET: SECRET }).warnings.join('\n')).toContain('PAYFORM_NOTIFY_URL is http://10.0.0.5/in, plain http to another machine');

    // The bin itself: exit code 1, the reason on standard error.
    const child = spawn(process.execPath, [await bundled('server/companion/main.ts')], {
      env: { ...process.env, NODE_ENV: 'development', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_GATEWAY_BASE_URL: sandbox.url, PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_NOTIFY_URL: 'https://shop.example/in' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toMatch(/payform companion could not start: Invalid environment: PAYFORM_NOTIFY_URL is set without PAYFORM_NOTIFY_SECRET/);
  }, 60_000);
});
