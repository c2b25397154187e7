/**
 * The Node listener in a host that reads the body before it hands the request over, as a
 * Fastify route does (Fastify parses the body before the handler runs): the answer and the one
 * error line name the way in for Fastify and Koa too, not only Express's parsers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { serveSandbox } from '../../sandbox/testing/served.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { createLogger, memorySink } from '../log/logger.js';
import { readCompanionConfig } from '../settings.js';
import { composeCompanion } from '../start.js';
import { toNodeListener } from './node-listener.js';

const ADMIN_TOKEN = 'node-listener-admin-token-0123';
let sandbox: ServedSandbox;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  sandbox = await serveSandbox();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await sandbox.close();
});

it('handed a request whose body a route already read (a Fastify route): names middie’s use() and Koa’s way, with the base path', async () => {
  const memory = memorySink();
  const host: { listener?: ReturnType<typeof toNodeListener> } = {};
  // What a Fastify route handler gets: the request with its body read and parsed.
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => host.listener!(request, response));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN }), {
    gatewayBaseUrl: sandbox.url,
    sandboxOrigin: sandbox.url,
    publicUrl: url,
    basePath: '/shop-payments',
    logger: createLogger({ sink: memory.sink }),
  });
  cleanups.push(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())), () => companion.close());
  host.listener = toNodeListener(companion.app);

  const opened = await fetch(`${url}/shop-payments/api/checkout/sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }),
  });
  expect(opened.status).toBe(500);
  const { error } = (await opened.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe('body_already_read');
  expect(error.message).toContain("in Fastify, with @fastify/middie's fastify.use('/shop-payments', …), not in a route");
  expect(error.message).toContain('in Koa, before the body parser, with ctx.respond = false');
  // NestJS's way in: main.ts's app.use before listen(); a MiddlewareConsumer middleware runs after Nest's parsers.
  expect(error.message).toContain("in NestJS, with app.use('/shop-payments', …) in main.ts before listen() and before any app.useBodyParser(), not in a MiddlewareConsumer middleware");
  const said = memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('request body was read'));
  expect(said.map(({ level }) => level)).toEqual(['error']);
  expect(said[0]!.msg).toContain("@fastify/middie's fastify.use('/shop-payments', …)");
});
