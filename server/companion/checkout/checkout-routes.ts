/**
 * The checkout API. The merchant's backend opens and closes sessions with the admin token;
 * the browser reads a session's public view and pays it, holding only the session id — an
 * unguessable capability (256 random bits).
 *
 *   POST   /api/checkout/sessions              (admin) open a session → 201
 *   DELETE /api/checkout/sessions/:id          (admin) close it: no further attempts, an unpaid hosted page cancelled
 *   GET    /api/checkout/sessions/:id          public view for the widget
 *   POST   /api/checkout/sessions/:id/pay      direct payment (card or saved card)
 *   POST   /api/checkout/sessions/:id/hosted   → { redirect_url } of the gateway's page
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import type { CheckoutSession } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { clientAddress, UNKNOWN_CLIENT } from '../http/client-address.js';
import { takesPayments } from '../http/guards.js';
import { noteUnknownClient } from '../http/unknown-client.js';
import { ApiProblem } from '../http/problem.js';
import { validate } from '../http/validate.js';
import { Customer } from './customer.js';
import { PayRequest } from './pay-request.js';
import { PageUrl } from './payer-page.js';
import { returnUrlProblem } from './return-url.js';
import { limitPayAttempts } from './pay-limits.js';
import { SESSION_ID } from './session-access.js';
import { extensionAnswer } from './session-extension.js';
import { NewSessionRequest } from './session-request.js';
import { OlderWidgets } from './older-widgets.js';
import { OtherWidgetVersions } from './other-widget-versions.js';
import { currencyNotTaken } from './accepted-currencies.js';
import { sectorDetailsMissing } from './merchant-sector.js';
import { offeredModes, SessionViewQuery, SessionViewStatus, sessionView, viewStatus } from './session-view.js';
import type { CompanionOptions } from '../config.js';
import { AmountView } from '../http/amounts.js';
import { originToName } from '../http/advised-origin.js';

/** Why `<pay-form>` sends the customer to the hosted page instead of paying by card: said to the operator. */
const Fallback = z.enum(['tokenizer_unreachable']).optional().describe('Set by <pay-form> when the customer pays on the hosted page because the gateway’s tokenizer did not answer their browser');

export const HostedRequest = z.strictObject({ customer: Customer.optional(), page_url: PageUrl, fallback: Fallback });

/** Where the widget sends the customer for the gateway's hosted page. */
export const HostedPage = z.object({ redirect_url: z.string() });
export type HostedPage = z.output<typeof HostedPage>;

/** The merchant's view of a session: what it gets back when it opens or closes one. */
export const CreatedSession = z.object({
  id: z.string().describe('The capability to give the widget'),
  order_id: z.string(),
  amount: AmountView,
  currency: z.string(),
  description: z.string(),
  method: z.enum(['purchase', 'auth', 'lookup']),
  status: SessionViewStatus,
  modes: z.array(z.enum(['direct', 'hosted'])),
  customer_id: z.string().optional(),
  return_url: z.string().optional(),
  split: z.array(z.object({ sub_merchant_id: z.string(), amount: AmountView })).optional(),
  expires_at: z.iso.datetime(),
});
export type CreatedSession = z.output<typeof CreatedSession>;

/**
 * What the merchant gets back when it opens a session: the modes the widget will offer
 * (`offeredModes`), so a merchant's server reading them is told what its customer sees.
 */
