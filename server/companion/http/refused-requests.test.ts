// What a slow or broken client gets from startCompanion's server, over raw sockets (fetch sends
// neither a trickled body nor a Host no URL can hold): the error envelope, a line in the log, and
// a server that goes on serving.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveSandbox } from '../../sandbox/testing/served.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { createLogger, memorySink } from '../log/logger.js';
import { composeCompanion, startCompanion } from '../start.js';
import type { RunningCompanion, StartOptions } from '../start.js';
import { eventually, payBody } from '../test/stack.js';
import { loopbackSettings } from '../test/loopback-settings.js';
import { toNodeListener } from './node-listener.js';

/**
 * Writes `parts` one after another, `pauseMs` apart, until the server answers (or all are
 * written), and reads the answer to its end: its status line and body.
 */
async function exchange(port: number, parts: readonly string[], pauseMs = 0): Promise<{ status: string; body: string }> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let answered = false;
  socket.on('data', (chunk: Buffer) => {
    answered = true;
    chunks.push(chunk);
  });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  for (const part of parts) {
    if (answered || socket.destroyed) break;
    socket.write(part);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  if (!answered) socket.end();
  await ended;
  const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n', 2);
  return { status: head.split('\r\n', 1)[0]!, body };
}

interface Line {
  readonly level: string;
  readonly msg: string;
}

let sandbox: ServedSandbox;
let companion: RunningCompanion | undefined;
let memory: ReturnType<typeof memorySink>;
beforeEach(async () => {
  sandbox = await serveSandbox();
  memory = memorySink();
});
afterEach(async () => {
  await companion?.close();
  companion = undefined;
  await sandbox.close();
});

async function start(options: StartOptions = {}): Promise<RunningCompanion> {
  companion = await startCompanion(loopbackSettings(), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink, level: 'debug' }), ...options });
  return companion;
}

function refusals(pattern: RegExp): Line[] {
  return memory.lines.map((line) => JSON.parse(line) as Line).filter((line) => pattern.test(line.msg));
}

describe('a request that arrives too slowly', () => {
  it('is given 30 s to arrive whole and 20 s for its headers, not Node’s 5 minutes and 60 s', async () => {
    // The server as the routes see it: the socket a request came on knows it.
    await start({
      extend: (app) =>
        app.get('/limits', (c) => {
          // Node sets `server` on every socket it accepts.
          const { requestTimeout, headersTimeout } = (c.env.incoming!.socket as unknown as { server: Server }).server;
          return c.json({ requestTimeout, headersTimeout });
        }),
    });
    expect(await (await fetch(`${companion!.url}/limits`)).json()).toEqual({ requestTimeout: 30_000, headersTimeout: 20_000 });
  });

  it('is answered 408 in the error envelope when its body trickles in, and warned of once', async () => {
    const { port } = await start({ requestTimeoutMs: 200 });
    // A route that reads the body before answering: the merchant's, creating a session.
    const { adminToken } = loopbackSettings();
    const head = `POST /api/checkout/sessions HTTP/1.1\r\nHost: shop\r\nAuthorization: Bearer ${adminToken}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{`;
    // A byte every 50 ms: 400 of them would take 20 s.
    const trickled = await exchange(port, [head, ...Array.from({ length: 400 }, () => ' ')], 50);
    expect(trickled.status).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(trickled.body)).toEqual({ error: { code: 'request_timeout', message: 'The request did not arrive in time' } });
    // Headers trickled line by line are cut too.
    const slowHeaders = await exchange(port, ['GET /healthz HTTP/1.1\r\n', ...Array.from({ length: 400 }, (_, index) => `X-Line-${index}: 1\r\n`)], 50);
    expect(slowHeaders.status).toBe('HTTP/1.1 408 Request Timeout');
    expect(refusals(/refused with 408/).map((line) => line.level)).toEqual(['warn', 'debug']);
    // The route reading the body saw the client go: not a 400 the client was never sent.
    await eventually(() => expect(refusals(/^request cut/)).toMatchObject([{ level: 'debug', status: 408, route: '/api/checkout/sessions' }]));
    expect(refusals(/aborted by the client/)).toEqual([]);
    expect((await fetch(`${companion!.url}/healthz`)).status).toBe(200);
  });

  it('closes a connection that sends nothing with 408, told at debug alone: a browser’s preconnect, no slow client', async () => {
    const { port } = await start({ requestTimeoutMs: 200 });
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => socket.on('close', resolve));
    expect(Buffer.concat(chunks).toString('utf8')).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(refusals(/refused with 408/)).toEqual([]);
    expect(refusals(/sent no request/).map((line) => line.level)).toEqual(['debug']);
  });

  it('does not cut a request whose answer takes long (a slow gateway), nor an idle keep-alive connection', async () => {
    const settings = loopbackSettings();
    // The gateway answers the payment 1.2 s late: three times the limit, which still leaves a
    // loaded machine time to deliver the request itself (100 ms did not, at a load of 12).
    const slowGateway: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/api/v1/payment')) await new Promise((resolve) => setTimeout(resolve, 1_200));
      return fetch(input, init);
    };
    companion = await startCompanion(settings, { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }), fetch: slowGateway, requestTimeoutMs: 400 });
    const headers = { Authorization: `Bearer ${settings.adminToken}`, 'Content-Type': 'application/json' };
    const session = (await (await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) })).json()) as { id: string };
    const paid = await fetch(`${companion.url}/api/checkout/sessions/${session.id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { status: string }).status).toBe('success');
    // Two requests on one connection, idle well past the limit between them.
    const kept = connect(companion.port, '127.0.0.1');
    let answers = '';
    kept.on('data', (chunk: Buffer) => (answers += chunk.toString('utf8')));
    kept.write('GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n');
    await eventually(() => expect(answers).toContain('"status":"ok"'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    kept.end('GET /healthz HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => kept.on('close', resolve));
    expect(answers.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(refusals(/refused with 408/)).toEqual([]);
  });

  it('takes a requestTimeoutMs of months without turning Node’s check of late requests into a 1 ms timer', async () => {
    const warnings: string[] = [];
    const heard = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', heard);
    try {
      await start({ requestTimeoutMs: 20_000_000_000 });
      // Node says so when the server's timer is set, as it listens.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', heard);
    }
  });

  it('refuses a requestTimeoutMs that is no positive whole number, naming it', async () => {
    await expect(start({ requestTimeoutMs: 0 })).rejects.toThrow(/Invalid companion options: requestTimeoutMs must be a whole number of milliseconds above 0 \(it is 0\)/);
    companion = undefined;
  });
});

describe('a request whose chunked body breaks off in a way no HTTP allows', () => {
  it('is answered at once in the error envelope, not held until the request timeout as a slow one', async () => {
    const { port } = await start({ requestTimeoutMs: 10_000 });
    const { adminToken } = loopbackSettings();
    const head = `POST /api/checkout/sessions HTTP/1.1\r\nHost: shop\r\nAuthorization: Bearer ${adminToken}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    // The client keeps its side open, as one waiting for its answer does: 2 s is answer enough.
    const noSize = await exchange(port, [`${head}zz\r\n{}\r\n0\r\n\r\n`, ''], 2_000);
    expect(noSize.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(noSize.body).error.code).toBe('malformed_request');
    const longExtensions = await exchange(port, [`${head}2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`, ''], 2_000);
    expect(longExtensions.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(JSON.parse(longExtensions.body).error.code).toBe('chunk_extensions_too_large');
    expect(refusals(/refused with 408/)).toEqual([]);
    expect(refusals(/bytes that were no request/)).toEqual([]);
    expect(refusals(/not well-formed HTTP/).map((line) => line.level)).toEqual(['warn']);
    // The route that waited for the body saw its client go, no failure of its own.
    expect(memory.lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    expect((await fetch(`${companion!.url}/healthz`)).status).toBe(200);
  });
});

