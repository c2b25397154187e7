/**
 * What the browser tests ask of the backend, through the fixture routes that
 * widget/test/companion-stand-in.mjs serves (and a real-backend version would map).
 */
import type { CustomerField, PayMode, SessionView } from '../checkout/session-view.js';

export interface SessionOptions {
  amount?: number | string;
  currency?: string;
  description?: string;
  /** Prefilled customer data: those fields are not asked. */
  customer?: Partial<Record<CustomerField, string>>;
  customer_id?: string;
  modes?: PayMode[];
}

async function post<T>(path: string, body: object): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A new checkout session; by default 100.50 UAH, all four customer fields prefilled, both modes. */
export const createSession = async (options: SessionOptions = {}): Promise<string> =>
  (await post<{ id: string }>('/__fixture/sessions', {
    amount: 100.5,
    currency: 'UAH',
    customer: { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' },
    ...options,
  })).id;

/** What the sandbox's 3-D Secure page at `url` (the pay answer's `redirect_url`) does when the customer passes or fails. */
export const decideChallenge = (url: string, result: 'success' | 'failure'): Promise<unknown> => post('/__fixture/3ds', { url, result });

/** The session's public view, as the widget reads it. */
export async function readView(id: string): Promise<SessionView> {
  const response = await fetch(`/api/checkout/sessions/${id}`);
  if (!response.ok) throw new Error(`session view: HTTP ${response.status}`);
  return (await response.json()) as SessionView;
}
