/**
 * The gateway's webhook events that apply to nothing in the ledger (bearer ADMIN_TOKEN): an
 * order id this ledger does not know (another shop on the same gateway project, a payment lost
 * with an old backup), another payment under a known order id, or a capture, void or refund
 * still waiting for its reservation. No order shows the first kind, and the reconciler only
 * logs them: this is where a person sees money the gateway says moved that the shop does not.
 *
 *   GET  /api/webhook-events              ?outcome=unmatched|parked (default unmatched)&limit=&cursor=
 *   POST /api/webhook-events/:id/review   a person settled an unmatched event elsewhere: it stops
 *                                         waiting (the list, reconciliation, the operator's gauge)
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { CompanionEnv } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { validate } from '../http/validate.js';
import { PageQuery } from './page-query.js';
import { EventView, WaitingEventView, eventView, waitingEventView } from './views.js';

export const EventListQuery = z.strictObject({
  outcome: z.enum(['unmatched', 'parked']).default('unmatched'),
  ...PageQuery,
});

export const WaitingEventPage = z.object({ events: z.array(WaitingEventView), next_cursor: z.string().nullable() });

export const ReviewedEvent = z.object({ event: EventView });

/** Events are named by the SHA-256 of their data, in hex. */
export const EVENT_ID = /^[0-9a-f]{64}$/;

export function eventRoutes(): Hono<CompanionEnv> {
  const events = new Hono<CompanionEnv>();

  events.get('/', validate('query', EventListQuery), async (c) => {
    const page = await c.var.services.ledger.listEvents(c.req.valid('query'));
    return c.json({ events: page.events.map(waitingEventView), next_cursor: page.nextCursor } satisfies z.output<typeof WaitingEventPage>);
  });

  // No field is taken: one sent is refused by name before this runs (declared-input.ts).
  events.post('/:id/review', async (c) => {
    const { ledger, logger } = c.var.services;
    const id = c.req.param('id');
    const event = EVENT_ID.test(id) ? await ledger.reviewEvent(id) : undefined;
    if (!event) throw ApiProblem.notFound('The webhook event', 'event_not_found');
    logger.info('an unmatched webhook event was marked reviewed', { event_id: id, order_id: event.orderId });
    return c.json({ event: eventView(event) } satisfies z.output<typeof ReviewedEvent>);
  });

  return events;
}
