/**
 * Webhook delivery: a form post of `data` and `signature` (signed with the project's API
 * secret by the shared server/gateway/webhook.ts) to the request's server_url. A delivery that
 * gets no 2xx answer is retried on a growing schedule; every delivery and attempt is kept for
 * GET /_sandbox/webhooks. The webhook faults of the control plane act here: duplicates, a delay
 * before the first attempt, reordering (an event held back until a later one overtakes it), and
 * loss (an event never posted);
 * and the shapes, which rewrite the event as posted into the live gateway's other forms.
 */
import { fetchExchange, tlsFailureOf, webhookForm } from '@payform/gateway';
import type { Exchange, TlsFailure } from '@payform/gateway';
import { formatTimestamp, StatusCode } from '@payform/gateway/wire';
import type { SandboxClock, Scheduler } from './clock.js';
import type { WebhookSettings } from './config.js';
import type { RequestId } from './inspector/request-log.js';
import { SaidOnce } from './said-once.js';
import { shownUrl } from './shown-url.js';
import { DeliveryLog } from './webhook-log.js';
import type { DeliveryPage } from './webhook-log.js';
import { FormPoster, poolsHere } from './webhook-post.js';
import type { PostAnswer } from './webhook-post.js';
import { newUuid } from './state/identifiers.js';

export interface WebhookFaults {
  /** Extra copies of every delivery. */
  readonly duplicates: number;
  /** Wait before the first attempt. */
  readonly delayMs: number;
  /** Hold each event back until the next one has been sent. */
  readonly reorder: boolean;
  /** The event as posted, in the wire forms PUT /_sandbox/faults `shapes` asks for (shapes.ts); unset: as built. */
  readonly shape: ((event: object) => object) | undefined;
  /** Asked once per status-change event: true loses it (never posted). Unset: none is lost. */
  readonly drop?: (() => boolean) | undefined;
}

export interface WebhookAttempt {
  readonly at: string;
  /** The receiver's HTTP status; absent when no answer came. */
  readonly http_status?: number;
  readonly error?: string;
  readonly duration_ms: number;
}

