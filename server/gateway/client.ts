/**
 * The typed client of the gateway interface. Amounts go in and come out as integer minor
 * units; parameter and field names are the gateway's own, so its documentation applies as is.
 *
 *   const gateway = new GatewayClient({ baseUrl, posId, apiKey, apiSecret, endpointsKey });
 *   const payment = await gateway.payments.create({ mode: 'direct', method: 'purchase', amount: 1010, … });
 *   if (payment.status === 'failure') …           // a decline is a result, not an exception
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { Balances } from './resources/balances.js';
import type { GatewayContext } from './resources/context.js';
import { Operations } from './resources/operations.js';
import { Orders } from './resources/orders.js';
import { Payments } from './resources/payments.js';
import { Receipts } from './resources/receipts.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import type { RetryPolicy } from './retry.js';
import { MAX_WAIT_MS } from './timeouts.js';
import { Transport } from './transport.js';
import type { GatewayCallObserver, RequestOptions } from './transport.js';
import { describeIssues, parseWire } from './wire/issues.js';
import type { MerchantSector } from './wire/payment.js';
import { GatewayBaseUrl, headerCredential, Uuid } from './wire/primitives.js';
import { routes } from './wire/routes.js';

export interface GatewayClientConfig {
  /** The gateway, e.g. `https://api.gateway.example` (or the sandbox's URL). */
  readonly baseUrl: string;
  /** The merchant project (POS_ID). */
  readonly posId: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** Sent as X-API-KEY. */
  readonly endpointsKey: string;
  /** Per attempt; default 30 s. */
  readonly timeoutMs?: number;
  /** Retries of reads (GET); money-moving calls are never retried. */
  readonly retry?: Partial<RetryPolicy>;
  /** Sends the HTTP requests instead of undici's pools (e.g. to an in-process app). */
  readonly fetch?: typeof globalThis.fetch;
  /** Turns on the interface's extra request rules for microfinance or iGaming merchants. */
  readonly merchantSector?: MerchantSector;
  /**
   * Aborted, it ends every call still waiting on the gateway, and any made after, with its
   * reason: a server shutting down gives up what it can no longer wait for. A money-moving call
   * it ends is an OutcomeUnknownError, like any other call the gateway may have received.
   */
  readonly signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

// Strict: a misspelt option (`apiSecert`) is named rather than ignored.
const Config = z.strictObject({
  baseUrl: GatewayBaseUrl,
  posId: Uuid,
  apiKey: headerCredential(true),
  apiSecret: headerCredential(),
  endpointsKey: headerCredential(),
  timeoutMs: z.number().int().positive().max(MAX_WAIT_MS).optional(),
  retry: z
    .strictObject({
      maxRetries: z.number().int().min(0),
      initialDelayMs: z.number().min(0).max(MAX_WAIT_MS),
      maxDelayMs: z.number().min(0).max(MAX_WAIT_MS),
    })
    .partial()
    .optional(),
  merchantSector: z.enum(['microfinance', 'igaming']).optional(),
  fetch: z.custom<typeof globalThis.fetch>((value) => typeof value === 'function', { error: 'must be a fetch function' }).optional(),
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { error: 'must be an AbortSignal' }).optional(),
});

export class GatewayClient {
  /** The gateway it calls, as configured. */
  readonly baseUrl: string;
  readonly posId: string;
  /** Create, split purchase, cancel. */
  readonly payments: Payments;
  /** Capture, void, refund and their split forms. */
  readonly operations: Operations;
  readonly balances: Balances;
  readonly receipts: Receipts;
  /** The order's state and webhook re-sends. */
  readonly orders: Orders;
  /** How long one attempt of a call may take (ms): what a caller waiting on the gateway must allow for. */
  readonly timeoutMs: number;
  /** The merchant's sector when it has the interface's extra rules: what a caller opening payments must ask of the customer. */
  readonly merchantSector: MerchantSector | undefined;
  readonly #transport: Transport;
  readonly #apiSecretDigest: Buffer;

  constructor(config: GatewayClientConfig) {
    const checked = parseWire(Config, config);
    // The reasons name fields only: a credential never ends up in the message.
    if (!checked.success) throw new TypeError(`Invalid gateway client config: ${describeIssues(checked.issues)}`);
    this.baseUrl = config.baseUrl;
    this.posId = config.posId;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.merchantSector = config.merchantSector;
    this.#apiSecretDigest = digest(config.apiSecret);
    this.#transport = new Transport({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      apiSecret: config.apiSecret,
      endpointsKey: config.endpointsKey,
      timeoutMs: this.timeoutMs,
      retry: { ...DEFAULT_RETRY_POLICY, ...config.retry },
      ...(config.fetch ? { fetch: config.fetch } : {}),
      ...(config.signal ? { signal: config.signal } : {}),
    });
    const context: GatewayContext = {
      transport: this.#transport,
      posId: config.posId,
      merchantSector: config.merchantSector,
    };
    this.payments = new Payments(context);
    this.operations = new Operations(context);
    this.balances = new Balances(context);
    this.receipts = new Receipts(context);
    this.orders = new Orders(context);
  }

  /**
   * Tells `observer` of every HTTP attempt this client makes from now on (route template,
   * status or `network`/`timeout`, seconds) — for metrics; it must not throw. Returns the
   * function that stops it.
   */
  onCall(observer: GatewayCallObserver): () => void {
    return this.#transport.observe(observer);
  }

  /**
   * Whether `secret` is the API secret this client calls the gateway with. The gateway signs its
   * webhooks with that same secret, so a receiver given its own copy can be checked against the
   * client's. Compared in constant time; the secret itself is never exposed.
   */
  usesApiSecret(secret: string): boolean {
    return typeof secret === 'string' && timingSafeEqual(digest(secret), this.#apiSecretDigest);
  }

  /** GET /health: true when the gateway answers `OK`. Errors as for any read. */
  async health(options: RequestOptions = {}): Promise<boolean> {
    const reply = await this.#transport.send({ route: routes.health, ...options });
    return reply.status === 200 && new TextDecoder().decode(reply.body).trim() === 'OK';
  }
}

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();
