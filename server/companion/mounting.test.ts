// The companion mounted under /payments in a merchant's own server — Hono, Express, a bare fetch
// handler — each served on a free port and paid through, with the served sandbox's signed
// webhook coming back through the mounted path; and its back office, served under the same path.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import { BACK_OFFICE_POLICY } from './back-office/back-office-routes.js';
import { resolveConfig } from './config.js';
import type { CompanionConfig } from './config.js';
import { toNodeListener } from './http/node-listener.js';
import { createLogger, memorySink } from './log/logger.js';
import { readCompanionConfig } from './settings.js';
import { composeCompanion } from './start.js';
import type { ComposedCompanion, StartOptions } from './start.js';
import { card } from './test/cards.js';
import { rawRequest } from './test/raw-request.js';
import { eventually, payBody } from './test/stack.js';
import type { Json } from './test/stack.js';
import { closedPort as freePort } from './test/closed-port.js';

const ADMIN_TOKEN = 'a-long-enough-admin-token';
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

let sandbox: ServedSandbox;
let logs: string[];
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  sandbox = await serveSandbox();
  logs = [];
});
afterEach(async () => {
  // The host stops taking requests before the companion closes its ledger.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sandbox.close();
});

/** A host server on 127.0.0.1 and a free port; its URL is the companion's public URL. */
async function hosted(server: Server): Promise<string> {
  if (!server.listening) server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function composeUnder(publicUrl: string, extra: StartOptions = {}): Promise<ComposedCompanion> {
  const memory = memorySink();
  logs = memory.lines;
  const companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN }), {
    gatewayBaseUrl: sandbox.url,
    sandboxOrigin: sandbox.url,
    publicUrl,
    basePath: '/payments',
    logger: createLogger({ sink: memory.sink }),
    ...extra,
  });
  cleanups.unshift(() => companion.close());
  return companion;
}

let closedPort = 0;

