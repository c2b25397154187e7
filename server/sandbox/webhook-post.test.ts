/**
 * The webhook poster against real servers: node:http receivers, and raw TCP servers for the
 * answers node:http would not write (byte by byte, informational first, read to the close).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FormPoster, postsDirectly } from './webhook-post.js';

const servers: Server[] = [];
const posters: FormPoster[] = [];

afterEach(async () => {
  posters.splice(0).forEach((poster) => poster.close());
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          server.close(() => resolve());
        }),
    ),
  );
});

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A node:http receiver; `answer` writes each answer. Counts the connections it accepted. */
async function httpReceiver(answer: (response: ServerResponse, index: number) => void) {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(response, received.length - 1);
    });
  });
  server.on('connection', () => (connections += 1));
  return { url: await listen(server), received, connections: () => connections };
}

/** A TCP server that writes `answer` (in the pieces given) after each request's blank line. */
async function rawReceiver(pieces: readonly (string | Buffer)[], options: { closeAfter?: boolean } = {}) {
  let connections = 0;
  const server = createTcpServer((socket: Socket) => {
    connections += 1;
    let seen = '';
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      // The request is whole once its declared body has arrived.
      const end = seen.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(seen)?.[1] ?? 0);
      if (end === -1 || seen.length < end + 4 + length) return;
      seen = seen.slice(end + 4 + length);
      void (async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        if (options.closeAfter) socket.end();
      })();
    });
  });
  return { url: await listen(server), connections: () => connections };
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function post(url: string, options: { body?: string; timeoutMs?: number; maxAnswerBytes?: number; poster?: FormPoster } = {}): Promise<number> {
  const poster = options.poster ?? new FormPoster();
  posters.push(poster);
  return poster.post({
    url: new URL(url),
    body: options.body ?? 'data=eyJhIjoxfQ%3D%3D&signature=abc%3D',
    userAgent: 'payform-sandbox-webhooks/1',
    timeoutMs: options.timeoutMs ?? 2_000,
    maxAnswerBytes: options.maxAnswerBytes ?? 1024,
  });
}

describe('posting a webhook form', () => {
  it('sends the form as a node:http server reads it and answers the status, over one kept connection', async () => {
    const receiver = await httpReceiver((response, index) => response.writeHead(index === 0 ? 200 : 503, { 'Content-Type': 'application/json' }).end('{"received":true}'));
    const poster = new FormPoster();
    expect(await post(`${receiver.url}/webhooks/gateway?shop=1`, { poster })).toBe(200);
    expect(await post(`${receiver.url}/webhooks/gateway?shop=1`, { poster, body: 'data=%C3%A9' })).toBe(503);
    expect(receiver.received).toEqual([
      expect.objectContaining({ method: 'POST', url: '/webhooks/gateway?shop=1', body: 'data=eyJhIjoxfQ%3D%3D&signature=abc%3D' }),
      expect.objectContaining({ body: 'data=%C3%A9' }),
    ]);
    expect(receiver.received[0]?.headers).toMatchObject({
      host: new URL(receiver.url).host,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'payform-sandbox-webhooks/1',
      'content-length': '38',
      connection: 'keep-alive',
    });
    expect(receiver.connections()).toBe(1);
  });

  it('reads a chunked answer to its end and keeps the connection', async () => {
    const receiver = await httpReceiver((response) => {
      response.writeHead(202, { 'Content-Type': 'text/plain' });
      response.write('first part, ');
      setTimeout(() => response.end('second part'), 5);
    });
    const poster = new FormPoster();
    expect(await post(receiver.url, { poster })).toBe(202);
    expect(await post(receiver.url, { poster })).toBe(202);
    expect(receiver.connections()).toBe(1);
  });

  it('opens a new connection after an answer that closes its own', async () => {
    const receiver = await httpReceiver((response) => response.writeHead(200, { Connection: 'close', 'Content-Length': '2' }).end('ok'));
    const poster = new FormPoster();
    expect(await post(receiver.url, { poster })).toBe(200);
    expect(await post(receiver.url, { poster })).toBe(200);
    expect(receiver.connections()).toBe(2);
  });

  it('reads an answer that arrives a byte at a time, chunk sizes, extensions and trailers included', async () => {
    const answer = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;note=x\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Checksum: 1\r\n\r\n';
    const receiver = await rawReceiver([...answer]);
    const poster = new FormPoster();
    expect(await post(receiver.url, { poster })).toBe(200);
    expect(await post(receiver.url, { poster })).toBe(200);
    expect(receiver.connections()).toBe(1);
  });

  it('skips an informational answer, and reads an answer without a length to the end of the connection', async () => {
    const informational = await rawReceiver(['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok']);
    expect(await post(informational.url)).toBe(201);
    const untilClose = await rawReceiver(['HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n', 'the rest of the connection'], { closeAfter: true });
    expect(await post(untilClose.url)).toBe(200);
  });

  it('answers 204 and 304 without reading a body', async () => {
    const receiver = await rawReceiver(['HTTP/1.1 204 No Content\r\n\r\n']);
    const poster = new FormPoster();
    expect(await post(receiver.url, { poster })).toBe(204);
    expect(await post(receiver.url, { poster })).toBe(204);
    expect(receiver.connections()).toBe(1);
  });
});

