/**
 * `Idempotency-Key` on the merchant API's POSTs: a request sent again with the same key — a
 * retry after a timeout, a second click — gets the first answer again instead of running again,
 * so a refund, capture or charge moves money once. Mounted in app.ts on every path where the
 * merchant's POSTs live; a POST route added there has it without doing anything.
 *
 * The key is claimed in the ledger before the handler runs (the unique key is the lock across
 * instances) and the answer kept for 24 h:
 * - same key, same request → the stored status and body, with `Idempotent-Replayed: true`;
 * - same key, another request (method, path or body) → 422 `idempotency_key_reused`;
 * - same key while the first request still runs, or after its instance died mid-request → what
 *   the ledger knows of it, as soon as it knows (keyed-truth.ts): a session, charge or settled
 *   capture, void or refund is answered as it stands; one never made runs, once the dead claim's
 *   lease is over; one made but unsettled is 409 `idempotency_key_in_use` naming its order. What
 *   may have reached the gateway is never run again under the key. Only a cancel, a webhook
 *   re-send or a settlement, which the ledger cannot tell about, is answered 500 `request_interrupted` after the
 *   lease, kept like any 5xx. A session or charge sent without an order id takes one derived from
 *   the key (keyedOrderId), and a reservation keeps that digest, so a retry always finds its own.
 * Kept are the answers that may have changed something: 2xx and 5xx (a 5xx cannot promise the
 * gateway was not reached), but for the database going away mid-request: that claim's lease ends
 * at once, and the retry is answered as an interrupted one is. Settling a claim (its answer kept,
 * its key freed, its lease ended) that meets the database still away is done as soon as the
 * database answers again (idempotency-claims.ts): a retry on this instance settles it first, one
 * on another is 409 only until this one has seen the database back (its probe, every second).
 * A 4xx is a refusal that changed nothing (a bad body, a money rule, the gateway's definite no),
 * so the key is freed and may be sent again, corrected or not. So is an order's capture, void, refund, cancel or re-send that
 * the gateway never took (out of reach, rate limiting, refusing the credentials): a reservation is
 * released first, and a 503's Retry-After invites the very retry a kept answer would refuse for a
 * day. So is a charge the gateway never took: the retry sends its session's next attempt.
 */
import { createHmac } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { checkNumber, maskCardNumbers } from '@payform/card';
import { CARD_NUMBER_MASK } from '@payform/gateway';
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { IdempotencyRequest, StoredAnswer } from '../../ledger/index.js';
import type { CompanionEnv, CompanionServices } from '../context.js';
import type { Logger } from '../log/logger.js';
import { UnsettledClaims } from './idempotency-claims.js';
import { keyedOrderId } from './keyed-order-id.js';
import { isCharge, isOrderRequest, keyedTruth } from './keyed-truth.js';
import type { KeyedTruth } from './keyed-truth.js';
import { ApiProblem } from './problem.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotencyTimings {
  /** How long a key and its answer are kept (at least 24 h is promised). */
  readonly lifetimeMs: number;
  /**
   * How long a claim holds a key while its request runs. It runs out only for a claim its own
   * instance cannot settle — that instance died, or cannot reach the database other instances
   * reach — which another instance then takes over.
   */
  readonly leaseMs: number;
}

export const IDEMPOTENCY_TIMINGS: IdempotencyTimings = { lifetimeMs: 24 * 3_600_000, leaseMs: 5 * 60_000 };

// Printable ASCII: a UUID, a ULID, an order id with a suffix — anything a client makes up.
const KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * `secret` keys the hash of each request (the admin token): the ledger never holds a request's
 * body, and not a plain hash of it either, from which a short value could be guessed back. It
 * also scopes the keys: two admin tokens sharing a ledger (of one point of sale) each have their own.
 */
