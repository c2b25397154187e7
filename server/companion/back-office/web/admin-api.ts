/**
 * The back office's client of the companion's merchant API, and where the admin token lives.
 *
 * The token is typed into the sign-in form or arrives in the address's fragment (`…/admin#token=…`,
 * a link the merchant's own tooling may print: a fragment is never sent to a server nor put in a
 * Referer). It is kept in sessionStorage — this tab only, gone when the tab closes — and sent
 * as `Authorization: Bearer` to the same origin. No cookie carries it, so no other site can make
 * this browser use it, and the shop's pages never read it. Paths are the merchant API's
 * (`/api/…`), below the companion's base path (page-config.ts).
 */
import type { ApiAmount } from './money.js';
import { apiPath } from './page-config.js';
import { t } from './i18n.js';

const TOKEN_KEY = 'payform:admin-token';

/** The checkout session an order id was handed out with, when it has no payment yet (`error.session`). */
export interface UnpaidSession {
  readonly id: string;
  readonly status: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
    readonly session?: UnpaidSession,
    /** payment_in_flight (an erasure): the orders not decided yet. */
    readonly orderIds: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * A request that got no answer at all — the companion stopped or restarting, the network down —
 * as an ApiError of status 0, in the page's words: the browser's own ("Failed to fetch",
 * "NetworkError when attempting to fetch resource") say nothing to the shop's staff. An abort
 * (another filter pressed, signed out) stays one.
 */
async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(apiPath(path), init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', t('network.noAnswer'));
  }
}

/**
 * The companion's codes for a call the gateway never took — out of reach, rate limiting, refusing
 * the credentials, another server at its address: not done (the operation's reservation
 * released), whatever the 5xx says.
 */
const NOT_TAKEN: ReadonlySet<string> = new Set(['gateway_unavailable', 'gateway_busy', 'gateway_credentials', 'not_the_gateway']);

/** No answer, or a 5xx but one the gateway never took: the request may have run (docs/companion.md, idempotency keys). */
export const outcomeUnknown = (error: ApiError): boolean => error.status === 0 || (error.status >= 500 && !NOT_TAKEN.has(error.code));

/** Takes a token from the fragment (then removes it from the address bar), else the stored one. */
export function adminToken(): string | undefined {
  const fromFragment = fragmentToken();
  if (fromFragment) {
    saveToken(fromFragment);
    history.replaceState(null, '', location.pathname + location.search);
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return fromFragment;
  }
}

function fragmentToken(): string | undefined {
  const encoded = /^#token=(.{16,})$/.exec(location.hash)?.[1];
  try {
    return encoded && decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

export function saveToken(token: string): void {
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Not kept: the back office asks again after a reload.
  }
}

export function forgetToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing was kept.
  }
}

