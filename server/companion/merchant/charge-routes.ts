/**
 * Merchant-initiated charges of a saved card (bearer ADMIN_TOKEN), in the merchant route group
 * under /api/customers: no customer present; see saved-card-charges.ts.
 *
 *   POST /api/customers/:customer_id/cards/:card_id/charges   → 201 ChargeAnswer
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../context.js';
import { customerId } from './card-routes.js';
import { validate } from '../http/validate.js';
import { ChargeRequest } from './saved-card-charges.js';

export function chargeRoutes(): Hono<CompanionEnv> {
  const charges = new Hono<CompanionEnv>();

  // takesPayments is app.ts's (SAVED_CARD_CHARGES), before the Idempotency-Key is claimed.
  charges.post('/:customer_id/cards/:card_id/charges', validate('json', ChargeRequest), async (c) => {
    const customer = customerId(c.req.param('customer_id'));
    const request = c.req.valid('json');
    // A charge without its own order id takes one derived from its Idempotency-Key: a retry of it
    // can then never charge again, and the merchant has an order id to look at.
    const named = request.orderId ?? c.var.keyedOrderId;
    if (named !== undefined) c.set('payformOrderId', named);
    const answer = await c.var.services.charges.charge(customer, c.req.param('card_id'), request, c.var.keyedOrderId);
    c.set('payformOrderId', answer.order_id);
    return c.json(answer, 201);
  });

  return charges;
}