export function idempotencyKeys(secret: string, timings: IdempotencyTimings = IDEMPOTENCY_TIMINGS): MiddlewareHandler<CompanionEnv> {
  const scope = idempotencyScope(secret);
  const unsettled = new UnsettledClaims();
  return async (c, next) => {
    const header = c.req.method === 'POST' ? c.req.header(IDEMPOTENCY_HEADER) : undefined;
    if (header === undefined) return next();
    const { key, formerKey } = storedKey(secret, checkedKey(header, c.env?.incoming?.rawHeaders));
    const services = c.get('services');
    const { ledger, logger, outage } = services;
    const body = await c.req.text();
    const fingerprint = requestFingerprint(secret, c.req.method, c.req.path, body);
    const request: IdempotencyRequest = { scope, key, ...(formerKey && { formerKey }), method: c.req.method, path: c.req.path, fingerprint, ...timings };
    // From the key as it was first kept, so the order a retry finds is the one its first send made.
    const keyedId = keyedOrderId(secret, formerKey ?? key);
    c.set('keyedOrderId', keyedId);
    // A claim of this instance's that the database went away before it was settled: settled now,
    // so its retry is not told the key is in use by a request that no longer runs.
    await unsettled.settleFirst(key);
    const claim = await ledger.claimIdempotencyKey(request);
    switch (claim.outcome) {
      case 'replay':
        return replay(claim.answer);
      case 'in_progress': {
        // Not stored: the claim's holder stores its own answer.
        const truth = await keyedTruth(services, c.req.path, body, keyedId);
        if (truth.known === 'made') return replay(truth.answer);
        throw new ApiProblem(409, 'idempotency_key_in_use', `${inUse(truth, timings.leaseMs)}${lookAt(orderOf(truth))}`, undefined, { 'Retry-After': '1' });
      }
      case 'reused':
        throw new ApiProblem(422, 'idempotency_key_reused', 'This Idempotency-Key was used for another request (another path or body); a new request needs a new key', {
          [IDEMPOTENCY_HEADER]: 'was used for another request',
        });
    }
    // The key is this instance's now: however the request ends, the claim is settled. Whatever
    // throws before an answer (the database going away) may have written what it made, so the
    // lease is ended and the retry answered from what the ledger knows (keyed-truth.ts) —
    // neither a 503 kept (a retry would hear it for a day) nor the key freed (a refund made
    // before could run again).
    let settling: Settling = LEASE_ENDED;
    try {
      if (claim.outcome === 'interrupted') {
        const truth = await keyedTruth(services, c.req.path, body, keyedId);
        if (truth.known === 'made') {
          settling = { kind: 'store', answer: truth.answer };
          return replay(truth.answer);
        }
        // Made, not settled: held under this claim (not stored), answered from the ledger once it knows.
        if (truth.known === 'not_yet') {
          settling = KEPT;
          throw new ApiProblem(409, 'idempotency_key_in_use', `The request first sent with this Idempotency-Key was interrupted; its outcome is not known yet${lookAt(truth.orderId)}`, undefined, { 'Retry-After': '5' });
        }
        // Nothing in the ledger can say (a cancel, a webhook re-send): interrupted, for good.
        if (truth.known === 'unknowable') {
          const answer = interruptedAnswer(logger, request.path, truth.orderId);
          settling = { kind: 'store', answer };
          return new Response(answer.body, { status: answer.status, headers: { 'Content-Type': answer.contentType } });
        }
        // Never made: nothing of it reached the gateway, so it runs now, under this claim.
      }
      await next();
      if (!isLedgerUnavailable(c.error)) settling = await settlingOf(c.res, c.req.path);
    } finally {
      if (settling.kind !== 'kept') await unsettled.settle(key, () => settle(services, request, claim.claimId, settling), { outage, logger, path: c.req.path });
    }
  };
}

/** How a claim ends once its request is answered. */
type Settling = { readonly kind: 'store'; readonly answer: StoredAnswer } | { readonly kind: 'release' } | { readonly kind: 'end_lease' } | { readonly kind: 'kept' };

const LEASE_ENDED: Settling = { kind: 'end_lease' };
const RELEASED: Settling = { kind: 'release' };
const KEPT: Settling = { kind: 'kept' };

