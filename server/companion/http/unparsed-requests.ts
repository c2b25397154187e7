/**
 * Requests Node's HTTP parser refuses before any route sees them: headers over its limit, a
 * malformed request line, a request that took too long to arrive. Node answers them on its own
 * with an empty 400, 408 or 431, and nothing reaches the request log, so a shop whose cookies
 * outgrew the limit would lose every checkout without a line telling its operator why. Here
 * they are answered with the companion's error envelope, and the first of each kind is a warning
 * naming the cause and the fix (later ones are debug lines: a scanner cannot flood the log).
 */
import { maxHeaderSize as processMaxHeaderSize, STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log/logger.js';

interface Refusal {
  readonly status: 400 | 408 | 413 | 431;
  readonly code: string;
  readonly message: string;
  /** For the operator: what happened and what to change. */
  readonly warning: string;
}

/** A connection reset, or closed by the client before its request was whole. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'HPE_INVALID_EOF_STATE']);

export function answerUnparsedRequests(server: Server, logger: () => Logger | undefined): void {
  const told = new Set<string>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The client went away, mid-request too: no one to answer, nothing the operator can change.
    if (CLIENT_GONE.has(error.code ?? '')) return void socket.destroy();
    const refusal = refusalFor(error.code, maxHeaderSize(server));
    const log = logger();
    if (log) {
      const first = !told.has(refusal.code);
      told.add(refusal.code);
      log[first ? 'warn' : 'debug'](refusal.warning, { status: refusal.status, parser: error.code ?? 'unknown' });
    }
    // A response already on its way cannot be followed by another on the same connection.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  });
}

function refusalFor(code: string | undefined, maxHeaderBytes: number): Refusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        message: `The request’s headers are larger than this server accepts (${maxHeaderBytes} bytes)`,
        warning: `a request’s headers were over Node’s limit of ${maxHeaderBytes} bytes and it was refused with 431 (most often the cookies of the shop’s domain): raise the limit with NODE_OPTIONS=--max-http-header-size=<bytes>, or serve the companion from a host the shop’s cookies are not sent to`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'chunk_extensions_too_large',
        message: 'The request body’s chunk extensions are larger than this server accepts',
        warning: 'a request whose chunk extensions were over Node’s limit was refused with 413: a client, not this server, needs fixing',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        message: 'The request did not arrive in time',
        warning: 'a request did not arrive within the server’s requestTimeout and was refused with 408: a slow client, or a proxy holding requests back',
      };
    default:
      return {
        status: 400,
        code: 'malformed_request',
        message: 'The request is not well-formed HTTP/1.1',
        warning: 'a request that is not well-formed HTTP/1.1 was refused with 400 before any route saw it: a client or proxy in front sends broken requests',
      };
  }
}

/** The server's own limit if it was given one, else the process's (`--max-http-header-size`). */
function maxHeaderSize(server: Server): number {
  return (server as { maxHeaderSize?: number }).maxHeaderSize ?? processMaxHeaderSize;
}