/** Opens a session through the merchant API, pays it with a test card, and waits for the gateway's webhook. */
async function payThrough(companionUrl: string): Promise<Json> {
  const opened = await fetch(`${companionUrl}/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
  expect(opened.status).toBe(201);
  const session = await opened.json();
  const paid = await fetch(`${companionUrl}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
  expect(await paid.json()).toMatchObject({ status: 'success' });
  // Reconciliation would not look before a minute: the event is the webhook, delivered to the mounted path.
  return eventually(async () => {
    const order = await (await fetch(`${companionUrl}/api/orders/${session.order_id}`, { headers: admin })).json();
    expect(order.events).toHaveLength(1);
    return order;
  });
}

/** The merchant's own page is the merchant's: none of the companion's policies on it. */
async function expectShopUntouched(url: string): Promise<void> {
  const page = await fetch(`${url}/`);
  expect(await page.text()).toBe('the shop');
  expect(page.headers.get('content-security-policy')).toBeNull();
}

describe('the companion mounted under a base path', () => {
  it('in a Hono app (route): pays, takes the webhook and answers under /payments only', async () => {
    const shop = new Hono();
    shop.get('/', (c) => c.text('the shop'));
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    const companion = await composeUnder(url);
    shop.route('/', companion.app);

    const order = await payThrough(`${url}/payments`);
    expect(order.order).toMatchObject({ status: 'success', amount: 150 });
    await expectShopUntouched(url);
    // Its public URL reaches it (asked at the first request): not a word of it.
    expect(logs.filter((line) => line.includes('PAYFORM_PUBLIC_URL'))).toEqual([]);
    // The URLs it hands out follow the base path.
    const openapi = await (await fetch(`${url}/payments/api/openapi.json`)).json();
    expect(openapi.servers).toEqual([{ url: `${url}/payments` }]);
    expect((await fetch(`${url}/api/orders`, { headers: admin })).status).toBe(404);
    // Its guards hold under the base path: the admin token, methods, what a route does not take, the webhooks' larger body limit.
    expect((await fetch(`${url}/payments/api/orders`)).status).toBe(401);
    const queried = await fetch(`${url}/payments/api/orders/${order.order.order_id}/refund?amount=1`, { method: 'POST', headers: admin, body: '{}' });
    expect((await queried.json()).error.fields).toEqual({ amount: 'is not allowed' });
    const wrongMethod = await fetch(`${url}/payments/healthz`, { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect((await wrongMethod.json()).error.code).toBe('method_not_allowed');
    const largeForm = new URLSearchParams({ data: 'x'.repeat(20 * 1024), signature: 'forged' });
    const forged = await fetch(`${url}/payments/webhooks/gateway`, { method: 'POST', body: largeForm });
    expect((await forged.json()).error.code).toBe('invalid_signature');
  });

  it('in a Hono app of another copy of hono (a CommonJS shop’s require): pays and takes the webhook all the same', async () => {
    // require('hono') loads hono's CommonJS build: classes and symbols of their own, not the companion's.
    const { Hono: CommonJsHono } = createRequire(import.meta.url)('hono') as { Hono: typeof Hono };
    const shop = new CommonJsHono();
    shop.get('/', (c) => c.text('the shop'));
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    shop.route('/', (await composeUnder(url)).app);

    const order = await payThrough(`${url}/payments`);
    expect(order.order).toMatchObject({ status: 'success', amount: 150 });
    await expectShopUntouched(url);
    expect(logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('in a Hono app of another copy of hono whose middleware read the body through its c.req: pays all the same', async () => {
    const { Hono: CommonJsHono } = createRequire(import.meta.url)('hono') as { Hono: typeof Hono };
    const shop = new CommonJsHono();
    // An audit log of the shop's own, reading each POST's body as Hono offers it (kept for who comes next).
    shop.use(async (c, next) => {
      if (c.req.method === 'POST') await c.req.text();
      await next();
    });
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    shop.route('/', (await composeUnder(url)).app);

    const order = await payThrough(`${url}/payments`);
    expect(order.order).toMatchObject({ status: 'success', amount: 150 });
    expect(logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('in a Hono app with a catch-all of its own after it: each request logged under the companion route that answered', async () => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    const companion = await composeUnder(url);
    shop.route('/', companion.app);
    // Static files or a single-page app's fallback, registered after the companion as usual.
    shop.get('*', (c) => c.text('the shop'));

    await payThrough(`${url}/payments`);
    await fetch(`${url}/payments/healthz`);
    const routes = logs.map((line) => JSON.parse(line) as { msg: string; route: string }).filter(({ msg }) => msg === 'request').map(({ route }) => route);
    expect(routes).toEqual(expect.arrayContaining(['/payments/api/checkout/sessions', '/payments/api/checkout/sessions/:id/pay', '/payments/webhooks/gateway', '/payments/api/orders/:order_id']));
    expect(routes).not.toContain('/*');
    // The probe is known as one: at debug, not among the info lines above.
    expect(routes).not.toContain('/payments/healthz');
  });

  it.each([
    [
      'the base path given twice (the companion adds it)',
      (url: string) => `${url}/payments`,
      (url: string) => `${url}/payments/payments/webhooks/gateway, where the gateway posts webhooks, is answered 404 by a payform companion that has no route at that path (its base path is /payments)`,
      () => 'set it to the address the companion answers at; it ends with the base path /payments, which the companion adds itself: leave it out',
    ],
    [
      'another port, where nothing listens',
      () => `http://127.0.0.1:${closedPort}`,
      () => `nothing answers at http://127.0.0.1:${closedPort}/payments (ECONNREFUSED)`,
      (url: string) => `set it to the address the companion answers at; requests reach this companion at ${url}/payments`,
    ],
  ])('says once when its public URL does not reach it, and what to do: %s', async (_, publicUrl, problem, fix) => {
    const shop = express();
    const url = await hosted(createServer(shop));
    closedPort = await freePort();
    const companion = await composeUnder(publicUrl(url));
    shop.use('/payments', toNodeListener(companion.app));
    expect((await fetch(`${url}/payments/healthz`)).headers.get('payform-instance')).toMatch(/^[0-9a-f-]{36}$/);
    const warning = await eventually(() => {
      const line = logs.find((logged) => logged.includes('PAYFORM_PUBLIC_URL'));
      expect(line).toBeDefined();
      return JSON.parse(line!) as Json;
    });
    expect(warning).toMatchObject({ level: 'error', public_url: `${publicUrl(url)}/payments` });
    expect(warning.msg).toContain(problem(url));
    expect(warning.msg).toContain(fix(url));
    await fetch(`${url}/payments/healthz`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.filter((line) => line.includes('PAYFORM_PUBLIC_URL'))).toHaveLength(1);
  });

  it('says at once when a public URL off this machine ends with the base path it adds itself', async () => {
    await composeUnder('https://shop.example/payments');
    const said = logs.filter((line) => line.includes('ends with the base path')).map((line) => JSON.parse(line) as Json);
    expect(said).toEqual([expect.objectContaining({ level: 'error', public_url: 'https://shop.example/payments/payments' })]);
    expect(said[0]!.msg).toContain('leave /payments out');
    logs.length = 0;
    await composeUnder('https://shop.example');
    expect(logs.filter((line) => line.includes('ends with the base path'))).toEqual([]);
  });

  it('says which basePath to set when a Hono app mounts it under a path of its own', async () => {
    const shop = new Hono().basePath('/shop');
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    await composeUnder(url).then((companion) => shop.route('/', companion.app));
    expect((await fetch(`${url}/shop/payments/healthz`)).status).toBe(200);
    const warning = await eventually(() => {
      const line = logs.find((logged) => logged.includes('PAYFORM_PUBLIC_URL'));
      expect(line).toBeDefined();
      return JSON.parse(line!) as Json;
    });
    expect(warning.msg).toContain(`requests reach this companion at ${url}/shop/payments, mounted under /shop: set basePath to /shop/payments`);
  });

  it.each([
    ['with no basePath', '', 'Requests reach this companion at /payments, mounted under /payments: set basePath to /payments', "and mount the app without /payments (Hono: route('/', companion.app))"],
    ['with basePath /payments too', '/payments', 'The base path is doubled: requests reach this companion at /payments/payments', "keep basePath /payments, and mount the app without /payments (Hono: route('/', companion.app))"],
  ])('routed by Hono under /payments %s, its first request a session opened in process: says the mount at the first request through it', async (_, basePath, where, fix) => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    const companion = await composeUnder(url, { basePath });
    shop.route('/payments', companion.app);
    // The shop opens its sessions in process (docs/companion.md), before any browser comes.
    const opened = await companion.app.fetch(new Request(`${url}${basePath}/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) }));
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    expect(logs.filter((line) => line.includes('mount the app without'))).toEqual([]);
    // The widget reads it through the shop: the mount shows.
    expect((await fetch(`${url}/payments${basePath}/api/checkout/sessions/${id}`)).status).toBe(200);
    await fetch(`${url}/payments${basePath}/api/checkout/sessions/${id}`);
    const said = logs.map((line) => JSON.parse(line) as Json).filter(({ msg }) => String(msg).includes('mount the app without'));
    expect(said).toEqual([expect.objectContaining({ level: 'error', public_url: `${url}${basePath}` })]);
    expect(said[0]!.msg).toContain(where);
    expect(said[0]!.msg).toContain(fix);
  });

  it('in a Hono app (route): a path under /payments that no route takes gets the companion’s 404, which the widget can read', async () => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    shop.route('/', (await composeUnder(url)).app);
    // An endpoint given with /api after the base path: the widget's read goes to /payments/api/api/….
    const missed = await fetch(`${url}/payments/api/api/checkout/sessions/cs_1`, { headers: { Origin: 'https://elsewhere.example' } });
    expect(missed.status).toBe(404);
    expect(await missed.json()).toEqual({ error: { code: 'not_found', message: 'No GET route at this address' } });
    expect(missed.headers.get('access-control-allow-origin')).toBe('*');
    expect(missed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(missed.headers.get('payform-base-path')).toBe('/payments');
    // A route's own 404 stays its own, and what is outside /payments stays the shop's.
    const unknown = await fetch(`${url}/payments/api/checkout/sessions/cs_unknown`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('payform-base-path')).toBeNull();
    const outside = await fetch(`${url}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(await outside.text()).toBe('404 Not Found');
  });

  it('in an Express app (Node listener): pays, takes the webhook, and leaves the app’s own routes to it', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url);
    shop.use('/payments', toNodeListener(companion.app));
    // The app's own JSON routes parse bodies after the companion's mount.
    shop.use(express.json());
    shop.get('/', (_request, response) => void response.type('text').send('the shop'));
    shop.post('/cart', (request, response) => void response.json({ items: request.body.items }));

    const order = await payThrough(`${url}/payments`);
    expect(order.order).toMatchObject({ status: 'success', amount: 150 });
    await expectShopUntouched(url);
    // The companion's answers carry its security set, without the X-Powered-By Express adds to
    // every response; the shop's own keep theirs.
    const health = await fetch(`${url}/payments/healthz`);
    expect(health.headers.get('x-frame-options')).toBe('DENY');
    expect(health.headers.get('x-powered-by')).toBeNull();
    expect((await fetch(`${url}/`)).headers.get('x-powered-by')).toBe('Express');
    expect(await (await fetch(`${url}/cart`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"items":2}' })).json()).toEqual({ items: 2 });
  });

  it('in Express mounted without a path: what is not under /payments goes on to the app', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url);
    shop.use(toNodeListener(companion.app));
    shop.get('/', (_request, response) => void response.type('text').send('the shop'));

    expect((await payThrough(`${url}/payments`)).order.status).toBe('success');
    await expectShopUntouched(url);
  });

  it('behind a body parser that ran first: a clear 500 and an error logged, never a hang', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url);
    shop.use(express.json());
    shop.use('/payments', toNodeListener(companion.app));

    const opened = await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    expect(opened.status).toBe(500);
    expect((await opened.json()).error).toEqual({ code: 'body_already_read', message: expect.stringContaining('mount the companion before body parsers such as express.json()') });
    // The widget's pay request comes from the shop's page: its browser may read the answer, so the
    // widget tells of this 500, not of a companion it could not reach.
    const paid = await fetch(`${url}/payments/api/checkout/sessions/any-session/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:5173' }, body: '{}' });
    expect(paid.status).toBe(500);
    expect(paid.headers.get('access-control-allow-origin')).toBe('*');
    // Said once as an error; the same mistake on the next request is a debug line (not shown at info).
    await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('before body parsers'));
    expect(said.map(({ level }) => level)).toEqual(['error']);
    expect(said[0]!.msg).toContain('express.json() and express.urlencoded()');
    // A request without a body still goes through.
    expect((await fetch(`${url}/payments/healthz`)).status).toBe(200);
  });

  it('mounted at another path than its basePath: says so once, naming both, and the shop goes on', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url);
    shop.use('/pay', toNodeListener(companion.app));
    shop.get('/pay/here', (_request, response) => void response.type('text').send('the shop'));

    expect(await (await fetch(`${url}/pay/here`)).text()).toBe('the shop');
    await fetch(`${url}/pay/api/checkout/sessions`);
    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('is mounted at'));
    expect(said).toEqual([expect.objectContaining({ level: 'error', msg: 'the companion is mounted at /pay, outside its basePath "/payments": mount it at /payments, or set basePath to /pay' })]);
  });

  it('mounted by @fastify/middie at another path than its basePath: says so once, as under Express', async () => {
    const mounted: { listener?: ReturnType<typeof toNodeListener> } = {};
    // What middie does for fastify.use('/pay', …): the path below the mount in url, the whole in
    // originalUrl, no baseUrl; Fastify's own 404 when the middleware passes the request on.
    const url = await hosted(
      createServer((request, response) => {
        const notFound = () => void response.writeHead(404).end();
        if (!request.url!.startsWith('/pay/')) return notFound();
        Object.assign(request, { originalUrl: request.url, url: request.url!.slice('/pay'.length) });
        mounted.listener!(request, response, notFound);
      }),
    );
    mounted.listener = toNodeListener((await composeUnder(url)).app);

    expect((await fetch(`${url}/pay/api/checkout/sessions`)).status).toBe(404);
    await fetch(`${url}/pay/healthz`);
    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('is mounted at'));
    expect(said).toEqual([expect.objectContaining({ level: 'error', msg: 'the companion is mounted at /pay, outside its basePath "/payments": mount it at /payments, or set basePath to /pay' })]);
  });

  it('mounted above its basePath: serves, and says nothing of the mount', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url, { basePath: '/shop/payments' });
    shop.use('/shop', toNodeListener(companion.app));
    expect((await fetch(`${url}/shop/payments/healthz`)).status).toBe(200);
    expect(logs.filter((line) => line.includes('is mounted at'))).toEqual([]);
  });

  it('mounted at a path with no basePath at all: says to set it, though every request reaches it', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url, { basePath: '' });
    shop.use('/payments', toNodeListener(companion.app));

    expect((await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: '{}' })).status).toBe(404);
    await fetch(`${url}/payments/healthz`);
    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('is mounted at'));
    expect(said).toEqual([expect.objectContaining({ level: 'error', msg: 'the companion is mounted at /payments, outside the root, as no basePath is set: mount it at the root, or set basePath to /payments' })]);
  });

  it('in Hono or a fetch handler whose own code read the body first: a clear 500 and an error logged once, never a stack', async () => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    const companion = await composeUnder(url);
    // Read through c.req, Hono keeps the body for the routes after: that one is fine.
    shop.use('/payments/api/checkout/*', async (c, next) => {
      await c.req.text();
      await next();
    });
    // Read from the raw Request (a body logger, a signature check of the shop's own), it is gone.
    shop.use('/payments/webhooks/*', async (c, next) => {
      await c.req.raw.text();
      await next();
    });
    shop.route('/', companion.app);

    const opened = await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    expect(opened.status).toBe(201);
    for (let i = 0; i < 2; i += 1) {
      const webhook = await fetch(`${url}/payments/webhooks/gateway`, { method: 'POST', body: new URLSearchParams({ data: 'e30', signature: 'x' }) });
      expect(webhook.status).toBe(500);
      expect((await webhook.json()).error).toEqual({ code: 'body_already_read', message: expect.stringContaining('c.req.raw') });
    }
    // A fetch handler that read the Request before handing it over.
    const read = new Request(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: '{}' });
    await read.text();
    const unread = await companion.app.fetch(read);
    expect(unread.status).toBe(500);
    expect(unread.headers.get('access-control-allow-origin')).toBe('*');

    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string; err?: unknown }).filter(({ level }) => level === 'error');
    expect(said).toEqual([expect.objectContaining({ msg: expect.stringContaining('the request body was read before the companion got it') })]);
    expect(said[0]!.err).toBeUndefined();
  });

  it('behind a body parser that kept the bytes as rawBody: the companion reads those', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    const companion = await composeUnder(url);
    shop.use(express.json({ verify: (request, _response, bytes) => void Object.assign(request, { rawBody: bytes }) }));
    shop.use('/payments', toNodeListener(companion.app));

    const opened = await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    expect(opened.status).toBe(201);
  });

  it('as a fetch handler given the checkout API outside its basePath (a route handler under app/api/): says once which basePath to set', async () => {
    const companion = await composeUnder('https://shop.example');
    // Said only for a session the companion opened, as the widget's requests name.
    const opened = async (app: ComposedCompanion['app'], at: string) =>
      (await (await app.request(`${at}/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json()) as Json;
    const session = await opened(companion.app, '/payments');
    // The widget's endpoint is where the host hands the companion requests: /api/payments.
    for (const path of [`/api/payments/api/checkout/sessions/${session.id}`, `/api/payments/api/checkout/sessions/${session.id}/pay`, `/4242424242424242/api/checkout/sessions/${session.id}`]) {
      expect((await companion.app.fetch(new Request(`https://shop.example${path}`))).status).toBe(404);
    }
    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('checkout API'));
    expect(said).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'the checkout API was asked at /api/payments/api/checkout/sessions/…, outside this companion’s basePath /payments, and answered 404, so <pay-form> cannot pay: set basePath to /api/payments (where your server hands the companion its requests), or hand it the requests under /payments',
      }),
      // Each wrong path once; one that is no base path is never quoted.
      expect.objectContaining({
        level: 'error',
        msg: 'the checkout API was asked at another path, outside this companion’s basePath /payments, and answered 404, so <pay-form> cannot pay: hand it the requests under /payments',
      }),
    ]);
    expect(logs.join('\n')).not.toContain(session.id);
    expect(logs.join('\n')).not.toContain('4242424242424242');

    // An endpoint with more path after the base path (the widget's script address, or /api): that is what to mend.
    for (const extra of ['/payments/widget/pay-form.js', '/payments/api']) await companion.app.fetch(new Request(`https://shop.example${extra}/api/checkout/sessions/${session.id}`));
    expect(logs.filter((line) => line.includes('under this companion’s basePath')).map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'the checkout API was asked at /payments/widget/pay-form.js/api/checkout/sessions/…: under this companion’s basePath /payments, but with /widget/pay-form.js after it, so it answered 404 and <pay-form> cannot pay: <pay-form endpoint> must be the companion’s address, ending at /payments (not its script’s or its API’s)',
      'the checkout API was asked at /payments/api/api/checkout/sessions/…: under this companion’s basePath /payments, but with /api after it, so it answered 404 and <pay-form> cannot pay: <pay-form endpoint> must be the companion’s address, ending at /payments (not its script’s or its API’s)',
    ]);

    // Given no basePath at all, behind a host or a proxy that hands it /payments/…: each fix is named.
    const bare = await composeUnder('https://shop.example', { basePath: '' });
    const bareSession = await opened(bare.app, '');
    await bare.app.fetch(new Request(`https://shop.example/payments/api/checkout/sessions/${bareSession.id}`));
    // The bin's address given with its script's path: that path is the companion's own, not a mount.
    await bare.app.fetch(new Request(`https://shop.example/widget/pay-form.js/api/checkout/sessions/${bareSession.id}`));
    expect(logs.filter((line) => line.includes('checkout API')).map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'the checkout API was asked at /payments/api/checkout/sessions/…, but this companion has no basePath and answered 404, so <pay-form> cannot pay: mounted in your server, set basePath to /payments; behind a proxy (the bin has no basePath), have the proxy strip /payments; else leave that path out of <pay-form endpoint>',
      'the checkout API was asked at /widget/pay-form.js/api/checkout/sessions/…: this companion has no basePath, but with /widget/pay-form.js after it, so it answered 404 and <pay-form> cannot pay: <pay-form endpoint> must be the companion’s address, ending at its origin (not its script’s or its API’s)',
    ]);
  });

  it('says a stray checkout path only for a session it opened: a stranger\u2019s made-up paths neither crowd it out nor get said', async () => {
    const companion = await composeUnder('https://shop.example');
    const session = (await (await companion.app.request('/payments/api/checkout/sessions', { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json()) as Json;
    // Until 0.3 the first eight wrong paths were said, whoever asked them, and then no more.
    for (let i = 0; i < 10; i += 1) await companion.app.fetch(new Request(`https://shop.example/forged${i}/api/checkout/sessions/cs_made_up`));
    await companion.app.fetch(new Request('https://shop.example/forged/api/checkout/sessions'));
    await companion.app.fetch(new Request(`https://shop.example/api/payments/api/checkout/sessions/${session.id}`));
    const said = logs.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ level, msg }) => level === 'error' && msg.includes('checkout API'));
    expect(said.map(({ msg }) => msg)).toEqual([expect.stringContaining('the checkout API was asked at /api/payments/api/checkout/sessions/…, outside this companion’s basePath /payments')]);
    expect(logs.join('\n')).not.toContain('forged');
  });

  it('as a fetch handler (Next.js route handler, Bun, Deno): pays, takes the webhook, counts the client by the address it is given', async () => {
    const late: { companion?: ComposedCompanion } = {};
    // What Deno.serve((request, info) => …) does; a Next.js route handler passes the request alone.
    const handler = (request: Request, env: HttpBindings | Http2Bindings) =>
      new URL(request.url).pathname.startsWith('/payments/')
        ? late.companion!.app.fetch(request, { clientAddress: env.incoming.socket.remoteAddress })
        : new Response('the shop');
    const url = await hosted(serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }) as Server);
    const companion = (late.companion = await composeUnder(url));

    const order = await payThrough(`${url}/payments`);
    expect(order.order).toMatchObject({ status: 'success', amount: 150 });
    await expectShopUntouched(url);
    // The payment went out with the customer's address the host gave.
    const [entry] = await companion.gateway.orders.get(order.order.order_id);
    expect(entry).toMatchObject({ customer_ip: '127.0.0.1' });
  });
});