/** Kept when it may have changed something, else the key freed for the request sent again. */
async function settlingOf(response: Response, path: string): Promise<Settling> {
  if (!changedSomething(response.status)) return RELEASED;
  const body = await response.clone().text();
  if (notTaken(response.status, path, body)) return RELEASED;
  return { kind: 'store', answer: { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', body: withoutCardNumbers(body) } };
}

async function settle({ ledger, logger }: CompanionServices, request: IdempotencyRequest, claimId: string, settling: Settling): Promise<void> {
  if (settling.kind === 'store') {
    if (!(await ledger.storeIdempotentAnswer(request.key, claimId, settling.answer, request.lifetimeMs))) {
      logger.warn('an idempotency claim outlived its lease; the answer was not kept', { path: request.path });
    }
  } else if (settling.kind === 'end_lease') {
    await ledger.endIdempotencyLease(request.key, claimId);
  } else if (settling.kind === 'release') {
    await ledger.releaseIdempotencyKey(request.key, claimId);
  }
}

/**
 * Why a retry waits while another claim holds the key. The ledger cannot tell a request still
 * running from one whose instance stopped (a crash, a restart): an operator after a crash must not
 * read that something still runs, nor that it never will.
 */
function inUse(truth: KeyedTruth, leaseMs: number): string {
  if (truth.known === 'not_yet') {
    return 'The request sent with this Idempotency-Key reached the gateway, and its outcome is not known yet: it is still running, or the companion running it stopped before the answer came, which the order’s reconciliation then learns from the gateway; send it again in a moment';
  }
  const lease = leaseMs >= 60_000 ? `${Math.round(leaseMs / 60_000)} min` : `${Math.round(leaseMs / 1_000)} s`;
  return `A request with this Idempotency-Key is still running, or the companion running it stopped, in which case a retry is answered once the claim's lease (${lease} from its start) is over; try again when it has been answered`;
}

function orderOf(truth: KeyedTruth): string | undefined {
  return truth.known === 'made' ? undefined : truth.orderId;
}

function lookAt(orderId: string | undefined): string {
  return orderId === undefined ? '' : `; its order is ${orderId} (GET /api/orders/${encodeURIComponent(orderId)})`;
}

/** The answer, kept and given, of an interrupted request the ledger cannot tell the outcome of. */
function interruptedAnswer(logger: Logger, path: string, orderId: string | undefined): StoredAnswer {
  const problem = new ApiProblem(
    500,
    'request_interrupted',
    `The request first sent with this Idempotency-Key was interrupted before it was answered, and may have taken effect${lookAt(orderId)}: look at the order before sending anything again`,
  );
  logger.warn('a keyed request ended with no answer kept (its instance stopped, or the database went away during it); it is answered as interrupted', { path });
  return { status: problem.status, contentType: 'application/json', body: JSON.stringify(problem.body) };
}

/** `rawHeaders`: the request's header lines, where Node tells them (it joins repeats into one value). */
function checkedKey(header: string, rawHeaders?: readonly string[]): string {
  // Two keys joined ("a, b") would make a key of their own, and hide the client's bug.
  const sentTwice = rawHeaders !== undefined && rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'idempotency-key').length > 1;
  if (KEY.test(header) && !sentTwice) return header;
  const reason = sentTwice ? 'must be sent once' : header === '' ? 'must not be empty' : header.length > 255 ? 'must be at most 255 characters' : 'must be printable ASCII characters';
  throw new ApiProblem(400, 'invalid_request', `The ${IDEMPOTENCY_HEADER} header ${reason}`, { [IDEMPOTENCY_HEADER]: reason });
}

/**
 * The key as the ledger keeps it: as sent, unless it is or holds a card number (a client keying
 * its requests by what it was given, `order-4242 4242 4242 4242`) — then a digest of it, which
 * every retry matches just the same. A key that is a card number as a whole, by the card fields'
 * own check, has been kept so from the first; one that only holds one was kept as sent before
 * (`formerKey`): the ledger moves such a row to the digest, so a retry across the upgrade is still
 * answered once, and the number leaves the table. The rule may widen so, never narrow.
 */
function storedKey(secret: string, key: string): { key: string; formerKey?: string } {
  const digest = () => `h-${createHmac('sha256', secret).update(`payform idempotency key ${key}`, 'utf8').digest('hex')}`;
  if (checkNumber(key.replace(/[\s-]/g, '')).valid) return { key: digest() };
  return maskCardNumbers(key, CARD_NUMBER_MASK) === key ? { key } : { key: digest(), formerKey: key };
}

/** 2xx and 5xx: the request ran and may have moved money. */
function changedSomething(status: number): boolean {
  return status < 400 || status >= 500;
}

/** failure-problems.ts' codes for a call the gateway never took: out of reach, rate limiting, refusing the credentials, another server at its address. */
const NOT_TAKEN = new Set(['gateway_unavailable', 'gateway_busy', 'gateway_credentials', 'not_the_gateway']);

/**
 * An order's request or a charge the gateway never took: an operation settled its reservation as
 * a failure before answering (secondary-operations.ts, `recover`), a charge ended its attempt so
 * (attempt-outcomes.ts); a lost answer is a 504, or pending.
 */
function notTaken(status: number, path: string, body: string): boolean {
  if ((status !== 503 && status !== 502) || !(isOrderRequest(path) || isCharge(path))) return false;
  try {
    return NOT_TAKEN.has((JSON.parse(body) as { error?: { code?: unknown } }).error?.code as string);
  } catch {
    return false;
  }
}

// An identifier or address (`id`, `order_id`, `challenge_url`): all digits passing Luhn is then
// a numeric order or customer id, kept in the ledger's tables anyway, never free text.
const IDENTIFIER = /(?:^|_)(?:id|url)$/;

/**
 * Merchant answers hold masks, never a card number, but a comment or a description is the
 * merchant's free text and is echoed: one that holds a card number is not kept at rest. The
 * replay then shows `[card number]` where the first answer showed the digits; every other value
 * is given back as it was, and an answer with nothing to mask byte for byte.
 */
export function withoutCardNumbers(body: string): string {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return maskCardNumbers(body, CARD_NUMBER_MASK);
  }
  let masked = false;
  const visit = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') {
      if (IDENTIFIER.test(key)) return value;
      const text = maskCardNumbers(value, CARD_NUMBER_MASK);
      masked ||= text !== value;
      return text;
    }
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, visit(item, name)]));
  };
  const kept = visit(answer, '');
  return masked ? JSON.stringify(kept) : body;
}

