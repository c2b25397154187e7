/** The pages' client of the shop's own backend (demo/server/shop-routes.ts). */
import type { CartLine } from '../../catalog.js';
import type { Language } from '../../../server/companion/back-office/web/preferences.js';

export interface Contact {
  fname: string;
  lname: string;
  email: string;
  phone: string;
}

export interface CheckoutOptions {
  /** `lookup`: save the card only (a card verification); nothing is bought. */
  method: 'purchase' | 'auth' | 'lookup';
  split: boolean;
  remember_card: boolean;
}

export interface OpenedCheckout {
  readonly session: string;
  readonly order_id: string;
  readonly amount: number;
  readonly currency: string;
}

/** A checkout session as the companion shows it to the customer's page (`GET /api/checkout/sessions/:id`). */
export interface SessionSummary {
  /** Integer minor units of `currency`. */
  readonly amount: number;
  readonly currency: string;
  readonly description?: string;
  readonly order_id?: string;
  readonly method?: 'purchase' | 'auth' | 'lookup';
  readonly status: 'open' | 'pending' | 'success' | 'failure' | 'expired';
}

/** The session `id` as it stands now. */
export async function readSession(id: string): Promise<SessionSummary> {
  const response = await fetch(`/api/checkout/sessions/${encodeURIComponent(id)}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as SessionSummary;
}

/** The shop refused: `fields` names what to correct (`customer.email` …). */
export class ShopError extends Error {
  constructor(
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export async function openCheckout(request: { lines: CartLine[]; customer: Contact; lang: Language } & CheckoutOptions): Promise<OpenedCheckout> {
  const response = await fetch('/shop/api/checkout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = (await response.json().catch(() => undefined)) as OpenedCheckout | { error?: { message?: string; fields?: Record<string, string> } } | undefined;
  if (response.ok && body && 'session' in body) return body;
  const error = body && 'error' in body ? body.error : undefined;
  throw new ShopError(error?.message ?? `HTTP ${response.status}`, error?.fields);
}
