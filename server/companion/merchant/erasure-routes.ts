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
import { OrdersInFlight } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import type { ProblemBody } from '../http/problem.js';
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
  .refine((request) => request.email !== undefined || request.customer_id !== undefined, { path: ['email'], error: 'is required unless customer_id is given' })
  // Said to a client generated from the document too: `{}` is refused.
  .meta({ anyOf: [{ required: ['email'] }, { required: ['customer_id'] }] });

export const Erasure = z.object({
  order_ids: z.array(z.string()).describe('The orders whose customer details and card tokens were erased; they stay, with their amounts, card masks and money'),
  sessions: z.number().int().nonnegative().describe('Checkout sessions whose customer details were erased, those never paid included (closed, so none is paid with what it was opened with)'),
  events: z.number().int().nonnegative().describe('Stored webhook events of those orders whose customer_* fields and card token were dropped'),
  cards: z.number().int().nonnegative().describe('Saved cards deleted (customer_id)'),
  customer_ids: z
    .array(z.string())
    .describe('Your customer ids on the orders found but the one given: the cards saved under them stay (erase by customer_id to delete them); empty when there are none'),
});

/** 409 payment_in_flight, its orders named for a program too. */
class OrdersInFlightProblem extends ApiProblem {
  constructor(readonly orderIds: readonly string[], message: string) {
    super(409, 'payment_in_flight', message);
  }

  override get body(): ProblemBody & { readonly error: { readonly order_ids: readonly string[] } } {
    return { error: { ...super.body.error, order_ids: this.orderIds } };
  }
}

export function erasureRoutes(): Hono<CompanionEnv> {
  const erasures = new Hono<CompanionEnv>();

  erasures.post('/erasures', validate('json', ErasureRequest), async (c) => {
    const { ledger, logger, feed, clock } = c.var.services;
    const { email, customer_id: customerId } = c.req.valid('json');
    const erased = await ledger.eraseCustomer({ email, customerId }).catch((error: unknown) => {
      throw error instanceof OrdersInFlight ? new OrdersInFlightProblem(error.orderIds, error.message) : error;
    });
    // A back office showing one of them (another tab, another operator) reads it again.
    for (const orderId of erased.orderIds) feed.publish({ kind: 'customer', orderId, status: 'erased', source: 'merchant', at: clock() });
    // Neither the e-mail nor anything else of the person: the line would keep what was erased.
    logger.info('a customer’s personal data erased', { orders: erased.orderIds.length, sessions: erased.sessions, events: erased.events, cards: erased.cards });
    if (erased.walKept) {
      logger.warn(
        'the SQLite ledger’s write-ahead log could not be emptied after an erasure: another process reads the file (a backup, a database browser, another companion), ' +
          'and the log keeps the erased details as they were until it is emptied once nothing else reads the file: at the next erasure, or when the companion stops',
      );
    }
    return c.json({
      order_ids: [...erased.orderIds], sessions: erased.sessions, events: erased.events, cards: erased.cards, customer_ids: [...erased.otherCustomerIds],
    } satisfies z.output<typeof Erasure>);
  });

  return erasures;
}
