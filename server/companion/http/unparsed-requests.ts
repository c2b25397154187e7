/**
 * Requests refused before any route sees them. Node's HTTP parser refuses headers over its limit,
 * a malformed request line, a request that took too long to arrive; @hono/node-server then
 * refuses one it cannot turn into a URL (a Host header no URL can hold, a backslash in the
 * path). Both answer on their own with an empty 400, 408 or 431, and nothing reaches the request
 * log, so a shop whose cookies outgrew the limit would lose every checkout without a line telling
 * its operator why. Here they are answered with the companion's error envelope, and the first of
 * each kind is a warning naming the cause and the fix (later ones are debug lines: a scanner
 * cannot flood the log). Said again once an hour has passed: a scanner's oversized headers,
 * sent first, would otherwise use the warning up, and the shop's own cookies outgrowing the
 * limit later would never be said above debug.
 */
import { maxHeaderSize as processMaxHeaderSize, STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { RequestError } from '@hono/node-server';
import type { Logger } from '../log/logger.js';
import { problemBody } from './problem.js';

interface Refusal {
  readonly status: 400 | 408 | 413 | 417 | 431 | 500 | 504;
  readonly code: string;
  readonly message: string;
  /** For the operator: what happened and what to change. */
  readonly warning: string;
}

/** How long a kind of refusal stays said: one warning an hour, whoever sends them. */
export const REFUSAL_SAID_FOR_MS = 60 * 60_000;

/** A connection reset, or closed by the client before its request was whole. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'HPE_INVALID_EOF_STATE']);

/** Connections cut because their request did not arrive in time (answered 408 here). */
const cutLate = new WeakSet<object>();

/**
 * Whether `socket`'s request was cut for arriving too slowly: its route, reading the body, saw
 * the client go, but the 408 and its warning are the story (request-log.ts).
 */
export function cutForLateness(socket: object | undefined): boolean {
  return socket !== undefined && cutLate.has(socket);
}

/**
 * One per server: `logger` is read at each refusal (none yet while the companion starts).
 * `security` (securityHeaders): these answers are written outside the app's middleware.
 */
export class UnparsedRequests {
  /** When each kind was last said as a warning. */
  readonly #told = new Map<string, number>();

  constructor(
    private readonly logger: () => Logger | undefined,
    private readonly security: Readonly<Record<string, string>>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Answers what `server`'s parser refuses (its `clientError` event). */
  watch(server: Server): void {
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
      // The client went away, mid-request too: no one to answer, nothing the operator can change.
      if (CLIENT_GONE.has(error.code ?? '')) return void socket.destroy();
      const refusal = tlsSpoken(error) ? TLS_TO_HTTP : parserRefusal(error.code, maxHeaderSize(server));
      if (refusal.status === 408) cutLate.add(socket);
      // Bytes that are no request after one being answered (a body longer than its length, data
      // past `Connection: close`): that request runs, so its own answer goes out — a 400 in its
      // place would tell a refund that was made as refused — and the connection closes after it.
      // A request not yet received whole broke in its own body (a chunk size that is no number):
      // its route waits for a body that never comes, so it is refused here and now, not at the
      // request timeout as a slow one.
      const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage;
      if (inFlight && !inFlight.writableFinished && refusal.status !== 408 && inFlight.req.complete) {
        this.#tell(STRAY_BYTES, { parser: error.code ?? 'unknown' });
        inFlight.shouldKeepAlive = false;
        return void inFlight.once('close', () => socket.destroy());
      }
      // A connection that sent nothing is no slow client: a browser opens one ahead of need (a
      // preconnect) and may never use it. Answered all the same, told only at debug.
      if (refusal.status === 408 && (socket as Partial<Socket>).bytesRead === 0) this.logger()?.debug(IDLE_CONNECTION, { status: 408 });
      else this.#tell(refusal, { parser: error.code ?? 'unknown' });
      if (socket.writable && !inFlight?.headersSent) socket.write(this.#rawAnswer(refusal.status, refusal.code, refusal.message, headAsked(error)));
      socket.destroy(error);
    });
    // Node answers an Expect it does not know (anything but 100-continue) with a bare 417 and no
    // word: in the envelope, with the security headers, and said.
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      const refusal = UNMET_EXPECTATION;
      this.#tell(refusal, { expect: request.headers.expect?.slice(0, 100) });
      const body = JSON.stringify(problemBody(refusal.code, refusal.message));
      response
        .writeHead(refusal.status, { ...this.security, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', Connection: 'close' })
        .end(body);
    });
    // Node hands CONNECT (a proxy's tunnel) to this event and, with no listener, drops the
    // connection unanswered: the companion is no proxy, which the 405 says.
    server.on('connect', (_request: unknown, socket: Duplex) => {
      socket.end(this.#rawAnswer(405, 'method_not_allowed', 'CONNECT is not a method this server takes: it is no proxy'));
    });
  }

  /**
   * @hono/node-server's `errorHandler` (getRequestListener): reached only when a request could
   * not be turned into a web Request — where its URL is built, so a normal request pays nothing
   * for it —, or when the app's answer failed (its routes answer their own errors): 500 in the
   * envelope, where the adapter's own was empty.
   */
  readonly unbuilt = (error: unknown): Response => {
    // The adapter's messages are its own fixed words. Another error is the app's: the logger
    // masks what it may quote of the request; a timeout stays the 504 the adapter gives it.
    if (!(error instanceof RequestError)) return this.#answer(error instanceof Error && error.name === 'TimeoutError' ? TIMED_OUT : FAILED, { err: error });
    return this.#answer(unbuiltRefusal(error), { reason: error.message });
  };

  #answer(refusal: Refusal, context: Record<string, unknown>): Response {
    this.#tell(refusal, context);
    return Response.json(problemBody(refusal.code, refusal.message), { status: refusal.status, headers: { ...this.security, 'Cache-Control': 'no-store', Connection: 'close' } });
  }

  #tell(refusal: Refusal, context: Record<string, unknown>): void {
    const log = this.logger();
    if (!log) return;
    const now = this.clock();
    const unsaid = now - (this.#told.get(refusal.code) ?? Number.NEGATIVE_INFINITY) >= REFUSAL_SAID_FOR_MS;
    if (unsaid) this.#told.set(refusal.code, now);
    log[refusal.status >= 500 ? 'error' : unsaid ? 'warn' : 'debug'](refusal.warning, { status: refusal.status, ...context });
  }

  /**
   * A whole HTTP/1.1 answer in the error envelope, written to a socket no response object has;
   * `bodiless` for a HEAD, whose answer ends with its headers (the length they give is the GET's).
   */
  #rawAnswer(status: number, code: string, message: string, bodiless = false): string {
    const body = JSON.stringify(problemBody(code, message));
    const security = Object.entries(this.security).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    return (
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${security}Cache-Control: no-store\r\nConnection: close\r\n\r\n${bodiless ? '' : body}`
    );
  }
}

const IDLE_CONNECTION = 'a connection that sent no request within the server’s requestTimeout was closed with 408 (a browser’s connection opened ahead of need)';

const STRAY_BYTES: Refusal = {
  status: 400,
  code: 'stray_bytes',
  message: 'Bytes that are no request followed one on this connection',
  warning: 'bytes that were no request followed one on the same connection (a body longer than its Content-Length, data after Connection: close): that request was answered, and the connection closed; a client or proxy in front sends them',
};

const UNMET_EXPECTATION: Refusal = {
  status: 417,
  code: 'expectation_failed',
  message: 'The request’s Expect header asks for what this server does not do: only 100-continue is taken',
  warning: 'a request with an Expect header other than 100-continue was refused with 417: a client or proxy in front sends one',
};

const TIMED_OUT: Refusal = {
  status: 504,
  code: 'timeout',
  message: 'The companion took too long to answer',
  warning: 'a request timed out outside the companion’s routes, whose own timeouts are answered there',
};

const FAILED: Refusal = {
  status: 500,
  code: 'internal_error',
  message: 'Something went wrong in the companion',
  warning: 'a request failed outside the companion’s routes, whose own errors are answered there',
};

/**
 * The adapter builds `scheme://Host/path` and refuses what does not parse: with a path starting
 * `/`, only the Host can make `new URL` throw (its cause), or a Host the URL reads otherwise
 * (`a@b`), or none at all (HTTP/1.0). The rest is the path: a backslash, `*`, an absolute URL
 * that does not parse.
 */
function unbuiltRefusal(error: RequestError): Refusal {
  const unparsedHost = error.message === 'Invalid URL' && (error.cause as { code?: unknown } | undefined)?.code === 'ERR_INVALID_URL';
  const host = unparsedHost || /host header/i.test(error.message);
  return host
    ? {
        status: 400,
        code: 'invalid_host',
        message: 'The request’s Host header is missing or is not a host name, IP address and port',
        warning: 'a request whose Host header no URL can hold was refused with 400 before any route saw it: a client, or a proxy in front that rewrites Host, sends broken requests',
      }
    : {
        status: 400,
        code: 'invalid_request_target',
        message: 'The request’s target is not a path this server accepts (a backslash, or no leading /)',
        warning: 'a request whose target is not a plain path (a backslash in it, `*`, or an absolute URL that does not parse) was refused with 400 before any route saw it: a client or proxy in front sends broken requests',
      };
}

/**
 * Whether what failed to parse opens a HEAD request (its request line in the refused packet, as a
 * request written at once has it): a body after that answer's headers is no part of it, and a
 * client reads it as garbage — Node's own client as a parse error, never seeing the status.
 */
function headAsked(error: NodeJS.ErrnoException): boolean {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  return raw instanceof Uint8Array && Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.length, 5)).toString('latin1') === 'HEAD ';
}

/**
 * Whether what failed to parse opens a TLS handshake (a record of type 22, version 3.x): a client
 * that speaks https to this plain-http server, which no HTTP parser reads.
 */
function tlsSpoken(error: NodeJS.ErrnoException): boolean {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  return raw instanceof Uint8Array && raw[0] === 0x16 && raw[1] === 0x03;
}

const TLS_TO_HTTP: Refusal = {
  status: 400,
  code: 'tls_to_http',
  message: 'This server speaks plain HTTP: the request came as HTTPS',
  warning:
    'a client spoke https to this companion, which serves plain http: an https:// address of it with no TLS proxy in front ' +
    '(PAYFORM_PUBLIC_URL, a webhook or notification URL, a proxy whose upstream says https) — put TLS in front, or use http:// for it',
};

function parserRefusal(code: string | undefined, maxHeaderBytes: number): Refusal {
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
