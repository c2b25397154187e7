// startCompanion: a real server on a free port, composed with a served sandbox as `npm start` does.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request as undiciRequest } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import { eachServedSandbox } from './test/served-sandbox.js';
import { GatewayClient } from '@payform/gateway';
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import { createCompanion } from './app.js';
import { composeCompanion, startCompanion } from './start.js';
import { Kysely } from 'kysely';
import { openLedger } from '../ledger/index.js';
import { sqliteDialect } from '../ledger/sqlite.js';
import { migratedTo } from '../ledger/testing/earlier-ledgers.js';
import { dropSchema, freshSchemaName, withTestDatabase } from '../ledger/testing/databases.js';
import { databaseWithRoleSettings } from '../ledger/testing/role-settings.js';
import { startPgBouncer } from '../ledger/testing/pgbouncer.js';
import { withClient } from '../ledger/testing/schema-pool.js';
import { readCompanionConfig } from './settings.js';
import { loopbackSettings } from './test/loopback-settings.js';
import { createLogger, memorySink } from './log/logger.js';
import { eventually, payBody } from './test/stack.js';
import { card } from './test/cards.js';
import type { Listing } from '../sandbox/inspector/listing.js';
import { closedPort } from './test/closed-port.js';
import { heldCharge } from './test/held-charge.js';

