/**
 * The answers written outside the app's middleware — while the ledger opens, once the companion
 * closes, the parser's refusals, a body the host took, the metrics listener's 404 — carry the
 * security headers every route's answer does: a browser that meets one of them (a page framing
 * the companion while it restarts, a refused request sniffed as HTML) is held to the same rules.
 * Through the real Node listeners: startCompanion's server, its metrics listener, toNodeListener.
 */
import { createServer } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { createLogger, memorySink } from '../log/logger.js';
import { readCompanionConfig } from '../settings.js';
import { composeCompanion, startCompanion } from '../start.js';
import { closedPort } from '../test/closed-port.js';
import { eventually } from '../test/stack.js';
import { loopbackSettings } from '../test/loopback-settings.js';
import { rawRequest } from '../test/raw-request.js';
import { eachServedSandbox } from '../test/served-sandbox.js';
import { toNodeListener } from './node-listener.js';

let sandbox: ServedSandbox;
eachServedSandbox('payform-fixed-answers-', (made) => ({ sandbox } = made));

/** What every answer must carry (browser-policies.ts), written out: the test does not ask the code under test. */
const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

const quiet = () => createLogger({ sink: memorySink().sink });

/** What the server writes back to `text` sent on a fresh connection, until it closes it: status and headers. */
async function socketAnswer(port: number, text: string): Promise<{ status: number; headers: Record<string, string> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  await new Promise<void>((resolve) => socket.on('close', () => resolve()).on('error', () => undefined).write(text));
  return parsedHead(received);
}

function parsedHead(text: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = text.split('\r\n\r\n', 1)[0]!.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers };
}

function headersOf(answer: Response): Record<string, string> {
  return Object.fromEntries(answer.headers);
}

describe('answers written outside the app', () => {
  it("startCompanion's: the parser's refusals, a Host no URL holds, CONNECT, and the metrics listener's 404", async () => {
    const companion = await startCompanion(loopbackSettings({ PAYFORM_METRICS_ADDRESS: '127.0.0.1:0' }), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: quiet() });
    try {
      const malformed = await socketAnswer(companion.port, 'NOT HTTP AT ALL\r\n\r\n');
      expect(malformed.status).toBe(400);
      expect(malformed.headers).toMatchObject(SECURITY);
      const tunnel = await socketAnswer(companion.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expect(tunnel.status).toBe(405);
      expect(tunnel.headers).toMatchObject(SECURITY);
      const unbuilt = await rawRequest(companion.port, 'GET', '/healthz', { Host: 'a b' });
      expect(unbuilt.status).toBe(400);
      expect(unbuilt.headers).toMatchObject(SECURITY);
      const metricsMiss = await fetch(companion.metricsUrl!.replace(/\/metrics$/, '/elsewhere'));
      expect(metricsMiss.status).toBe(404);
      expect(headersOf(metricsMiss)).toMatchObject(SECURITY);

    } finally {
      await companion.close();
    }
  });

  it('while the ledger opens: /healthz, the public URL check’s GET, and every other request', async () => {
    // A PostgreSQL server that takes the connection and says nothing: the ledger is still opening.
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = await closedPort();
    const opening = startCompanion(
      readCompanionConfig({ PORT: String(port), PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_DATABASE_URL: `postgres://payform@127.0.0.1:${(silent.address() as AddressInfo).port}/payform` }),
      { gatewayBaseUrl: sandbox.url, logger: quiet() },
    );
    const refused = opening.then(() => undefined, (error: unknown) => error);
    try {
      await eventually(async () => expect(sockets).toHaveLength(1));
      for (const [method, path, status] of [['GET', '/healthz', 200], ['GET', '/webhooks/gateway', 503], ['POST', '/api/checkout/sessions', 503]] as const) {
        const answer = await fetch(`http://127.0.0.1:${port}${path}`, { method });
        expect([path, answer.status]).toEqual([path, status]);
        expect(headersOf(answer)).toMatchObject(SECURITY);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
    expect(await refused).toBeInstanceOf(Error);
  });

  it("a mounted companion's: a body the host read first (toNodeListener), and a request after its close (the gate)", async () => {
    const companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_PUBLIC_URL: 'http://127.0.0.1:9' }), {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: quiet(),
    });
    const listener = toNodeListener(companion.app);
    // express.json() before the mount: the body is read before the companion gets the request.
    const server = createServer((request, response) => {
      if (request.method !== 'POST') return listener(request, response);
      request.resume();
      request.on('end', () => listener(request, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const taken = await fetch(`${url}/webhooks/gateway`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'data=x' });
      expect(taken.status).toBe(500);
      expect((await taken.json()).error.code).toBe('body_already_read');
      expect(headersOf(taken)).toMatchObject(SECURITY);
      await companion.close();
      const closed = await fetch(`${url}/healthz`);
      expect(closed.status).toBe(503);
      expect((await closed.json()).error.code).toBe('shutting_down');
      expect(headersOf(closed)).toMatchObject(SECURITY);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await companion.close();
    }
  });

  it("a fetch host's: a Request whose body it read before handing it over", async () => {
    const companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token', PAYFORM_PUBLIC_URL: 'http://127.0.0.1:9' }), {
      gatewayBaseUrl: sandbox.url,
      sandboxOrigin: sandbox.url,
      logger: quiet(),
    });
    try {
      const request = new Request('http://127.0.0.1/webhooks/gateway', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'data=x' });
      await request.text();
      const taken = await companion.app.fetch(request);
      expect(taken.status).toBe(500);
      expect(headersOf(taken)).toMatchObject(SECURITY);
    } finally {
      await companion.close();
    }
  });
});
