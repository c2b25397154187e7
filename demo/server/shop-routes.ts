/**
 * The demo shop's own backend — what a merchant writes on top of the companion:
 *
 *   POST /shop/api/checkout   { lines, customer, method?, split?, remember_card?, lang? }
 *                             → 201 { session, order_id, amount, currency }
 *
 * Anyone may call it: it is limited per client like the pay route (429 with Retry-After), and
 * its answer, carrying the session id, is never cached (no-store).
 *
 * `method: "lookup"` saves the customer's card without a purchase (a card verification of
 * VERIFICATION_AMOUNT): the back office can charge it later.
 *
 * It prices the cart from the catalog (the browser only says what and how many), then opens
 * the checkout session through the companion's merchant API with the admin token — in process,
 * the same request a separate backend would send over HTTP. The token never leaves the server.
 * A customer who asks to remember the card gets a random customer id in an HttpOnly cookie;
 * the companion keeps that customer's saved cards and offers them next time. A customer known
 * by the cookie who does not ask this time is still that customer (the cards kept before are
 * offered, the order is theirs), but the new card is not kept (`save_card: false`).
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import * as z from 'zod';
import type { CompanionApp, CompanionEnv } from '@payform/companion';
import { noStore, limitPerClient, limitBody, requireMediaType, ApiProblem, RateLimiter, validate } from '@payform/companion';
import { cartTotal, MAX_QUANTITY, productById, PRODUCTS, SHOP_CURRENCY, sellerShares } from '../catalog.js';
import type { CartLine } from '../catalog.js';

const CUSTOMER_COOKIE = 'kavarnia_customer';
const CUSTOMER_ID = /^c_[A-Za-z0-9_-]{22}$/;

const Text = z.string().trim().min(1, { error: 'must not be empty' }).max(128, { error: 'must be at most 128 characters' });

export const CheckoutRequest = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        product: z.string().refine((id) => productById(id) !== undefined, { error: 'is not a product of the shop' }),
        quantity: z.number().int().min(1).max(MAX_QUANTITY),
      }),
    )
    .min(1, { error: 'the cart is empty' })
    .max(PRODUCTS.length)
    .refine((lines) => new Set(lines.map((line) => line.product)).size === lines.length, { error: 'must name each product once' }),
  customer: z.strictObject({ fname: Text, lname: Text, email: Text, phone: Text }),
  method: z.enum(['purchase', 'auth', 'lookup']).default('purchase'),
  split: z.boolean().default(false),
  remember_card: z.boolean().default(false),
  lang: z.enum(['en', 'uk']).default('en'),
});

type Checkout = z.output<typeof CheckoutRequest>;

interface CompanionSession {
  readonly id: string;
  readonly order_id: string;
  readonly amount: number;
  readonly currency: string;
}

export function shopRoutes(companion: CompanionApp): Hono<CompanionEnv> {
  const shop = new Hono<CompanionEnv>();
  // Anyone may open a session here, so it is limited per client as paying is (and by the same numbers).
  const { options, clock } = companion.companion.services;
  const sessionsOpened = new RateLimiter(options.rateLimits.perClient, options.rateLimits.windowMs, clock);
  shop.use('*', limitBody(16 * 1024), requireMediaType('application/json'), noStore());

  shop.post('/checkout', limitPerClient(sessionsOpened, 'checkouts opened'), validate('json', CheckoutRequest), async (c) => {
    const checkout = c.req.valid('json');
    const { options } = c.var.services;
    // A card is saved for a customer who asks: a verification always remembers one.
    const saving = checkout.remember_card || checkout.method === 'lookup';
    const customer = saving ? { id: rememberedCustomer(c), saveCard: true } : knownCustomer(c);
    const answer = await companion.request('/api/checkout/sessions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(sessionRequest(checkout, `${options.publicUrl}/result`, customer)),
    });
    const body = (await answer.json()) as CompanionSession | { error: { code: string; message: string; fields?: Record<string, string> } };
    // The companion's refusals (an e-mail it cannot accept…) are the customer's to fix: passed on as they are.
    if ('error' in body) throw new ApiProblem(answer.status === 400 || answer.status === 422 ? answer.status : 502, body.error.code, body.error.message, body.error.fields);
    return c.json({ session: body.id, order_id: body.order_id, amount: body.amount, currency: body.currency }, 201);
  });

  return shop;
}

/** This browser's customer, when an earlier checkout asked to remember a card: no cookie is set here. */
function knownCustomer(c: Context<CompanionEnv>): { id: string; saveCard: false } | undefined {
  const known = getCookie(c, CUSTOMER_COOKIE);
  return known && CUSTOMER_ID.test(known) ? { id: known, saveCard: false } : undefined;
}

/** The customer id of this browser, made and set as a cookie the first time. */
function rememberedCustomer(c: Context<CompanionEnv>): string {
  const known = knownCustomer(c);
  if (known) return known.id;
  const id = `c_${randomBytes(16).toString('base64url')}`;
  setCookie(c, CUSTOMER_COOKIE, id, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    maxAge: 365 * 86_400,
    secure: c.var.services.options.publicUrl.startsWith('https:'),
  });
  return id;
}

/** What the bank holds for a moment to verify a card that is only saved (minor units). */
export const VERIFICATION_AMOUNT = 100;

/** The merchant API's `POST /api/checkout/sessions` body for a cart. */
export function sessionRequest(checkout: Checkout, returnUrl: string, customer: { id: string; saveCard: boolean } | undefined) {
  const lines: CartLine[] = checkout.lines;
  if (checkout.method === 'lookup') {
    return {
      amount: VERIFICATION_AMOUNT,
      currency: SHOP_CURRENCY,
      description: 'Kavarnia: card saved for later orders',
      method: 'lookup',
      customer: { ...checkout.customer, lang: checkout.lang.toUpperCase() },
      customer_id: customer?.id,
      return_url: returnUrl,
    };
  }
  const items = lines.map((line) => `${line.quantity} × ${productById(line.product)!.name[checkout.lang]}`);
  return {
    amount: cartTotal(lines),
    currency: SHOP_CURRENCY,
    description: `Kavarnia: ${items.join(', ')}`.slice(0, 2048),
    method: checkout.method,
    // A two-step payment is split when it is captured (in the back office), not when it is reserved.
    ...(checkout.split && checkout.method === 'purchase'
      ? { split: sellerShares(lines).map((share) => ({ sub_merchant_id: share.seller.subMerchantId, amount: share.amount })) }
      : {}),
    customer: { ...checkout.customer, lang: checkout.lang.toUpperCase() },
    ...(customer ? { customer_id: customer.id, ...(customer.saveCard ? {} : { save_card: false }) } : {}),
    return_url: returnUrl,
  };
}
