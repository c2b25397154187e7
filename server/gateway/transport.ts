/**
 * One HTTP exchange with the gateway: authentication headers, a timeout on every attempt, a
 * size limit on every answer, retries for reads, and an error for every answer that is not a
 * success. Redirects are never followed: the hosted create's 303 is the answer itself, and
 * following a redirect elsewhere would hand the X-API-AUTH credentials to another host. A
 * permanent redirect (301, 308) is no answer of the gateway's at all: NotTheGatewayError.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorFromResponse, firstLine, GatewayError, InvalidRequestError, maskCardData, NetworkError, NetworkTimeoutError, NotTheGatewayError } from './errors.js';
import { defaultExchange, fetchExchange } from './exchange.js';
import { redact } from './redact.js';
import { refusalWords, withoutCredentials } from './refusal.js';
import type { Credential } from './refusal.js';
import type { Answer, Exchange } from './exchange.js';
import { isRetryable, parseRetryAfter, retryDelay } from './retry.js';
import type { RetryPolicy } from './retry.js';
import { timeoutRefusal } from './timeouts.js';
import { failedBeforeRequest, tlsFailureOf, tlsFixOf } from './tls-failure.js';
import type { TlsFailure } from './tls-failure.js';
import { AUTH_HEADER, ENDPOINTS_KEY_HEADER, authHeaderValue, routePath } from './wire/routes.js';
import type { Route } from './wire/routes.js';

export interface TransportConfig {
  /** e.g. `https://gateway.example` — endpoint paths (`/api/v1/…`) are appended to it. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly endpointsKey: string;
  /** Limit of each attempt, from sending to the last byte of the answer. */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Sends the requests; unset: undici's keep-alive connection pools, or the runtime's fetch where there are none (see exchange.ts). */
  readonly fetch?: typeof globalThis.fetch;
  /** Ends every call, as a call's own signal does (both given: whichever aborts first). */
  readonly signal?: AbortSignal;
}

/** Per-call options every client method takes last. */
export interface RequestOptions {
  /** Overrides the client's timeout for this call (each attempt), 1 to 2^31 − 1 ms. */
  readonly timeoutMs?: number;
  /** Aborts the call, including waits between retries. */
  readonly signal?: AbortSignal;
}

export interface GatewayCall extends RequestOptions {
  readonly route: Route;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** Sent as JSON. */
  readonly body?: unknown;
}

/**
 * One attempt of a call, as observers see it (`GatewayClient.onCall`): the route's template
 * (`GET /api/v1/pos/:pos_id/orders/:order_id`, never the concrete path), the HTTP status, or
 * `network` / `timeout` when no answer came, or `aborted` when the caller's signal ended it
 * first (no fault of the gateway's), and how long the attempt took.
 */
export interface GatewayCallRecord {
  readonly route: string;
  /** The call carried the endpoints key (X-API-KEY): a 401 may be that key's, not the others'. */
  readonly endpointsKey: boolean;
  readonly outcome: number | 'network' | 'timeout' | 'aborted';
  readonly seconds: number;
  /**
   * A redirect's (3xx) Location, resolved against the address called, without its query: where
   * whatever answered sends the call. Only the hosted create's 303 is the gateway's.
   */
  readonly location?: string;
  /** A 2xx answer that is an HTML page (text/html): the gateway answers JSON, receipts aside. */
  readonly html?: boolean;
  /** A `network` outcome that was the TLS handshake failing: plain http answering an https:// URL, or a certificate refused. */
  readonly tls?: TlsFailure;
  /**
   * A `network` outcome after the connection was made (reset, closed before the answer): the
   * request may have reached the gateway, and a payment's outcome is read back, not refused.
   */
  readonly dropped?: true;
  /**
   * What a 401 or 403 said: the gateway's message (and `args.code`), card data masked, the
   * client's credentials named in brackets (`[API secret]`) where it quoted them, on one line of
   * at most 200 characters. Only such an answer is read for it: a success costs nothing more.
   */
  readonly said?: string;
}

export type GatewayCallObserver = (record: GatewayCallRecord) => void;

/** A success (2xx) or redirect (3xx) answer, body read in full. */
export interface GatewayReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
  /** The address that was called, for resolving a relative Location. */
  readonly url: URL;
}

/** A reply keeps the exchange's headers, built only if read (a 3xx's Location, a rich answer's type). */
class Reply implements GatewayReply {
  readonly status: number;
  readonly body: Uint8Array;
  readonly #answer: Answer;