describe('the back office, mounted with the companion under /payments', () => {
  const SELLER = { id: '0b5b0f43-5e3f-4b8e-9b43-6f1b8c2a9d10', name: 'Roasters </script><script>alert(1)</script>' };

  /** The page, its script and the API it calls, as a browser signing in would ask for them. */
  async function expectBackOffice(url: string): Promise<void> {
    const page = await fetch(`${url}/payments/admin?order=o-1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(BACK_OFFICE_POLICY);
    const html = await page.text();
    // Its files, below the mount path; the API's base path and the sellers in a data block, a seller's name unable to end it.
    expect(html).toContain('<script type="module" crossorigin src="/payments/admin/assets/index-Ab1_.js"></script>');
    const block = /<script type="application\/json" id="payform-back-office">(.*)<\/script>/.exec(html)![1]!;
    expect(block).not.toContain('<');
    expect(JSON.parse(block)).toEqual({ apiBase: '/payments', subMerchants: [SELLER], merchantSector: null });
    const script = await fetch(`${url}/payments/admin/assets/index-Ab1_.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await script.text()).toBe('export {};');
    expect((await fetch(`${url}/payments/admin/preferences.js`)).status).toBe(200);
    // Signing in is the merchant API's token check, under the same base path.
    expect((await fetch(`${url}/payments/api/stats`)).status).toBe(401);
    expect((await fetch(`${url}/payments/api/stats`, { headers: admin })).status).toBe(200);
    // One address for the page: its relative links would resolve a level too deep from another.
    const slash = await fetch(`${url}/payments/admin/?order=o-1`, { redirect: 'manual' });
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe('/payments/admin?order=o-1');
    expect((await fetch(`${url}/payments/admin/assets/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${url}/admin`)).status).toBe(404);
  }

  const backOffice = () => ({ backOffice: { path: '/admin', subMerchants: [SELLER], dir: builtPage() } });

  it('in a Hono app', async () => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    shop.route('/', (await composeUnder(url, backOffice())).app);
    // Mounted, no listening line names the page: the log does, once, at its public address.
    expect(logs.filter((line) => line.includes('back office at'))).toEqual([expect.stringContaining(`back office at ${url}/payments/admin (sign in with the admin token)`)]);
    await expectBackOffice(url);
    // A Host no URL can hold (the Node adapter lets `xn--` through) is sent to the page too, not a 500.
    const oddHost = await rawRequest(new URL(url).port, 'GET', '/payments/admin/?order=o-1', { Host: 'xn--' });
    expect([oddHost.status, oddHost.headers.location]).toEqual([308, '/payments/admin?order=o-1']);
  });

  it('in an Express app', async () => {
    const shop = express();
    const url = await hosted(createServer(shop));
    shop.use('/payments', toNodeListener((await composeUnder(url, backOffice())).app));
    await expectBackOffice(url);
  });

  it('behind a proxy that strips its public URL’s path: the page asks for its files and the API below that path', async () => {
    const late: { companion?: ComposedCompanion } = {};
    // A proxy that serves the companion at /pay and hands it the rest of the path.
    const proxy = (request: Request) => {
      const address = new URL(request.url);
      if (!address.pathname.startsWith('/pay/')) return new Response('not here', { status: 404 });
      address.pathname = address.pathname.slice('/pay'.length);
      return late.companion!.app.fetch(new Request(address, request));
    };
    const url = await hosted(serve({ fetch: proxy, port: 0, hostname: '127.0.0.1' }) as Server);
    late.companion = await composeUnder(`${url}/pay`, { basePath: '', ...backOffice() });

    const html = await (await fetch(`${url}/pay/admin`)).text();
    const script = /type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toBe('/pay/admin/assets/index-Ab1_.js');
    expect((await fetch(new URL(script!, `${url}/pay/admin`))).status).toBe(200);
    const { apiBase } = JSON.parse(/<script type="application\/json" id="payform-back-office">(.*)<\/script>/.exec(html)![1]!) as { apiBase: string };
    expect((await fetch(new URL(`${apiBase}/api/stats`, `${url}/pay/admin`), { headers: admin })).status).toBe(200);
    const slash = await fetch(`${url}/pay/admin/?order=o-1`, { redirect: 'manual' });
    expect(new URL(slash.headers.get('location')!, slash.url).href).toBe(`${url}/pay/admin?order=o-1`);
  });

  it('as a fetch handler', async () => {
    const late: { companion?: ComposedCompanion } = {};
    const handler = (request: Request) => (new URL(request.url).pathname.startsWith('/payments/') ? late.companion!.app.fetch(request) : new Response('the shop', { status: 404 }));
    const url = await hosted(serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }) as Server);
    late.companion = await composeUnder(url, backOffice());
    await expectBackOffice(url);
  });

  it('is off unless asked for', async () => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    shop.route('/', (await composeUnder(url)).app);
    expect((await fetch(`${url}/payments/admin`)).status).toBe(404);
    expect(logs.filter((line) => line.includes('back office'))).toEqual([]);
  });

  it('not built: says so at start, naming the option and the command, and answers 503 saying the same', async () => {
    const shop = new Hono();
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    const dir = join(tmpdir(), 'payform-back-office-not-built');
    shop.route('/', (await composeUnder(url, { backOffice: { path: '/admin', dir } })).app);
    const warned = logs.filter((line) => line.includes('backOffice'));
    expect(warned).toHaveLength(1);
    expect(logs.filter((line) => line.includes('back office at'))).toEqual([]);
    expect(warned[0]).toContain('npm run build -w @payform/companion');
    const page = await fetch(`${url}/payments/admin`);
    expect(page.status).toBe(503);
    expect((await page.json()).error).toMatchObject({ code: 'back_office_not_built', message: expect.stringContaining('npm run build -w @payform/companion') });
  });
});