/** What a server answers to bytes written as they are, its head and body apart. */
async function rawExchange(port: number, request: string): Promise<{ head: string; body: string }> {
  const socket = connect(port, '127.0.0.1');
  socket.end(request);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const [head, body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n', 2);
  return { head: `${head}\r\n`, body };
}

let sandbox: ServedSandbox;
let dir: string;
eachServedSandbox('payform-start-', (made) => ({ sandbox, dir } = made));

describe('startCompanion', () => {
  it('listens, prints the generated admin token, takes payments and webhooks, and stops', async () => {
    const print = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const settings = { ...readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: join(dir, 'data', 'payform.db') }) };
    const memory = memorySink();
    const companion = await startCompanion(settings, {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: createLogger({ sink: memory.sink }),
      extend: (app) => app.get('/shop', (c) => c.text('the demo shop')),
    });
    try {
      expect(print.mock.calls.flat().join(' ')).toContain(settings.adminToken);
      expect(companion.url).toBe(`http://127.0.0.1:${companion.port}`);
      const health = await fetch(`${companion.url}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });
      // Idle connections outlive a proxy's 60 s, so the proxy never reuses one the companion is closing.
      expect(health.headers.get('keep-alive')).toBe('timeout=65');
      expect(await (await fetch(`${companion.url}/shop`)).text()).toBe('the demo shop');
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      const answer = await (await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) })).json();
      expect(answer.status).toBe('success');
      // The webhook finds its way back: the public URL follows the real port.
      await eventually(async () => expect((await companion.ledger.getOrder(session.order_id))?.events).toHaveLength(1));
    } finally {
      await companion.close();
      print.mockRestore();
    }
    await expect(fetch(`${companion.url}/healthz`)).rejects.toThrow();
  });

  it('holds the shop to PAYFORM_ACCEPTED_BRANDS: the session names them, a card of another scheme is refused', async () => {
    const settings = loopbackSettings({ PAYFORM_ACCEPTED_BRANDS: 'amex' });
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      expect((await (await fetch(`${companion.url}/api/checkout/sessions/${session.id}`)).json()).brands).toEqual(['amex']);
      const refused = await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      expect(refused.status).toBe(422);
      expect((await refused.json()).error).toMatchObject({ code: 'card_brand_not_accepted', fields: { 'card.number': 'is a Visa card; this shop takes American Express' } });
    } finally {
      await companion.close();
    }
  });

  it('takes reconciliation’s timings: a webhook that never comes is made up for in a test’s time', async () => {
    const settings = loopbackSettings();
    const companion = await startCompanion(settings, {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: createLogger({ sink: memorySink().sink }),
      reconciliation: { intervalMs: 50, stalePaymentAfterMs: 100 },
    });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ webhook_drop: true }) });
      const body = JSON.stringify(payBody({ card: card('three_ds_challenge') }));
      const challenged = await (await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).json();
      expect(challenged.status).toBe('redirect');
      await fetch(`${sandbox.url}/_sandbox/3ds/${challenged.payment_id}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ result: 'success' }) });
      await eventually(async () => expect((await companion.ledger.getPayment(session.order_id))?.status).toBe('success'));
      expect((await companion.ledger.getOrder(session.order_id))?.events).toEqual([]);
    } finally {
      await companion.close();
    }
  });

  it('reads the clock it is given, the ledger’s times too: a session opened by it expires by it', async () => {
    const twoDaysOn = () => Date.now() + 2 * 86_400_000;
    const settings = loopbackSettings();
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }), clock: twoDaysOn });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const before = twoDaysOn();
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      expect(Date.parse(session.expires_at)).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1_000);
    } finally {
      await companion.close();
    }
  });

  it('refuses a clock that is not a function, before the ledger opens', async () => {
    await expect(startCompanion(loopbackSettings(), { gatewayBaseUrl: sandbox.url, clock: 17 as never })).rejects.toThrow('Invalid companion options: clock: must be a function, not a number');
  });

  it('shuts down gracefully: stops accepting, lets a payment in flight finish and be recorded, then closes the ledger', async () => {
    const databaseUrl = join(dir, 'payform.db');
    const settings = loopbackSettings({ PAYFORM_DATABASE_URL: databaseUrl });
    const { fetch: held, atGateway, release } = heldCharge();
    const companion = await startCompanion(settings, {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: createLogger({ sink: memorySink().sink }),
      // The charge reaches the gateway, whose answer is slow to come back.
      fetch: held,
    });
    const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
    const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
    const paying = fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
    await atGateway;
    const closing = companion.close();
    // No longer accepting: a new connection is refused (one kept open is told 503 shutting_down).
    const fresh = new Agent();
    await expect(undiciRequest(`${companion.url}/healthz`, { dispatcher: fresh })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await fresh.close();
    release();
    const answer = await paying;
    expect(answer.status).toBe(200);
    expect((await answer.json()).status).toBe('success');
    await closing;
    const reopened = await openLedger(databaseUrl);
    try {
      expect((await reopened.getPayment(session.order_id))?.status).toBe('success');
    } finally {
      await reopened.close();
    }
  });

  it('says once at start the shop’s own 0.2 names it left alone, HOST among them when it listens itself', async () => {
    const memory = memorySink();
    const settings = readCompanionConfig({ PORT: '0', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', HOST: '0.0.0.0', LOG_LEVEL: 'debug' });
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    await companion.close();
    expect(memory.lines.map((line) => JSON.parse(line).msg).filter((msg: string) => msg.includes('left alone'))).toEqual([
      "HOST, LOG_LEVEL are set and left alone, as the shop's own: the companion reads PAYFORM_HOST, PAYFORM_LOG_LEVEL (set those if meant for payform)",
    ]);
  });

  it('answers a request on a connection kept open as it stops 503 shutting_down, never cut off as a reset', async () => {
    const memory = memorySink();
    const companion = await startCompanion(loopbackSettings({ PAYFORM_DATABASE_URL: join(dir, 'payform.db') }), {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: createLogger({ sink: memory.sink }),
    });
    // A proxy's pool: requests back to back on kept-alive connections.
    const pool = new Agent({ keepAliveTimeout: 30_000, connections: 12 });
    const outcomes: string[] = [];
    const client = async () => {
      for (;;) {
        try {
          const answer = await undiciRequest(`${companion.url}/healthz`, { dispatcher: pool });
          const body = await answer.body.text();
          outcomes.push(answer.statusCode === 200 ? 'served' : (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? `HTTP ${answer.statusCode}`);
        } catch (error) {
          const code = (error as { code?: string }).code ?? 'an error';
          outcomes.push(code);
          // Refused: nothing was sent, and the server is gone.
          if (code === 'ECONNREFUSED') return;
          if (outcomes.length > 100_000) return;
        }
      }
    };
    try {
      const clients = Array.from({ length: 12 }, client);
      await eventually(async () => expect(outcomes.length).toBeGreaterThan(300));
      await companion.close();
      await Promise.all(clients);
    } finally {
      await pool.close();
    }
    expect(outcomes).toContain('shutting_down');
    expect([...new Set(outcomes)].sort()).toEqual(['ECONNREFUSED', 'served', 'shutting_down']);
    const stopped = memory.lines.map((line) => JSON.parse(line) as { msg: string; refused_while_stopping?: number }).find((line) => line.msg === 'companion stopped taking requests');
    expect(stopped?.refused_while_stopping).toBe(outcomes.filter((outcome) => outcome === 'shutting_down').length);
  });

  it('gives up a payment the gateway has not answered near the grace’s end: answered pending, recorded, nothing cut off', async () => {
    const databaseUrl = join(dir, 'payform.db');
    const settings = loopbackSettings({ PAYFORM_DATABASE_URL: databaseUrl });
    const memory = memorySink();
    // The gateway sits on the charge for longer than the grace, within the client's own timeout.
    const GRACE_MS = 3_000;
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }), shutdownGraceMs: GRACE_MS });
    const faults = (body: unknown) => fetch(`${sandbox.url}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
    const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
    try {
      expect((await faults({ latency_ms: 20_000, scope: { method: 'POST', path: '/api/v1/payment' } })).status).toBe(200);
      const paying = fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      // The attempt is written before the charge is sent.
      await eventually(async () => expect(await companion.ledger.getPayment(session.order_id)).toBeDefined());
      const stopped = Date.now();
      const closing = companion.close();
      const answer = await paying;
      expect(Date.now() - stopped).toBeLessThan(GRACE_MS);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: 'pending', order_id: session.order_id });
      await closing;
      expect(memory.lines.join('\n')).not.toContain('requests still in flight');
      // Given up by the companion, not failed by the gateway: no outage is reported.
      expect(memory.lines.join('\n')).not.toMatch(/cannot be reached|keeps failing/);
      expect(memory.lines.join('\n')).toContain('The companion is stopping: it gave up waiting for the gateway to answer');
    } finally {
      await faults({});
    }
    // Kept as sent with its outcome unknown, as for any lost answer: not ended, and not taken for
    // never sent, so reconciliation reads the gateway's order for it.
    const reopened = await openLedger(databaseUrl);
    try {
      expect(await reopened.getPayment(session.order_id)).toMatchObject({ status: 'init', finalizedAt: null, unsentAt: null });
    } finally {
      await reopened.close();
    }
  });

  it('gives a frozen gateway PAYFORM_GATEWAY_TIMEOUT_MS, then answers the customer pending and reads the order', async () => {
    const settings = loopbackSettings({ PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_GATEWAY_TIMEOUT_MS: '5000' });
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_TIMEOUT_MS: '60000' })).toThrow('Invalid environment: PAYFORM_GATEWAY_TIMEOUT_MS: must be at most 30000 milliseconds');
    expect(() => readCompanionConfig({ PAYFORM_GATEWAY_TIMEOUT_MS: '5s' })).toThrow('Invalid environment: PAYFORM_GATEWAY_TIMEOUT_MS: must be a number of milliseconds');
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    const faults = (body: unknown) => fetch(`${sandbox.url}/_sandbox/faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      expect((await faults({ latency_ms: 20_000, scope: { method: 'POST', path: '/api/v1/payment' } })).status).toBe(200);
      const started = Date.now();
      const answer = await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      const waitedMs = Date.now() - started;
      expect(await answer.json()).toMatchObject({ status: 'pending', order_id: session.order_id });
      expect(waitedMs).toBeGreaterThanOrEqual(5_000);
      expect(waitedMs, 'the 30 s default was not waited for').toBeLessThan(15_000);
    } finally {
      await faults({});
      await companion.close();
    }
  }, 30_000);

  it('waits for requests in flight only so long', async () => {
    const settings = readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: ':memory:' });
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const memory = memorySink();
    const companion = await startCompanion(settings, {
      gatewayBaseUrl: sandbox.url,
      logger: createLogger({ sink: memory.sink }),
      shutdownGraceMs: 100,
      extend: (app) =>
        app.get('/stuck', () => {
          entered();
          return new Promise<Response>(() => {});
        }),
    });
    let entered = () => {};
    const handling = new Promise<void>((resolve) => (entered = resolve));
    const stuck = fetch(`${companion.url}/stuck`).catch((error: unknown) => error);
    await handling;
    await companion.close();
    expect(await stuck).toBeInstanceOf(Error);
    expect(memory.lines.join('\n')).toContain('requests still in flight');
    vi.restoreAllMocks();
  });

  it('takes its rate limits from PAYFORM_RATE_LIMITS, the others left at their defaults', async () => {
    const settings = loopbackSettings({ PAYFORM_RATE_LIMITS: 'perSession=1, declinesPerClient=40' });
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    try {
      expect(companion.app.companion.services.options.rateLimits).toMatchObject({ perSession: 1, perClient: 30, declinesPerClient: 40 });
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      const pay = () => fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      expect((await pay()).status).toBe(200);
      expect((await pay()).status).toBe(429);
    } finally {
      await companion.close();
    }
  });

  it('knows the address of a client that resets its connection right after its pay request', async () => {
    const settings = loopbackSettings();
    const memory = memorySink();
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      const body = JSON.stringify(payBody());
      const request = `POST /api/checkout/sessions/${session.id}/pay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const socket = connect(companion.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.write(request, () => resolve()));
      socket.resetAndDestroy();
      // Read at the request, the peer of a reset socket was gone: the attempt went out as no client's.
      await eventually(async () => expect(memory.lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'payment status changed')).toMatchObject({ client: '127.0.0.1' }));
    } finally {
      await companion.close();
    }
  });

  it('puts the real port in the default allowed origin, and an IPv6 host in brackets', async () => {
    const companion = await startCompanion(loopbackSettings({ PAYFORM_HOST: '::1' }), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    try {
      expect(companion.url).toBe(`http://[::1]:${companion.port}`);
      expect(companion.app.companion.services.options.allowedOrigins).toEqual([`http://[::1]:${companion.port}`]);
      expect((await fetch(`${companion.url}/healthz`)).status).toBe(200);
    } finally {
      await companion.close();
    }
  });

  /** A companion on the ledger `file` given the admin token `token`, and what it logs. */
  const startOnLedger = async (file: string, token: string) => {
    const memory = memorySink();
    const companion = await startCompanion(loopbackSettings({ PAYFORM_DATABASE_URL: file, PAYFORM_ADMIN_TOKEN: token }), {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: createLogger({ sink: memory.sink }),
    });
    return { companion, lines: memory.lines };
  };

  it('says at start when the companion started before it on the same ledger was given another admin token', async () => {
    const file = join(dir, 'tokens.db');
    const start = async (token: string) => {
      const { companion, lines } = await startOnLedger(file, token);
      await companion.close();
      return lines.filter((line) => line.includes('PAYFORM_ADMIN_TOKEN is not the one'));
    };
    expect(await start('the-first-admin-token')).toEqual([]);
    expect(await start('the-first-admin-token')).toEqual([]);
    const said = await start('another-admin-token-0');
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({ level: 'warn' });
    expect(said[0]).not.toContain('another-admin-token-0');
    expect(said[0]).not.toContain('the-first-admin-token');
  });

  it('says at start which settings differ from the companion’s started before it on the same ledger, naming each variable', async () => {
    const file = join(dir, 'settings.db');
    const start = async (variables: Record<string, string>) => {
      const memory = memorySink();
      const settings = loopbackSettings({ PAYFORM_DATABASE_URL: file, PAYFORM_ADMIN_TOKEN: 'one-admin-token-for-all', ...variables });
      const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
      await companion.close();
      return memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.msg.startsWith('settings differ'));
    };
    expect(await start({ PAYFORM_ACCEPTED_BRANDS: 'visa,mastercard' })).toEqual([]);
    // The same list in another order is the same setting.
    expect(await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard,visa' })).toEqual([]);
    const [said, ...more] = await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0' });
    expect(more).toEqual([]);
    expect(said).toMatchObject({ level: 'warn' });
    expect(said!.msg).toContain('PAYFORM_CAPTURE_OVER_RESERVE_PERCENT (here 0; there 15); PAYFORM_ACCEPTED_BRANDS (here mastercard; there mastercard,visa)');
    expect(said!.msg).toContain('a lone companion restarted with new settings');
    // Started again alike: nothing to say; nor when it goes live, which changes no answer here.
    expect(await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0' })).toEqual([]);
    expect(await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0', PAYFORM_TEST_MODE: 'false' })).toEqual([]);
    const [currencies] = await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0', PAYFORM_CURRENCIES: 'UAH' });
    expect(currencies!.msg).toContain('PAYFORM_CURRENCIES (here UAH; there any)');
    // Recorded by a release before the setting, the instance took every currency.
    const ledger = await openLedger(file);
    await ledger.recordSharedSettings(JSON.stringify({ captureOverReservePercent: '0', acceptedBrands: 'mastercard', tokenizes: 'unset: cards are relayed' }));
    await ledger.close();
    const [older, ...others] = await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0', PAYFORM_CURRENCIES: 'UAH' });
    expect(others).toEqual([]);
    expect(older!.msg).toMatch(/differ from those of the companion that last started on this ledger: PAYFORM_CURRENCIES \(here UAH; there any\)\. /u);
    expect(older!.msg).not.toContain('PAYFORM_PERSONAL_DATA_DAYS');
    // Every instance erases by age: the line says the shortest time is the one kept to.
    const [days, ...besides] = await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0', PAYFORM_CURRENCIES: 'UAH', PAYFORM_PERSONAL_DATA_DAYS: '30' });
    expect(besides).toEqual([]);
    expect(days!.msg).toContain('PAYFORM_PERSONAL_DATA_DAYS (here 30 days; there unset: kept until erased on request)');
    expect(days!.msg).toContain('the shortest PAYFORM_PERSONAL_DATA_DAYS among them is the one kept to');
    const [sector] = await start({ PAYFORM_ACCEPTED_BRANDS: 'mastercard', PAYFORM_CAPTURE_OVER_RESERVE_PERCENT: '0', PAYFORM_CURRENCIES: 'UAH', PAYFORM_PERSONAL_DATA_DAYS: '30', PAYFORM_MERCHANT_SECTOR: 'microfinance' });
    expect(sector!.msg).toContain('differ from those of the companion that last started on this ledger: PAYFORM_MERCHANT_SECTOR (here microfinance; there unset: no sector rules). ');
  });

  it('says the instance whose admin token is the odd one is to restart, when it refuses a token another one started with', async () => {
    const file = join(dir, 'rotated.db');
    const start = async (token: string) => {
      const { companion, lines } = await startOnLedger(file, token);
      return { companion, lines: () => lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.msg.startsWith('merchant API request refused')) };
    };
    const odd = 'this instance was given another — give every instance sharing the ledger the same one';
    const left = await start('the-admin-token-before');
    const changed = await start('the-admin-token-after-0');
    // Started after the others, with a token mistyped: the shop's requests carry theirs.
    const mistyped = await start('the-admin-token-aftr-0');
    try {
      const orders = (companion: { url: string }, token: string) => fetch(`${companion.url}/api/orders`, { headers: { Authorization: `Bearer ${token}` } });
      expect((await orders(left.companion, 'the-admin-token-after-0')).status).toBe(401);
      await eventually(() => expect(left.lines()).toEqual([expect.objectContaining({ level: 'error', msg: expect.stringContaining(odd), token_started_at: expect.any(String) })]));
      expect((await orders(mistyped.companion, 'the-admin-token-after-0')).status).toBe(401);
      await eventually(() => expect(mistyped.lines()).toEqual([expect.objectContaining({ level: 'error', msg: expect.stringContaining(odd) })]));
      // A token no instance started with is the caller's to fix.
      expect((await orders(changed.companion, 'a-token-nobody-was-given')).status).toBe(401);
      await eventually(() => expect(changed.lines()).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringContaining("if it is your shop's server, it must send PAYFORM_ADMIN_TOKEN") })]));
      expect(JSON.stringify([left.lines(), mistyped.lines(), changed.lines()])).not.toContain('the-admin-token');
    } finally {
      await left.companion.close();
      await changed.companion.close();
      await mistyped.companion.close();
    }
  });

  it('says nothing of its public URL when it stops as the first request\'s check goes out', async () => {
    const memory = memorySink();
    // A script's or a rolled-back deploy's: one request, then close() at once.
    for (let run = 0; run < 3; run += 1) {
      const companion = await startCompanion(loopbackSettings(), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
      await fetch(`${companion.url}/healthz`);
      await companion.close();
    }
    await sleep(200);
    expect(memory.lines.filter((line) => line.includes('PAYFORM_PUBLIC_URL') && !line.includes('"level":"debug"'))).toEqual([]);
  });

  it('says nothing of its public URL either when it stops between the check\'s GET, which reached it, and its POST', async () => {
    const memory = memorySink();
    const real = globalThis.fetch;
    let closing: Promise<void> | undefined;
    let companion!: Awaited<ReturnType<typeof startCompanion>>;
    // The deploy stops the instance just as the check posts to it, as the gateway would.
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/webhooks/gateway') && init?.method === 'POST') {
        closing = companion.close();
        await sleep(20);
      }
      return real(input, init);
    }) as typeof fetch;
    try {
      companion = await startCompanion(loopbackSettings(), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
      await real(`${companion.url}/healthz`);
      await eventually(() => expect(closing, 'the check posted').toBeDefined());
      await closing;
    } finally {
      globalThis.fetch = real;
    }
    // The check's end, which follows the POST's answer.
    await sleep(300);
    expect(memory.lines.filter((line) => line.includes('PAYFORM_PUBLIC_URL') && !line.includes('"level":"debug"'))).toEqual([]);
  });

  it('does not wait for a live feed, which never ends by itself', async () => {
    const settings = loopbackSettings();
    // A grace far beyond the test's own timeout: waiting for the feed would fail the test.
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }), shutdownGraceMs: 600_000 });
    const feed = await fetch(`${companion.url}/api/changes/stream`, { headers: { Authorization: `Bearer ${settings.adminToken}` } });
    expect(feed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await companion.close();
    await expect(feed.text()).rejects.toThrow();
  });

  it('listens on 127.0.0.1 only in development unless PAYFORM_HOST says otherwise, and says so', async () => {
    const companion = await startCompanion(readCompanionConfig({ PORT: '0', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' }), {
      gatewayBaseUrl: sandbox.url,
      logger: createLogger({ sink: memorySink().sink }),
    });
    try {
      expect(companion.url).toBe(`http://localhost:${companion.port}`);
      expect(companion.listening).toBe(`127.0.0.1:${companion.port} (this machine only; set PAYFORM_HOST to listen elsewhere)`);
      expect((await fetch(`http://127.0.0.1:${companion.port}/healthz`)).status).toBe(200);
      // Bound to every interface, the IPv6 loopback would answer too.
      await expect(fetch(`http://[::1]:${companion.port}/healthz`)).rejects.toThrow();
    } finally {
      await companion.close();
    }
  });

  it('answers a request its parser refuses with the error envelope, and warns once naming the fix', async () => {
    const memory = memorySink();
    const companion = await startCompanion(readCompanionConfig({ PORT: '0', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' }), {
      gatewayBaseUrl: sandbox.url,
      logger: createLogger({ sink: memory.sink, level: 'debug' }),
    });
    try {
      // A shop's cookies outgrowing Node's 16 KiB of headers: every checkout would fail here.
      const cookies = `Cookie: basket=${'x'.repeat(20_000)}`;
      const tooLarge = await rawExchange(companion.port, `GET /api/checkout/sessions/cs_1 HTTP/1.1\r\nHost: shop\r\n${cookies}\r\n\r\n`);
      expect(tooLarge.head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(JSON.parse(tooLarge.body)).toEqual({ error: { code: 'headers_too_large', message: expect.stringMatching(/larger than this server accepts \(\d+ bytes\)/) } });
      await rawExchange(companion.port, `GET / HTTP/1.1\r\nHost: shop\r\n${cookies}\r\n\r\n`);
      // A HEAD's answer ends with its headers: a body there would be read as the next answer.
      const headTooLarge = await rawExchange(companion.port, `HEAD /api/checkout/sessions/cs_1 HTTP/1.1\r\nHost: shop\r\n${cookies}\r\n\r\n`);
      expect(headTooLarge.head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(headTooLarge.body).toBe('');
      const malformed = await rawExchange(companion.port, 'NOT HTTP AT ALL\r\n\r\n');
      expect(malformed.head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(malformed.body).error.code).toBe('malformed_request');
      // A request followed by bytes that are none (a body longer than its length): it ran, so its
      // own answer goes out, not a 400 that would read as its refusal; the connection then closes.
      const body = JSON.stringify({ amount: 150, currency: 'XTS', description: 'Tea' });
      const opened = await rawExchange(
        companion.port,
        `POST /api/checkout/sessions HTTP/1.1\r\nHost: shop\r\nAuthorization: Bearer a-long-enough-admin-token\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}X`,
      );
      expect(opened.head).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
      expect(opened.head).toMatch(/\r\nConnection: close\r\n/i);
      expect(JSON.parse(opened.body)).toMatchObject({ amount: 150, currency: 'XTS' });
      expect(memory.lines.filter((line) => line.includes('that request was answered, and the connection closed'))).toEqual([expect.stringContaining('"level":"warn"')]);
      // An Expect the server does not do: in the envelope, not Node's bare 417.
      const expecting = await rawExchange(companion.port, 'POST /api/checkout/sessions HTTP/1.1\r\nHost: shop\r\nExpect: x-foo\r\nContent-Length: 2\r\n\r\n{}');
      expect(expecting.head).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n/);
      expect(expecting.head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
      expect(JSON.parse(expecting.body).error.code).toBe('expectation_failed');
      // A TLS handshake (an https:// address of this plain-http companion): said as that.
      const tls = await rawExchange(companion.port, '\x16\x03\x01\x00\x2f\x01\x00\x00\x2b\x03\x03');
      expect(JSON.parse(tls.body).error.code).toBe('tls_to_http');
      expect(memory.lines.filter((line) => line.includes('a client spoke https to this companion, which serves plain http'))).toEqual([expect.stringContaining('"level":"warn"')]);
      // A proxy's tunnel is no method of the companion's: answered, not dropped.
      const tunnel = await rawExchange(companion.port, 'CONNECT shop.example:443 HTTP/1.1\r\nHost: shop.example:443\r\n\r\n');
      expect(tunnel.head).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(JSON.parse(tunnel.body).error.code).toBe('method_not_allowed');
      // A client that goes away with half a request sent is no broken request.
      await rawExchange(companion.port, 'GET /healthz HTTP/1.1\r\nHost: sh');
      const told = memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => /refused with (431|400|408)/.test(line.msg));
      expect(told.map((line) => line.level)).toEqual(['warn', 'debug', 'debug', 'warn']);
      expect(told[0]!.msg).toContain('NODE_OPTIONS=--max-http-header-size');
      // The companion goes on serving.
      expect((await fetch(`http://127.0.0.1:${companion.port}/healthz`)).status).toBe(200);
    } finally {
      await companion.close();
    }
  });

  it('warns at start when test mode is off but the gateway’s pages are plain http, where the widget would not follow', async () => {
    const memory = memorySink();
    const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_PUBLIC_URL: 'http://localhost:3000', PAYFORM_GATEWAY_BASE_URL: sandbox.url, PAYFORM_TEST_MODE: 'false' });
    const companion = await composeCompanion(settings, { logger: createLogger({ sink: memory.sink }) });
    await companion.close();
    const warnings = memory.lines.filter((line) => line.includes('"level":"warn"'));
    expect(warnings.filter((line) => line.includes('test mode is off'))).toHaveLength(1);
    expect(warnings.join('\n')).toContain(`the gateway's pages are at ${new URL(sandbox.url).origin}, plain http`);
    // Left unset, a sandbox on this machine runs test sessions and nothing is said.
    const quiet = memorySink();
    const unset = readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_PUBLIC_URL: 'http://localhost:3000', PAYFORM_GATEWAY_BASE_URL: sandbox.url });
    await (await composeCompanion(unset, { logger: createLogger({ sink: quiet.sink }) })).close();
    expect(quiet.lines.filter((line) => line.includes('test mode is off'))).toEqual([]);
  });

  it('warns at start when the sandbox origin is another than the plain-http gateway’s, whose 3-D Secure pages it would refuse', async () => {
    const gateway = new URL(sandbox.url);
    const elsewhere = `http://localhost:${gateway.port}`;
    const started = async (vars: Record<string, string>) => {
      const memory = memorySink();
      const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_PUBLIC_URL: 'http://localhost:3000', PAYFORM_GATEWAY_BASE_URL: sandbox.url, ...vars });
      await (await composeCompanion(settings, { logger: createLogger({ sink: memory.sink }) })).close();
      return memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('but the sandbox origin is'));
    };
    expect(await started({ PAYFORM_SANDBOX_ORIGIN: elsewhere })).toEqual([
      {
        level: 'warn',
        msg: expect.stringContaining(`PAYFORM_GATEWAY_BASE_URL is ${sandbox.url}, plain http, but the sandbox origin is ${elsewhere} (PAYFORM_SANDBOX_ORIGIN`),
        sandboxOrigin: elsewhere,
        gateway: gateway.origin,
        time: expect.any(String),
      },
    ]);
    expect((await started({ PAYFORM_SANDBOX_ORIGIN: elsewhere }))[0]!.msg).toContain(`set PAYFORM_SANDBOX_ORIGIN to ${gateway.origin}`);
    // The same origin, written with a slash, or left unset for the sandbox on this machine: nothing said.
    expect(await started({ PAYFORM_SANDBOX_ORIGIN: `${gateway.origin}/` })).toEqual([]);
    expect(await started({})).toEqual([]);
  });

  it('warns at start of a plain-http gateway on another machine with no sandbox origin set, whose 3-D Secure pages it would refuse', async () => {
    // The sandbox as another machine names it, reached here through a fetch that goes to this one's.
    const remote = 'http://sandbox.test:3001';
    const memory = memorySink();
    const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_PUBLIC_URL: 'http://localhost:3000', PAYFORM_GATEWAY_BASE_URL: remote });
    const fetchHere: typeof fetch = (input, init) => fetch(String(input instanceof Request ? input.url : input).replace(remote, sandbox.url), init);
    await (await composeCompanion(settings, { fetch: fetchHere, logger: createLogger({ sink: memory.sink }) })).close();
    const said = memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('no sandbox origin is set'));
    expect(said).toEqual([expect.objectContaining({ level: 'warn', gateway: remote })]);
    expect(said[0]!.msg).toContain(`set PAYFORM_SANDBOX_ORIGIN to ${remote}`);
  });

  it('warns of a plain-http public URL off this machine, and refuses one given as an option in production', async () => {
    const mountable = { PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_GATEWAY_BASE_URL: sandbox.url };
    const plainWarnings = async (settings: Record<string, string>, options: { publicUrl?: string } = {}) => {
      const memory = memorySink();
      await (await composeCompanion(readCompanionConfig({ ...mountable, ...settings }), { ...options, logger: createLogger({ sink: memory.sink }) })).close();
      return memory.lines.filter((line) => line.includes('plain http')).map((line) => {
        const { level, msg } = JSON.parse(line) as { level: string; msg: string };
        return { level, msg };
      });
    };
    // Outside production nothing refused it, and nothing said it: the session ids and relayed cards would cross the network in clear.
    expect(await plainWarnings({ PAYFORM_PUBLIC_URL: 'http://shop.example' })).toEqual([
      {
        level: 'warn',
        msg:
          "PAYFORM_PUBLIC_URL (the publicUrl option, mounted) is http://shop.example, plain http to a host that is not this machine: customers' browsers send it card numbers " +
          '(when they are relayed through the companion) and session ids, and the gateway its webhooks, unencrypted, and production refuses it; give its https address ' +
          '(while developing, a TLS proxy or tunnel in front)',
      },
    ]);
    expect(await plainWarnings({ PAYFORM_PUBLIC_URL: 'https://shop.example' }, { publicUrl: 'http://192.168.1.20:4000' })).toHaveLength(1);
    // An option that is no URL, or one with credentials, is the config's to refuse, naming the option and printing no password.
    const refusedOption = async (publicUrl: string) => {
      const memory = memorySink();
      const refusal = await composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_PUBLIC_URL: 'https://shop.example' }), { publicUrl, logger: createLogger({ sink: memory.sink }) }).then(
        () => undefined,
        (error: unknown) => String(error),
      );
      return { refusal, logged: memory.lines.join('\n') };
    };
    expect((await refusedOption('shop.example.com/pay')).refusal).toMatch(/publicUrl/);
    const credentialed = await refusedOption('http://user:hunter2@192.168.1.5:4000');
    expect(credentialed.refusal).toMatch(/publicUrl/);
    expect(`${credentialed.refusal}\n${credentialed.logged}`).not.toContain('hunter2');
    // This machine, or https: nothing to say.
    expect(await plainWarnings({ PAYFORM_PUBLIC_URL: 'http://localhost:4000' })).toEqual([]);
    expect(await plainWarnings({ PAYFORM_PUBLIC_URL: 'https://shop.example' })).toEqual([]);
    // Production refuses PAYFORM_PUBLIC_URL so already (readCompanionConfig); the option so given, at compose.
    const production = readCompanionConfig({ ...productionEnvironment(), PAYFORM_PUBLIC_URL: 'https://pay.shop.example' });
    await expect(composeCompanion(production, { publicUrl: 'http://pay.shop.example', logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
      new TypeError('Invalid companion options: production needs https for publicUrl (plain http only to this machine): it is http://pay.shop.example'),
    );
  });

  it('says at start, in production, that a plain-http gateway on this machine is taken for a proxy, whose pages are https', async () => {
    const memory = memorySink();
    const production = readCompanionConfig({ ...productionEnvironment(), PAYFORM_PUBLIC_URL: 'https://pay.shop.example' });
    const composed = await composeCompanion(production, { logger: createLogger({ sink: memory.sink }) });
    await composed.close();
    // Against a sandbox, every 3-D Secure and hosted page was refused with no word at start.
    expect(memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.startsWith('the gateway is plain http on this machine'))).toMatchObject([
      { level: 'info', msg: expect.stringContaining('a sandbox’s plain-http pages are refused in production (run the companion in development against a sandbox)') },
    ]);
  });

  it('is alive but not ready while the ledger opens: a liveness probe must not restart a long migration', async () => {
    // A PostgreSQL server that takes the connection and says nothing: the ledger is still opening.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = await closedPort();
    const starting = startCompanion(
      readCompanionConfig({ PORT: String(port), PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: `postgres://payform@127.0.0.1:${(silent.address() as AddressInfo).port}/payform` }),
      { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) },
    );
    const refused = starting.then(() => undefined, (error: unknown) => error);
    try {
      await eventually(async () => expect(sockets).toHaveLength(1));
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'starting' }]);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect([ready.status, ready.headers.get('retry-after')]).toEqual([503, '1']);
      // The merchant's server is told in the API's words, as every other refusal, not in plain text.
      const session = await fetch(`http://127.0.0.1:${port}/api/checkout/sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect([session.status, session.headers.get('retry-after'), (await session.json()).error.code]).toEqual([503, '1', 'starting']);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
    expect(await refused).toBeInstanceOf(Error);
  });

  it('answers 502 when the gateway refuses its credentials, and logs once which variables to check', async () => {
    const settings = readCompanionConfig({
      PORT: '0',
      PAYFORM_HOST: '127.0.0.1',
      PAYFORM_DATABASE_URL: ':memory:',
      PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token',
      PAYFORM_GATEWAY_API_SECRET: 'not-the-project-secret-but-long-enough',
    });
    const memory = memorySink();
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    try {
      // Said once as it starts, before any payment, and not again for the payment that meets it.
      const refused = () => memory.lines.filter((line) => line.includes('the gateway refuses the companion’s credentials'));
      await eventually(() => expect(refused()).toHaveLength(1));
      expect(refused()[0]).toContain('"level":"error"');
      expect(refused()[0]).toContain('check PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET and PAYFORM_GATEWAY_ENDPOINTS_KEY');
      // And what the sandbox said, which names the one that is wrong; the API key it quotes is
      // named, not quoted: the operator reads which credential it was, the log keeps none.
      expect(JSON.parse(refused()[0]!).msg).toMatch(
        /against the gateway project’s; the gateway says: “Invalid credentials: wrong API secret for project "payform test shop" \(API key "\[API key\]"\) \(P-401\)”$/,
      );
      expect(refused()[0]).not.toContain('not-the-project-secret');
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      const paid = await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      expect(paid.status).toBe(502);
      expect(await paid.json()).toMatchObject({ error: { code: 'gateway_credentials' } });
      expect(refused()).toHaveLength(1);
      // The payment's own line names its order, no stack, at info: the trouble's error line says
      // what is wrong, and a warning for every payment it fails would bury it.
      const unsent = memory.lines.filter((line) => line.includes('a payment could not be sent to the gateway'));
      expect(unsent).toEqual([expect.stringContaining('"level":"info"')]);
      expect(unsent[0]).toContain(`"order_id":"${session.order_id}"`);
      expect(memory.lines.filter((line) => line.includes('"stack"'))).toEqual([]);
      // Not even the request's line: the cause was said once, at start; the request's is info.
      expect(memory.lines.filter((line) => line.includes('"level":"error"'))).toEqual(refused());
      expect(memory.lines.filter((line) => line.includes('"status":502'))).toEqual([expect.stringContaining('"level":"info","msg":"request failed at the gateway"')]);
      for (const secret of ['not-the-project-secret', TEST_PROJECT_DEFAULTS.apiKey, TEST_PROJECT_DEFAULTS.endpointsKey]) expect(memory.lines.join('\n')).not.toContain(secret);
    } finally {
      await companion.close();
    }
  });

  it('names the endpoints key at start when the gateway takes the other credentials but not it', async () => {
    const settings = readCompanionConfig({
      PORT: '0',
      PAYFORM_HOST: '127.0.0.1',
      PAYFORM_DATABASE_URL: ':memory:',
      PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token',
      PAYFORM_GATEWAY_ENDPOINTS_KEY: 'not-the-project-endpoints-key',
    });
    const memory = memorySink();
    const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    try {
      // The balances carry no endpoints key and are read; every payment carries it and would be refused.
      const errors = () => memory.lines.filter((line) => line.includes('"level":"error"'));
      await eventually(() => expect(errors()).toHaveLength(1));
      expect(errors()[0]).toContain('refuses its endpoints key (X-API-KEY)');
      expect(errors()[0]).toContain('check PAYFORM_GATEWAY_ENDPOINTS_KEY');
      expect(JSON.parse(errors()[0]!).msg).toMatch(/all four; the gateway says: “Invalid X-API-KEY: it is not project "payform test shop"'s endpoints key \(P-401\)”$/);
      for (const secret of ['not-the-project-endpoints-key', TEST_PROJECT_DEFAULTS.apiKey, TEST_PROJECT_DEFAULTS.apiSecret]) expect(memory.lines.join('\n')).not.toContain(secret);
    } finally {
      await companion.close();
    }
  });

  it('says what the gateway said of refused credentials for a mounted companion too, whose client the host made', async () => {
    const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const wrongSecret = 'not-the-project-secret-but-long-enough';
    const ledger = await openLedger(':memory:');
    const memory = memorySink();
    const gateway = new GatewayClient({ baseUrl: sandbox.url, ...settings.credentials, apiSecret: wrongSecret });
    const app = createCompanion({ ledger, gateway, gatewayApiSecret: wrongSecret, publicUrl: 'https://shop.example', adminToken: settings.adminToken, logger: createLogger({ sink: memory.sink }) });
    try {
      const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
      const session = await (await app.request('/api/checkout/sessions', { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json();
      const paid = await app.request(`/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
      expect(paid.status).toBe(502);
      const refused = memory.lines.filter((line) => line.includes('the gateway refuses the companion’s credentials'));
      expect(refused).toHaveLength(1);
      expect(JSON.parse(refused[0]!).msg).toMatch(/\(or the gateway client’s options, mounted\) against the gateway project’s; the gateway says: “Invalid credentials: wrong API secret for project "payform test shop" \(API key "\[API key\]"\) \(P-401\)”$/);
      for (const secret of [wrongSecret, TEST_PROJECT_DEFAULTS.apiKey]) expect(memory.lines.join('\n')).not.toContain(secret);
    } finally {
      await app.companion.stop();
      await ledger.close();
    }
  });

  it('says nothing of the gateway at start when it takes the credentials, and names its URL when nothing answers there', async () => {
    const config = { PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    const memory = memorySink();
    const healthy = await startCompanion(readCompanionConfig(config), { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    // The check's read reaches the sandbox: its answer is what decides.
    const balances = async () => ((await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Listing).requests.filter((request) => request.path.includes('/balances/'));
    await eventually(async () => expect((await balances()).map((request) => request.status)).toEqual([200]));
    // Then a receipt of an order that is nowhere: found nowhere (404), its endpoints key taken.
    const receipts = async () => ((await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as Listing).requests.filter((request) => request.path.endsWith('/report/receipt'));
    await eventually(async () => expect((await receipts()).map((request) => request.status)).toEqual([404]));
    await healthy.close();
    // Without the widget key the card passes through: said once, as a warning (PAYFORM_LOG_LEVEL=warn
    // still shows it), with the way out; nothing else is warned of.
    expect(memory.lines.filter((line) => /"level":"(warn|error)"/.test(line))).toEqual([expect.stringContaining('card data: relayed through this server')]);
    // Which database it writes to, said once as it starts.
    expect(memory.lines.filter((line) => line.includes('"msg":"ledger: SQLite at :memory:"'))).toHaveLength(1);
    expect(memory.lines.find((line) => line.includes('card data:'))).toContain('set PAYFORM_GATEWAY_WIDGET_KEY');
    const tokenizing = memorySink();
    const withKey = readCompanionConfig({ ...config, PAYFORM_GATEWAY_WIDGET_KEY: 'sandbox-test-widget-key' });
    await (await startCompanion(withKey, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: tokenizing.sink }) })).close();
    expect(tokenizing.lines.filter((line) => line.includes('card data:'))).toEqual([expect.stringContaining('card numbers never reach this server')]);

    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const down = await startCompanion(readCompanionConfig({ ...config, PAYFORM_GATEWAY_BASE_URL: nowhere }), { logger: createLogger({ sink: memory.sink }) });
    try {
      const unreachable = () => memory.lines.filter((line) => line.includes(`the gateway at ${nowhere} cannot be reached`));
      await eventually(() => expect(unreachable()).toHaveLength(1), 15_000);
      expect(unreachable()[0]).toContain('check PAYFORM_GATEWAY_BASE_URL');
    } finally {
      await down.close();
    }
  });

  it('in production needs PAYFORM_PUBLIC_URL, and logs a misspelt variable once at start', async () => {
    const production = { ...productionEnvironment(), PAYFORM_TRUST_PROXI: 'true' };
    const log = memorySink();
    // Made up, http://localhost:$PORT would send the gateway's webhooks and the customers' 3-D Secure returns to their own machines.
    await expect(startCompanion(readCompanionConfig(production), { logger: createLogger({ sink: log.sink }) })).rejects.toThrow(
      'Invalid environment: production needs PAYFORM_PUBLIC_URL',
    );
    const companion = await startCompanion(readCompanionConfig({ ...production, PAYFORM_PUBLIC_URL: 'https://pay.shop.example' }), { logger: createLogger({ sink: log.sink }) });
    await companion.close();
    const misspelt = log.lines.filter((line) => line.includes('PAYFORM_TRUST_PROXI'));
    expect(misspelt).toHaveLength(1);
    expect(misspelt[0]).toContain('"level":"warn"');
    expect(misspelt[0]).toContain('PAYFORM_TRUST_PROXI is not a variable of the companion and is ignored: did you mean PAYFORM_TRUST_PROXY?');
  });

  it('names the database variable and its URL, password masked, when the ledger cannot be opened', async () => {
    const mountable = { PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    const unreachable = readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: 'postgres://payform:s3cret-pw@127.0.0.1:1/payform' });
    const refused = composeCompanion(unreachable, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    await expect(refused).rejects.toThrow(
      'the ledger could not be opened (PAYFORM_DATABASE_URL postgres://payform:***@127.0.0.1:1/payform): connect ECONNREFUSED 127.0.0.1:1 (nothing listens there: start PostgreSQL, or correct the host and port)',
    );
    // Something that takes the connection and closes it unanswered (a firewall, a proxy, no server behind it).
    const closing = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = closing.address() as AddressInfo;
      const silent = readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: `postgres://payform@127.0.0.1:${port}/payform` });
      await expect(composeCompanion(silent, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
        /Connection terminated unexpectedly \(no answer from a PostgreSQL server there: check the host and port/,
      );
    } finally {
      await new Promise((resolve) => closing.close(resolve));
    }
    writeFileSync(join(dir, 'a-file'), '');
    const unwritable = readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: join(dir, 'a-file', 'payform.db') });
    await expect(composeCompanion(unwritable, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
      `the ledger could not be opened (PAYFORM_DATABASE_URL ${join(dir, 'a-file', 'payform.db')}): `,
    );
    // Where no directory can be made: refused at once (Node's recursive mkdir spins there forever).
    const underProc = readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: '/proc/payform/ledger/payform.db' });
    await expect(composeCompanion(underProc, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
      'the ledger could not be opened (PAYFORM_DATABASE_URL /proc/payform/ledger/payform.db): ENOENT',
    );
    // Unset, where the default file cannot be made: the variable said unset, the path from the root.
    const cwd = process.cwd();
    const shop = join(dir, 'shop');
    mkdirSync(shop);
    writeFileSync(join(shop, 'data'), '');
    process.chdir(shop);
    try {
      const defaulted = readCompanionConfig({ PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
      await expect(composeCompanion(defaulted, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
        `the ledger could not be opened (PAYFORM_DATABASE_URL unset: the default file, ${join(shop, 'data', 'payform.db')}): ${join(shop, 'data')} is a file, not a folder`,
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it('refuses a ledger that holds another point of sale\'s payments, naming both settings', async () => {
    const databaseUrl = join(dir, 'shared.db');
    const config = (posId: string, handover: Record<string, string> = {}) =>
      readCompanionConfig({ PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: databaseUrl, PAYFORM_GATEWAY_POS_ID: posId, ...handover });
    const memory = memorySink();
    const compose = (posId: string, handover?: Record<string, string>) => composeCompanion(config(posId, handover), { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    const first = '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15';
    const other = '9b2e4f10-6c3d-4a8b-b1e7-2f5d8c9a0e34';
    await (await compose(first)).close();
    await expect(compose(other)).rejects.toThrow(
      `the ledger at PAYFORM_DATABASE_URL ${databaseUrl} holds the payments of point of sale ${first}, and PAYFORM_GATEWAY_POS_ID is ${other}: one ledger keeps one point of sale's payments`,
    );
    await expect(compose(other)).rejects.toThrow(`To hand this ledger over to ${other} (going live), stop every companion of ${first}, then start once with PAYFORM_LEDGER_HANDOVER_FROM=${first}`);
    // Its own point of sale, however its id is written, opens it again.
    await (await compose(first.toUpperCase())).close();
    // Handed over, it is the new point of sale's, said until the variable goes, and the old one's no more.
    await (await compose(other, { PAYFORM_LEDGER_HANDOVER_FROM: first })).close();
    expect(memory.lines.filter((line) => line.includes('remove PAYFORM_LEDGER_HANDOVER_FROM'))).toHaveLength(1);
    await (await compose(other)).close();
    await expect(compose(first)).rejects.toThrow(`holds the payments of point of sale ${other}`);

    // One character off the ledger's own: a typo, said as one, and no handover offered — nor taken.
    const mistyped = `${other.slice(0, -1)}5`;
    await expect(compose(mistyped)).rejects.toThrow(
      `holds the payments of point of sale ${other}, and PAYFORM_GATEWAY_POS_ID is ${mistyped}, a character or two from it: a mistyped id, most likely. Set PAYFORM_GATEWAY_POS_ID to ${other}, as the gateway project gives it`,
    );
    await expect(compose(mistyped, { PAYFORM_LEDGER_HANDOVER_FROM: other })).rejects.toThrow(
      `PAYFORM_LEDGER_HANDOVER_FROM=${other} would hand the ledger to PAYFORM_GATEWAY_POS_ID ${mistyped}, a character or two from it: a mistyped id, not another point of sale`,
    );
    await (await compose(other)).close();
  });

  it('in production refuses a ledger whose payments go to another gateway, until it is handed over; elsewhere records the move and says it', async () => {
    const databaseUrl = join(dir, 'one-gateway.db');
    const memory = memorySink();
    const compose = (gateway: string, more: Record<string, string> = {}) =>
      composeCompanion(readCompanionConfig({ ...productionEnvironment(), PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: databaseUrl, PAYFORM_GATEWAY_BASE_URL: gateway, ...more }), {
        logger: createLogger({ sink: memory.sink }),
      });
    const staging = await serveSandbox();
    try {
      await (await compose(sandbox.url)).close();
      // A staging gateway left in one instance's settings: it would end the others' payments as never sent.
      await expect(compose(staging.url)).rejects.toThrow(
        `the ledger at PAYFORM_DATABASE_URL ${databaseUrl} sends its payments to the gateway at ${new URL(sandbox.url).origin}, and PAYFORM_GATEWAY_BASE_URL is ${staging.url}: every companion on one ledger must use one gateway`,
      );
      await (await compose(sandbox.url)).close();
      // The gateway moved: handed over once, then the new one is the ledger's.
      const posId = productionEnvironment().PAYFORM_GATEWAY_POS_ID!;
      await (await compose(staging.url, { PAYFORM_LEDGER_HANDOVER_FROM: posId })).close();
      expect(memory.lines.filter((line) => line.includes(`the ledger is point of sale ${posId}'s, with its gateway at PAYFORM_GATEWAY_BASE_URL: remove PAYFORM_LEDGER_HANDOVER_FROM`))).toHaveLength(1);
      await (await compose(staging.url)).close();
      await expect(compose(sandbox.url)).rejects.toThrow(`sends its payments to the gateway at ${new URL(staging.url).origin}`);
      // Outside production: recorded, and said only when it is not one address on this machine for another.
      const { NODE_ENV: _, ...developing } = productionEnvironment();
      const development = (gateway: string) =>
        composeCompanion(readCompanionConfig({ ...developing, PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: databaseUrl, PAYFORM_GATEWAY_BASE_URL: gateway }), {
          logger: createLogger({ sink: memory.sink }),
        });
      await (await development(sandbox.url)).close();
      await (await development('https://gateway.example')).close();
      const said = memory.lines.filter((line) => line.includes("the ledger's payments were sent to the gateway at"));
      expect(said.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
        `the ledger's payments were sent to the gateway at ${new URL(sandbox.url).origin}, and this companion's is https://gateway.example (PAYFORM_GATEWAY_BASE_URL), recorded now: every companion on one ledger must use one gateway — one elsewhere ends the payments it cannot find there as never sent; production refuses to start so`,
      ]);
    } finally {
      await staging.close();
    }
  });

  it('says once, at start, that it upgraded a ledger of an earlier version, and not for a new or current one', async () => {
    const databaseUrl = join(dir, 'earlier.db');
    const earlier = new Kysely<unknown>({ dialect: await sqliteDialect(databaseUrl) });
    await migratedTo(earlier, '0009_lookup_method');
    await earlier.destroy();
    const memory = memorySink();
    const settings = readCompanionConfig({ PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: databaseUrl });
    const compose = () => composeCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    await (await compose()).close();
    await (await compose()).close();
    const upgraded = memory.lines.filter((line) => line.includes('ledger: upgraded'));
    expect(upgraded).toEqual([expect.stringContaining('an older payform cannot open (migrations 0010_payform_prefix, ')]);
  });

  it('says a ledger it made is new — in production as a warning, where it may be a path changed or a file gone', async () => {
    const lines = async (environment: Record<string, string>) => {
      const memory = memorySink();
      const settings = readCompanionConfig(environment);
      await (await composeCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) })).close();
      return memory.lines.filter((line) => line.includes('"msg":"ledger: SQLite at'))
        .map((line) => JSON.parse(line) as { level: string; msg: string })
        .map(({ level, msg }) => ({ level, msg }));
    };
    const development = { PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: join(dir, 'new.db') };
    expect(await lines(development)).toEqual([{ level: 'info', msg: `ledger: SQLite at ${join(dir, 'new.db')}, new: made by this start` }]);
    expect(await lines(development)).toEqual([{ level: 'info', msg: `ledger: SQLite at ${join(dir, 'new.db')}` }]);
    const production = { ...productionEnvironment(), PAYFORM_PUBLIC_URL: 'https://pay.shop.example', PAYFORM_DATABASE_URL: join(dir, 'gone', 'payform.db') };
    expect(await lines(production)).toEqual([
      {
        level: 'warn',
        msg:
          `ledger: SQLite at ${join(dir, 'gone', 'payform.db')}, new: made by this start, it holds no payments. On a first start that is expected; ` +
          'otherwise the payments taken before are in another ledger: check PAYFORM_DATABASE_URL (and that the file or schema is still there)',
      },
    ]);
    expect(await lines(production)).toEqual([{ level: 'info', msg: `ledger: SQLite at ${join(dir, 'gone', 'payform.db')}` }]);
    // In development, one made beside another ledger file is a path misspelt more likely than a first start.
    const misspelt = { ...development, PAYFORM_DATABASE_URL: join(dir, 'nwe.db') };
    expect(await lines(misspelt)).toEqual([
      {
        level: 'warn',
        msg:
          `ledger: SQLite at ${join(dir, 'nwe.db')}, new: made by this start, beside new.db in its folder: if that is this shop's ledger, PAYFORM_DATABASE_URL is misspelt, ` +
          'and the payments taken before, and the webhooks about them, are there, not here',
      },
    ]);
  });

  it('says how to choose another port when its port is taken', async () => {
    const taken = new URL(sandbox.url).port;
    const settings = loopbackSettings({ PORT: taken });
    await expect(startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
      `port ${taken} is already in use: set PORT to a free port, or PORT=0 to take any free one`,
    );
  });

  it('refuses a port another program holds on ::1, where a browser opening its localhost address would land', async () => {
    const other = createServer();
    await new Promise<void>((resolve, reject) => other.once('error', reject).listen({ port: 0, host: '::1', ipv6Only: true }, resolve));
    const { port } = other.address() as AddressInfo;
    try {
      const settings = readCompanionConfig({ PORT: String(port), PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
      await expect(startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) })).rejects.toThrow(
        `port ${port} is taken on ::1 by another program: a browser opening http://localhost:${port}/ reaches that program, not this server`,
      );
      // Its own port is free again for the next start.
      const probe = createServer();
      await new Promise<void>((resolve, reject) => probe.once('error', reject).listen({ port, host: '127.0.0.1' }, resolve));
      await new Promise((resolve) => probe.close(resolve));
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('names PAYFORM_HOST when it is not a host of this machine', async () => {
    const start = (host: string) =>
      startCompanion(readCompanionConfig({ PORT: '0', PAYFORM_HOST: host, PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' }), {
        gatewayBaseUrl: sandbox.url,
        logger: createLogger({ sink: memorySink().sink }),
      });
    // A typo of localhost (.invalid never resolves), and an address no interface here has (TEST-NET-3).
    await expect(start('localhots.invalid')).rejects.toThrow(
      'PAYFORM_HOST names the host localhots.invalid, which does not resolve to an address: set it to 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or an address of this machine',
    );
    await expect(start('203.0.113.7')).rejects.toThrow('PAYFORM_HOST names the host 203.0.113.7, which is not an address of this machine');
  });

  it('needs a gateway: PAYFORM_GATEWAY_BASE_URL or a started sandbox', async () => {
    const mountable = { PAYFORM_DATABASE_URL: ':memory:', PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    await expect(composeCompanion(readCompanionConfig(mountable))).rejects.toThrow(/No gateway: set PAYFORM_GATEWAY_BASE_URL/);
    // A misspelt option is named rather than ignored.
    await expect(composeCompanion(readCompanionConfig(mountable), { basepath: '/payments', gatewayBaseUrl: sandbox.url } as never)).rejects.toThrow(
      'Invalid companion options: basepath is not an option (did you mean basePath?)',
    );
    await expect(startCompanion(readCompanionConfig(mountable), { gatewayBaseURL: sandbox.url } as never)).rejects.toThrow(
      'Invalid companion options: gatewayBaseURL is not an option (did you mean gatewayBaseUrl?)',
    );
    // A setting given with the options is refused with where it goes, and works there.
    await expect(composeCompanion(readCompanionConfig(mountable), { gatewayBaseUrl: sandbox.url, rateLimits: { perClient: 500 } } as never)).rejects.toThrow(
      'Invalid companion options: rateLimits is one of the settings, not an option: spread it into them, { ...readCompanionConfig(…), rateLimits: … }',
    );
    const spread = await composeCompanion({ ...readCompanionConfig(mountable), rateLimits: { perClient: 500 } }, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    expect(spread.app.companion.services.options.rateLimits.perClient).toBe(500);
    await spread.close();
    // A base path that is none, refused before the ledger opens and its lines are written.
    const memory = memorySink();
    await expect(composeCompanion(readCompanionConfig(mountable), { basePath: 'payments', gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) })).rejects.toThrow(
      'Invalid companion options: basePath must be a path such as /payments, not "payments"',
    );
    expect(memory.lines).toEqual([]);
  });

  it('names a misspelt variable when it is why the start is refused', async () => {
    const quiet = () => ({ logger: createLogger({ sink: memorySink().sink }) });
    const mountable = { PAYFORM_DATABASE_URL: ':memory:', PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    // The bin's refusal: no gateway, because its variable is misspelt.
    await expect(startCompanion(readCompanionConfig({ ...mountable, PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_GATEWAY_BASEURL: sandbox.url }), quiet())).rejects.toThrow(
      new TypeError('No gateway: set PAYFORM_GATEWAY_BASE_URL to the gateway, or to a sandbox started with `npx payform-sandbox`; PAYFORM_GATEWAY_BASEURL is set: did you mean PAYFORM_GATEWAY_BASE_URL?'),
    );
    await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFROM_GATEWAY_BASE_URL: sandbox.url }), quiet())).rejects.toThrow(
      /No gateway: .*; PAYFROM_GATEWAY_BASE_URL is set: did you mean PAYFORM_GATEWAY_BASE_URL\?$/,
    );
    // Production without its public URL.
    const production = productionEnvironment();
    await expect(startCompanion(readCompanionConfig({ ...production, PAYFORM_PUBLICURL: 'https://pay.shop.example' }), quiet())).rejects.toThrow(
      /^Invalid environment: production needs PAYFORM_PUBLIC_URL, .*; PAYFORM_PUBLICURL is set: did you mean PAYFORM_PUBLIC_URL\?$/,
    );
    // Another point of sale's ledger, opened with the test project's id because its own is misspelt.
    const databaseUrl = join(dir, 'owned.db');
    const own = '9b2e4f10-6c3d-4a8b-b1e7-2f5d8c9a0e34';
    await (await composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: databaseUrl, PAYFORM_GATEWAY_POS_ID: own }), { gatewayBaseUrl: sandbox.url, ...quiet() })).close();
    await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: databaseUrl, PAYFORM_GATEWAY_POSID: own }), { gatewayBaseUrl: sandbox.url, ...quiet() })).rejects.toThrow(
      /holds the payments of point of sale .*; PAYFORM_GATEWAY_POSID is set: did you mean PAYFORM_GATEWAY_POS_ID\?$/,
    );
    // The default file, where none can be made (a read-only image), because the database's variable is misspelt.
    const readOnly = { ...readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: undefined, PAYFORM_DATABSE_URL: 'postgres://db/payform' }), databaseUrl: '/proc/payform/data/payform.db' };
    await expect(composeCompanion(readOnly, { gatewayBaseUrl: sandbox.url, ...quiet() })).rejects.toThrow(
      /^the ledger could not be opened \(PAYFORM_DATABASE_URL unset: the default file, \/proc\/payform\/data\/payform\.db\): ENOENT.*; PAYFORM_DATABSE_URL is set: did you mean PAYFORM_DATABASE_URL\?$/,
    );
    // Mounted, settings written as the options beside them are named with the variables they meant.
    await expect(composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', publicUrl: 'https://shop.example', adminToken: 'a-long-enough-admin-token' }))).rejects.toThrow(
      /^Invalid companion config: mounted in your server, .*; publicUrl is set: did you mean PAYFORM_PUBLIC_URL\?; adminToken is set: did you mean PAYFORM_ADMIN_TOKEN\?$/,
    );
    // A variable too far from its name in letters, yet with its words, is named too.
    await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_GATEWAY_URL: sandbox.url }), quiet())).rejects.toThrow(
      new TypeError('No gateway: set PAYFORM_GATEWAY_BASE_URL to the gateway, or to a sandbox started with `npx payform-sandbox`; PAYFORM_GATEWAY_URL is set: did you mean PAYFORM_GATEWAY_BASE_URL?'),
    );
    // A misspelt variable that is not why says nothing in the refusal (it is warned of at start).
    await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_TRUST_PROXI: 'true' }), quiet())).rejects.toThrow(/^No gateway: [^;]*$/);
  });

  it('names the unprefixed 0.2 names it left alone as the shop’s own when they are why the start is refused', async () => {
    const quiet = () => ({ logger: createLogger({ sink: memorySink().sink }) });
    // Mounted, with the names of 0.2 written in code.
    await expect(
      composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PUBLIC_URL: 'https://shop.example', ADMIN_TOKEN: 'a-long-enough-admin-token' }), { gatewayBaseUrl: sandbox.url, ...quiet() }),
    ).rejects.toThrow(
      /^Invalid companion config: mounted in your server, .*; PUBLIC_URL, ADMIN_TOKEN are set and left alone, as the shop's own: the companion reads PAYFORM_PUBLIC_URL, PAYFORM_ADMIN_TOKEN \(set those if meant for payform\)$/,
    );
    // The bin: its gateway's 0.2 name, alone; the shop's HOST, not why, is not named.
    const mountable = { PAYFORM_DATABASE_URL: ':memory:', PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    await expect(startCompanion(readCompanionConfig({ ...mountable, PORT: '0', HOST: '0.0.0.0', GATEWAY_BASE_URL: sandbox.url }), quiet())).rejects.toThrow(
      new TypeError(
        "No gateway: set PAYFORM_GATEWAY_BASE_URL to the gateway, or to a sandbox started with `npx payform-sandbox`; GATEWAY_BASE_URL is set and left alone, as the shop's own: the companion reads PAYFORM_GATEWAY_BASE_URL (set it if meant for payform)",
      ),
    );
    // Production without its public URL.
    const { PAYFORM_ADMIN_TOKEN: _token, ...production } = productionEnvironment();
    await expect(startCompanion(readCompanionConfig({ ...production, PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PUBLIC_URL: 'https://pay.shop.example' }), quiet())).rejects.toThrow(
      /^Invalid environment: production needs PAYFORM_PUBLIC_URL, .*; PUBLIC_URL is set and left alone, as the shop's own: the companion reads PAYFORM_PUBLIC_URL \(set it if meant for payform\)$/,
    );
    // Refused by readCompanionConfig itself.
    expect(() => readCompanionConfig({ ...production, ADMIN_TOKEN: 'a-long-enough-admin-token' })).toThrow(
      /^Invalid environment: production needs PAYFORM_ADMIN_TOKEN\b.*; ADMIN_TOKEN is set and left alone, as the shop's own: the companion reads PAYFORM_ADMIN_TOKEN \(set it if meant for payform\)$/,
    );
  });

  it('refuses, before it opens the ledger, a hook or another function option that is not a function', async () => {
    const mountable = { PAYFORM_DATABASE_URL: join(dir, 'missing', 'payform.db'), PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
    await expect(composeCompanion(readCompanionConfig(mountable), { gatewayBaseUrl: sandbox.url, onPaymentEvent: 'fulfil' } as never)).rejects.toThrow(
      new TypeError('Invalid companion options: onPaymentEvent: must be a function, not a string'),
    );
    await expect(startCompanion(readCompanionConfig({ ...mountable, PORT: '0' }), { gatewayBaseUrl: sandbox.url, extend: { shop: true }, fetch: 'https://proxy.example' } as never)).rejects.toThrow(
      'Invalid companion options: extend: must be a function, not an object; fetch: must be a function, not a string',
    );
    await expect(composeCompanion(readCompanionConfig(mountable), { gatewayBaseUrl: sandbox.url, basepath: '/payments', onPaymentEvent: true } as never)).rejects.toThrow(
      'Invalid companion options: basepath is not an option (did you mean basePath?); onPaymentEvent: must be a function, not a boolean',
    );
    // Refused before anything was opened: no ledger file was made.
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('says a grace or request time under a second reads like seconds written as milliseconds', async () => {
    const memory = memorySink();
    const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PORT: '0', PAYFORM_HOST: '127.0.0.1' });
    await (await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }), shutdownGraceMs: 30, requestTimeoutMs: 45 })).close();
    const warned = memory.lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter(({ msg }) => msg.includes('milliseconds:'));
    expect(warned).toEqual([
      { level: 'warn', msg: 'shutdownGraceMs is 30 milliseconds: a stop gives up the payments still in flight after that, answered pending and left to reconciliation; if you meant 30 seconds, write 30000', time: expect.any(String) },
      { level: 'warn', msg: 'requestTimeoutMs is 45 milliseconds: a request that takes longer to arrive whole is answered 408; if you meant 45 seconds, write 45000', time: expect.any(String) },
    ]);
  });

  it('refuses a timeout or grace option of the wrong type or out of range at once, naming the option and its rule', async () => {
    const mountable = readCompanionConfig({ PAYFORM_DATABASE_URL: join(dir, 'never-made', 'payform.db'), PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
    const refusal = (options: object) => composeCompanion(mountable, { gatewayBaseUrl: sandbox.url, ...options } as never);
    const rule = 'gatewayTimeoutMs must be a whole number of milliseconds from 5000 to 30000, as PAYFORM_GATEWAY_TIMEOUT_MS takes it';
    // Each payment would otherwise end "outcome unknown … did not answer within 1 ms"; 0 fell back to 30 s.
    await expect(refusal({ gatewayTimeoutMs: 1 })).rejects.toThrow(new TypeError(`Invalid companion options: ${rule} (it is 1)`));
    await expect(refusal({ gatewayTimeoutMs: 0 })).rejects.toThrow(new TypeError(`Invalid companion options: ${rule} (it is 0)`));
    // A number written as text is said to be one, under the option's name rather than the client's field.
    await expect(refusal({ gatewayTimeoutMs: '30000' })).rejects.toThrow(new TypeError(`Invalid companion options: ${rule}, not a string: write 30000, without quotes`));
    await expect(refusal({ shutdownGraceMs: '1000', requestTimeoutMs: '5000' })).rejects.toThrow(
      new TypeError(
        'Invalid companion options: shutdownGraceMs must be a whole number of milliseconds from 0 to 2147483647, not a string: write 1000, without quotes; ' +
          'requestTimeoutMs is startCompanion’s, whose HTTP server it sets: mounted, requests reach the companion through your server, whose own timeouts apply (Node’s server.requestTimeout)',
      ),
    );
    await expect(startCompanion(readCompanionConfig({ PORT: '0' }), { requestTimeoutMs: '5000' } as never)).rejects.toThrow(
      new TypeError('Invalid companion options: requestTimeoutMs must be a whole number of milliseconds above 0, not a string: write 5000, without quotes'),
    );
    await expect(refusal({ shutdownGraceMs: -1 })).rejects.toThrow(new TypeError('Invalid companion options: shutdownGraceMs must be a whole number of milliseconds from 0 to 2147483647 (it is -1)'));
    // Past what a timer can wait, Node fires it at once: close() would give up every payment in flight.
    await expect(startCompanion(readCompanionConfig({ PORT: '0' }), { shutdownGraceMs: 2 ** 31 })).rejects.toThrow(/shutdownGraceMs must be .* \(it is 2147483648\)$/);
    // Options given as a string are one mistake, not one per character; an option named by a word of the right one is pointed to it.
    await expect(composeCompanion(mountable, '/payments' as never)).rejects.toThrow(new TypeError("Invalid companion options: the options must be an object, { basePath: '/payments', … }, not a string"));
    await expect(composeCompanion(mountable, null as never)).rejects.toThrow(/the options must be an object, .*, not null$/);
    await expect(refusal({ timeoutMs: 5000 })).rejects.toThrow(new TypeError('Invalid companion options: timeoutMs is not an option (did you mean gatewayTimeoutMs or requestTimeoutMs?)'));
    // All refused before anything was opened.
    expect(existsSync(join(dir, 'never-made'))).toBe(false);
  });

  it('reads the variables when given them rather than readCompanionConfig’s settings, and refuses anything else naming the call to make', async () => {
    const log = memorySink();
    const variables = { PAYFORM_PUBLIC_URL: 'http://localhost:47125', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_GATEWAY_BASE_URL: sandbox.url, PAYFORM_WIDGET_KEY: 'wk' };
    // The fresh-install trial's call: it failed with "Cannot read properties of undefined (reading 'filter')".
    const composed = await composeCompanion(variables, { basePath: '/payments', logger: createLogger({ sink: log.sink }) });
    try {
      expect((await composed.app.request('/payments/healthz')).status).toBe(200);
      // Read as readCompanionConfig reads them: what it warns of is logged at start.
      expect(log.lines.filter((line) => line.includes('PAYFORM_WIDGET_KEY is not a variable of the companion and is ignored: did you mean PAYFORM_GATEWAY_WIDGET_KEY?'))).toHaveLength(1);
    } finally {
      await composed.close();
    }
    // The bin's way in code, given the variables, reads them as well.
    const running = await startCompanion({ PORT: '0', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_GATEWAY_BASE_URL: sandbox.url }, { logger: createLogger({ sink: memorySink().sink }) });
    try {
      expect((await fetch(`http://127.0.0.1:${running.port}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
    }
    const call = "call composeCompanion(readCompanionConfig({ PAYFORM_PUBLIC_URL: …, PAYFORM_ADMIN_TOKEN: … }), options), or composeCompanion(readCompanionConfig(process.env), options) to read the process's variables";
    // Nothing is not the process's environment: a mounted companion reads none unless given it.
    await expect((composeCompanion as (...args: unknown[]) => Promise<unknown>)()).rejects.toThrow(
      new TypeError(`composeCompanion(settings, options) takes the companion's settings first, and was given nothing: ${call}`),
    );
    await expect(composeCompanion('https://shop.example' as never)).rejects.toThrow(/takes the companion's settings first, and was given a string: call /);
    // Settings built by hand, or some of them, are named by what they lack.
    const { warnings: _warnings, deprecations: _deprecations, ...partial } = readCompanionConfig(variables);
    await expect(composeCompanion(partial as never)).rejects.toThrow(new TypeError(`composeCompanion(settings, options) was given settings without deprecations, warnings: ${call}; to change one, spread them: { ...readCompanionConfig(…), logLevel: 'debug' }`));
    // One the settings do not have would be ignored: named, with the one it reads like.
    await expect(composeCompanion({ ...readCompanionConfig(variables), acceptedBrand: ['visa'], basePath: '/pay' } as never)).rejects.toThrow(
      new TypeError(
        'composeCompanion(settings, options) was given settings it does not have, which would be ignored: acceptedBrand (acceptedBrands?), basePath; ' +
          "the settings are readCompanionConfig's fields (docs/companion.md lists each variable), and options such as basePath go in the second argument",
      ),
    );
    // A setting spread among the variables: that one mistake, not every variable named.
    await expect(composeCompanion({ ...variables, acceptedBrands: ['visa'] } as never)).rejects.toThrow(
      new TypeError(
        `composeCompanion(settings, options) was given variables and settings in one object (acceptedBrands beside ${Object.keys(variables).length} variables): ` +
          "spread settings into readCompanionConfig's result, { ...readCompanionConfig(variables), acceptedBrands: … }, or set their variables (docs/companion.md lists each)",
      ),
    );
    // The variables' own refusals, as readCompanionConfig makes them.
    await expect(composeCompanion({ ...variables, PAYFORM_PUBLIC_URL: undefined })).rejects.toThrow(/^Invalid companion config: mounted in your server, the companion needs the public URL/);
  });

  it('refuses a never-sent window shorter than twice the gateway timeout, naming both settings', async () => {
    const settings = readCompanionConfig({ PAYFORM_DATABASE_URL: join(dir, 'payform.db'), PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
    // The default window, three reads 30 s apart, spans 60 s: a 40 s request could still be in
    // flight, so the option stops at 30 s, as PAYFORM_GATEWAY_TIMEOUT_MS does, before the ledger opens.
    await expect(composeCompanion(settings, { gatewayBaseUrl: sandbox.url, gatewayTimeoutMs: 40_000 })).rejects.toThrow(
      'Invalid companion options: gatewayTimeoutMs must be a whole number of milliseconds from 5000 to 30000, as PAYFORM_GATEWAY_TIMEOUT_MS takes it (it is 40000)',
    );
    // Refused, it left the database closed: it opens again and starts at the limit.
    const composed = await composeCompanion(settings, { gatewayBaseUrl: sandbox.url, gatewayTimeoutMs: 30_000 });
    await composed.close();

    const ledger = await openLedger(':memory:');
    const gateway = new GatewayClient({ baseUrl: sandbox.url, ...settings.credentials, timeoutMs: 400 });
    const companion = (neverSentSpacingMs: number) =>
      createCompanion({ ledger, gateway, gatewayApiSecret: settings.credentials.apiSecret, publicUrl: 'https://shop.example', adminToken: settings.adminToken, reconciliation: { neverSentReads: 3, neverSentSpacingMs } });
    expect(() => companion(399)).toThrow(/reconciliation\.neverSentReads \(3\) and reconciliation\.neverSentSpacingMs \(399\).* \(2 × 400 ms\)/);
    await companion(400).companion.stop();
    await ledger.close();
  });
});

withTestDatabase((url) => {
  describe('startCompanion on PostgreSQL', () => {
    it('says what to do about a database that does not exist, or takes no writes', async () => {
      const quietly = { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) };
      const mountable = { PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
      const missing = Object.assign(new URL(url), { pathname: '/payform_no_such_database' }).href;
      await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: missing }), quietly)).rejects.toThrow(
        /database "payform_no_such_database" does not exist \(create it — createdb, or CREATE DATABASE — or correct the database's name in the URL\)$/,
      );
      const readOnly = await databaseWithRoleSettings(url, { default_transaction_read_only: 'on' }, async () => undefined);
      try {
        await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: readOnly.url }), quietly)).rejects.toThrow(
          /read-only transaction \(a PostgreSQL that takes no writes: a standby, or default_transaction_read_only — point the URL at the primary\)$/,
        );
      } finally {
        await readOnly.drop();
      }
    });

    it('says an sslmode the server cannot meet in the URL’s terms, with the fix, and that prefer falls back in libpq only', async () => {
      // This server takes no TLS (as .ci/ensure-postgres sets it up); node-postgres said only "The server does not support SSL connections".
      const quietly = { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memorySink().sink }) };
      const mountable = { PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };
      const withMode = (mode: string) => Object.assign(new URL(url), { search: `?sslmode=${mode}` }).href;
      const fix =
        ', and the PostgreSQL server there takes none. If the network between this machine and the server is trusted (the same machine, a private network), ' +
        'write sslmode=disable in PAYFORM_DATABASE_URL; otherwise turn TLS on in the server (ssl = on in postgresql.conf, with ssl_cert_file and ssl_key_file)';
      // node-postgres warns once a process that it takes these modes as verify-full: the start's refusal is what this test reads.
      const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      const schema = freshSchemaName();
      await withClient(url, (client) => client.query(`create schema ${schema}`));
      try {
        const required = composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: withMode('require') }), quietly);
        await expect(required).rejects.toThrow(
          `: The server does not support SSL connections: PAYFORM_DATABASE_URL asks for TLS (sslmode=require)${fix} ` +
            '(once it does, node-postgres checks its certificate and host name for sslmode=require too, as for verify-full: give it a certificate this machine trusts, or name a private CA with sslrootcert=)',
        );
        await expect(required).rejects.not.toThrow(/libpq/);
        const preferred = composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: withMode('prefer') }), quietly);
        await expect(preferred).rejects.toThrow(`PAYFORM_DATABASE_URL asks for TLS (sslmode=prefer)${fix}`);
        await expect(preferred).rejects.toThrow(
          /\. With sslmode=prefer, libpq \(psql and most other clients\) falls back to a plain connection when the server takes no TLS; node-postgres, the ledger's driver, does not, even with uselibpqcompat=true$/,
        );
        // Nor with libpq's semantics asked for: the URL's own words are named, no certificate check promised.
        const compatible = composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: `${withMode('prefer')}&uselibpqcompat=true` }), quietly);
        await expect(compatible).rejects.toThrow(`PAYFORM_DATABASE_URL asks for TLS (sslmode=prefer)${fix}. With sslmode=prefer, libpq`);
        // Asked by PGSSLMODE, with nothing in the URL: the variable that asked is named.
        vi.stubEnv('PGSSLMODE', 'prefer');
        await expect(composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: url }), quietly)).rejects.toThrow(
          `: The server does not support SSL connections: PGSSLMODE=prefer asks for TLS (PAYFORM_DATABASE_URL names no sslmode)${fix}`,
        );
        // The fix named works: sslmode=disable in the URL wins over PGSSLMODE (a schema of the test's own, not this database's public one).
        const disabled = new URL(withMode('disable'));
        disabled.searchParams.set('options', `-c search_path=${schema}`);
        await (await composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: disabled.href }), quietly)).close();
      } finally {
        vi.unstubAllEnvs();
        warnings.mockRestore();
        await dropSchema(url, schema);
      }
    });

    it('says a clock a minute or more off the database server’s, once, naming the fix; nothing for one that agrees', async () => {
      const schema = freshSchemaName();
      await withClient(url, (client) => client.query(`create schema ${schema}`));
      const inSchema = new URL(url);
      inSchema.searchParams.set('options', `-c search_path=${schema}`);
      const settings = readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: inSchema.href, PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
      const startedWith = async (clock: () => number): Promise<string[]> => {
        const memory = memorySink();
        const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }), clock });
        await companion.close();
        return memory.lines.filter((line) => line.includes('clock'));
      };
      try {
        expect(await startedWith(Date.now), 'a clock that agrees').toEqual([]);
        const ahead = await startedWith(() => Date.now() + 35 * 60_000);
        expect(ahead).toHaveLength(1);
        expect(JSON.parse(ahead[0]!)).toMatchObject({ level: 'error', clock_offset_ms: expect.any(Number) });
        expect(ahead[0]).toContain('clock is 35 min ahead of the database server');
        expect(ahead[0]).toContain('timedatectl set-ntp true');
        expect(await startedWith(() => Date.now() - 3 * 3_600_000)).toEqual([expect.stringContaining('clock is 3.0 h behind the database server')]);
      } finally {
        await dropSchema(url, schema);
      }
    });

    it('warns that a made-up admin token is this instance’s only, where instances share the ledger', async () => {
      const schema = freshSchemaName();
      await withClient(url, (client) => client.query(`create schema ${schema}`));
      const inSchema = new URL(url);
      inSchema.searchParams.set('options', `-c search_path=${schema}`);
      const memory = memorySink();
      const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const settings = readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: inSchema.href });
      const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
      try {
        const warned = memory.lines.filter((line) => line.includes('PAYFORM_ADMIN_TOKEN is not set'));
        expect(warned).toEqual([expect.stringContaining('set the same PAYFORM_ADMIN_TOKEN on every one')]);
        expect(warned[0]).not.toContain(settings.adminToken);
      } finally {
        await companion.close();
        printed.mockRestore();
        await dropSchema(url, schema);
      }
    });

    it('warns once at start that the ledger is behind a transaction pooler, naming the role setting to make', async () => {
      const bouncer = await startPgBouncer(url, 'transaction', 2);
      const memory = memorySink();
      const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const settings = readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: `${bouncer.url}?pgbouncer=true`, PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' });
      const companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, logger: createLogger({ sink: memory.sink }) });
      try {
        const warned = memory.lines.filter((line) => line.includes('pooler in transaction mode'));
        expect(warned).toEqual([expect.stringContaining("ALTER ROLE <user> SET statement_timeout = '5s'")]);
        expect(JSON.parse(warned[0]!).level).toBe('warn');
      } finally {
        await companion.close();
        printed.mockRestore();
        await bouncer.stop();
      }
    });

    const compose = (databaseUrl: string) =>
      composeCompanion(readCompanionConfig({ PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: databaseUrl }), {
        gatewayBaseUrl: sandbox.url,
        logger: createLogger({ sink: memorySink().sink }),
      });
    const noPassword = /: the server asks for a password, and PAYFORM_DATABASE_URL gives none: write it in the URL \(postgres:\/\/user:password@host\/database\), or set PGPASSWORD$/;

    it('says which part of the URL the server refused when its password is wrong or missing', async () => {
      const wrong = new URL(url);
      wrong.password = 'not-the-password';
      await expect(compose(wrong.href)).rejects.toThrow(
        /: password authentication failed for user "[^"]+" \(check the user name and password in PAYFORM_DATABASE_URL, their special characters percent-encoded: % as %25, @ as %40\)$/,
      );
      // node-postgres says only "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string".
      const none = new URL(url);
      none.password = '';
      const refused = compose(none.href);
      await expect(refused).rejects.toThrow(noPassword);
      await expect(refused).rejects.not.toThrow(/SASL/);
    });

    it('says a missing password as missing when the server asks for it by md5 or in clear text too', async () => {
      // Roles .ci/ensure-postgres makes: pg_hba.conf asks them for their password by md5 and in clear text, every other role by SCRAM.
      // Its lines are for 127.0.0.1/32: a host named localhost may be reached at ::1, which they do not match.
      const server = new URL(url);
      if (server.hostname === 'localhost') server.hostname = '127.0.0.1';
      const database = decodeURIComponent(server.pathname.slice(1));
      const setUp =
        `as a superuser, run \`set password_encryption = 'md5'; create role payform_md5 login password 'payform'; reset password_encryption; create role payform_cleartext login password 'payform';\` ` +
        `(or, for a payform_md5 whose password is not kept as md5, \`alter role payform_md5 password 'payform'\` after that set), ` +
        `put the lines \`host ${database} payform_md5 127.0.0.1/32 md5\` and \`host ${database} payform_cleartext 127.0.0.1/32 password\` in pg_hba.conf above those for all roles, ` +
        `then \`select pg_reload_conf()\`; this test signs in at 127.0.0.1 (a server elsewhere: this machine's address in place of 127.0.0.1/32). ` +
        '.ci/ensure-postgres does all of it for a local server, as root';
      const made = await withClient(url, async (client) => (await client.query("select rolname from pg_roles where rolname in ('payform_md5', 'payform_cleartext')")).rows);
      if (made.length !== 2) throw new Error(`this test needs the roles payform_md5 and payform_cleartext, asked for their password by md5 and in clear text: ${setUp}`);
      const as = (role: string, password: string) => {
        const roleUrl = new URL(server);
        roleUrl.username = role;
        roleUrl.password = password;
        return roleUrl.href;
      };
      // Neither the URL, PGPASSWORD nor a password file gives one: md5 hashes "null" for it, cleartext sends "".
      const home = mkdtempSync(join(tmpdir(), 'payform-pgpass-'));
      vi.stubEnv('PGPASSWORD', undefined);
      vi.stubEnv('PGPASSFILE', join(home, 'none'));
      try {
        for (const [role, serverWords] of [
          ['payform_md5', 'password authentication failed for user "payform_md5"'],
          ['payform_cleartext', 'empty password returned by client'],
        ] as const) {
          const refused = compose(as(role, ''));
          // What the server said, kept as the cause: it asked by md5, or in clear text, not by SCRAM.
          const said = refused.then(
            () => 'nothing: the ledger opened',
            (error: Error) => (error.cause instanceof Error ? error.cause : error).message,
          );
          await expect(said, `${role} was not asked for its password as this test needs: ${setUp}`).resolves.toBe(serverWords);
          await expect(refused).rejects.toThrow(noPassword);
        }
        // md5 refuses a wrong password in the same words: one given (in the URL, PGPASSWORD or a file) is said as wrong, where it came from, and not shown.
        const wrong = /: password authentication failed for user "payform_md5" \(check the user name and password in PAYFORM_DATABASE_URL, their special characters percent-encoded: % as %25, @ as %40\)$/;
        const wrongInUrl = compose(as('payform_md5', 'not-the-password'));
        await expect(wrongInUrl).rejects.toThrow(wrong);
        await expect(wrongInUrl).rejects.not.toThrow(/not-the-password/);
        // Or a password file's (node-postgres reads PGPASSFILE, else ~/.pgpass, when the URL and PGPASSWORD give none; only one its owner alone may read).
        const passwordFile = join(home, 'pgpass');
        writeFileSync(passwordFile, '*:*:*:payform_md5:not-the-password\n', { mode: 0o600 });
        vi.stubEnv('PGPASSFILE', passwordFile);
        // node-postgres warns once that it will read no password file from pg@9 (that file then gives none).
        const warnings = process.noDeprecation;
        process.noDeprecation = true;
        const wrongInFile = compose(as('payform_md5', '')).finally(() => (process.noDeprecation = warnings));
        await expect(wrongInFile).rejects.toThrow(
          `: password authentication failed for user "payform_md5" (neither PAYFORM_DATABASE_URL nor PGPASSWORD gives a password, so node-postgres looked in ${passwordFile}: check the user name in the URL and the password on its line there, host:port:database:user:password, or write the password in the URL)`,
        );
        await expect(wrongInFile).rejects.not.toThrow(/not-the-password/);
        vi.stubEnv('PGPASSWORD', 'not-the-password');
        const wrongInEnvironment = compose(as('payform_md5', ''));
        await expect(wrongInEnvironment).rejects.toThrow(
          ': password authentication failed for user "payform_md5" (PAYFORM_DATABASE_URL gives no password, so node-postgres sent PGPASSWORD\'s: check it, and the user name in the URL)',
        );
        await expect(wrongInEnvironment).rejects.not.toThrow(/not-the-password/);
      } finally {
        vi.unstubAllEnvs();
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
});

/** A production environment complete but for PAYFORM_PUBLIC_URL, against the test's sandbox. */
function productionEnvironment(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: '0',
    PAYFORM_HOST: '127.0.0.1',
    PAYFORM_DATABASE_URL: join(dir, 'production.db'),
    PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token',
    PAYFORM_GATEWAY_BASE_URL: sandbox.url,
    PAYFORM_GATEWAY_POS_ID: '11111111-2222-3333-4444-555555555555',
    PAYFORM_GATEWAY_API_KEY: 'live-key',
    PAYFORM_GATEWAY_API_SECRET: 'live-secret',
    PAYFORM_GATEWAY_ENDPOINTS_KEY: 'live-endpoints',
  };
}