export function createdSession(session: CheckoutSession, { tokenizer }: Pick<CompanionOptions, 'tokenizer'>): CreatedSession {
  return {
    id: session.id,
    order_id: session.orderId,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    method: session.method,
    status: viewStatus(session).status,
    modes: offeredModes(session, tokenizer !== undefined),
    ...(session.customerId ? { customer_id: session.customerId } : {}),
    ...(session.returnUrl ? { return_url: session.returnUrl } : {}),
    ...(session.split ? { split: session.split.map((share) => ({ sub_merchant_id: share.subMerchantId, amount: share.amount })) } : {}),
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}

function sessionId(c: Context<CompanionEnv>): string {
  const id = c.req.param('id') ?? '';
  if (!SESSION_ID.test(id)) throw ApiProblem.notFound('The checkout session', 'session_not_found');
  return id;
}

export function checkoutRoutes(clock: () => number): Hono<CompanionEnv> {
  const checkout = new Hono<CompanionEnv>();
  // A 0.2 widget's payments, which show its customers another amount: said to the operator.
  const olderWidgets = new OlderWidgets(clock);
  // A widget that says another version than this companion's, which shows its customers nothing to pay.
  const otherWidgets = new OtherWidgetVersions(clock);

  // The admin token and takesPayments are app.ts's: the token before anything else about the
  // request is judged, takesPayments before the Idempotency-Key is claimed.
  checkout.post('/sessions', validate('json', NewSessionRequest), async (c) => {
    const { ledger, options, feed, clock, knownSessions } = c.get('services');
    const request = c.req.valid('json');
    const returnUrl = request.returnUrl && returnUrlProblem(request.returnUrl, options.sandboxOrigin);
    if (returnUrl) throw ApiProblem.invalid({ return_url: returnUrl });
    const currency = currencyNotTaken(request.currency, options.currencies);
    if (currency) throw ApiProblem.invalid({ currency });
    const sectorDetails = sectorDetailsMissing(options.merchantSector, request);
    if (sectorDetails) throw ApiProblem.invalid(sectorDetails);
    // Else a session no widget could take a card in: its view would offer no mode at all.
    if (options.tokenizer && request.method === 'lookup' && request.allowedModes?.includes('hosted') === false) {
      throw ApiProblem.invalid({ modes: 'must include hosted for a card verification while the widget tokenizes (PAYFORM_GATEWAY_WIDGET_KEY): the gateway takes no token in one, so the card is taken on its page' });
    }
    // Under an Idempotency-Key, a session without its own order id takes one derived from the key.
    const orderId = request.orderId ?? c.get('keyedOrderId');
    const session = await ledger.createSession({ ttlSeconds: options.sessionTtlSeconds, ...request, ...(orderId ? { orderId } : {}) });
    knownSessions.keep(session);
    feed.publish({ kind: 'session', orderId: session.orderId, status: 'open', source: 'merchant', at: clock() });
    c.set('payformOrderId', session.orderId);
    c.get('logger').info('checkout session opened', { order_id: session.orderId, amount: session.amount, currency: session.currency });
    return c.json(createdSession(session, options), 201);
  });

  checkout.delete('/sessions/:id', async (c) => {
    const { hostedCheckouts, feed, clock, options } = c.get('services');
    const session = await hostedCheckouts.close(sessionId(c));
    if (!session) throw ApiProblem.notFound('The checkout session', 'session_not_found');
    feed.publish({ kind: 'session', orderId: session.orderId, status: 'closed', source: 'merchant', at: clock() });
    return c.json(createdSession(session, options));
  });

  checkout.get('/sessions/:id', validate('query', SessionViewQuery), async (c) => {
    const { ledger, options, knownSessions, clock } = c.get('services');
    const session = await ledger.getSession(sessionId(c));
    if (!session) throw ApiProblem.notFound('The checkout session', 'session_not_found');
    // A session found: a made-up id must not use up the one line.
    otherWidgets.noteRead(c, c.req.valid('query').version);
    knownSessions.keep(session);
    const retryable = await ledger.takesAnotherAttempt(session);
    const { status } = viewStatus(session, retryable);
    // Read only for a view the customer may still pay: whether more time can be asked for, and the
    // saved cards (a paid or expired session's id lives on in return addresses and browser
    // history, and would list cards saved after it). A verification saves a new card: it offers
    // none of the saved ones.
    const payable = status === 'open' || status === 'failure';
    const offersCards = payable && session.allowedModes.includes('direct') && session.method !== 'lookup';
    const saved = session.customerId && offersCards ? await ledger.listCards(session.customerId) : [];
    // A charge's session offers the charged card alone.
    const cards = session.cardId === null ? saved : saved.filter((card) => card.id === session.cardId);
    const endFixed = payable && (await ledger.isSessionEndFixed(session.id));
    return c.json(sessionView(session, cards, options, clock(), { retryable, endFixed }));
  });

  checkout.post('/sessions/:id/extend', async (c) => {
    const { ledger, clock } = c.get('services');
    const extension = await ledger.extendSession(sessionId(c));
    const answer = extensionAnswer(extension, clock());
    if (extension.extended) c.get('logger').info('checkout session extended', { order_id: extension.session.orderId, expires_in_seconds: answer.expires_in_seconds });
    return c.json(answer);
  });

  checkout.post('/sessions/:id/pay', takesPayments, limitPayAttempts(), validate('json', PayRequest), async (c) => {
    const { directPayments, options } = c.get('services');
    const id = sessionId(c);
    const request = c.req.valid('json');
    const ip = clientAddress(c, options.trustProxy);
    if (!ip) noteUnknownClient(c.get('services'));
    const answer = await directPayments.pay({
      sessionId: id,
      card: request.card,
      customer: request.customer,
      fingerprint: request.fingerprint,
      pageUrl: request.page_url,
      client: { ip: ip ?? '0.0.0.0', accept: c.req.header('accept') ?? '*/*', userAgent: c.req.header('user-agent') ?? '' },
      attempting: (orderId) => c.set('payformOrderId', orderId),
    });
    // Once the session took the request: a made-up session id must not use up the line.
    olderWidgets.noteRequest(c, request.page_url);
    return c.json(answer);
  });

  // A page that blocks the tokenizer sends every customer to the hosted page: only the browser
  // knows, and its console is the customer's. Said once, for the operator.
  let toldFallback = false;
  // A session opened without the contact the hosted page needs, asked for with none (what a
  // <pay-button> sends: it cannot ask): every customer of it is refused, and only the browser's
  // console said why. Said once, for the operator.
  let toldNoContact = false;
  checkout.post('/sessions/:id/hosted', takesPayments, limitPayAttempts(), validate('json', HostedRequest), async (c) => {
    const { customer, page_url: pageUrl, fallback } = c.req.valid('json');
    const client = clientAddress(c, c.get('services').options.trustProxy) ?? UNKNOWN_CLIENT;
    const url = await c
      .get('services')
      .hostedCheckouts.open(sessionId(c), customer, { pageUrl, client, acceptLanguage: c.req.header('accept-language'), attempting: (orderId) => c.set('payformOrderId', orderId) })
      .catch((error: unknown) => {
        if (!customer && !toldNoContact && error instanceof ApiProblem && error.code === 'customer_required') {
          toldNoContact = true;
          c.get('logger').warn(
            'a hosted page was asked for a checkout session without the customer\'s e-mail and phone, which the gateway\'s page needs, and the request sent none: ' +
              'a <pay-button> cannot ask for them, so every customer of such a session is refused. Open the session with customer.email and customer.phone ' +
              '(POST /api/checkout/sessions), or use <pay-form mode="hosted">, which asks. Said once',
          );
        }
        throw error;
      });
    // Once the page is opened: a made-up session id must not use up the one line.
    olderWidgets.noteRequest(c, pageUrl);
    const { tokenizer } = c.get('services').options;
    if (fallback && tokenizer && !toldFallback) {
      toldFallback = true;
      const origin = new URL(tokenizer.url).origin;
      // What the widget sent as the page's address: its origin when it is a web page's, and one
      // a line may name (the customer wrote it: advised-origin.ts).
      const sent = pageUrl !== undefined && URL.canParse(pageUrl) ? new URL(pageUrl) : undefined;
      const page = sent && /^https?:$/.test(sent.protocol) ? originToName(sent.origin) : undefined;
      c.get('logger').warn(
        `a customer's browser could not reach the gateway's tokenizer at ${origin}, so it sent them to the gateway's hosted page to type the card again: ` +
          `if every customer goes there, the gateway project does not list ${page ?? 'the shop’s page'} among its widget origins, or the page blocks the tokenizer ` +
          `(allow ${origin} in its Content-Security-Policy connect-src); the browser's console names which. Else the tokenizer was down. Said once`,
        { tokenizer: origin, ...(page === undefined ? {} : { page }) },
      );
    }
    return c.json({ redirect_url: url } satisfies HostedPage);
  });

  return checkout;
}