export function authorization(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/**
 * A key for one operation the merchant means to do once (the Idempotency-Key of its requests):
 * 128 random bits in hex. getRandomValues, not randomUUID, which only secure contexts have.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A merchant API request; a 4xx/5xx answer becomes an ApiError with the envelope's code, message
 * and fields. A POST sent again with its `idempotencyKey` is answered, not done, again.
 */
export async function api<T>(token: string, path: string, init: { method?: string; body?: unknown; signal?: AbortSignal; idempotencyKey?: string } = {}): Promise<T> {
  const response = await send(path, {
    method: init.method ?? 'GET',
    headers: {
      ...authorization(token),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(init.idempotencyKey ? { 'Idempotency-Key': init.idempotencyKey } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const body = (await response.json().catch(() => undefined)) as
    | (T & { error?: undefined })
    | { error?: { code?: string; message?: string; fields?: Record<string, string>; session?: UnpaidSession; order_ids?: string[] } }
    | undefined;
  if (!response.ok) {
    const error = body && 'error' in body ? body.error : undefined;
    throw new ApiError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`, error?.fields, error?.session, error?.order_ids);
  }
  return body as T;
}

/** A file of the merchant API (an order's receipt), under the name the companion gives it. */
export interface ApiFile {
  readonly name: string;
  readonly blob: Blob;
}

/** A small file, fetched whole with the token: an order's receipt. Large ones go by link (`downloadLink`, `followLink`). */
export async function fetchFile(token: string, path: string, fallbackName: string): Promise<ApiFile> {
  const response = await send(path, { headers: authorization(token) });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    throw new ApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${response.status}`);
  }
  const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  return { name, blob: await response.blob() };
}

/** Hands a fetched file to the browser's downloads. */
export function save(file: ApiFile): void {
  const url = URL.createObjectURL(file.blob);
  clickDownload(url, file.name);
  // The click has handed the file over; the blob can go once the browser has read it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A signed link to a file of the merchant API (`GET <file's route>/link`): followed without the token, for a minute. */
export interface DownloadLink {
  /** Below the companion's public URL: `/api/downloads/…?…&expires=…&signature=…`. */
  readonly path: string;
  readonly expires_at: string;
}

/** A day's receipts' link, and whether the ZIP would hold no file. */
export interface ReceiptsLink extends DownloadLink {
  readonly empty: boolean;
}

/**
 * Asks for a link to the file at `path` (`/api/exports/orders?…` → `/api/exports/orders/link?…`):
 * the companion judges the query now, so a refusal is an ApiError shown on the page, not a file.
 */
export function downloadLink<Link extends DownloadLink = DownloadLink>(token: string, path: string): Promise<Link> {
  const query = path.indexOf('?');
  return api<Link>(token, query < 0 ? `${path}/link` : `${path.slice(0, query)}/link${path.slice(query)}`);
}

/**
 * Hands a link to the browser's downloads: its own download manager streams the file to disk,
 * showing its progress, under the name the companion gives it — the tab never holds the file.
 */
export function followLink(link: DownloadLink): void {
  clickDownload(apiPath(link.path), '');
}

function clickDownload(href: string, name: string): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

// The merchant API's answers, as far as the back office reads them.

export type PaymentStatus = 'init' | 'pending' | 'success' | 'failure';

/** Amounts in the merchant API are integer minor units of the order's currency. */
export interface Share {
  readonly sub_merchant_id: string;
  readonly amount: ApiAmount;
}

/** One report of the gateway's that contradicts the order. */
export interface DiscrepancyReport {
  readonly status: PaymentStatus;
  readonly amount: ApiAmount | null;
  readonly currency: string | null;
  readonly paid_amount: ApiAmount | null;
  readonly paid_currency: string | null;
  readonly refunded_amount: ApiAmount | null;
  readonly captured_amount: ApiAmount | null;
  readonly late_operation: { readonly kind: Operation['kind']; readonly amount: ApiAmount } | null;
  readonly restated_operation: { readonly kind: Operation['kind']; readonly recorded_amount: ApiAmount; readonly reported_amount: ApiAmount } | null;
  /** What the gateway sent could not be read: its figures are null. */
  readonly unreadable: boolean;
  /** A further charge of a recurring payment: its transaction, not the payment's. */
  readonly transaction_id: string | null;
  readonly noted_at: string;
}

/**
 * What the gateway reported that contradicts the order (the merchant API's `discrepancy`): the
 * order is held for a person, not to be fulfilled as it stands. The first report, and each
 * distinct one after it in `later`.
 */
export interface Discrepancy extends DiscrepancyReport {
  readonly later: readonly DiscrepancyReport[];
  /** More came than `later` keeps: the rest are in the order's events and the log. */
  readonly later_truncated: boolean;
  /** How many times it changed: what settling it names (a report since is refused). */
  readonly version: number;
  /** A person's settlement covering every report; null while it is held. */
  readonly settled: Settlement | null;
  /** Settlements a later report reopened, oldest first. */
  readonly settled_before: readonly Settlement[];
}

/** A person settled a held order, with the customer or at the gateway, and said how. */
export interface Settlement {
  readonly settled_at: string;
  readonly note: string;
  readonly version: number;
}

export interface OrderSummary {
  readonly order_id: string;
  readonly mode: 'direct' | 'hosted';
  readonly method: 'purchase' | 'auth' | 'lookup';
  readonly amount: ApiAmount;
  readonly currency: string;
  readonly split: Share[] | null;
  readonly status: PaymentStatus;
  readonly status_code: string | null;
  readonly status_description: string | null;
  readonly payment_id: string | null;
  readonly transaction_id: string | null;
  readonly card: { readonly mask: string; readonly brand: string | null } | null;
  /** The gateway's payment page of a hosted attempt, once it opened one. */
  readonly checkout_url: string | null;
  readonly customer_id: string | null;
  readonly customer: { readonly fname?: string; readonly lname?: string; readonly email?: string; readonly phone?: string } | null;
  readonly created_at: string;
  readonly updated_at: string | null;
  readonly discrepancy: Discrepancy | null;
  /** Ended as never sent: the gateway never got it; the customer may pay again under its id. */
  readonly unsent_at: string | null;
}

export interface Operation {
  readonly id: string;
  readonly operation_id: string | null;
  /** The gateway's transaction for it, once its answer or webhook named it. */
  readonly transaction_id: string | null;
  readonly kind: 'capture' | 'void' | 'refund';
  readonly amount: ApiAmount;
  readonly status: PaymentStatus;
  readonly status_code: string | null;
  readonly status_description: string | null;
  readonly comment: string | null;
  readonly split: Share[] | null;
  /** A successful refund's receipt page, as the gateway gave it. */
  readonly receipt_url: string | null;
  readonly origin: string;
  readonly created_at: string;
  readonly settled_at: string | null;
}

export interface WebhookEvent {
  readonly id: string;
  readonly method: string;
  readonly status: string;
  readonly operation_id: string | null;
  readonly outcome: 'applied' | 'stale' | 'parked' | 'unmatched';
  readonly received_at: string;
}

/** `GET /api/webhook-events`: the gateway's events that match no order. */
export interface UnmatchedEvents {
  readonly events: (WebhookEvent & {
    readonly order_id: string;
    readonly amount: ApiAmount | null;
    readonly currency: string | null;
  })[];
  readonly next_cursor: string | null;
}

export interface Totals {
  readonly captured: ApiAmount;
  readonly capture_pending: ApiAmount;
  readonly refunded: ApiAmount;
  readonly refund_pending: ApiAmount;
  readonly voided: boolean;
  readonly refundable: ApiAmount;
  readonly capturable: ApiAmount;
}

/** An order as `GET /api/orders` lists it: the payment with what it came to. */
export interface ListedOrder extends OrderSummary {
  readonly totals: Totals;
}

export interface OrderDetail {
  readonly order: OrderSummary;
  /** What was sold (the checkout session's description); null for a session no longer kept. */
  readonly description: string | null;
  /** Who started the payment: the customer at checkout, or the merchant charging a saved card; null for a session no longer kept. */
  readonly source: 'checkout' | 'saved_card_charge' | null;
  readonly totals: Totals;
  readonly operations: Operation[];
  readonly events: WebhookEvent[];
  /** When the customer's details were erased from the order (POST /api/customers/erasures); null when never. */
  readonly customer_erased_at: string | null;
  /** Every attempt of the order's checkout session, first to last, this one included. */
  readonly attempts: { readonly order_id: string; readonly attempt: number; readonly status: PaymentStatus }[];
}

export interface Stats {
  readonly bucket: 'hour' | 'day';
  readonly buckets: { start: string; total: number; succeeded: number; failed: number; in_flight: number; not_sent: number; cancelled: number; success_rate: number | null }[];
  readonly totals: { total: number; succeeded: number; failed: number; in_flight: number; not_sent: number; cancelled: number; success_rate: number | null };
  readonly from: string;
  readonly to: string;
}

/**
 * How the money of a period is dated (GET /api/stats/money's `dated_by`): `order`, each order's
 * money in the period it was created in, its later refunds too; `movement`, each sale, capture and
 * refund in the period it was made, as the journal of money moved lists them.
 */
export type MoneyDating = 'order' | 'movement';

/** What the period's payments came to (GET /api/stats/money), one entry per currency (never added across them). */
export interface MoneyReport {
  readonly dated_by: MoneyDating;
  readonly money: readonly CurrencyMoney[];
}

export interface CurrencyMoney {
  readonly currency: string;
  readonly paid: ApiAmount;
  readonly refunded: ApiAmount;
  readonly net: ApiAmount;
}

export interface Balance {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly balances: { readonly available: ApiAmount; readonly rolling_reserve?: ApiAmount };
}

export interface Terminals {
  readonly terminals: Balance[];
  readonly failed_terminals: { readonly id: string; readonly message: string }[];
}

export interface Change {
  readonly seq: number;
  /** `session`: a checkout session opened or closed; `discrepancy`: the gateway's report held for review. */
  readonly kind: 'payment' | 'operation' | 'session' | 'discrepancy' | 'customer';
  readonly order_id: string;
  /** The payment's or operation's status (`PaymentStatus`); a session's `open` or `closed`. */
  readonly status: string;
  readonly operation?: { readonly id: string; readonly kind: string };
  readonly at: string;
}
