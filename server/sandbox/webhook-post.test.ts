/**
 * A webhook's post over undici's pools (webhook-post.ts), against a real receiver: an early
 * 1xx answer is passed over, a redirect's Location kept, an answer too large or too slow ends
 * the post with the error the sender records, and the pool posts again to that receiver after.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UnexpectedResponseError } from '@payform/gateway';
import { FormPoster } from './webhook-post.js';

let receiver: Server;
let base: string;
const posted: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      posted.push(`${request.url} ${body}`);
      if (request.url === '/hints') {
        response.writeEarlyHints({ link: '</style.css>; rel=preload' });
        response.writeHead(204).end();
      } else if (request.url === '/moved') {
        response.writeHead(302, { Location: 'https://shop.example/hooks?from=sandbox' }).end();
      } else if (request.url === '/declared') {
        response.writeHead(200, { 'Content-Length': '100000' }).write('x');
      } else if (request.url === '/streamed') {
        response.writeHead(200).end(Buffer.alloc(70_000, 'x'));
      } else if (request.url === '/stalled') {
        response.writeHead(200).write('partly');
      } else if (request.url === '/hang-up') {
        request.socket.destroy();
      } else {
        response.writeHead(200, { Location: '/not-a-redirect' }).end('OK');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const poster = new FormPoster();
const post = (path: string, timeoutMs = 5_000) =>
  poster.post(new URL(path, base), { 'Content-Type': 'application/x-www-form-urlencoded' }, 'data=e30&signature=c2ln', { timeoutMs, maxAnswerBytes: 64 * 1024 });

it('answers the status after an early hint, and a Location only for a redirect', async () => {
  expect(await post('/hints')).toEqual({ status: 204, location: undefined });
  expect(await post('/moved')).toEqual({ status: 302, location: 'https://shop.example/hooks?from=sandbox' });
  expect(await post('/ok?x=1')).toEqual({ status: 200, location: undefined });
  expect(posted.at(-1)).toBe('/ok?x=1 data=e30&signature=c2ln');
});

it('fails an answer too large, declared or read, and one that stalls, then posts again to that receiver', async () => {
  for (const path of ['/declared', '/streamed']) {
    const refused = await post(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnexpectedResponseError);
    expect(refused).toMatchObject({ message: 'The gateway\'s answer is larger than 65536 bytes', status: 200 });
    expect(await post('/ok')).toEqual({ status: 200, location: undefined });
  }
  await expect(post('/stalled', 200)).rejects.toMatchObject({ name: 'TimeoutError', message: 'No answer within 200 ms' });
  expect(await post('/ok')).toEqual({ status: 200, location: undefined });
});

it('fails a post whose receiver hangs up, with the socket error the sender words', async () => {
  await expect(post('/hang-up')).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  expect(await post('/ok')).toEqual({ status: 200, location: undefined });
});
