/**
 * The public view of a checkout session (`GET /api/checkout/sessions/:id`), exactly what the
 * widget reads (widget/checkout/session-view.ts). The schema is the contract, written out for
 * the OpenAPI document; `sessionView` builds it from the ledger's session.
 */
import * as z from 'zod';
import { holdsSession } from '../../ledger/index.js';
import type { CheckoutSession, SavedCard } from '../../ledger/index.js';
import type { MerchantSector } from '@payform/gateway';
import { missingCustomerFields } from './customer.js';
import { failureMessage } from './decline-messages.js';
import { AmountView } from '../http/amounts.js';
import { extendable } from './session-extension.js';
import { maskBrandRefusal } from './accepted-brands.js';
import type { BrandId } from '@payform/card/fields';

/**
 * The version of this session view: the release that last changed what it means (0.3: amounts in
 * minor units, where 0.2's were decimals), not every release's. A widget reads only a view of
 * the version it was built for, so a page whose widget reads another shows no amount rather than
 * one 100 times off. Changed only with the view, and with the widget's (widget/checkout/
 * session-view.ts; widget-versions.test.ts holds the two together): releases that leave the view
 * as it is keep working with each other's widgets.
 */
export const VIEW_VERSION = '0.3';

/** A widget's read: the session view version it reads (since 0.3), which other-widget-versions.ts compares with this one. */
export const SessionViewQuery = z.strictObject({
  version: z
    .string()
    .regex(/^\d{1,4}\.\d{1,4}$/, { error: 'must be the session view version the widget reads, a major.minor (0.3)' })
    .optional()
    .describe('The session view version the reading widget reads (major.minor), which <pay-form> sends: one other than the companion’s is logged, once an hour'),
});

export const SessionViewStatus = z.enum(['open', 'pending', 'success', 'failure', 'expired']);
export type SessionViewStatus = z.infer<typeof SessionViewStatus>;

export const SessionView = z.object({
  version: z
    .literal(VIEW_VERSION)
    .describe('The session view’s version (major.minor: the release that last changed what it means), which the reading widget’s must be: a <pay-form> built for another shows no amount and tells the page why (0.2’s views had none, and amounts in decimals)'),
  id: z.string(),
  amount: AmountView,
  currency: z.string(),
  description: z.string(),
  method: z.enum(['purchase', 'auth', 'lookup']).describe('lookup: the session saves a card; nothing is paid beyond the verification hold'),
  status: SessionViewStatus.describe('expired: the session can no longer be paid (out of time, closed by the shop, or its attempts used up): open a new one'),
  modes: z.array(z.enum(['direct', 'hosted'])),
  customer_fields: z.array(z.enum(['fname', 'lname', 'email', 'phone'])),
  brands: z.array(z.string()).optional(),
  test: z.boolean(),
  sandbox_origin: z.string().optional(),
  tokenizer: z
    .object({ url: z.string(), widget_key: z.string() })
    .optional()
    .describe('Present when the widget sends the card to the gateway’s tokenizer and pays with its token; the pay route then refuses card numbers'),
  saved_cards: z.array(z.object({ token: z.string(), mask: z.string(), brand: z.string().optional() })),
  order_id: z.string().describe("The session's order id, or its latest attempt's (shop-1:2) once one was made"),
  message: z.string().optional(),
  challenge_url: z
    .string()
    .optional()
    .describe('With `pending`: the 3-D Secure challenge the attempt waits for, for a customer back from their bank’s page without finishing it'),
  expires_in_seconds: z
    .int()
    .nonnegative()
    .optional()
    .describe('With `open` or `failure`: the seconds left, as this answer is made, before the session can no longer be paid (its ttl_seconds); the widget tells the customer two minutes before, and shows the session as ended once they are up'),
  extendable: z
    .boolean()
    .optional()
    .describe('With `open` or `failure`: whether the customer may ask for more time (POST …/extend): until 20 hours after the session opened, unless it was opened with extendable: false'),
});
export type SessionView = z.infer<typeof SessionView>;

export interface ViewOptions {
  readonly testMode: boolean;
  readonly sandboxOrigin: string | undefined;
  readonly acceptedBrands: readonly BrandId[] | undefined;
  readonly merchantSector: MerchantSector | undefined;
  readonly tokenizer: { readonly url: string; readonly widgetKey: string } | undefined;
}

/**
 * The modes a session offers the widget. When the widget tokenizes, a card verification runs on
 * the gateway's page only: the gateway takes no token in a lookup, and this companion no card.
 */
