/**
 * One HTTP request and its whole answer, below the transport's rules (timeouts, retries,
 * errors). Two ways to make it: undici's connection pools — the default, because on Node 20 a
 * fetch costs several times the CPU of the same request made with undici's `request`, which a
 * payment's path pays in latency — and any fetch the client is given (tests route calls to an
 * in-process app that way). Both leave redirects unfollowed and stop reading an answer larger
 * than its limit.
 */
import { EventEmitter } from 'node:events';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
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
   * Over the pools it is a timer: cheaper on Node 20 than an AbortSignal, whose listeners cost a
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

/**
 * The client's own way to send: undici's pools where they are, else the runtime's fetch. Bun
 * answers `import 'undici'` with a stub of its own, whose Agent has no `request`: every call
 * there would fail as if the gateway could not be reached.
 */
export function defaultExchange(): Exchange {
  return poolsHere() ? pooledExchange() : fetchExchange(globalThis.fetch);
}

const poolsHere = () => typeof Agent.prototype.request === 'function';

/**
 * Over undici's connection pools (the library Node's own fetch is built on, used through its
 * lighter `request` API), keeping connections open between calls. Per small request it costs
 * about half the CPU of node:http's ClientRequest, agent and IncomingMessage, and a fraction of
 * a fetch's. A request is sent once: undici retries nothing it is not told to.
 */
export function pooledExchange(): Exchange {
  // Asked for by name, it is refused where it could only fail every call as an unreachable gateway.
  if (!poolsHere()) throw new TypeError("pooledExchange needs undici's connection pools, which this runtime does not have (Bun's undici is a stub): leave the client's exchange unset, or give fetchExchange(fetch)");
  const pools = new Agent({ keepAliveTimeout: IDLE_SOCKET_MS, keepAliveMaxTimeout: IDLE_SOCKET_MS });
  return async ({ url, method, headers, body, signal, timeoutMs, maxAnswerBytes }) => {
    const deadline = timeoutMs === undefined ? undefined : new Deadline(timeoutMs, signal);
    try {
      const answer = await pools.request({ origin: url.origin, path: url.pathname + url.search, method: method as Dispatcher.HttpMethod, headers, body, signal: deadline ?? signal });
      const bytes = await readAnswer(answer, maxAnswerBytes);
      return new PooledAnswer(answer.statusCode, answer.headers, bytes);
    } catch (error) {
      // Once the time is up, whatever the request or its answer failed with is the timeout.
      throw deadline?.reason ?? error;
    } finally {
      deadline?.clear();
    }
  };
}

/**
 * The abort signal undici is given for an exchange with a time limit: a plain timer and an
 * emitter, cheaper on Node 20 than an AbortSignal's timeout and listeners. The caller's own
 * signal, when there is one, ends it too.
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #caller: AbortSignal | undefined;
  readonly #callerAborted = () => this.#abort(this.#caller?.reason);

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    super();
    this.#timer = setTimeout(() => this.#abort(timeoutError(timeoutMs)), timeoutMs);
    this.#timer.unref();
    this.#caller = caller;
    if (caller?.aborted) this.#abort(caller.reason);
    else caller?.addEventListener('abort', this.#callerAborted, { once: true });
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#callerAborted);
  }

  #abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    // A caller's abort ends the exchange with the caller's reason, which the caller rethrows.
    this.reason = reason;
    this.emit('abort');
  }
}

function timeoutError(timeoutMs: number): DOMException {
  return new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError');
}

function readAnswer({ statusCode, headers, body }: Dispatcher.ResponseData, maxBytes: number): Promise<Uint8Array> {
  if (Number(headers['content-length']) > maxBytes) {
    body.destroy();
    return Promise.reject(answerTooLarge(statusCode, maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        reject(answerTooLarge(statusCode, maxBytes));
        body.destroy();
      } else {
        chunks.push(chunk);
      }
    });
    body.on('end', () => resolve(joined(chunks, size)));
    // An abort (the deadline's reason) or a connection dropped mid-answer.
    body.on('error', reject);
  });
}

/** The chunks in one plain Uint8Array (not a Buffer: callers compare and keep it as such). */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.byteLength), 0);
  return body;
}

type IncomingHeaders = Dispatcher.ResponseData['headers'];

/**
 * An answer over a pool, its web Headers built only when read: most callers read the status
 * and body alone (a payment's answer, a webhook's acknowledgement). A class, because an object
 * literal with a getter costs V8 more than the Headers it saves.
 */
class PooledAnswer implements Answer {
  readonly #incoming: IncomingHeaders;
  #headers: Headers | undefined;

  constructor(
    readonly status: number,
    incoming: IncomingHeaders,
    readonly body: Uint8Array,
  ) {
    this.#incoming = incoming;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#incoming));
  }
}

function headersOf(incoming: IncomingHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
