// The HTTP surface as a whole: headers, CORS, limits, the route catalog, and bad input of every
// kind against every route — never a 5xx, always the envelope, nothing stored changed.
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer as createHttp2Server } from 'node:http2';
import type { Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../openapi/api-catalog.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import { rawRequest } from '../test/raw-request.js';
import type { Json, Stack, StackOptions } from '../test/stack.js';

const openStack = stacksPerTest();

/** hono/secure-headers' set with the companion's options, over http (no HSTS). */
const SECURITY_SET: ReadonlyArray<[string, string]> = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'DENY'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
];
const UUID = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/;
let stack: Stack;
const open = async (options: StackOptions = {}) => (stack = await openStack(options));

// In process the headers go on the Response; served by Node, on Node's answer before the route
// runs (browser-policies.ts): both ways must send the same set, a route's own values first.
describe.each([['in process', false], ['over HTTP', true]])('headers for browsers, %s', (_, served) => {
  beforeEach(async () => {
    await open({ served });
  });

  it('sets security headers and no-store on API answers', async () => {
    const session = await stack.openSession();
    const response = await stack.request('GET', `/api/checkout/sessions/${session.id}`);
    expect(Object.fromEntries(['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cache-control'].map((name) => [name, response.headers.get(name)]))).toEqual({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('sends the whole security set on every answer, a route\'s own values first, no-store only where it belongs', async () => {
    const names = [...SECURITY_SET.map(([name]) => name), 'cache-control'];
    const headersOf = (response: Response) => Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
    const session = await stack.openSession();
    const paid = await stack.request('POST', `/api/checkout/sessions/${session.id}/pay`, { body: payBody() });
    expect(paid.status).toBe(200);
    expect(headersOf(paid)).toEqual({ ...Object.fromEntries(SECURITY_SET), 'cache-control': 'no-store' });
    // An unknown route's 404 may be read by any page (its CORP is its own); no-store under /api.
    expect(headersOf(await stack.request('GET', '/api/nowhere'))).toEqual({
      ...Object.fromEntries(SECURITY_SET), 'cross-origin-resource-policy': 'cross-origin', 'cache-control': 'no-store',
    });
    // Outside the API, the webhooks and the return landing, caching is the route's business.
    expect(headersOf(await stack.request('GET', '/healthz'))).toEqual({ ...Object.fromEntries(SECURITY_SET), 'cache-control': null });
  });

  it('names each answer by an id of its own, which its log line carries, whatever id the client sent', async () => {
    const session = await stack.openSession();
    const sent = '4111111111111111';
    const answers = [
      await stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { 'X-Request-Id': sent } }),
      await stack.request('GET', '/api/orders/no-such-order', { admin: true }),
      await stack.request('GET', '/api/nowhere'),
    ];
    const ids = answers.map((response) => response.headers.get('x-request-id'));
    expect(ids).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(new Set(ids).size).toBe(3);
    const lines = stack.logs.filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as { route: string; status: number; request_id: string });
    // Served, the start's own check of its public URL asks the webhook route meanwhile.
    expect(lines.filter(({ route }) => !route.startsWith('/webhooks')).slice(-3).map(({ route, status, request_id }) => [route, status, request_id])).toEqual([
      ['/api/checkout/sessions/:id', 200, ids[0]],
      ['/api/orders/:order_id', 404, ids[1]],
      ['/api/*', 404, ids[2]],
    ]);
    expect(stack.logs.join('\n')).not.toContain(sent);
  });

  it('lets configured merchant origins call the checkout API, and no one else', async () => {
    const session = await stack.openSession();
    const path = `/api/checkout/sessions/${session.id}`;
    const allowed = await stack.request('GET', path, { headers: { Origin: 'https://shop.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const foreign = await stack.request('GET', path, { headers: { Origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await stack.request('OPTIONS', `${path}/pay`, { headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type');
    const foreignPreflight = await stack.request('OPTIONS', `${path}/pay`, { headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(foreignPreflight.headers.get('access-control-allow-origin')).toBeNull();
    // Each refused origin is logged once, naming the setting; allowed ones are not.
    await stack.request('GET', path, { headers: { Origin: 'https://evil.example' } });
    await stack.request('GET', path, { headers: { Origin: 'https://other.example' } });
    // A same-origin request is no refusal: the companion's own pages need no CORS.
    await stack.request('GET', path, { headers: { Origin: new URL(stack.companionUrl).origin } });
    const refusals = stack.logs.filter((line) => line.includes('PAYFORM_ALLOWED_ORIGINS'));
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toContain('"origin":"https://evil.example"');
    expect(refusals[1]).toContain('"origin":"https://other.example"');
    // A page opened from file:// has the origin `null`, which no setting allows: the line says how to serve it.
    await stack.request('GET', path, { headers: { Origin: 'null' } });
    const fromFile = stack.logs.filter((line) => line.includes('"origin":"null"'));
    expect(fromFile).toHaveLength(1);
    expect(fromFile[0]).toContain('it has no origin (a page opened from file://, or sandboxed): serve the page over http(s)');
    expect(fromFile[0]).not.toContain('PAYFORM_ALLOWED_ORIGINS');
    const merchant = await stack.request('GET', '/api/orders', { admin: true, headers: { Origin: 'https://shop.example' } });
    expect(merchant.headers.get('access-control-allow-origin')).toBeNull();
  });

});

describe('a Host header no URL can hold', () => {
  // @hono/node-server checks a Host only by its characters: `xn--` (no punycode) and `1.2.3.256`
  // (no IPv4 address) reach the app inside a request URL that does not parse.
  it('is refused CORS like any other origin, never a 500', async () => {
    await open({ served: true });
    const session = await stack.openSession();
    const path = `/api/checkout/sessions/${session.id}`;
    const { port } = new URL(stack.companionUrl);
    for (const host of ['xn--', '1.2.3.256']) {
      const view = await rawRequest(port, 'GET', path, { Host: host, Origin: 'https://evil.example' });
      expect(view.status).toBe(200);
      expect(view.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await rawRequest(port, 'OPTIONS', `${path}/pay`, { Host: host, Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(stack.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });
});

describe('the HTTP surface', () => {
  beforeEach(async () => {
    await open();
  });

  it('logs the health probes at debug, every other request at info', async () => {
    await stack.request('GET', '/healthz');
    await stack.request('GET', '/readyz');
    await stack.request('GET', '/api/orders', { admin: true });
    const requests = stack.logs.filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as { level: string; route: string });
    expect(requests.map(({ level, route }) => [route, level])).toEqual([['/healthz', 'debug'], ['/readyz', 'debug'], ['/api/orders', 'info']]);
  });

  it('answers unknown routes 404 and wrong methods 405 with Allow, in the envelope', async () => {
    const missing = await stack.request('GET', '/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await stack.request('PUT', '/api/orders')).status).toBe(401); // the token is checked first
    const wrong = await stack.request('PUT', '/api/orders', { admin: true });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
    expect(await wrong.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    // A body sent as anything is no reason to answer a wrong method otherwise; to the right one it is.
    const text = { admin: true, body: 'refund it', headers: { 'Content-Type': 'text/plain' } };
    const session = await stack.openSession();
    expect((await stack.pay(session.id)).status).toBe(200);
    const order = session.order_id as string;
    for (const [method, path] of [['PUT', '/api/orders'], ['DELETE', `/api/orders/${order}/refund`], ['PATCH', '/api/checkout/sessions']] as const) {
      const refused = await stack.request(method, path, text);
      expect([method, path, refused.status, (await refused.json()).error.code]).toEqual([method, path, 405, 'method_not_allowed']);
    }
    expect((await stack.request('POST', `/api/orders/${order}/refund`, text)).status).toBe(415);
  });

  it('refuses bodies above the limit with 413', async () => {
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: JSON.stringify({ description: 'x'.repeat(20_000) }), headers: { 'Content-Type': 'application/json', 'Content-Length': '20020' } });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('payload_too_large');
  });

  it('over HTTP, limits a chunked body while it arrives, and lets a request without one through unread', async () => {
    await open({ served: true });
    const chunked = (text: string) => new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode(text)), controller.close()) });
    const post = (path: string, text: string) =>
      fetch(`${stack.companionUrl}${path}`, { method: 'POST', body: chunked(text), duplex: 'half', headers: { 'Content-Type': 'application/json' } } as RequestInit);
    const big = await post('/nowhere', JSON.stringify({ note: 'x'.repeat(100_000) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe('payload_too_large');
    expect((await post('/nowhere', '{}')).status).toBe(404);
    const session = await stack.openSession();
    expect((await fetch(`${stack.companionUrl}/api/checkout/sessions/${session.id}`)).status).toBe(200);
  });

  it('over HTTP/2, where a body needs no length header, still limits it while it arrives', async () => {
    // A host may serve the app over HTTP/2 (here cleartext h2c): no Content-Length, no chunking.
    const server = serve({ fetch: stack.companion.fetch, createServer: createHttp2Server, port: 0, hostname: '127.0.0.1' }) as Http2Server;
    await once(server, 'listening');
    const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const post = (body: string) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const request = session.request({ ':method': 'POST', ':path': '/nowhere', 'content-type': 'application/json' });
          let text = '';
          request.setEncoding('utf8');
          request.on('response', (headers) => {
            request.on('data', (chunk: string) => (text += chunk));
            request.on('end', () => resolve({ status: Number(headers[':status']), text }));
          });
          request.on('error', reject);
          request.end(body);
        });
      const big = await post(JSON.stringify({ note: 'x'.repeat(100_000) }));
      expect(big.status).toBe(413);
      expect(JSON.parse(big.text).error.code).toBe('payload_too_large');
      expect((await post('{}')).status).toBe(404);
    } finally {
      session.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('limits the body on every path — unknown ones, pages, routes added later — and webhooks to their own size', async () => {
    stack.companion.post('/shop/api/note', async (c) => c.json({ length: (await c.req.text()).length }));
    // No Content-Length: the limit must hold while the body is read, not only when declared.
    const big = JSON.stringify({ note: 'x'.repeat(100_000) });
    for (const path of ['/nowhere', '/healthz', '/checkout/return/abc', '/shop/api/note', '/api/checkout/sessions/x/pay']) {
      const response = await stack.request('POST', path, { body: big });
      expect(response.status, path).toBe(413);
      expect((await response.json()).error.code, path).toBe('payload_too_large');
    }
    const declared = await stack.request('POST', '/nowhere', { body: '{}', headers: { 'Content-Length': String(50 * 1024 * 1024) } });
    expect(declared.status).toBe(413);
    const note = { note: 'a small order note' };
    expect(await stack.json('POST', '/shop/api/note', 200, { body: note })).toEqual({ length: JSON.stringify(note).length });
    const webhook = await stack.request('POST', '/webhooks/gateway', { body: `data=${'A'.repeat(40_000)}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(webhook.status).toBe(400); // above the JSON limit, within the webhook one: read and judged
  });

  it('answers the health check', async () => {
    expect(await stack.json('GET', '/healthz', 200)).toEqual({ status: 'ok' });
  });
});

describe('card data in answers', () => {
  it('is not echoed through an unknown key or an unknown path', async () => {
    await open();
    const session = await stack.openSession();
    const typedAsKey = await stack.pay(session.id, { card: { '4242 4242 4242 4242 / 12/30 / 123': true }, fingerprint: {} });
    expect(typedAsKey.status).toBe(400);
    const answer = await typedAsKey.text();
    expect(JSON.parse(answer).error.fields.card).toBe('has a field that is not allowed');
    expect(answer).not.toMatch(/4242|12\/30|123/);
    const path = await stack.request('GET', '/api/4242424242424242/123');
    expect(path.status).toBe(404);
    expect(await path.text()).not.toMatch(/4242|123/);
  });

  it('the gateway might echo is masked before it is stored, logged or answered', async () => {
    // A gateway that refuses the card and quotes it back, number and CVV.
    const echo = { message: 'Card 4242424242424242 refused: CVV 123 does not match', args: [{ field_name: 'card_cvv', violation: 'value 123 is wrong' }] };
    await open({
      gateway: {
        fetch: async (input, init) =>
          String(input).endsWith('/api/v1/payment') ? Response.json(echo, { status: 400 }) : stack.sandbox.fetch(new Request(input, init)),
      },
    });
    const session = await stack.openSession();
    const refused = await stack.pay(session.id);
    expect(refused.status).toBe(422);
    const stored = await stack.ledger.getPayment(session.order_id);
    expect(stored?.statusDescription).toContain('[card number]');
    const order = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    for (const text of [await refused.text(), JSON.stringify(stored), JSON.stringify(order), stack.logs.join('\n')]) {
      expect(text).not.toMatch(/4242424242424242|\b123\b/);
    }
  });
});

describe('card data in the gateway\'s descriptions', () => {
  it('is masked before a payment\'s description is stored or shown', async () => {
    await open({
      gateway: {
        fetch: async (input, init) => {
          const answer = await stack.sandbox.fetch(new Request(input, init));
          if (!String(input).endsWith('/api/v1/payment')) return answer;
          const payment = await answer.json();
          return Response.json({ ...payment, status_description: 'Declined: card 4242 4242 4242 4242, cvv2 123' }, { status: answer.status });
        },
      },
    });
    // The answer's own description is the one read back: its webhook (another text) is not delivered.
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    expect((await stack.pay(session.id, payBody({ card: card('rejected') }))).status).toBe(200);
    expect((await stack.ledger.getPayment(session.order_id))?.statusDescription).toBe('Declined: card [card number], cvv2 [cvv]');
  });
});

describe('HSTS', () => {
  it('is sent when the companion is reached over https', async () => {
    await open({ companion: { publicUrl: 'https://pay.shop.example' } });
    expect((await stack.request('GET', '/healthz')).headers.get('strict-transport-security')).toContain('max-age=');
  });
});

describe('the route catalog and OpenAPI document', () => {
  beforeEach(async () => {
    await open();
  });

  it('lists exactly the routes the app serves', () => {
    const served = stack.companion.routes
      .filter((route) => route.method !== 'ALL' && !route.path.endsWith('*'))
      .map((route) => `${route.method} ${route.path}`);
    const documented = API.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`);
    expect(new Set(served)).toEqual(new Set(documented));
  });

  it('serves an OpenAPI 3.1 document with the request schemas', async () => {
    const document = await stack.json('GET', '/api/openapi.json', 200);
    expect(document.openapi).toBe('3.1.0');
    const pay = document.paths['/api/checkout/sessions/{id}/pay'].post;
    expect(pay.requestBody.content['application/json'].schema.properties).toHaveProperty('card');
    expect(pay.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PayAnswer' });
    expect(document.components.schemas.PayAnswer.properties.status.enum).toEqual(['success', 'failure', 'pending', 'redirect']);
    expect(document.paths['/api/orders'].get.security).toEqual([{ adminToken: [] }]);
    expect(document.paths['/api/orders'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['status', 'kind', 'session_id', 'held', 'email', 'customer_id', 'card_last4', 'amount', 'currency', 'created_from', 'created_to', 'limit', 'cursor', 'idempotency_key']);
    const bodyOf = (operation: Json): Json => operation.requestBody.content['application/json'].schema.properties;
    expect(bodyOf(document.paths['/api/checkout/sessions'].post).method.enum).toEqual(['purchase', 'auth', 'lookup']);
    const charge = document.paths['/api/customers/{customer_id}/cards/{card_id}/charges'].post;
    expect(bodyOf(charge).method.enum).toEqual(['purchase', 'auth']);
    expect(document.components.schemas.Charge.properties.status.enum).toContain('action_required');
    const events = document.paths['/api/webhook-events'].get;
    expect(events.security).toEqual([{ adminToken: [] }]);
    expect(events.parameters.find((p: { name: string }) => p.name === 'outcome').schema).toMatchObject({ enum: ['unmatched', 'parked'], default: 'unmatched' });
  });

  it('refuses, on every API route, a query parameter or a body field the catalog does not declare for it, by name', async () => {
    const session = await stack.openSession();
    const bodyless = new Set<string>();
    // A signed link's route judges its signature first: 403 (download-links.test.ts).
    for (const operation of API.filter((candidate) => candidate.path.startsWith('/api/') && candidate.access !== 'signature')) {
      const path = operation.path.replace(':id', session.id).replace(/:(\w+)/g, 'x1');
      const where = `${operation.method} ${operation.path}`;
      const withQuery = await stack.request(operation.method.toUpperCase(), `${path}?zz=1&4242424242424242=1`, { admin: true, ...(operation.method === 'get' ? {} : { body: {} }) });
      expect(withQuery.status, where).toBe(400);
      expect((await withQuery.json()).error.fields, where).toEqual({ zz: 'is not allowed', query: 'has a field that is not allowed' });
      if (operation.method === 'get' || operation.body) continue;
      bodyless.add(where);
      const withBody = await stack.request(operation.method.toUpperCase(), path, { admin: true, body: { zz: 1 } });
      expect(withBody.status, where).toBe(400);
      expect((await withBody.json()).error.fields, where).toEqual({ zz: 'is not allowed' });
    }
    expect(bodyless).toEqual(new Set(['delete /api/checkout/sessions/:id', 'post /api/checkout/sessions/:id/extend', 'post /api/webhook-events/:id/review', 'post /api/orders/:order_id/cancel', 'delete /api/customers/:customer_id/cards/:card_id']));
    expect((await stack.ledger.getSession(session.id))?.status).toBe('open');
  });

  it('refuses every merchant route without the admin token', async () => {
    for (const operation of API.filter((candidate) => candidate.access === 'admin')) {
      const path = operation.path.replace(/:(\w+)/g, 'x1');
      // Before what it was sent is judged: a query or body it does not take too.
      const response = await stack.request(operation.method.toUpperCase(), `${path}?zz=1`, operation.method === 'get' ? {} : { body: { zz: 1 } });
      expect(response.status, `${operation.method} ${path}`).toBe(401);
      if (operation.method === 'get') continue;
      // Nor is the media type judged first: a stranger learns nothing of what the route takes.
      const wrongType = await stack.request(operation.method.toUpperCase(), path, { body: 'zz=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(wrongType.status, `${operation.method} ${path} as a form`).toBe(401);
    }
  });
});

// Over HTTP too: the widget's own CORP (cross-origin) and caching must win over the security set
// the companion puts on Node's answer, or merchants' pages could not load it.
describe.each([['in process', false], ['over HTTP', true]])('GET /widget/pay-form.js, %s', (_, served) => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-widget-'));
    mkdirSync(join(dir, 'chunks'));
    writeFileSync(join(dir, 'pay-form.js'), 'export const payForm = 1;');
    writeFileSync(join(dir, 'chunks', 'uk.js'), 'export default {};');
    writeFileSync(join(dir, 'LICENSES.txt'), 'Lit: BSD-3-Clause');
    await open({ companion: { widgetDir: dir }, served });
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the bundle to any origin as JavaScript, revalidated by ETag', async () => {
    const response = await stack.request('GET', '/widget/pay-form.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('cache-control')).toContain('max-age=');
    expect(await response.text()).toBe('export const payForm = 1;');
    const etag = response.headers.get('etag')!;
    const again = await stack.request('GET', '/widget/pay-form.js', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    writeFileSync(join(dir, 'pay-form.js'), 'export const payForm = 2;');
    const rebuilt = await stack.request('GET', '/widget/pay-form.js', { headers: { 'If-None-Match': etag } });
    expect(rebuilt.status).toBe(200);
  });

  it('is gzipped for a browser that takes gzip, a representation with an ETag of its own', async () => {
    const plain = await stack.request('GET', '/widget/pay-form.js', { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    const zipped = await stack.request('GET', '/widget/pay-form.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const body = Buffer.from(await zipped.arrayBuffer());
    // Over HTTP, fetch decodes it as a browser does; in process the bytes are as sent.
    expect((served ? body : gunzipSync(body)).toString()).toBe('export const payForm = 1;');
    const etag = zipped.headers.get('etag')!;
    expect(etag).not.toBe(plain.headers.get('etag'));
    expect((await stack.request('GET', '/widget/pay-form.js', { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } })).status).toBe(304);
    expect((await stack.request('GET', '/widget/pay-form.js', { headers: { 'Accept-Encoding': 'gzip;q=0', 'If-None-Match': etag } })).status).toBe(200);
    // Named with q=0, gzip is refused whatever `*` takes.
    expect((await stack.request('GET', '/widget/pay-form.js', { headers: { 'Accept-Encoding': 'gzip;q=0, *' } })).headers.get('content-encoding')).toBeNull();
    expect((await stack.request('GET', '/widget/pay-form.js', { headers: { 'Accept-Encoding': 'br, *' } })).headers.get('content-encoding')).toBe('gzip');
  });

  it('serves its chunks and nothing outside them', async () => {
    expect(await (await stack.request('GET', '/widget/chunks/uk.js')).text()).toBe('export default {};');
    const licences = await stack.request('GET', '/widget/LICENSES.txt');
    expect(licences.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await licences.text()).toBe('Lit: BSD-3-Clause');
    for (const path of ['/widget/chunks/..%2Fpay-form.js', '/widget/chunks/missing.js', '/widget/chunks/.hidden.js', '/widget/../package.json']) {
      expect((await stack.request('GET', path)).status, path).toBe(404);
    }
  });

  it('answers a file missing beside a built bundle with a plain 404, and logs nothing of a build', async () => {
    for (const path of ['/widget/chunks/nonexist.js', '/widget/chunks/missing.js']) {
      const response = await stack.request('GET', path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error, path).toEqual({ code: 'not_found', message: 'No such widget file' });
    }
    expect(stack.logs.filter((line) => line.includes('widgetDir'))).toEqual([]);
  });

  it('says once, at start, where a widget without its bundle was looked for and how to fix it; pages get 404 widget_not_built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'payform-widget-empty-'));
    try {
      const unbuilt = await open({ companion: { widgetDir: empty }, served });
      const said = unbuilt.logs.filter((line) => line.includes('widgetDir'));
      expect(said).toHaveLength(1);
      const line = JSON.parse(said[0]!) as Json;
      expect(line.level).toBe('error');
      expect(line.msg).toContain(`no widget bundle (pay-form.js) in ${empty}`);
      // An installed package and the repository are fixed differently: both are named.
      expect(line.msg).toContain('reinstall @payform/widget');
      expect(line.msg).toContain('widgetDir option');
      expect(line.msg).toContain("A server run from a bundler's traced output (Nuxt's .output, Next.js's standalone) has the package without them: include node_modules/@payform/widget/dist/**");
      expect(line.msg).toContain('In the payform repository, run `npm run build:widget`');
      for (const path of ['/widget/pay-form.js', '/widget/chunks/uk.js', '/widget/LICENSES.txt']) {
        const response = await unbuilt.request('GET', path);
        expect(response.status, path).toBe(404);
        const { error } = await response.json();
        expect(error.code, path).toBe('widget_not_built');
        // The page's answer names no command of payform's repository, nor the server's folders.
        expect(error.message, path).not.toContain('npm run');
        expect(error.message, path).not.toContain(empty);
      }
      expect(unbuilt.logs.filter((line) => line.includes('widgetDir'))).toHaveLength(1);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('answers 404 widget_not_built when the bundle goes away after start', async () => {
    rmSync(join(dir, 'pay-form.js'));
    const response = await stack.request('GET', '/widget/pay-form.js');
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('widget_not_built');
  });
});