  constructor(
    answer: Answer,
    readonly url: URL,
  ) {
    this.status = answer.status;
    this.body = answer.body;
    this.#answer = answer;
  }

  get headers(): Headers {
    return this.#answer.headers;
  }
}

// Failures in the connect phase: the request never reached the gateway.
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class Transport {
  readonly #config: TransportConfig;
  readonly #exchange: Exchange;
  readonly #observers = new Set<GatewayCallObserver>();
  /** The base URL without its trailing slashes, endpoint paths are appended to it. */
  readonly #base: string;
  readonly #headerSets: Array<Readonly<Record<string, string>>> = [];
  /** Kept out of what a refusal says, in its error and its record. */
  readonly #credentials: readonly Credential[];

  constructor(config: TransportConfig) {
    this.#config = config;
    // Each call in flight listens to the shared signal (its deadline does, exchange.ts): more
    // than Node's ten at once is the normal case, not a leak.
    if (config.signal) setMaxListeners(0, config.signal);
    this.#base = config.baseUrl.replace(/\/+$/, '');
    this.#exchange = config.fetch ? fetchExchange(config.fetch) : defaultExchange();
    this.#credentials = [
      { name: 'API key', value: config.apiKey },
      { name: 'API secret', value: config.apiSecret },
      { name: 'endpoints key', value: config.endpointsKey },
    ];
  }

  /** Tells `observer` of every attempt from now on; returns the function that stops it. */
  observe(observer: GatewayCallObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Sends the call; retries reads. Throws a GatewayError for a 4xx or 5xx, and for a permanent redirect (NotTheGatewayError). */
  async send(call: GatewayCall): Promise<GatewayReply> {
    // Refused before sending: a timeout no timer keeps would end the call as it leaves.
    if (call.timeoutMs !== undefined) {
      const reason = timeoutRefusal(call.timeoutMs);
      if (reason) throw InvalidRequestError.rejectedLocally([{ field: 'timeoutMs', reason }]);
    }
    const shared = this.#config.signal;
    if (!shared || !call.signal) return this.#send(call, call.signal ?? shared);
    const either = eitherSignal(call.signal, shared);
    try {
      return await this.#send(call, either.signal);
    } finally {
      either.release();
    }
  }

  /** `signal`: what ends the call, the call's own and the client's together. */
  async #send(call: GatewayCall, signal: AbortSignal | undefined): Promise<GatewayReply> {
    const retries = call.route.method === 'GET' ? this.#config.retry.maxRetries : 0;
    for (let retry = 0; ; retry += 1) {
      let failure: GatewayError;
      let retryAfterMs: number | undefined;
      try {
        const reply = await this.#attempt(call, signal);
        if (reply.status === 301 || reply.status === 308) throw new NotTheGatewayError(reply.status, locationOf(reply.headers, reply.url));
        if (reply.status < 400) return reply;
        retryAfterMs = parseRetryAfter(reply.headers.get('retry-after'));
        const body = isRefusal(reply.status) ? withoutCredentials(parseJson(reply.body), this.#credentials) : parseJson(reply.body);
        failure = errorFromResponse(reply.status, body, retryAfterMs, targetOf(call, reply.url));
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        failure = error;
      }
      const delay = retry < retries && isRetryable(failure) ? retryDelay(retry, this.#config.retry, retryAfterMs) : undefined;
      if (delay === undefined) throw failure;
      // An abort while waiting ends the call with the caller's reason, as fetch would.
      await sleep(delay, undefined, { signal }).catch(() => Promise.reject(signal?.reason ?? failure));
    }
  }

  async #attempt(call: GatewayCall, signal: AbortSignal | undefined): Promise<GatewayReply> {
    const url = this.#url(call);
    const timeoutMs = call.timeoutMs ?? this.#config.timeoutMs;
    const started = performance.now();
    let outcome: GatewayCallRecord['outcome'] = 'network';
    let signs: AnswerSigns | undefined;
    let tls: TlsFailure | undefined;
    let dropped = false;
    try {
      // The exchange keeps the time with a plain timer: an AbortController (and AbortSignal.any
      // with the caller's signal) per attempt cost a tenth of the call's CPU in listeners.
      const answer = await this.#exchange({
        url,
        method: call.route.method,
        headers: this.#headers(call),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
        timeoutMs,
        maxAnswerBytes: call.route.maxAnswerBytes,
      });
      outcome = answer.status;
      signs = answerSigns(answer, url, this.#credentials);
      return new Reply(answer, url);
    } catch (error) {
      // First: an abort's reason may be a GatewayError of its own (a server stopping gives its
      // calls up with a NetworkError), and it is still no fault of the gateway's.
      if (signal?.aborted) {
        outcome = 'aborted';
        throw signal.reason;
      }
      if (error instanceof GatewayError) throw error;
      const target = targetOf(call, url);
      const secrets = [this.#config.apiSecret, this.#config.endpointsKey];
      if (isTimeout(error)) {
        outcome = 'timeout';
        throw new NetworkTimeoutError(timeoutMs, { cause: scrubbed(error, secrets), target });
      }
      tls = tlsFailureOf(error);
      // A refused handshake (plain http, a certificate) is over before the request is written.
      const connectFailed = CONNECT_FAILURES.has(errorCode(error) ?? '') || (tls !== undefined && failedBeforeRequest(tls));
      dropped = !connectFailed;
      const why = `${failureOf(error, secrets)}${tls ? `: ${tlsFixOf(tls)}` : ''}`;
      throw new NetworkError(`No answer from the gateway at ${target} (${why})`, { cause: scrubbed(error, secrets), connectFailed, target });
    } finally {
      const record: GatewayCallRecord = { route: `${call.route.method} ${call.route.path}`, endpointsKey: call.route.endpointsKey, outcome, seconds: (performance.now() - started) / 1000 };
      this.#tell(signs || tls || dropped ? { ...record, ...signs, ...(tls ? { tls } : {}), ...(dropped ? { dropped: true as const } : {}) } : record);
    }
  }

  #tell(record: GatewayCallRecord): void {
    for (const observer of this.#observers) {
      try {
        observer(record);
      } catch {
        // An observer (metrics) must never fail a payment.
      }
    }
  }

  #url(call: GatewayCall): URL {
    const url = new URL(this.#base + routePath(call.route, call.params ?? {}));
    if (call.query) {
      for (const [name, value] of Object.entries(call.query)) {
        if (value !== undefined) url.searchParams.set(name, value);
      }
    }
    return url;
  }

  /** The same few header sets every time: built once per kind of call, never per call. */
  #headers(call: GatewayCall): Readonly<Record<string, string>> {
    const kind = (call.route.endpointsKey ? 1 : 0) + (call.body === undefined ? 0 : 2);
    return (this.#headerSets[kind] ??= this.#headerSet(call.route.endpointsKey, call.body !== undefined));
  }

  #headerSet(endpointsKey: boolean, json: boolean): Readonly<Record<string, string>> {
    const { apiKey, apiSecret } = this.#config;
    return Object.freeze({
      [AUTH_HEADER]: authHeaderValue(apiKey, apiSecret),
      ...(endpointsKey ? { [ENDPOINTS_KEY_HEADER]: this.#config.endpointsKey } : {}),
      ...(json ? { 'Content-Type': 'application/json' } : {}),
      Accept: 'application/json, text/html, application/pdf, application/zip, */*',
    });
  }
}

