// What a balancer's health check meets while the started companion (the bin) drains for a stop,
// as docs/companion.md ("Stopping") tells it: the server closes idle connections at once (start.ts
// close: closeIdleConnections), so a kept-alive check sees the connection closed, never
// {"status":"draining"}, which only a companion mounted in a server of the merchant's answers.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { createLogger, memorySink } from '../log/logger.js';
import { startCompanion } from '../start.js';
import { eachServedSandbox } from '../test/served-sandbox.js';
import { loopbackSettings } from '../test/loopback-settings.js';

let sandbox: ServedSandbox;
eachServedSandbox('payform-stopping-', (made) => ({ sandbox } = made));

/** Everything the server writes to `socket` until it closes it, or `ms` pass. */
function readUntilClosed(socket: Socket, ms: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

describe('stopping the started companion', () => {
  it('closes a kept-alive connection at once: a health check on it sees the instance gone, not "draining"', async () => {
    const companion = await startCompanion(loopbackSettings(), { gatewayBaseUrl: sandbox.url, sandboxOrigin: sandbox.url, logger: createLogger({ sink: memorySink().sink }) });
    const socket = connect(companion.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const first = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await first).toMatch(/^HTTP\/1\.1 200 [\s\S]*"status":"ready"/);
    const closing = companion.close();
    const after = await readUntilClosed(socket, 3_000);
    await closing;
    expect(after).toEqual({ text: '', closed: true });
  });

});
