/**
 * A customer's saved cards (bearer ADMIN_TOKEN): what the widget offers them, and the
 * merchant's way to forget one. Tokens are not shown; cards are named by their ledger id.
 *
 *   GET    /api/customers/:customer_id/cards
 *   DELETE /api/customers/:customer_id/cards/:card_id
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { SavedCard } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { gatewayTime } from '../payments/gateway-time.js';

export const CardView = z.object({
  id: z.string().describe('What the pay request sends as card.token'),
  mask: z.string(),
  brand: z.string().nullable(),
  token_expiration: z.iso
    .datetime()
    .nullable()
    .describe('When the gateway’s token of the card stops working, UTC (past it a charge is refused 409 card_expired); null when the gateway gave none, or none that reads as a time'),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime(),
});
export const CardList = z.object({ cards: z.array(CardView) });

const rfc3339 = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

function cardView(card: SavedCard): z.output<typeof CardView> {
  return {
    id: card.id,
    mask: card.ccMask,
    brand: card.brand,
    token_expiration: rfc3339(gatewayTime(card.tokenExpiration)),
    created_at: new Date(card.createdAt).toISOString(),
    last_used_at: new Date(card.lastUsedAt).toISOString(),
  };
}

/** The longest customer id a saved card is kept under (the gateway's customer_id). */
export const CUSTOMER_ID_MAX = 128;

/** The path's customer id, or 404 `customer_not_found` for one no card can be kept under. */
export function customerId(raw: string | undefined): string {
  if (!raw || raw.length > CUSTOMER_ID_MAX) throw ApiProblem.notFound('The customer', 'customer_not_found');
  return raw;
}

export function cardRoutes(): Hono<CompanionEnv> {
  const cards = new Hono<CompanionEnv>();

  cards.get('/:customer_id/cards', async (c) => {
    const list = await c.var.services.ledger.listCards(customerId(c.req.param('customer_id')));
    return c.json({ cards: list.map(cardView) } satisfies z.output<typeof CardList>);
  });

  cards.delete('/:customer_id/cards/:card_id', async (c) => {
    const { ledger, logger } = c.var.services;
    const customer = customerId(c.req.param('customer_id'));
    const id = c.req.param('card_id');
    const card = id.length <= 64 ? await ledger.findCard(customer, id) : undefined;
    if (card?.id !== id) throw ApiProblem.notFound('The saved card', 'card_not_found');
    await ledger.deleteCard(customer, card.id);
    logger.info('saved card deleted', { customer_id: customer });
    return c.body(null, 204);
  });

  return cards;
}
