// The companion mounted in Express behind the host's own middleware, as a NestJS app puts it
// when enableCors() or listen() comes before app.use: a CORS middleware that answers every
// origin, and a 404 handler that answers everything.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import compression from 'compression';
import express from 'express';
import type { RequestHandler } from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import { toNodeListener } from './http/node-listener.js';
import { createLogger, memorySink } from './log/logger.js';
import { readCompanionConfig } from './settings.js';
import { composeCompanion } from './start.js';
import type { ComposedCompanion } from './start.js';
import { eventually } from './test/stack.js';

const ADMIN_TOKEN = 'host-middleware-admin-token-0123';
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
const SHOP = 'https://shop.example';

let sandbox: ServedSandbox;
let lines: string[];
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  sandbox = await serveSandbox();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await sandbox.close();
});

/**
 * An Express app on a free port, the companion composed for its address under /payments — as
 * `localhost` when `named`, as the docs write it, while requests come to 127.0.0.1; with the
 * basePath /payments unless `basePath` is false (the public URL then ends with /payments).
 */
async function expressHost({ named = false, basePath = true } = {}): Promise<{ shop: express.Express; url: string; companion: ComposedCompanion }> {
  const shop = express();
  const server = createServer(shop).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const memory = memorySink();
  lines = memory.lines;
  const companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN, PAYFORM_ALLOWED_ORIGINS: SHOP }), {
    gatewayBaseUrl: sandbox.url,
    sandboxOrigin: sandbox.url,
    publicUrl: `${named ? url.replace('127.0.0.1', 'localhost') : url}${basePath ? '' : '/payments'}`,
    ...(basePath ? { basePath: '/payments' } : {}),
    logger: createLogger({ sink: memory.sink }),
  });
  cleanups.push(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())), () => companion.close());
  return { shop, url, companion };
}

function logged(part: string): { level: string; msg: string }[] {
  return lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes(part));
}

/** The public URL check's one line, once said. */
async function checkLine(): Promise<{ level: string; msg: string }> {
  const [said] = await eventually(() => {
    const found = logged('does not reach this companion');
    // What was said instead, should the line not come: the failure names it.
    expect(found, lines.map((line) => (JSON.parse(line) as { msg: string }).msg).join('\n')).toHaveLength(1);
    return found;
  });
  return said!;
}


/** What cors() with its defaults does: `*` on every answer, the preflight answered at once. */
const anyOrigin: RequestHandler = (request, response, next) => {
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Expose-Headers', 'X-Shop-Cart');
  if (request.method !== 'OPTIONS') return next();
  response.setHeader('Access-Control-Allow-Methods', 'GET,HEAD,PUT,PATCH,POST,DELETE');
  response.status(204).end();
};

describe('a host CORS middleware before the companion', () => {
  it('does not open the checkout API to every origin: the companion answers with its own CORS only, and says so once', async () => {
    const { shop, url, companion } = await expressHost();
    shop.use(anyOrigin);
    shop.use('/payments', toNodeListener(companion.app));
    const opened = await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    const { id } = (await opened.json()) as { id: string };

    const elsewhere = await fetch(`${url}/payments/api/checkout/sessions/${id}`, { headers: { Origin: 'https://attacker.example' } });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    expect(elsewhere.headers.get('access-control-expose-headers')).toBeNull();
    const ours = await fetch(`${url}/payments/api/checkout/sessions/${id}`, { headers: { Origin: SHOP } });
    expect(ours.headers.get('access-control-allow-origin')).toBe(SHOP);
    // Its own, not the host's: the Date the widget reads the companion's clock by.
    expect(ours.headers.get('access-control-expose-headers')).toBe('Date');
    // The answers any page may read still say so themselves: the widget's script, the 404.
    expect((await fetch(`${url}/payments/no-such-route`)).headers.get('access-control-allow-origin')).toBe('*');

    const said = logged('set Access-Control-Allow-Origin');
    expect(said.map(({ level }) => level)).toEqual(['error']);
    expect(said[0]!.msg).toContain('PAYFORM_ALLOWED_ORIGINS');
    expect(said[0]!.msg).toContain('Mount the companion before it');
    // The refused origin's warning says its browser is refused the answer: now that is so.
    expect(logged('origin is not allowed').map(({ level }) => level)).toEqual(['warn']);
  });
});

/** Hono, its cors() and its Node server as a host loads them: as ES modules (the companion's copy), or required as CommonJS (another copy). */
const required = createRequire(import.meta.url);
const HONO_HOSTS = [
  ['an ES module host', { Hono, cors, serve }],
  [
    'a CommonJS host (another copy of Hono)',
    {
      Hono: (required('hono') as { Hono: typeof Hono }).Hono,
      cors: (required('hono/cors') as { cors: typeof cors }).cors,
      serve: (required('@hono/node-server') as { serve: typeof serve }).serve,
    },
  ],
] as const;

