/**
 * Telling a merchant backend in any language over HTTP: `notifyHook({ url, secret })` is an
 * `onPaymentEvent` hook that POSTs each change, as JSON, signed, to the merchant's URL. Any 2xx
 * is delivered; anything else throws, so the notices machinery (merchant-notices.ts) tells the
 * change again with its backoff. `verifyNotification` checks a notification's signature, for
 * receivers written in Node.
 *
 *   payform-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { packageVersion } from '../command-line.js';
import { passwordMasked } from '@payform/gateway';
import { namedHook } from './payment-change.js';
import type { PaymentChange, PaymentEventHook } from './payment-change.js';
import { isPlainHttpElsewhere } from '../loopback.js';
import { guessable } from '../guessable.js';
import { operationView, paymentView } from '../merchant/views.js';

export const SIGNATURE_HEADER = 'payform-signature';
export const CHANGE_ID_HEADER = 'payform-change-id';

/** A secret's fewest characters: 32 random ones are out of any guess's reach. */
export const MIN_SECRET_LENGTH = 32;

/**
 * How long a receiver has to answer: under the hook's own limit (hookTimeoutMs, 20 s by
 * default), so the line that says so names the URL and the fix.
 */
const ANSWER_WAIT_MS = 10_000;

/** How old a signature `verifyNotification` takes by default. */
const TOLERANCE_SECONDS = 300;

export interface NotifyOptions {
  /** Where each change is POSTed: http(s), plain http only to this machine in production (PAYFORM_NOTIFY_URL). */
  readonly url: string;
  /** The HMAC key, at least 32 printable ASCII characters without spaces (PAYFORM_NOTIFY_SECRET). */
  readonly secret: string;
  /** Default: the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** Why `url` cannot be a notification URL; undefined when it can. */
export function notifyUrlProblem(url: string): string | undefined {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return 'must be an http(s) URL, e.g. https://shop.example/payform/notifications';
  }
  try {
    decodeURIComponent(parsed.username + parsed.password);
  } catch {
    return 'has a user name or password that is not percent-encoded right (a % not followed by two hex digits): write a % in it as %25';
  }
  return undefined;
}

/** Why `secret` cannot sign notifications; undefined when it can. */
export function notifySecretProblem(secret: string): string | undefined {
  if (!/^[\x21-\x7e]*$/.test(secret)) {
    return 'must be printable ASCII without spaces (the receiver keys its HMAC with the same bytes): use e.g. the output of `openssl rand -hex 32`';
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    return `must be at least ${MIN_SECRET_LENGTH} characters (it is ${secret.length}): use e.g. the output of \`openssl rand -hex 32\``;
  }
  const easy = guessable(secret);
  if (easy) return `${easy}: use a random one, e.g. the output of \`openssl rand -hex 32\``;
  return undefined;
}

/** The URL as a line may show it: its password masked. */
export function shownNotifyUrl(url: string): string {
  return passwordMasked(url) ?? '[an unreadable URL]';
}

/** The `payform-signature` header of `body` sent at `t` (unix seconds). */
export function signNotification(body: string, secret: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * Whether `signatureHeader` signs `rawBody` (exactly the bytes received, before any JSON
 * parsing) with `secret`, at most `toleranceSeconds` (default 300) from `now` (epoch ms,
 * default the real time). False for anything malformed; never throws on what a sender sent.
 */
export function verifyNotification(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  { now = Date.now(), toleranceSeconds = TOLERANCE_SECONDS }: { now?: number; toleranceSeconds?: number } = {},
): boolean {
  if (typeof signatureHeader !== 'string' || typeof secret !== 'string' || secret === '') return false;
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of signatureHeader.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const [key, value] = [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (t === undefined || signatures.length === 0 || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  // Every v1 is compared (a sender may sign with two secrets while one replaces the other).
  return signatures.map((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected)).includes(true);
}

/**
 * A receiver's refusal or absence: an outcome the notices machinery logs and retries, not a
 * fault in payform. Its message says all there is (the URL, what happened, the fix); a stack
 * would name the same call site on every retry's line.
 */
export class NotificationFailed extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NotificationFailed';
    this.stack = undefined;
  }
}

/**
 * The hook that POSTs each change to `url`, signed with `secret`. Refuses a URL or secret that
 * could never work at once (a TypeError), not at the first payment.
 */
export function notifyHook(options: NotifyOptions): PaymentEventHook {
  const { url, secret } = options ?? ({} as NotifyOptions);
  const problems = [
    ...(typeof url === 'string' ? [notifyUrlProblem(url)].filter(Boolean).map((problem) => `url ${problem}`) : ['url must be the http(s) URL to POST changes to']),
    ...(typeof secret === 'string' ? [notifySecretProblem(secret)].filter(Boolean).map((problem) => `secret ${problem}`) : ['secret must be a string']),
    ...(options?.fetch !== undefined && typeof options.fetch !== 'function' ? ['fetch must be a function'] : []),
    ...(typeof url === 'string' && plainHttpInProduction(url) ? [`url ${PLAIN_HTTP_IN_PRODUCTION}`] : []),
  ];
  if (problems.length > 0) throw new TypeError(`Invalid notifyHook options: ${problems.join('; ')}`);
  const send = options.fetch ?? globalThis.fetch;
  const shown = shownNotifyUrl(url);
  const { target, authorization } = withoutCredentials(url);
  const userAgent = `payform-companion/${companionVersion()}`;
  return namedHook(async (change: PaymentChange) => {
    const body = JSON.stringify(notificationBody(change));
    const headers = {
      'content-type': 'application/json',
      'user-agent': userAgent,
      ...(authorization ? { authorization } : {}),
      [CHANGE_ID_HEADER]: change.id,
      [SIGNATURE_HEADER]: signNotification(body, secret, Math.floor(Date.now() / 1000)),
    };
    let response: Response;
    try {
      response = await send(target, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(ANSWER_WAIT_MS) });
    } catch (error) {
      throw new NotificationFailed(`the notification to ${shown} ${unsent(error)}`, { cause: error });
    }
    if (response.status >= 200 && response.status < 300) {
      // A web page is no receiver's answer: a catch-all route (a single-page app's, a front
      // controller's) answers every path 200, and every change would be lost without a word.
      if (await isWebPage(response)) throw new NotificationFailed(`the notification to ${shown} was answered ${response.status} with a web page, not by a receiver: a catch-all route answers that path; check the path in PAYFORM_NOTIFY_URL`);
      return;
    }
    // What the receiver says is not read: only its status counts, and its connection is freed.
    await response.body?.cancel().catch(() => undefined);
    throw new NotificationFailed(`the notification to ${shown} was answered ${refusal(response, url)}`);
  }, `the notification URL ${shown}`);
}