/**
 * What a failed call asked, for its error (built only once it failed): the query is left out —
 * it is the caller's data, and the route says enough to check the base URL — and so are
 * credentials, which `origin` never holds.
 */
function targetOf(call: GatewayCall, url: URL): string {
  return `${call.route.method} ${addressOf(url)}`;
}

/** An address for an error or a log: origin and path, never the query (the caller's data) or credentials. */
export function addressOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

type AnswerSigns = Pick<GatewayCallRecord, 'location' | 'html' | 'said'>;

/**
 * What observers are told of an answer beyond its status: a redirect's target or an HTML page
 * where JSON was due (something other than the gateway answers), or what a refusal of the
 * credentials said. Headers are read only for a 3xx, or a 2xx whose body opens with a tag (JSON
 * never does), and a body parsed only for a 401 or 403, so a payment's answer costs no more than
 * two comparisons and a look at its first byte.
 */
function answerSigns(answer: Answer, url: URL, credentials: readonly Credential[]): AnswerSigns | undefined {
  const { status } = answer;
  if (status < 300) return status >= 200 && opensWithTag(answer.body) && /^\s*text\/html/i.test(answer.headers.get('content-type') ?? '') ? { html: true } : undefined;
  if (status < 400) {
    // A 303 is the hosted create's own answer, on every hosted payment: nothing to tell of it.
    if (status === 303) return undefined;
    const location = locationOf(answer.headers, url);
    return location === undefined ? undefined : { location };
  }
  if (!isRefusal(status)) return undefined;
  const said = refusalWords(parseJson(answer.body), credentials);
  return said === undefined ? undefined : { said };
}

