/**
 * Every endpoint of the interface (plus the order-state reads and the health check) in one
 * table: HTTP method, path template, whether the X-API-KEY header goes with it and how large
 * an answer may be. The client
 * fills the templates; the sandbox mounts the same ones (Hono's `:param` syntax).
 */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /**
   * X-API-KEY is sent. The gateway requires it on every POST, on receipts and on the webhook
   * re-send, and not on balances (the interface's Authentication table). The order-state reads
   * share the re-send's path and carry it too, as real clients do, though nothing requires it
   * there (the sandbox answers them without it).
   */
  readonly endpointsKey: boolean;
  /** The largest answer the client reads; a larger one is unreadable, never buffered whole. */
  readonly maxAnswerBytes: number;
}

// JSON answers are a payment or an order's operations; receipts may be a day's ZIP of PDFs.
const JSON_ANSWER_BYTES = 4 * 1024 * 1024;
const DOCUMENT_ANSWER_BYTES = 64 * 1024 * 1024;

const post = (path: string): Route => ({ method: 'POST', path, endpointsKey: true, maxAnswerBytes: JSON_ANSWER_BYTES });
const get = (path: string, endpointsKey: boolean, maxAnswerBytes = JSON_ANSWER_BYTES): Route => ({ method: 'GET', path, endpointsKey, maxAnswerBytes });

export const routes = {
  createPayment: post('/api/v1/payment'),
  splitPurchase: post('/api/v1/split/purchase'),
  capture: post('/api/v1/capture'),
  splitCapture: post('/api/v1/split/capture'),
  void: post('/api/v1/void'),
  refund: post('/api/v1/refund'),
  splitRefund: post('/api/v1/split/refund'),
  cancel: post('/api/v1/pos/:pos_id/order/:order_id/cancel'),
  accounts: get('/api/v1/balances/pos/:pos_id/accounts', false),
  account: get('/api/v1/balances/pos/:pos_id/accounts/:account_id', false),
  terminals: get('/api/v1/balances/pos/:pos_id/terminals', false),
  terminal: get('/api/v1/balances/pos/:pos_id/terminals/:terminal_id', false),
  orderReceipt: get('/api/v1/pos/:pos_id/orders/:order_id/report/receipt', true, DOCUMENT_ANSWER_BYTES),
  dateReceipts: get('/api/v1/pos/:pos_id/date/:date/report/receipt', true, DOCUMENT_ANSWER_BYTES),
  order: get('/api/v1/pos/:pos_id/orders/:order_id', true),
  /** With `?callback=true` this is the webhook re-send. */
  orderOperation: get('/api/v1/pos/:pos_id/orders/:order_id/:operation', true),
  health: get('/health', false),
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

/**
 * Fills `:name` placeholders with URL-encoded values (order ids are merchant-chosen text).
 * `.` and `..` are refused with RangeError: URLs resolve them, encoded or not, so the call would
 * reach another path (the request schemas refuse such ids first, with a field error).
 */
export function routePath(route: Route, params: Readonly<Record<string, string>>): string {
  return route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name} for ${route.path}`);
    if (value === '.' || value === '..') throw new RangeError(`path parameter ${name} must not be a dot segment`);
    return encodeURIComponent(value);
  });
}

/** Header names; HTTP compares them case-insensitively (the samples vary the case). */
export const AUTH_HEADER = 'X-API-AUTH';
export const ENDPOINTS_KEY_HEADER = 'X-API-KEY';

const AUTH_SCHEME = 'CPAY';

/** `CPAY <key>:<secret>` in clear text: the gateway signs no requests. */
export function authHeaderValue(apiKey: string, apiSecret: string): string {
  return `${AUTH_SCHEME} ${apiKey}:${apiSecret}`;
}

/** Reads an X-API-AUTH value back into key and secret; undefined when malformed. */
export function readAuthHeader(value: string | null | undefined): { apiKey: string; apiSecret: string } | undefined {
  const match = /^(\S+) ([^:\s]+):(\S+)$/.exec(value ?? '');
  if (!match || match[1] !== AUTH_SCHEME) return undefined;
  return { apiKey: match[2] ?? '', apiSecret: match[3] ?? '' };
}
