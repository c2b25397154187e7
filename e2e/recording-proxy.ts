/**
 * A recording proxy in front of the companion: it forwards every request as it came and keeps
 * every byte the companion received — request line (path and query), headers and body — so a
 * journey can show what reached the merchant's server and what did not.
 */
import { createServer, request as forward } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  readonly url: string;
  /** Each request the companion received, as text: `METHOD target`, the headers, a blank line, the body. */
  readonly received: string[];
  /** Where to forward to; set once the companion listens (it needs the proxy's URL as its public URL). */
  target: string | undefined;
  close(): Promise<void>;
}

async function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const received: string[] = [];
  const proxy = { received, target: undefined } as { -readonly [K in keyof RecordingProxy]: RecordingProxy[K] };
  const server: Server = createServer((incoming, outgoing) => {
    void bodyOf(incoming).then((body) => {
      const headers = incoming.rawHeaders.map((value, index) => (index % 2 ? `${value}\n` : `${value}: `)).join('');
      received.push(`${incoming.method} ${incoming.url}\n${headers}\n${body.toString('utf8')}`);
      const target = new URL(incoming.url ?? '/', proxy.target);
      const upstream = forward(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on('error', () => outgoing.writeHead(502).end());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
