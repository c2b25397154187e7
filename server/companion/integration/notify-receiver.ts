/**
 * A merchant backend's notification endpoint, as a real `node:http` server on 127.0.0.1: it keeps
 * every request (raw body and headers) and answers what the test tells it to.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as it came: what a signature is checked over. */
  readonly body: string;
}

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** The next answers, in turn; when none is left, 200. */
  answers: { status: number; headers?: Record<string, string>; body?: string }[];
  close(): Promise<void>;
}

export async function startReceiver(path = '/payform/notifications'): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { received, answers: [] } as unknown as Receiver & { answers: Receiver['answers'] };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.answers.shift() ?? { status: 200 };
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? (answer.status < 300 ? 'ok' : 'not now'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
