/**
 * CONNECT, a proxy's tunnel: Node hands it to the server's `connect` event and, with no listener,
 * drops the connection unanswered, where every other method the gateway does not take on a path
 * gets a 405 (app.ts). A client's mistake (the sandbox set as its HTTP proxy) then reads as a
 * network fault; answered here, in the gateway's error body.
 */
import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { ServerType } from '@hono/node-server';
import type { Duplex } from 'node:stream';
import { Refusal } from '../state/refusal.js';

export function refuseTunnels(server: ServerType): void {
  // serve() without createServer makes a node:http server, the one kind that has the event.
  (server as Server).on('connect', (_request: unknown, socket: Duplex) => {
    const body = JSON.stringify(new Refusal(405, 'Method CONNECT is not allowed: the sandbox is a gateway, not a proxy', { code: 'P-405' }).body);
    socket.end(`HTTP/1.1 405 ${STATUS_CODES[405]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