function replay(answer: StoredAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: { 'Content-Type': answer.contentType, [REPLAYED_HEADER]: 'true' } });
}

/** Whose keys they are, as the ledger keeps it: a keyed hash that names the credential without holding it. */
export function idempotencyScope(secret: string): string {
  return createHmac('sha256', secret).update('payform idempotency scope', 'utf8').digest('hex').slice(0, 32);
}

/**
 * The request as the key promises it: method, path and the body's meaning. The body is compared
 * as parsed JSON with its keys sorted — a retry that serialises the same values in another order
 * or spacing is the same request, any other value is not — and no body reads as `{}`, as the
 * routes read it. A body that is not JSON is taken as it is (the route refuses it anyway).
 */
export function requestFingerprint(secret: string, method: string, path: string, body: string): string {
  return createHmac('sha256', secret).update(`${method} ${canonicalPath(path)}\n${canonicalBody(body)}`, 'utf8').digest('hex');
}

/**
 * The path as its route reads it: each segment's escapes decoded, so an order id's `:2` sent
 * once as `%3A2` (PHP's rawurlencode) and once as written is one request. A segment whose escapes
 * are malformed, or would decode to a `/`, stays as sent.
 */
function canonicalPath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      try {
        const decoded = decodeURIComponent(segment);
        return decoded.includes('/') ? segment : decoded;
      } catch {
        return segment;
      }
    })
    .join('/');
}

function canonicalBody(text: string): string {
  if (text.trim() === '') return '{}';
  try {
    return JSON.stringify(sortedKeys(JSON.parse(text)));
  } catch {
    return text;
  }
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
