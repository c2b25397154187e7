/**
 * A customer's personal data erased on request (bearer ADMIN_TOKEN): the GDPR's right to erasure,
 * and its like elsewhere. What goes and what stays is the ledger's (erasure.ts): the customer's
 * details go from their orders, sessions and orders' webhooks, their saved cards with them; the
 * orders stay, with their money.
 *
 *   POST /api/customers/erasures   { email?, customer_id? }   → 200 Erasure
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { CompanionEnv } from '../context.js';
import { validate } from '../http/validate.js';
import { CUSTOMER_ID_MAX } from './card-routes.js';
import { CustomerEmail } from './order-routes.js';

export const ErasureRequest = z
  .strictObject({
    email: CustomerEmail.optional().describe('Whose details to erase: every order, session and webhook with this e-mail (case aside, its domain in Unicode or as xn--)'),
    customer_id: z
      .string()
      .min(1, 'must not be empty')
      .max(CUSTOMER_ID_MAX, `must be at most ${CUSTOMER_ID_MAX} characters`)
      .optional()
      .describe('Whose details to erase: every order and session opened under this customer id; the cards saved under it are deleted'),
  })
  .refine((request) => request.email !== undefined || request.customer_id !== undefined, { path: ['email'], error: 'give the customer’s email, customer_id, or both' });

export const Erasure = z.object({
  order_ids: z.array(z.string()).describe('The orders whose customer details and card tokens were erased; they stay, with their amounts, card masks and money'),
  sessions: z.number().int().describe('Checkout sessions whose customer details were erased, those never paid included'),
  events: z.number().int().describe('Stored webhook events of those orders whose customer_* fields were dropped'),
  cards: z.number().int().describe('Saved cards deleted (customer_id)'),
});

export function erasureRoutes(): Hono<CompanionEnv> {
  const erasures = new Hono<CompanionEnv>();

  erasures.post('/erasures', validate('json', ErasureRequest), async (c) => {
    const { ledger, logger } = c.var.services;
    const { email, customer_id: customerId } = c.req.valid('json');
    const erased = await ledger.eraseCustomer({ email, customerId });
    // Neither the e-mail nor anything else of the person: the line would keep what was erased.
    logger.info('a customer’s personal data erased', { orders: erased.orderIds.length, sessions: erased.sessions, events: erased.events, cards: erased.cards });
    return c.json({ order_ids: [...erased.orderIds], sessions: erased.sessions, events: erased.events, cards: erased.cards } satisfies z.output<typeof Erasure>);
  });

  return erasures;
}