/** The credentials refused: what the gateway says of it is worth reading, and may quote them. */
function isRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

/** A redirect's Location resolved against `url`, its query and fragment left out (they may carry the caller's data). */
function locationOf(headers: Headers, url: URL): string | undefined {
  const location = headers.get('location');
  if (!location) return undefined;
  try {
    return addressOf(new URL(location, url));
  } catch {
    return undefined;
  }
}

const LESS_THAN = 0x3c;

/** The body's first byte other than white space (or a UTF-8 byte order mark) is `<`. */
function opensWithTag(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
    return byte === LESS_THAN;
  }
  return false;
}

// One decoder for every answer: decode() without `stream` keeps no state between calls.
const utf8 = new TextDecoder();

/** The JSON of a body, or undefined when it is empty or not JSON. */
export function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(body));
  } catch {
    return undefined;
  }
}

/** The exchanges fail with a TimeoutError once an attempt's time is up (see exchange.ts). */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/**
 * What failed, for the log: the system's code (`ECONNREFUSED`), else what the runtime said of
 * it — Deno refusing the network without `--allow-net` has no code, and "connection failed"
 * would send the operator to the gateway's address instead. A runtime may quote a header it
 * would not send (Node's fetch does): the `secrets` are never said.
 */
function failureOf(error: unknown, secrets: readonly string[]): string {
  const code = errorCode(error);
  if (code) return code;
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  const said = innermost instanceof Error ? unsaid(firstLine(innermost.message), secrets) : '';
  return said && said !== 'fetch failed' ? said : 'connection failed';
}

/** `text` with the credentials as `***` and card data masked. */
function unsaid(text: string, secrets: readonly string[]): string {
  let said = text;
  for (const secret of secrets) if (secret) said = said.replaceAll(secret, '***');
  return maskCardData(said);
}

/** What of a runtime's error says which failure it was: kept on the scrubbed copy. */
const FAILURE_FIELDS = ['code', 'errno', 'syscall', 'address', 'port'] as const;
const CAUSES_KEPT = 4;
/** Copied as their own class (fetch fails with a TypeError); any other as an Error of its name. */
const BUILT_IN_ERRORS = [TypeError, RangeError, SyntaxError, ReferenceError];

/**
 * The runtime's error, as the cause a NetworkError carries: a copy whose message and stack are
 * told as `failureOf` tells them, its causes (and an AggregateError's errors) likewise. Node's
 * fetch quotes a header it refused, a `fetch` of the merchant's may quote the body it was given,
 * and `console.error(error)` prints every cause in full.
 */
function scrubbed(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof error === 'string') return unsaid(error, secrets);
  if (!(error instanceof Error)) return error === null || typeof error !== 'object' ? error : redact(error);
  const copy =
    error instanceof AggregateError
      ? new AggregateError(error.errors.slice(0, CAUSES_KEPT).map((each: unknown) => scrubbed(each, secrets, depth + 1)), unsaid(error.message, secrets))
      : new (BUILT_IN_ERRORS.find((kind) => error.constructor === kind) ?? Error)(unsaid(error.message, secrets));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : unsaid(error.stack, secrets);
  for (const field of FAILURE_FIELDS) if (field in error) Object.assign(copy, { [field]: (error as unknown as Record<string, unknown>)[field] });
  if (error.cause !== undefined && depth < CAUSES_KEPT) copy.cause = scrubbed(error.cause, secrets, depth + 1);
  return copy;
}

// fetch wraps socket errors: TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }),
// sometimes an AggregateError of one per address tried.
function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (current instanceof AggregateError) return errorCode(current.errors[0]);
  }
  return undefined;
}

/**
 * A signal that aborts when either does, with its reason, and lets go of both once the call is
 * over. (AbortSignal.any leaves a reference to each signal it makes in the long-lived one's set of
 * dependants, which Node 20 never empties: a client's lifetime of calls.)
 */
function eitherSignal(own: AbortSignal, shared: AbortSignal): { readonly signal: AbortSignal; release(): void } {
  const either = new AbortController();
  const sources = [own, shared];
  const abort = () => either.abort((sources.find((source) => source.aborted) ?? own).reason);
  if (sources.some((source) => source.aborted)) abort();
  else for (const source of sources) source.addEventListener('abort', abort, { once: true });
  return { signal: either.signal, release: () => sources.forEach((source) => source.removeEventListener('abort', abort)) };
}