describe("a Hono host's cors() on every path, before the companion", () => {
  it.each(HONO_HOSTS)('does not let a refused origin read the checkout API, served by Node or in process, and is said once: %s', async (_host, { Hono, cors, serve }) => {
    const memory = memorySink();
    lines = memory.lines;
    const shop = new Hono();
    shop.use('*', cors());
    const server = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN, PAYFORM_ALLOWED_ORIGINS: SHOP }), {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      publicUrl: url,
      basePath: '/payments',
      logger: createLogger({ sink: memory.sink }),
    });
    cleanups.push(() => new Promise<void>((resolve) => (server.close(() => resolve()), (server as { closeAllConnections?: () => void }).closeAllConnections?.())), () => companion.close());
    shop.route('/', companion.app);
    const opened = await fetch(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    const { id } = (await opened.json()) as { id: string };

    for (const read of [(init: RequestInit) => fetch(`${url}/payments/api/checkout/sessions/${id}`, init), (init: RequestInit) => Promise.resolve(shop.request(`/payments/api/checkout/sessions/${id}`, init))]) {
      const elsewhere = await read({ headers: { Origin: 'https://attacker.example' } });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('access-control-allow-origin'), String(read)).toBeNull();
      // The shop's page reads it: by its origin, or over Node by the host's `*`, which is left on
      // allowed origins' answers there (looking would cost every pay call a web Headers).
      const ours = await read({ headers: { Origin: SHOP } });
      expect([SHOP, '*']).toContain(ours.headers.get('access-control-allow-origin'));
    }
    const said = logged('put Access-Control-Allow-Origin');
    expect(said.map(({ level }) => level)).toEqual(['error']);
    expect(said[0]!.msg).toContain("Give cors() only the host's own paths");
  });
});

describe('a route of the host answering before the companion', () => {
  const fronts: Array<[string, express.RequestHandler, { named: boolean }, number, string]> = [
    [
      'a 404 handler (NestJS’s, app.use after listen())',
      (_request, response) => void response.status(404).type('text').send('Not Found'),
      { named: false },
      404,
      "Mount it at /payments (its base path), before the server's 404 handler (in NestJS and Express, app.use('/payments', …) before listen())",
    ],
    [
      'a single-page catch-all, the public URL written as localhost',
      (request, response, next) => (request.method === 'GET' ? void response.type('html').send('<!doctype html><div id="app"></div>') : next()),
      { named: true },
      200,
      'Mount it before the routes of the server that answer under that path (a static folder, a single-page app’s catch-all page)',
    ],
  ];
  it.each(fronts)('%s: the public URL check says the companion is not mounted there, not that the URL is wrong', async (_front, handler, host, status, fix) => {
    const { shop, url, companion } = await expressHost(host);
    shop.use(handler);
    shop.use('/payments', toNodeListener(companion.app));
    // A service of the shop opens a session in process, at 127.0.0.1: the one way in left.
    const opened = await companion.app.request(`${url}/payments/api/checkout/sessions`, { method: 'POST', headers: admin, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    expect(opened.status).toBe(201);
    const said = await checkLine();
    expect(said.level).toBe('error');
    expect(said.msg).toContain(`/payments/webhooks/gateway, where the gateway posts webhooks, answers ${status} from a server that is not a payform companion`);
    expect(said.msg).toContain(`the server there answers ${status} itself, so the companion is probably not mounted at that path in it`);
    expect(said.msg).toContain(fix);
    expect(said.msg).not.toContain('set it to the address the companion answers at');
  });
});

describe('mounted in Express at a path, with no basePath', () => {
  it('the public URL check says to set basePath to the mount path, as the mount check does', async () => {
    const { shop, url, companion } = await expressHost({ basePath: false });
    shop.use('/payments', toNodeListener(companion.app));
    await fetch(`${url}/payments/api/checkout/sessions/x`);
    const said = await checkLine();
    expect(said.msg).toContain(`requests reach this companion at ${url}/payments, mounted under /payments: set basePath to /payments`);
    expect(logged('the companion is mounted at /payments, outside the root, as no basePath is set: mount it at the root, or set basePath to /payments')).toHaveLength(1);
  });
});

describe("the host's compression() before the companion", () => {
  it('leaves the live feed of changes uncompressed, so its events arrive as they happen', async () => {
    const { shop, url, companion } = await expressHost();
    shop.use(compression());
    shop.use('/payments', toNodeListener(companion.app));
    // Compressed, the stream sat in compression's buffer: not even its first event came.
    const stream = await fetch(`${url}/payments/api/changes/stream`, { headers: { ...admin, 'Accept-Encoding': 'br, gzip' }, signal: AbortSignal.timeout(5_000) });
    expect(stream.headers.get('content-encoding')).toBeNull();
    const reader = stream.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('event: ready');
    await reader.cancel();
    // The rest of the companion's answers are the host's to compress, as it chose.
    const spec = await fetch(`${url}/payments/api/openapi.json`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(spec.headers.get('content-encoding')).toBe('gzip');
  });
});
