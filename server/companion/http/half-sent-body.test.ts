// Bodies that do not arrive whole, over a real socket: a client that gives up half-way is its own
// abort (logged at info, never a 500), and the admin token and the pay limit are checked before
// anything waits for a body.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { eventually, stacksPerTest } from '../test/stack.js';
import type { Stack, StackOptions } from '../test/stack.js';

const openStack = stacksPerTest();

/** Sends the request line, headers and half of a JSON body announced at twice its length. */
function sendHalf(url: string, path: string, headers: Record<string, string> = {}): Socket {
  const { hostname, port } = new URL(url);
  const half = '{"card":{"number":"4242';
  const socket = connect(Number(port), hostname);
  const head = Object.entries({ Host: `${hostname}:${port}`, 'Content-Type': 'application/json', 'Content-Length': String(half.length * 2), ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${half}`);
  return socket;
}

/** The status line of what the server answers on `socket`, while the body is still unfinished. */
function statusLine(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) resolve(text.slice(0, text.indexOf('\r\n')));
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`closed without an answer: ${text}`)));
  });
}

const parsed = (stack: Stack) => stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a request body that does not arrive whole', () => {
  const served = (options: StackOptions = {}) => openStack({ served: true, ...options });

  it('is the client’s abort when it disconnects half-way: logged at info, no 500', async () => {
    const stack = await served();
    const session = await stack.openSession();
    const socket = sendHalf(stack.companionUrl, `/api/checkout/sessions/${session.id}/pay`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const aborted = await eventually(() => {
      const line = parsed(stack).find((entry) => entry.msg === 'request aborted by the client');
      expect(line).toBeDefined();
      return line!;
    });
    expect(aborted).toMatchObject({ level: 'info', method: 'POST', route: '/api/checkout/sessions/:id/pay' });
    const failures = parsed(stack).filter((entry) => entry.level === 'error' || entry.status === 500);
    expect(failures).toEqual([]);
    // The companion goes on as before.
    expect((await stack.request('GET', `/api/checkout/sessions/${session.id}`)).status).toBe(200);
  });

  it('is refused 401 without a valid admin token before the body is waited for', async () => {
    const stack = await served();
    const socket = sendHalf(stack.companionUrl, '/api/checkout/sessions', { Authorization: 'Bearer not-the-admin-token' });
    try {
      expect(await statusLine(socket)).toBe('HTTP/1.1 401 Unauthorized');
    } finally {
      socket.destroy();
    }
  });

  it('is refused 429 past the pay limit before the body is waited for', async () => {
    const stack = await served({ companion: { rateLimits: { perSession: 1, perClient: 1000 } } });
    const session = await stack.openSession();
    expect((await stack.request('POST', `/api/checkout/sessions/${session.id}/pay`, { body: {} })).status).toBe(400);
    const socket = sendHalf(stack.companionUrl, `/api/checkout/sessions/${session.id}/pay`);
    try {
      expect(await statusLine(socket)).toBe('HTTP/1.1 429 Too Many Requests');
    } finally {
      socket.destroy();
    }
  });
});
