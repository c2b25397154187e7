// The gateway API under a DNS-rebound name. The test project's credentials are public (they are
// in the docs), so a page on evil.example whose name is made to resolve to 127.0.0.1 could read a
// developer's payments and make new ones through the API as well as through the control plane.
// The API answers only the names the sandbox is reached by; the pages a customer's browser opens
// through the public URL (behind a proxy that may name the sandbox otherwise) still answer.
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authHeaderValue } from '@payform/gateway/wire';
import { directPayment } from './testing/in-process.js';
import { serveSandbox } from './testing/served.js';
import type { ServedSandbox } from './testing/served.js';

let served: ServedSandbox;
let port: string;
let lines: string[];
beforeEach(async () => {
  lines = [];
  served = await serveSandbox({ publicUrl: 'https://sandbox.example.test', allowedHosts: ['sandbox'], log: (line) => lines.push(line) });
  port = new URL(served.url).port;
});
afterEach(async () => {
  await served.close();
});

const project = () => served.app.sandbox.gateway.defaultProject;
const credentials = () => ({ 'X-API-AUTH': authHeaderValue(project().apiKey, project().apiSecret), 'X-API-KEY': project().endpointsKey });
const orderCount = () => served.app.sandbox.gateway.store.orders(project().posId).length;

/** A request to the sandbox's socket naming `host` as its Host, as a browser does after rebinding. */
function under(host: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; text: string; location: string | undefined }>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, Host: host } }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text, location: answer.headers.location }));
    });
    outgoing.on('error', reject).end(body);
  });
}

const pay = (host: string, overrides: Record<string, unknown> = {}) =>
  under(host, 'POST', '/api/v1/payment', { ...credentials(), 'Content-Type': 'application/json' }, JSON.stringify(directPayment(project(), overrides)));

describe('the gateway API under a name the sandbox is not configured for', () => {
  it('makes no payment and reads none, answering 421 that names SANDBOX_ALLOWED_HOSTS, said once in the log', async () => {
    const made = await pay(`127.0.0.1:${port}`, { order_id: 'made-here' });
    expect(made.status).toBe(200);

    const paid = await pay(`evil.example:${port}`);
    expect(paid.status).toBe(421);
    const refusal = JSON.parse(paid.text) as { message: string; args: { code: string } };
    expect(refusal.args.code).toBe('P-421');
    expect(refusal.message).toBe(
      'The gateway API answers only to loopback addresses and the hosts it is configured for (sandbox, sandbox.example.test), not evil.example: name it in SANDBOX_ALLOWED_HOSTS (createSandbox\'s allowedHosts), or give it as the host of --public-url',
    );
    expect(orderCount()).toBe(1);

    const read = await under(`evil.example:${port}`, 'GET', `/api/v1/pos/${project().posId}/orders/made-here`, credentials());
    expect(read.status).toBe(421);
    expect(read.text).not.toContain('made-here');
    expect((await under(`evil.example:${port}`, 'GET', `/api/v1/balances/pos/${project().posId}/accounts`, credentials())).status).toBe(421);

    const said = lines.filter((line) => line.includes('evil.example'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('SANDBOX_ALLOWED_HOSTS');
    expect(said[0]).toContain('DNS rebinding');
  });

  it('names in its advice no Host that is not a host name: a comma in one would have the operator allow another', async () => {
    // WHATWG URL (and so the server) takes a comma in a host name, and SANDBOX_ALLOWED_HOSTS splits
    // on commas: `evil.example,sandbox` pasted into it allows evil.example.
    const paid = await pay(`evil.example,sandbox:${port}`);
    expect(paid.status).toBe(421);
    expect(paid.text).not.toContain('evil.example');
    expect(orderCount()).toBe(0);
    expect(lines.filter((line) => line.includes('evil.example'))).toEqual([]);
    const said = lines.filter((line) => line.includes('refused a request'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('no setting allows it');
  });

  it('answers under loopback names, IP addresses, the public URL’s host and an allowed host', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`, `[::1]:${port}`, '192.168.1.20:3001', 'sandbox.example.test', 'sandbox:3001', 'SANDBOX:3001', `localhost.:${port}`, 'sandbox.:3001']) {
      expect((await pay(host)).status, host).toBe(200);
    }
    expect(lines.filter((line) => line.includes('SANDBOX_ALLOWED_HOSTS'))).toEqual([]);
  });
});

describe('what a browser reaches through the public URL, under whatever name a proxy gives', () => {
  it('still answers: the hosted checkout form, the 3-D Secure page, a receipt, the card tokenizer, the health check', async () => {
    const hosted = await under(`127.0.0.1:${port}`, 'POST', '/api/v1/payment', { ...credentials(), 'Content-Type': 'application/json' }, JSON.stringify({
      ...directPayment(project()), mode: 'hosted', cc_number: undefined, exp_month: undefined, exp_year: undefined, card_cvv: undefined,
      customer_ip: undefined, browser_fingerprint: undefined,
    }));
    expect(hosted.status).toBe(303);
    const paid = JSON.parse((await pay(`127.0.0.1:${port}`)).text) as { receipt_url: string };
    const challenged = JSON.parse((await pay(`127.0.0.1:${port}`, { cc_number: '4000000000003220' })).text) as { user_action_url: string };
    const pages = [hosted.location!, challenged.user_action_url, paid.receipt_url, '/health'].map((url) => new URL(url, 'http://sandbox').pathname);
    // nginx's proxy_pass names the upstream (`sandbox-internal:3001`) unless told otherwise.
    for (const path of pages) expect((await under('sandbox-internal:3001', 'GET', path)).status, path).toBe(200);
    // The widget's preflight to the tokenizer, which guards itself by the page's Origin (widget_origins).
    expect((await under('sandbox-internal:3001', 'OPTIONS', '/api/v1/sdk/tokenize', { Origin: 'http://localhost:5173' })).status).toBe(204);
    expect(lines.filter((line) => line.includes('SANDBOX_ALLOWED_HOSTS'))).toEqual([]);
  });
});