/** A delivery's progress, as GET /_sandbox/webhooks lists and filters it (`status`). */
export const DELIVERY_STATUSES = ['scheduled', 'held', 'delivering', 'retrying', 'delivered', 'failed', 'dropped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One webhook delivery as GET /_sandbox/webhooks lists it. */
export interface Delivery {
  readonly id: string;
  readonly target: string;
  readonly pos_id: string;
  readonly order_id: string;
  /** The event kind (`method` of the event). */
  readonly method: string;
  /** The event's `status`. */
  readonly event_status: string;
  /** Why it was sent: a status change, a re-send request, or a validation_url preflight. */
  readonly reason: 'status_change' | 'resend' | 'validation';
  /** The recorded request that caused it (GET /_sandbox/requests); null when none did. */
  readonly request_id: number | null;
  /** Set on the extra copies of the webhook_duplicates fault. */
  readonly duplicate_of?: string;
  /** The form exactly as posted. */
  readonly body: { readonly data: string; readonly signature: string };
  /** The event `body.data` holds, as posted: the interface's JSON, amounts in its decimals. */
  readonly event: object;
  readonly created_at: string;
  status: DeliveryStatus;
  attempts: WebhookAttempt[];
  next_attempt_at?: string | undefined;
}

export interface WebhookMessage {
  readonly target: string;
  readonly event: { readonly method: string; readonly status: string; readonly order_id: string; readonly pos_id?: string | null };
  readonly apiSecret: string;
  readonly reason: Delivery['reason'];
  /** The recorded request that caused it, kept as the delivery's `request_id` (and its copies'). */
  readonly cause: RequestId | undefined;
}

export interface WebhookSenderOptions {
  readonly settings: WebhookSettings;
  readonly clock: SandboxClock;
  readonly scheduler: Scheduler;
  /** Posts the webhooks; unset: keep-alive connection pools (webhook-post.ts), or the runtime's fetch where there are none. */
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly faults: () => WebhookFaults;
  readonly log: (line: string) => void;
}

const USER_AGENT = 'payform-sandbox-webhooks/1';

/** A receiver's answer is read and dropped; one larger than this is a failed attempt. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  readonly #log = new DeliveryLog();
  /** Counts resets: an attempt scheduled before the last one finds its delivery forgotten. */
  #epoch = 0;
  /** The event (with its duplicates) webhook_reorder is holding back, and how to release it. */
  #held: { readonly batch: readonly Delivery[]; readonly release: () => void } | undefined;
  readonly #inFlight = new Set<Promise<void>>();
  // Pools by default: on Node 20 a fetch costs the sandbox several times the CPU of the same post
  // (its Request, Headers and web streams), a third of its CPU per payment. A given fetch (tests
  // routing posts to an in-process app) goes through an exchange.
  readonly #post: PostForm;
  /** Targets parsed once: every payment of an integration posts to the same few server_urls. */
  readonly #targets = new Map<string, URL>();
  /**
   * Targets whose failure has been logged (`webhook …` or `validation …`): said once, at the
   * first failed attempt, not at each of a delivery's retries; again once a post to it succeeded.
   */
  readonly #failing = new SaidOnce(TARGETS_KEPT);

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
    const fetch = options.fetch ?? (poolsHere ? undefined : globalThis.fetch);
    this.#post = fetch ? exchangePost(fetchExchange(fetch), options.settings.timeoutMs) : poolPost(options.settings.timeoutMs);
  }

  /** Queues the event for its target (plus copies when the duplicates fault is on). */
  send(message: WebhookMessage): Delivery[] {
    const faults = this.#options.faults();
    // Shaped once, so that duplicates and retries post the very same data.
    const posted = faults.shape ? faults.shape(message.event) : message.event;
    const original = this.#record(message, posted);
    // Lost with its copies. A re-send is the receiver's way to recover, so it is never lost.
    if (message.reason === 'status_change' && faults.drop?.()) {
      original.status = 'dropped';
      this.#log.add(original);
      return [original];
    }
    const copies = Array.from({ length: Math.max(0, Math.floor(faults.duplicates)) }, () => this.#record(message, posted, original.id));
    const batch = [original, ...copies];
    this.#log.add(...batch);
    this.#schedule(batch, faults);
    return batch;
  }

  /** A delivery of `posted` (the event as sent); what it lists of the event is read from the event as built. */
  #record(message: WebhookMessage, posted: object, duplicateOf?: string): Delivery {
    const { data, signature } = webhookForm(posted, message.apiSecret);
    return {
      id: newUuid(),
      target: message.target,
      pos_id: message.event.pos_id ?? '',
      order_id: message.event.order_id,
      method: message.event.method,
      event_status: message.event.status,
      reason: message.reason,
      request_id: message.cause ?? null,
      duplicate_of: duplicateOf,
      body: { data, signature },
      event: posted,
      created_at: this.#now(),
      status: 'scheduled',
      attempts: [],
    };
  }

  /**
   * Posts the form once, now, and tells whether the receiver answered 2xx: the validation_url
   * preflight. No retries and no webhook faults (the shapes are no fault: they apply); logged
   * like any delivery.
   */
  async preflight(message: WebhookMessage): Promise<boolean> {
    const shape = this.#options.faults().shape;
    const delivery = this.#record(message, shape ? shape(message.event) : message.event);
    this.#log.add(delivery);
    await this.#attempt(delivery, this.#epoch, { retry: false });
    return delivery.status === 'delivered';
  }

  list(): readonly Delivery[] {
    return this.#log.all();
  }

  /** A page of the log, oldest first (GET /_sandbox/webhooks). */
  page(after: number, limit: number, matches: (delivery: Delivery) => boolean): DeliveryPage {
    return this.#log.page(after, limit, matches);
  }

  /** Forgets every delivery (reset); attempts under way finish unrecorded. */
  clear(): void {
    this.#log.clear();
    this.#held = undefined;
    this.#failing.clear();
    this.#epoch += 1;
  }

  /** How many posts are under way: what stopping waits for. */
  get postsUnderWay(): number {
    return this.#inFlight.size;
  }

  /** Resolves once no attempt is under way (used when the sandbox stops). */
  async settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /** Schedules one event's deliveries (the original and its duplicates), reordered as a whole. */
  #schedule(batch: readonly Delivery[], faults: WebhookFaults): void {
    const start = (delayMs: number) => batch.forEach((delivery) => this.#later(delivery, delayMs));
    if (!faults.reorder) return start(faults.delayMs);
    const held = this.#held;
    if (held) {
      // The later event goes first; the held one follows once the later one has been tried.
      this.#held = undefined;
      const [first, ...copies] = batch;
      this.#later(first!, faults.delayMs, () => held.release());
      copies.forEach((delivery) => this.#later(delivery, faults.delayMs));
      return;
    }
    for (const delivery of batch) delivery.status = 'held';
    const timer = this.#options.scheduler.after(this.#options.settings.reorderHoldMs, () => {
      if (this.#held?.batch === batch) this.#held = undefined;
      start(faults.delayMs);
    });
    this.#held = {
      batch,
      release: () => {
        timer.cancel();
        start(0);
      },
    };
  }

  #later(delivery: Delivery, delayMs: number, afterFirstAttempt?: () => void): void {
    delivery.status = 'scheduled';
    delivery.next_attempt_at = formatTimestamp(new Date(this.#options.clock.nowMs() + delayMs));
    const epoch = this.#epoch;
    this.#options.scheduler.after(delayMs, () => this.#track(this.#attempt(delivery, epoch).finally(afterFirstAttempt)));
  }

  #track(work: Promise<void>): void {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
  }

  async #attempt(delivery: Delivery, epoch: number, options: { retry: boolean } = { retry: true }): Promise<void> {
    if (epoch !== this.#epoch) return; // reset since it was scheduled
    delivery.status = 'delivering';
    delivery.next_attempt_at = undefined;
    const startedAt = performance.now();
    const at = this.#now();
    let attempt: WebhookAttempt;
    let location: string | undefined;
    let tls: TlsFailure | undefined;
    try {
      const answer = await this.#post(this.#url(delivery.target), formBody(delivery.body));
      location = answer.location;
      attempt = { at, http_status: answer.status, duration_ms: elapsed(startedAt) };
    } catch (error) {
      attempt = { at, error: describeFailure(error), duration_ms: elapsed(startedAt) };
      tls = tlsFailureOf(error);
    }
    delivery.attempts.push(attempt);
    const ok = attempt.http_status !== undefined && attempt.http_status >= 200 && attempt.http_status < 300;
    // Built only when some target is failing: every payment's webhook comes through here.
    const failingKey = () => (delivery.reason === 'validation' ? 'validation ' : 'webhook ') + delivery.target;
    if (ok) {
      delivery.status = 'delivered';
      if (!this.#failing.empty) this.#failing.forget(failingKey());
      return;
    }
    const failing = failingKey();
    const field = delivery.reason === 'validation' ? 'validation_url' : 'server_url';
    // Worded only for a line that is written: a failing URL's later attempts say nothing.
    const reason = () => failureReason(this.#url(delivery.target), attempt, { location, tls }, field, this.#options.settings.timeoutMs);
    const wait = options.retry ? this.#options.settings.retryDelaysMs[delivery.attempts.length - 1] : undefined;
    // Marked said only where the "said once" lines are: a re-send given up says its own line, and
    // must not hide the first failure of the next webhook to that URL.
    if (delivery.reason === 'validation') {
      // The preflight is tried once: the payment it was for is declined at once.
      delivery.status = 'failed';
      if (this.#failing.first(failing)) {
        this.#options.log(
          `validation_url preflight for order ${delivery.order_id} to ${shownUrl(delivery.target)} failed: ${reason()}; the payment was declined for it (${StatusCode.TransactionRejected}), as every payment will be until it answers 2xx (said once; each post at GET /_sandbox/webhooks)`,
        );
      }
      return;
    }
    if (wait === undefined) {
      delivery.status = 'failed';
      this.#options.log(`webhook ${delivery.method} for order ${delivery.order_id} to ${shownUrl(delivery.target)} given up after ${delivery.attempts.length} attempts: ${reason()}`);
      return;
    }
    if (this.#failing.first(failing)) {
      const retries = this.#options.settings.retryDelaysMs.slice(delivery.attempts.length - 1);
      const total = retries.reduce((sum, delay) => sum + delay, 0);
      this.#options.log(
        `webhook ${delivery.method} for order ${delivery.order_id} to ${shownUrl(delivery.target)} failed: ${reason()}; retried ${retries.length} more time${retries.length === 1 ? '' : 's'} over ${duration(total)} (said again only once this URL has answered 2xx; each attempt at GET /_sandbox/webhooks)`,
      );
    }
    delivery.status = 'retrying';
    delivery.next_attempt_at = formatTimestamp(new Date(this.#options.clock.nowMs() + wait));
    this.#options.scheduler.after(wait, () => this.#track(this.#attempt(delivery, epoch)));
  }

  #url(target: string): URL {
    let url = this.#targets.get(target);
    if (url === undefined) {
      if (this.#targets.size >= TARGETS_KEPT) this.#targets.clear();
      url = new URL(target);
      this.#targets.set(target, url);
    }
    return url;
  }

  #now(): string {
    return formatTimestamp(this.#options.clock.now());
  }
}

/** Posts a delivery's form to its target: the receiver's status, and where a redirect pointed. */
type PostForm = (url: URL, body: string) => Promise<PostAnswer>;

const FORM_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT };

