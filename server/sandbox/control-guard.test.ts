import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from './app.js';
import { directPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';
import { serveSandbox } from './testing/served.js';
import type { ServedSandbox } from './testing/served.js';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = testSandbox({ publicUrl: 'https://sandbox.example.test', allowedHosts: ['sandbox'] });
  expect((await sandbox.post('/api/v1/payment', directPayment(sandbox.project))).status).toBe(200);
});
const orderCount = () => sandbox.app.sandbox.gateway.store.orders(sandbox.project.posId).length;
const reset = (headers: Record<string, string>, url = 'http://127.0.0.1:3001/_sandbox/reset', body = '{}') =>
  sandbox.app.request(url, { method: 'POST', headers, body });

describe('control-plane commands are JSON', () => {
  it('refuses a reset sent as a form or plain text (what a form on any website can send), and one without a type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await reset({ 'Content-Type': type }, undefined, 'reset=1');
      expect(answer.status, type).toBe(406);
      expect(await answer.json()).toMatchObject({ args: { code: 'P-406' } });
    }
    expect((await sandbox.app.request('/_sandbox/reset', { method: 'POST' })).status).toBe(406);
    expect((await sandbox.app.request('/_sandbox/clock', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"advance_ms":1}' })).status).toBe(406);
    expect(orderCount()).toBe(1);
    expect((await reset({ 'Content-Type': 'application/json' })).status).toBe(200);
    expect(orderCount()).toBe(0);
  });
});

describe('the control plane answers its own pages and tools, not other websites', () => {
  it('refuses a foreign Origin or a cross-site Sec-Fetch-Site, on reads as on commands', async () => {
    const json = { 'Content-Type': 'application/json' };
    const foreign: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'http://127.0.0.1:3000' }, // the shop next door is another origin too
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of foreign) {
      const answer = await reset({ ...json, ...headers });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(await answer.json()).toMatchObject({ args: { code: 'P-403' } });
      expect((await sandbox.app.request('http://127.0.0.1:3001/_sandbox/webhooks', { headers })).status).toBe(403);
    }
    expect(orderCount()).toBe(1);
    expect((await reset({ ...json, Origin: 'http://127.0.0.1:3001', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
    expect((await reset({ ...json, Origin: 'https://sandbox.example.test' })).status).toBe(200);
    expect((await sandbox.app.request('http://127.0.0.1:3001/_sandbox/webhooks', { headers: { 'Sec-Fetch-Site': 'none' } })).status).toBe(200);
  });

  it('answers only to loopback names, the public URL’s host and allowed hosts', async () => {
    for (const host of ['localhost', 'app.localhost:3001', '127.0.0.1:3001', '127.0.0.2', '[::1]:3001', 'sandbox.example.test', 'sandbox:3001']) {
      expect((await sandbox.app.request(`http://${host}/_sandbox/webhooks`)).status, host).toBe(200);
    }
    for (const host of ['evil.example', 'sandbox.example.test.evil.example', 'localhost.evil.example:3001']) {
      expect((await sandbox.app.request(`http://${host}/_sandbox/webhooks`)).status, host).toBe(403);
      expect((await reset({ 'Content-Type': 'application/json' }, `http://${host}/_sandbox/reset`)).status, host).toBe(403);
    }
    expect(orderCount()).toBe(1);
    // The health check answers under any name (probes name the sandbox as they like).
    expect((await sandbox.app.request('http://evil.example/health')).status).toBe(200);
    // A container's own host name is refused too, saying where to name it.
    expect(((await (await sandbox.app.request('http://payments-sandbox:4010/_sandbox/webhooks')).json()) as { message: string }).message).toMatch(/configured for \(sandbox(, [^)]+)?\), not payments-sandbox: name it in SANDBOX_ALLOWED_HOSTS/);
  });
});

describe('allowed hosts that no request’s host could match', () => {
  it('stop createSandbox, naming SANDBOX_ALLOWED_HOSTS, the entry and the host to write', () => {
    vi.stubEnv('SANDBOX_ALLOWED_HOSTS', 'sandbox, http://payments.test:4010');
    try {
      expect(() => createSandbox()).toThrow(
        new TypeError('payform sandbox: SANDBOX_ALLOWED_HOSTS takes host names without a scheme or port, as requests name them: "http://payments.test:4010" would never match one; write payments.test'),
      );
      vi.stubEnv('SANDBOX_ALLOWED_HOSTS', 'sandbox,payments.test');
      expect(createSandbox().sandbox.gateway.config.allowedHosts).toEqual(['sandbox', 'payments.test']);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('stop createSandbox given them as allowedHosts, naming the option', () => {
    expect(() => createSandbox({ allowedHosts: ['sandbox:3001'] })).toThrow(
      new TypeError('Invalid sandbox config: allowedHosts takes host names without a scheme or port, as requests name them: "sandbox:3001" would never match one; write sandbox'),
    );
  });
});

describe('over HTTP, a DNS-rebound request', () => {
  let served: ServedSandbox;
  beforeAll(async () => {
    served = await serveSandbox();
  });
  afterAll(async () => {
    await served.close();
  });

  /** What a browser sends after evil.example was made to resolve to 127.0.0.1: its own name as Host. */
  const rebound = (path: string, host: string) =>
    new Promise<number>((resolve, reject) => {
      const { port } = new URL(served.url);
      const outgoing = httpRequest({ host: '127.0.0.1', port, path, headers: { Host: host } }, (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      });
      outgoing.on('error', reject).end();
    });

  it('cannot read the webhook log; the sandbox’s own address can', async () => {
    const { port } = new URL(served.url);
    expect(await rebound('/_sandbox/webhooks', `evil.example:${port}`)).toBe(403);
    expect(await rebound('/_sandbox/webhooks', `127.0.0.1:${port}`)).toBe(200);
    expect(await rebound('/_sandbox/webhooks', `localhost:${port}`)).toBe(200);
  });
});

describe('the hosted and 3-D Secure pages cannot be framed', () => {
  it('send X-Frame-Options: DENY beside frame-ancestors', async () => {
    const hosted = await sandbox.post('/api/v1/payment', {
      ...directPayment(sandbox.project), mode: 'hosted', cc_number: undefined, exp_month: undefined, exp_year: undefined, card_cvv: undefined,
      customer_ip: undefined, browser_fingerprint: undefined,
    });
    const challenge = (await (await sandbox.post('/api/v1/payment', directPayment(sandbox.project, {}, '4000000000003220'))).json()) as { user_action_url: string };
    for (const url of [hosted.headers.get('location') ?? '', challenge.user_action_url]) {
      const page = await sandbox.app.request(url);
      expect(page.status, url).toBe(200);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });
});
