/**
 * What the browser tests ask of the backend — the real sandbox and companions that
 * widget/test/checkout-backend.ts starts — through the dev server's fixture routes
 * (widget/test/backend-routes.ts). The admin token stays on the Node side.
 */
import type { CustomerField, PayMode, SessionView } from '../checkout/session-view.js';

/**
 * Which merchant's companion opens the session. `shop` (the default) serves the test page's origin
 * (`/api/checkout/*`), as the widget's own companion would; the others are companions of their own,
 * on their own origins (reached through `endpoint`, with CORS): one that accepts Visa and
 * Mastercard only, one in live mode (no test flag) that is still wired to the sandbox, one
 * that does not allow the test page's origin, two that tokenize (the second on a sandbox of its
 * own, whose project does not take the test page's origin), and one composed with the base path
 * `/payments`.
 */
export type Merchant = 'shop' | 'visa-mastercard' | 'live' | 'elsewhere' | 'tokenize' | 'tokenize-far' | 'mounted';

export interface SessionOptions {
  merchant?: Merchant;
  /** Integer minor units of `currency`. */
  amount?: number;
  currency?: string;
  description?: string;
  /** Prefilled customer data: those fields are not asked. */
  customer?: Partial<Record<CustomerField, string>>;
  customer_id?: string;
  modes?: PayMode[];
  /** `lookup`: a card verification that saves the card for `customer_id`. */
  method?: 'purchase' | 'auth' | 'lookup';
  /** Its time to pay, 60 s at least; the companion's default otherwise. */
  ttl_seconds?: number;
  /** false: its end is fixed, and the customer is not offered more time (the companion's default: true). */
  extendable?: boolean;
}

/** A session the merchant's server opened, and where its companion answers directly. */
export interface Checkout {
  id: string;
  order_id: string;
  /** The companion's own address: its origin (for `shop` another origin than the page's), and its base path. */
  companion_url: string;
}

async function post<T>(path: string, body: object): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Opens a checkout session with the merchant API (`POST /api/checkout/sessions`); by default
 * 100.50 UAH at `shop`, all four customer fields prefilled, both modes.
 */
export const openCheckout = ({ merchant = 'shop', ...session }: SessionOptions = {}): Promise<Checkout> =>
  post('/__fixture/sessions', {
    merchant,
    amount: 10050,
    currency: 'UAH',
    description: 'Green tea, 250 g',
    customer: { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' },
    ...session,
  });

/** The id of a new session at `shop` (see `openCheckout`). */
export const createSession = async (options: Omit<SessionOptions, 'merchant'> = {}): Promise<string> => (await openCheckout(options)).id;

/** The merchant closes a session at `shop` (`DELETE /api/checkout/sessions/:id`): it takes no more attempts. */
export const closeSession = (id: string): Promise<unknown> => post('/__fixture/close', { id });

/**
 * Presses a button of the sandbox's 3-D Secure page at `url` (the pay answer's redirect_url):
 * the customer passes or fails the challenge, and the sandbox tells the companion by webhook.
 */
export const decideChallenge = (url: string, result: 'success' | 'failure'): Promise<unknown> => post('/__fixture/3ds', { url, result });

/** Moves the sandbox's clock on (it stands still otherwise): what was due by then happens, e.g. the slow card settles. */
export const advanceGatewayClock = (seconds: number): Promise<unknown> => post('/__fixture/clock', { advance_seconds: seconds });

/** The session's public view at `shop`, as the widget reads it. */
export async function readView(id: string): Promise<SessionView> {
  const response = await fetch(`/api/checkout/sessions/${id}`);
  if (!response.ok) throw new Error(`session view: HTTP ${response.status}`);
  return (await response.json()) as SessionView;
}

/**
 * What the dev server does from now on with the requests for a module of the widget, e.g.
 * `/widget/checkout/paying.ts` (the dev server serves the sources), or for a file of its build, e.g.
 * `/widget/dist/chunks/paying.js`: `hold` them, as a slow network would, until `serve` (the default),
 * `fail` (a 503, as from a server that lacks the file) or `drop` (the connection closed unanswered, as offline).
 * Resolves with how many requests for it are held at that moment.
 */
export const answerModule = (path: string, answer: 'hold' | 'fail' | 'drop' | 'serve'): Promise<{ held: number }> => post('/__fixture/module', { path, answer });
