/**
 * A webhook's form post over undici's keep-alive connection pools, through their lowest public
 * API (`Dispatcher.dispatch` with a handler). A delivery needs only the receiver's status and a
 * redirect's Location, so no answer stream, Headers or promise per callback is made: a post
 * costs the sandbox about a quarter less CPU than through `request` (`pooledExchange`), and the
 * post is a third of the sandbox's CPU a payment (docs/performance.md).
 */
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import { UnexpectedResponseError } from '@payform/gateway';

export interface PostAnswer {
  readonly status: number;
  /** A redirect's Location as sent; undefined for any other answer. */
  readonly location: string | undefined;
}

export interface PostLimits {
  /** Fails the post with a TimeoutError when the whole answer has not come within this long. */
  readonly timeoutMs: number;
  /** An answer larger than this (declared or found while reading) fails the post. */
  readonly maxAnswerBytes: number;
}

/**
 * Idle connections are closed after this long, before a receiver's own keep-alive timeout (5 s
 * by default in Node) can close one just as a post is written on it.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * Whether undici's pools are here: Bun answers `import 'undici'` with a stub of its own, whose
 * Agent dispatches nothing. There the sender posts through the runtime's fetch.
 */
export const poolsHere = typeof Agent.prototype.dispatch === 'function';

export class FormPoster {
  readonly #pools = new Agent({ keepAliveTimeout: IDLE_SOCKET_MS, keepAliveMaxTimeout: IDLE_SOCKET_MS });

  /** Posts `body` once (undici retries nothing it is not told to); rejects with what failed. */
  post(url: URL, headers: Readonly<Record<string, string>>, body: string, limits: PostLimits): Promise<PostAnswer> {
    return new Promise((resolve, reject) => {
      const handler = new PostHandler(resolve, reject, limits);
      this.#pools.dispatch({ origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body }, handler);
    });
  }
}

/** One post's callbacks from undici: reads the status and Location, counts and drops the body. */
class PostHandler implements Dispatcher.DispatchHandler {
  readonly #resolve: (answer: PostAnswer) => void;
  readonly #reject: (error: unknown) => void;
  readonly #maxBytes: number;
  readonly #timer: NodeJS.Timeout;
  /** Ends the request in undici; given once it is under way. */
  #abort: ((reason: Error) => void) | undefined;
  /** Why the post was given up (the time limit, too large an answer); it wins over undici's error. */
  #failure: Error | undefined;
  #status = 0;
  #location: string | undefined;
  #size = 0;

  constructor(resolve: (answer: PostAnswer) => void, reject: (error: unknown) => void, { timeoutMs, maxAnswerBytes }: PostLimits) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#maxBytes = maxAnswerBytes;
    this.#timer = setTimeout(() => this.#fail(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs).unref();
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.#failure) abort(this.#failure);
    else this.#abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx answers come before the real one.
    if (statusCode < 200) return true;
    this.#status = statusCode;
    const redirect = statusCode >= 300 && statusCode < 400;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toString('latin1').toLowerCase();
      if (name === 'content-length' && Number(rawHeaders[i + 1]!.toString('latin1')) > this.#maxBytes) {
        this.#fail(answerTooLarge(statusCode, this.#maxBytes));
        return false;
      }
      // Repeated, joined as Headers joins them.
      if (redirect && name === 'location') {
        const value = rawHeaders[i + 1]!.toString('latin1');
        this.#location = this.#location === undefined ? value : `${this.#location}, ${value}`;
      }
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#size += chunk.byteLength;
    if (this.#size <= this.#maxBytes) return true;
    this.#fail(answerTooLarge(this.#status, this.#maxBytes));
    return false;
  }

  onComplete(): void {
    clearTimeout(this.#timer);
    if (!this.#failure) this.#resolve({ status: this.#status, location: this.#location });
  }

  onError(error: Error): void {
    clearTimeout(this.#timer);
    this.#reject(this.#failure ?? error);
  }

  #fail(reason: Error): void {
    if (this.#failure) return;
    this.#failure = reason;
    clearTimeout(this.#timer);
    this.#reject(reason);
    this.#abort?.(reason);
  }
}

/** The error `pooledExchange` gives for the same answer, so a delivery's record reads the same. */
function answerTooLarge(status: number, maxBytes: number): Error {
  return new UnexpectedResponseError(`The gateway's answer is larger than ${maxBytes} bytes`, { status });
}