export function offeredModes(session: Pick<CheckoutSession, 'allowedModes' | 'method'>, tokenizes: boolean): ('direct' | 'hosted')[] {
  return session.allowedModes.filter((mode) => offers(session, mode, tokenizes));
}

/** Whether the session offers `mode` (offeredModes), read on every pay request without a list made. */
export function offers(session: Pick<CheckoutSession, 'allowedModes' | 'method'>, mode: 'direct' | 'hosted', tokenizes: boolean): boolean {
  return session.allowedModes.includes(mode) && !(mode === 'direct' && tokenizes && session.method === 'lookup');
}

const unpaidHostedPage = (payment: CheckoutSession['payment']): boolean =>
  payment?.mode === 'hosted' && payment.status === 'init' && payment.discrepancy === null;

/**
 * The widget's status of a session, and the customer-safe reason of a failed attempt.
 * `retryable`: false when the session takes no attempt after its failed one (Ledger.takesAnotherAttempt).
 */
export function viewStatus(session: CheckoutSession, retryable = true): { status: SessionViewStatus; message?: string } {
  switch (session.status) {
    case 'paid':
      return { status: 'success' };
    case 'processing':
      // A hosted page opened and left unpaid ("Return without paying") is no payment under way:
      // the customer may pay again, and a pay request cancels that page first (direct-payments.ts).
      // One the gateway reported paid otherwise (a discrepancy, held for a person) is no such page,
      // nor one of a session closed while its page could not be cancelled: that page may still be
      // paid (reconciliation cancels it), so the session is not open to pay again.
      return unpaidHostedPage(session.payment) && session.closedAt === null ? { status: 'open' } : { status: 'pending' };
    case 'closed':
    case 'expired':
      return { status: 'expired' };
    case 'open': {
      // A declined attempt, or one the gateway never got (ended as never sent): the customer who
      // waited on it reads why the form is back, not a form as if nothing had happened.
      const ended = session.payment && !holdsSession(session.payment) ? session.payment : undefined;
      if (!ended) return { status: 'open' };
      // Its attempts used up, it can no longer be paid: no form for a pay call refused again.
      return { status: retryable ? 'failure' : 'expired', message: failureMessage(ended) };
    }
  }
}

/**
 * The challenge a pending attempt waits for, as the ledger keeps it (https, or the sandbox's).
 * The session id that reads it is already the capability to it (`/checkout/challenge/:id`).
 */
function waitingChallenge(session: CheckoutSession, status: SessionViewStatus): string | undefined {
  const payment = session.payment;
  return status === 'pending' && (payment?.status === 'init' || payment?.status === 'pending') ? (payment.userActionUrl ?? undefined) : undefined;
}

/** What the view reads beside the session: whether it takes another attempt (Ledger.takesAnotherAttempt), whether its end is fixed. */
export interface SessionFacts {
  readonly retryable: boolean;
  readonly endFixed: boolean;
}

export function sessionView(session: CheckoutSession, cards: readonly SavedCard[], options: ViewOptions, now: number, { retryable, endFixed }: SessionFacts): SessionView {
  const modes = offeredModes(session, options.tokenizer !== undefined);
  const { status, message } = viewStatus(session, retryable);
  const payable = status === 'open' || status === 'failure';
  const challenge = waitingChallenge(session, status);
  return {
    version: VIEW_VERSION,
    id: session.id,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    method: session.method,
    status,
    modes,
    customer_fields: missingCustomerFields(modes, session.customer, session.method, options.merchantSector),
    ...(options.acceptedBrands ? { brands: [...options.acceptedBrands] } : {}),
    test: options.testMode,
    ...(options.testMode && options.sandboxOrigin ? { sandbox_origin: options.sandboxOrigin } : {}),
    ...(options.tokenizer && session.allowedModes.includes('direct') && session.method !== 'lookup'
      ? { tokenizer: { url: options.tokenizer.url, widget_key: options.tokenizer.widgetKey } }
      : {}),
    // The card's ledger id is what the pay request sends back; the gateway token stays here.
    // Those of a scheme the shop no longer takes are not offered: the pay route would refuse them.
    saved_cards: cards
      .filter((card) => maskBrandRefusal(card.ccMask, options.acceptedBrands) === undefined)
      .map((card) => ({ token: card.id, mask: card.ccMask, ...(card.brand ? { brand: card.brand } : {}) })),
    order_id: session.payment?.orderId ?? session.orderId,
    ...(message ? { message } : {}),
    ...(challenge ? { challenge_url: challenge } : {}),
    ...(payable ? { expires_in_seconds: Math.max(0, Math.floor((session.expiresAt - now) / 1000)), extendable: extendable(session, endFixed) } : {}),
  };
}