/** Over the pools (webhook-post.ts). */
function poolPost(timeoutMs: number): PostForm {
  const poster = new FormPoster();
  const limits = { timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES };
  return (url, body) => poster.post(url, FORM_HEADERS, body, limits);
}

/**
 * The same through an exchange (a given fetch, Bun's). Without the URL's user name and password,
 * which the pools never send either (they post to its origin): Node's fetch refuses such a URL,
 * quoting it whole in its error, and Bun's sends them.
 */
function exchangePost(exchange: Exchange, timeoutMs: number): PostForm {
  return async (url, body) => {
    if (url.username || url.password) url = new URL(url.origin + url.pathname + url.search);
    const answer = await exchange({ url, method: 'POST', headers: FORM_HEADERS, body, timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES });
    const location = answer.status >= 300 && answer.status < 400 ? (answer.headers.get('location') ?? undefined) : undefined;
    return { status: answer.status, location };
  };
}

/** How many parsed targets the sender keeps; more are parsed again. */
const TARGETS_KEPT = 64;

/**
 * The posted form. Both fields are base64url with their `=` padding (server/gateway/webhook.ts):
 * of those characters a form escapes only the padding (`=` as %3D, as encodeURIComponent and
 * URLSearchParams do), so only the padding is rewritten rather than every character copied.
 */