/** A page as `vite build` leaves it (relative URLs), in a directory of its own. */
function builtPage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payform-back-office-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script src="./preferences.js"></script><script type="module" crossorigin src="./assets/index-Ab1_.js"></script></head><body><main></main></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-Ab1_.js'), 'export {};');
  writeFileSync(join(dir, 'preferences.js'), '(function () {})();');
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('backOffice', () => {
  const config = { gatewayApiSecret: 'secret', publicUrl: 'https://shop.example/', adminToken: ADMIN_TOKEN, gateway: { timeoutMs: 30_000 } } as CompanionConfig;

  it.each(['admin', '/', '/api', '/api/', '/api/admin', '/webhooks', '/a/../b', '/:id', '/admin//'])('refuses the path %s, naming the option', (path) => {
    expect(() => resolveConfig({ ...config, backOffice: { path } })).toThrow(/backOffice\.path: must/);
  });

  it('takes a path with a trailing slash as the path without it', () => {
    expect(resolveConfig({ ...config, backOffice: { path: '/admin/' } }).backOffice?.path).toBe('/admin');
  });

  it('refuses a seller without a name', () => {
    expect(() => resolveConfig({ ...config, backOffice: { path: '/admin', subMerchants: [{ id: SELLER_ID, name: ' ' }] } })).toThrow(/backOffice\.subMerchants\[0\]\.name/);
  });

  it('is PAYFORM_BACK_OFFICE for payform-companion', () => {
    expect(readCompanionConfig({ PAYFORM_BACK_OFFICE: '/admin' }).backOffice).toEqual({ path: '/admin' });
    expect(readCompanionConfig({}).backOffice).toBeUndefined();
    expect(() => readCompanionConfig({ PAYFORM_BACK_OFFICE: 'admin' })).toThrow(/PAYFORM_BACK_OFFICE: must be a path such as \/admin/);
  });
});