describe('a post that fails', () => {
  it('fails on an answer larger than the limit, declared or found while reading', async () => {
    const declared = await httpReceiver((response) => response.writeHead(200, { 'Content-Length': '2000' }).end('x'.repeat(2000)));
    await expect(post(declared.url)).rejects.toThrow("The receiver's answer is larger than 1024 bytes");
    const chunked = await httpReceiver((response) => {
      response.writeHead(200);
      response.write('x'.repeat(1000));
      setTimeout(() => response.end('x'.repeat(1000)), 5);
    });
    await expect(post(chunked.url)).rejects.toThrow("The receiver's answer is larger than 1024 bytes");
  });

  it('fails with a TimeoutError when no answer comes in time', async () => {
    const silent = await rawReceiver([]);
    await expect(post(silent.url, { timeoutMs: 100 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('fails with the connection error: refused, or closed before the answer ended', async () => {
    const closed = await rawReceiver([]);
    const port = new URL(closed.url).port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    await expect(post(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const cut = await rawReceiver(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf'], { closeAfter: true });
    await expect(post(cut.url)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('refuses what is not an HTTP/1.x answer', async () => {
    const receiver = await rawReceiver(['SSH-2.0-OpenSSH\r\n\r\n']);
    await expect(post(receiver.url)).rejects.toThrow("The receiver's answer is not valid HTTP: it is not an HTTP/1.x answer");
    const length = await rawReceiver(['HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nok']);
    await expect(post(length.url)).rejects.toThrow('its Content-Length is not a length');
  });

  it('posts on a new connection when the receiver closed the idle one', async () => {
    const receiver = await httpReceiver((response) => response.writeHead(200, { 'Content-Length': '2' }).end('ok'));
    const poster = new FormPoster();
    expect(await post(receiver.url, { poster })).toBe(200);
    (servers.at(-1) as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await post(receiver.url, { poster })).toBe(200);
    expect(receiver.connections()).toBe(2);
  });
});

describe('postsDirectly', () => {
  it('takes plain http: targets; https: and URLs with credentials go to the full client', () => {
    expect(postsDirectly(new URL('http://shop.example:8080/hooks'))).toBe(true);
    expect(postsDirectly(new URL('http://[::1]:8080/hooks'))).toBe(true);
    expect(postsDirectly(new URL('https://shop.example/hooks'))).toBe(false);
    expect(postsDirectly(new URL('http://user:secret@shop.example/hooks'))).toBe(false);
  });
});