function formBody({ data, signature }: Delivery['body']): string {
  return `data=${escapePadding(data)}&signature=${escapePadding(signature)}`;
}

function escapePadding(base64url: string): string {
  let end = base64url.length;
  while (end > 0 && base64url.charCodeAt(end - 1) === EQUALS_SIGN) end -= 1;
  return end === base64url.length ? base64url : `${base64url.slice(0, end)}${'%3D'.repeat(base64url.length - end)}`;
}

const EQUALS_SIGN = 0x3d;

function elapsed(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

/**
 * What went wrong with an attempt, for the log: the cause said in words with what to change.
 * `seen` is what the attempt met beyond its record: a redirect's target, a TLS failure.
 * `field` is the request's field that named the target (server_url or validation_url).
 */
function failureReason(
  target: URL,
  attempt: WebhookAttempt,
  seen: { readonly location: string | undefined; readonly tls: TlsFailure | undefined },
  field: string,
  timeoutMs: number,
): string {
  const { location, tls } = seen;
  const status = attempt.http_status;
  if (status !== undefined) {
    if (status >= 300 && status < 400) {
      const resolved = location && URL.canParse(location, target.href) ? new URL(location, target) : undefined;
      // Resolved against the target, a relative Location keeps the target's password: hidden as there.
      const to = resolved ? ` to ${shownUrl(resolved.href)}` : '';
      return `it answered HTTP ${status}, a redirect${to}: redirects are not followed, so give the final URL as ${field}`;
    }
    const password = (status === 401 || status === 403) && (target.username || target.password) ? `: the ${target.password ? 'user name and password' : 'user name'} in ${field} ${target.password ? 'are' : 'is'} not sent (webhooks carry no Authorization header; the interface authenticates them by their signature), so let the receiver check the signature instead` : '';
    return `it answered HTTP ${status}; only a 2xx answer counts as received${password}`;
  }
  const code = attempt.error ?? 'failed';
  const where = `${target.hostname}:${target.port || (target.protocol === 'https:' ? '443' : '80')}`;
  if (code === 'timeout') return `no answer within ${duration(timeoutMs)}`;
  if (code === 'ECONNREFUSED') return `nothing is listening at ${where} (ECONNREFUSED): is the receiver running, on that port?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host ${target.hostname} is not found (${code}): check the host name of ${field}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `${where} cannot be reached from the sandbox (${code}): check the address of ${field}, and that the sandbox's network reaches it`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    // An https server that is sent plain http resets it too, but so does a receiver that crashed or restarted mid-request.
    const scheme = target.protocol === 'http:' ? `, or is it an https server reached with http://? then give ${field} with https://` : '';
    return `${where} closed the connection without answering (${code}): did the receiver crash or restart${scheme}`;
  }
  if (tls?.certificate === 'other host') {
    return `the receiver's TLS certificate is for other hosts than ${target.hostname} (${tls.code}): give ${field} with a host name the certificate names`;
  }
  if (tls?.certificate === 'out of date') {
    return `the receiver's TLS certificate has expired or is not yet valid (${tls.code}): renew it, or check this machine's clock`;
  }
  if (tls?.certificate === 'untrusted') {
    return `the receiver's TLS certificate is not trusted (${tls.code}): give the sandbox its CA with NODE_EXTRA_CA_CERTS=<file>, or a local receiver as http://`;
  }
  if (tls) return `the TLS handshake with ${where} failed (${tls.code})${tls.plainHttp ? `: a plain-HTTP receiver reached with https://? give ${field} with http://` : ''}`;
  return code;
}

/** `800 ms`, `10 s`, `43 min`: a wait, said as people say it. */
function duration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1_000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return error instanceof Error ? error.message : 'failed';
}
