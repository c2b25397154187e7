/**
 * One HTTP request and its whole answer, below the transport's rules (timeouts, retries,
 * errors). Two ways to make it: Node's own HTTP client over a keep-alive agent — the default,
 * because on Node 20 a fetch costs several times the CPU of the same request over node:http,
 * which a payment's path pays in latency — and any fetch the client is given (tests route calls
 * to an in-process app that way). Both leave redirects unfollowed and stop reading an answer
 * larger than its limit.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { UnexpectedResponseError } from './errors.js';

export interface OutgoingRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Aborts the request and the reading of its answer. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Fails the exchange with a TimeoutError when the whole answer has not come within this long.
   * Over node:http it is a timer: cheaper on Node 20 than an AbortSignal, whose listeners cost a
   * tenth of a small request's CPU.
   */
  readonly timeoutMs?: number | undefined;
  /** A larger answer — declared or found while reading — is an UnexpectedResponseError. */
  readonly maxAnswerBytes: number;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

export type Exchange = (request: OutgoingRequest) => Promise<Answer>;

function answerTooLarge(status: number, maxBytes: number): UnexpectedResponseError {
  return new UnexpectedResponseError(`The gateway's answer is larger than ${maxBytes} bytes`, { status });
}

/** Over a fetch function. */
export function fetchExchange(fetch: typeof globalThis.fetch): Exchange {
  return async ({ url, method, headers, body, signal, timeoutMs, maxAnswerBytes }) => {
    const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const signals = [signal, timeout].filter((given) => given !== undefined);
    const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] });
    // The body is read under the same signal, so a stalled answer times out as well.
    return { status: response.status, headers: response.headers, body: await readResponse(response, maxAnswerBytes) };
  };
}

async function readResponse(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw answerTooLarge(response.status, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by throwing cancels the stream.
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw answerTooLarge(response.status, maxBytes);
    chunks.push(chunk);
  }
  return joined(chunks, size);
}

/**
 * Idle connections are closed after this long, before a server's own keep-alive timeout (5 s
 * by default in Node) can close one just as a request is written on it.
 */
const IDLE_SOCKET_MS = 4_000;

/** Over node:http(s), keeping connections open between calls. */
export function nodeHttpExchange(): Exchange {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };
  return (outgoing) =>
    new Promise<Answer>((resolve, reject) => {
      const { url, body, signal, timeoutMs, maxAnswerBytes } = outgoing;
      const https = url.protocol === 'https:';
      const options: RequestOptions = {
        method: outgoing.method,
        headers: body === undefined ? outgoing.headers : { ...outgoing.headers, 'Content-Length': String(Buffer.byteLength(body)) },
        agent: https ? agents['https:'] : agents['http:'],
        ...(signal ? { signal } : {}),
      };
      // Once the time is up, whatever the request or its answer fails with next is the timeout.
      let timedOut: DOMException | undefined;
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => request.destroy((timedOut = timeoutError(timeoutMs))), timeoutMs);
      timer?.unref();
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(timedOut ?? error);
      };
      const request = (https ? httpsRequest : httpRequest)(url, options, (response) => {
        readIncoming(response, maxAnswerBytes).then(
          (bytes) => {
            clearTimeout(timer);
            resolve(new NodeAnswer(response.statusCode ?? 0, response.headers, bytes));
          },
          (error: unknown) => {
            request.destroy();
            fail(error);
          },
        );
      });
      request.on('error', fail);
      request.end(body);
    });
}

function timeoutError(timeoutMs: number): DOMException {
  return new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError');
}

function readIncoming(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const status = response.statusCode ?? 0;
  if (Number(response.headers['content-length']) > maxBytes) return Promise.reject(answerTooLarge(status, maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        reject(answerTooLarge(status, maxBytes));
        response.destroy();
      } else {
        chunks.push(chunk);
      }
    });
    response.on('end', () => resolve(joined(chunks, size)));
    // An abort or a dropped connection mid-answer.
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(Object.assign(new Error('The connection closed before the answer ended'), { code: 'ECONNRESET' }));
    });
  });
}

/** The chunks in one plain Uint8Array (not a Buffer: callers compare and keep it as such). */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.byteLength), 0);
  return body;
}

/**
 * An answer over node:http, its web Headers built only when read: most callers read the status
 * and body alone (a payment's answer, a webhook's acknowledgement). A class, because an object
 * literal with a getter costs V8 more than the Headers it saves.
 */
class NodeAnswer implements Answer {
  readonly #incoming: IncomingHttpHeaders;
  #headers: Headers | undefined;

  constructor(
    readonly status: number,
    incoming: IncomingHttpHeaders,
    readonly body: Uint8Array,
  ) {
    this.#incoming = incoming;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#incoming));
  }
}

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