describe('a request whose Host no URL can hold', () => {
  it('is answered 400 invalid_host in the error envelope, warned of once, and the server goes on', async () => {
    const { port } = await start();
    for (const host of ['a b', '[::1', 'exa mple.com:99999', 'shop:99999']) {
      const answer = await exchange(port, [`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`]);
      expect(answer.status, host).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(answer.body), host).toEqual({ error: { code: 'invalid_host', message: expect.stringContaining('Host header') } });
    }
    // A backslash in the path is the path's fault, not the Host's.
    const backslash = await exchange(port, ['GET /api\\checkout HTTP/1.1\r\nHost: shop\r\n\r\n']);
    expect(backslash.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(backslash.body).error.code).toBe('invalid_request_target');
    const told = refusals(/refused with 400/);
    expect(told.map((line) => line.level)).toEqual(['warn', 'debug', 'debug', 'debug', 'warn']);
    expect(told[0]!.msg).toContain('Host header');
    expect((await fetch(`${companion!.url}/healthz`)).status).toBe(200);
  });

  it('is answered so on the metrics address too', async () => {
    companion = await startCompanion(loopbackSettings({ PAYFORM_METRICS_ADDRESS: '127.0.0.1:0' }), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memory.sink }) });
    const answer = await exchange(Number(new URL(companion.metricsUrl!).port), ['GET /metrics HTTP/1.1\r\nHost: a b\r\n\r\n']);
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.body).error.code).toBe('invalid_host');
  });
});

describe('a request whose Host no URL can hold, mounted in a server of yours', () => {
  it('is answered 400 invalid_host by toNodeListener too', async () => {
    const composed = await composeCompanion(loopbackSettings(), { gatewayBaseUrl: sandbox.url, publicUrl: 'http://127.0.0.1:1', logger: createLogger({ sink: memory.sink }) });
    const server = createServer(toNodeListener(composed.app));
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const answer = await exchange((server.address() as AddressInfo).port, ['GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n']);
      expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(answer.body).error.code).toBe('invalid_host');
      expect(refusals(/Host header/).map((line) => line.level)).toEqual(['warn']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await composed.close();
    }
  });
});