const SELLER_ID = '0b5b0f43-5e3f-4b8e-9b43-6f1b8c2a9d10';

describe('mounted, a missing setting is loud', () => {
  const given = { PAYFORM_DATABASE_URL: ':memory:', PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN };
  const mount = async (env: Record<string, string>, options: Parameters<typeof composeCompanion>[1] = {}) => {
    const memory = memorySink();
    logs = memory.lines;
    const companion = await composeCompanion(readCompanionConfig(env), { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }), ...options });
    cleanups.unshift(() => companion.close());
    return companion;
  };

  it('refuses to start without an admin token, naming the variable (a made-up one would be shown to no one)', async () => {
    const { PAYFORM_ADMIN_TOKEN: _token, ...withoutToken } = given;
    await expect(mount(withoutToken)).rejects.toThrow(/needs the admin token \(PAYFORM_ADMIN_TOKEN/);
    // Set under a misspelt name: the refusal says which.
    await expect(mount({ ...withoutToken, PAYFORM_ADMINTOKEN: given.PAYFORM_ADMIN_TOKEN })).rejects.toThrow(/; PAYFORM_ADMINTOKEN is set: did you mean PAYFORM_ADMIN_TOKEN\?$/);
  });

  it('refuses to start without a public URL, naming the variable and the option (webhooks would go to localhost)', async () => {
    const { PAYFORM_PUBLIC_URL: _url, ...withoutUrl } = given;
    await expect(mount(withoutUrl)).rejects.toThrow(/needs the public URL .*\(PAYFORM_PUBLIC_URL, or the publicUrl option/);
    // Given as an option, it mounts.
    await expect(mount(withoutUrl, { publicUrl: 'https://shop.example' })).resolves.toBeDefined();
  });

  it.each(['https://shop.example/?via=x', 'https://shop.example/#top', 'https://user:pw@shop.example'])('refuses a publicUrl option %s, as it refuses PAYFORM_PUBLIC_URL so written', async (publicUrl) => {
    await expect(mount(given, { publicUrl })).rejects.toThrow(/publicUrl: must have no (query|fragment|credentials): paths are appended to it/);
  });

  it('reads no process environment unless it is passed', () => {
    expect(() => readCompanionConfig(undefined as never)).toThrow(/pass process.env/);
  });

  it.each([
    ['PAYFORM_GATEWAY_BASE_URL', true],
    ['the gatewayBaseUrl option', false],
  ])('follows a gateway on this machine, named by %s, to its 3-D Secure page without a sandbox origin, and says so once', async (_, inEnvironment) => {
    const url = await hosted(createServer());
    const companion = await mount({ ...given, PAYFORM_PUBLIC_URL: url, ...(inEnvironment ? { PAYFORM_GATEWAY_BASE_URL: sandbox.url } : {}) });
    const opened = await companion.app.request('/api/checkout/sessions', { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    const session = await opened.json();
    const paid = await companion.app.request(`/api/checkout/sessions/${session.id}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payBody({ card: card('three_ds_challenge') })),
    });
    const answer = await paid.json();
    expect(answer).toMatchObject({ status: 'redirect' });
    expect(new URL(answer.redirect_url).origin).toBe(new URL(sandbox.url).origin);
    expect(logs.filter((line) => line.includes('no sandbox origin set (PAYFORM_SANDBOX_ORIGIN, or the sandboxOrigin option)'))).toHaveLength(1);
  });

  it('says nothing of the shop’s own HOST, which a mounted companion would not read, and still names its LOG_LEVEL', async () => {
    // SvelteKit's adapter-node reads HOST: the shop's server listens there, the companion with it.
    await mount({ ...given, HOST: '0.0.0.0' });
    expect(logs.filter((line) => line.includes('left alone'))).toEqual([]);
    await mount({ ...given, HOST: '0.0.0.0', LOG_LEVEL: 'debug' });
    expect(logs.filter((line) => line.includes('left alone')).map((line) => JSON.parse(line).msg)).toEqual([
      "LOG_LEVEL is set and left alone, as the shop's own: the companion reads PAYFORM_LOG_LEVEL (set it if meant for payform)",
    ]);
  });

  it('reads the unprefixed names of 0.2, with one deprecation line each', async () => {
    // SESSION_TTL_SECONDS, a name only payform used, says the environment is 0.2's.
    await mount({ SESSION_TTL_SECONDS: '900', DATABASE_URL: ':memory:', PUBLIC_URL: 'https://shop.example', ADMIN_TOKEN });
    const deprecations = logs.filter((line) => line.includes('is deprecated'));
    expect(deprecations).toHaveLength(4);
    for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'ADMIN_TOKEN', 'SESSION_TTL_SECONDS']) expect(deprecations.join('\n')).toContain(`${name} is deprecated: name it PAYFORM_${name}`);
  });
});

describe('basePath', () => {
  const config = { gatewayApiSecret: 'secret', publicUrl: 'https://shop.example/', adminToken: ADMIN_TOKEN, gateway: { timeoutMs: 30_000 } } as CompanionConfig;

  it('joins the public URL into the address the gateway and browsers are given', () => {
    expect(resolveConfig({ ...config, basePath: '/payments/' })).toMatchObject({ publicUrl: 'https://shop.example/payments', basePath: '/payments' });
    expect(resolveConfig({ ...config, basePath: '/' })).toMatchObject({ publicUrl: 'https://shop.example', basePath: '' });
  });

  it.each(['payments', '/:id', '/pay/*', '/a/../b', '//payments', '/pay%20ments'])('refuses %s, naming it', (basePath) => {
    expect(() => resolveConfig({ ...config, basePath })).toThrow(/basePath: must be a path such as \/payments/);
  });
});

describe('the companion routed into a Hono host with its own request ids', () => {
  it('leaves the host its requestId (hono/request-id), which names the host’s answer and the companion’s log line', async () => {
    const { requestId } = await import('hono/request-id');
    const shop = new Hono<{ Variables: { requestId: string } }>();
    const seen: string[] = [];
    shop.use(requestId());
    shop.use(async (c, next) => {
      await next();
      seen.push(c.get('requestId'));
    });
    const url = await hosted(serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server);
    shop.route('/', (await composeUnder(url)).app);
    const answer = await fetch(`${url}/payments/api/checkout/sessions/no-such-session`);
    expect(answer.status).toBe(404);
    expect(seen).toEqual([answer.headers.get('x-request-id')]);
    const line = logs.map((text) => JSON.parse(text) as { msg: string; route?: string; request_id?: string }).find(({ msg, route }) => msg === 'request' && route?.endsWith('/sessions/:id'));
    expect(line?.request_id).toBe(answer.headers.get('x-request-id'));
  });

  it('takes the id an Express host put on the answer before it, for its answer and its log line', async () => {
    const shop = express();
    shop.use((_request, response, next) => (response.setHeader('X-Request-Id', 'shop-req-7f3a'), next()));
    const url = await hosted(shop.listen(0, '127.0.0.1'));
    shop.use('/payments', toNodeListener((await composeUnder(url)).app));
    const answer = await fetch(`${url}/payments/api/checkout/sessions/no-such-session`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toBe('shop-req-7f3a');
    const line = logs.map((text) => JSON.parse(text) as { msg: string; route?: string; request_id?: string }).find(({ msg, route }) => msg === 'request' && route?.endsWith('/sessions/:id'));
    expect(line?.request_id).toBe('shop-req-7f3a');
  });
});