/** Whether an answer is an HTML document (its first bytes `<!doctype html` or `<html`); anything else goes unread. */
async function isWebPage(response: Response): Promise<boolean> {
  if (!/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel().catch(() => undefined);
    return false;
  }
  // A short "ok" sent as text/html (Express's res.send) is a receiver's: only a document counts,
  // told by its first bytes; the rest is not read.
  const reader = response.body?.getReader();
  const first = await reader?.read().catch(() => undefined);
  await reader?.cancel().catch(() => undefined);
  return /^\s*<(?:!doctype\s+html|html)\b/i.test(new TextDecoder().decode(first?.value?.subarray(0, 256)));
}

/**
 * The change as a receiver in any language reads it: in the merchant API's words (snake_case,
 * ISO 8601 times, the payment and the operation as `GET /api/orders/:order_id` shows them), not
 * the Node hook's objects; the gateway's card token is in neither. `session_order_id`: the order
 * every attempt of the checkout shares, the one to fulfil.
 */
function notificationBody(change: PaymentChange): object {
  const head = { id: change.id, kind: change.kind, order_id: change.orderId, status: change.status, source: change.source };
  if (change.kind === 'operation') return { ...head, operation: operationView(change.operation) };
  return { ...head, session_order_id: change.payment.sessionOrderId, payment: paymentView(change.payment) };
}

const PLAIN_HTTP_IN_PRODUCTION =
  'is plain http to another machine, and NODE_ENV is production: payment changes (customers\' details) would cross the network unencrypted; give the receiver an https address';

/** Production sends changes over the network only encrypted (NODE_ENV is the process's mode, as for the companion's settings). */
function plainHttpInProduction(url: string): boolean {
  const parsed = URL.parse(url);
  return process.env.NODE_ENV === 'production' && parsed !== null && isPlainHttpElsewhere(parsed);
}

/**
 * fetch refuses a URL with a user name or password in it (and its refusal would print them):
 * they go as HTTP Basic authentication instead, as curl and Python's requests send them.
 */
function withoutCredentials(url: string): { target: string; authorization: string | undefined } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { target: parsed.href, authorization: undefined };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { target: parsed.href, authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` };
}

/** Why nothing was answered: a timeout, a refused connection, a name that does not resolve, TLS. */
function unsent(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `got no answer within ${ANSWER_WAIT_MS / 1000} s: the receiver should store the change and answer 2xx at once, and do the work after`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const reason = cause instanceof Error ? cause.message : String(cause);
  if (code === 'ECONNREFUSED') return `could not be sent: nothing listens there (${reason}); start the receiver, or set PAYFORM_NOTIFY_URL to where it listens`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `could not be sent: its host does not resolve (${reason}); check the host name in PAYFORM_NOTIFY_URL`;
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) return `could not be sent: its TLS certificate was refused (${reason}); give the receiver a certificate this machine trusts`;
  return `could not be sent (${reason}): check that the receiver runs and this machine reaches it there`;
}

/** A status that is not 2xx, said with what to change. */
function refusal(response: Response, url: string): string {
  const { status } = response;
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    const target = location ? URL.parse(location, url) : null;
    return target
      ? `${status}, a redirect to ${shownNotifyUrl(target.href)}: redirects are not followed, set PAYFORM_NOTIFY_URL to that address`
      : `${status}, a redirect without a Location: redirects are not followed, set PAYFORM_NOTIFY_URL to the receiver's own address`;
  }
  const fix =
    status === 401 || status === 403
      ? 'check that the receiver verifies with the same secret as PAYFORM_NOTIFY_SECRET, over the body as received (its raw bytes: PHP\'s php://input, never JSON encoded again), and that its clock is right (signatures older than 5 minutes are refused)'
      : status === 404 || status === 405
        ? 'check the path in PAYFORM_NOTIFY_URL, and that the receiver takes POST there'
        : 'the receiver should answer 2xx once it has stored the change (a change it already has: 2xx too)';
  return `${status}${response.statusText ? ` ${response.statusText}` : ''}: ${fix}; the change is told again later`;
}

let version: string | undefined;

/** This package's version, read once; the user agent goes without it where it cannot be read. */
function companionVersion(): string {
  try {
    version ??= packageVersion();
  } catch {
    version = 'unknown';
  }
  return version;
}
