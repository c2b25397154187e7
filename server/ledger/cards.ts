// Saved cards: the gateway's token and mask per merchant customer. There is no column for a
// card number or CVV, and a mask with more than ten digits is refused.
import { randomUUID } from 'node:crypto';
import type { LedgerContext } from './context.js';
import { LedgerNotFound } from './errors.js';
import { newSavedCardInput, parseInput } from './input.js';
import { toSavedCard } from './rows.js';
import type { NewSavedCard, SavedCard } from './types.js';

/** Saving a token the customer already has refreshes its mask, brand, expiry and last use. */
export async function saveCard(ctx: LedgerContext, input: NewSavedCard): Promise<SavedCard> {
  const card = parseInput(newSavedCardInput, input);
  const now = ctx.now();
  const row = await ctx.db
    .insertInto('savedCards')
    .values({
      id: randomUUID(),
      customerId: card.customerId,
      ccToken: card.ccToken,
      ccMask: card.ccMask,
      brand: card.brand ?? null,
      tokenExpiration: card.tokenExpiration ?? null,
      createdAt: now,
      lastUsedAt: now,
    })
    .onConflict((oc) =>
      oc.columns(['customerId', 'ccToken']).doUpdateSet((eb) => ({
        ccMask: eb.ref('excluded.ccMask'),
        brand: eb.ref('excluded.brand'),
        tokenExpiration: eb.ref('excluded.tokenExpiration'),
        lastUsedAt: eb.ref('excluded.lastUsedAt'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSavedCard(row);
}

/** Most recently used first. */
export async function listCards(ctx: LedgerContext, customerId: string): Promise<SavedCard[]> {
  const rows = await ctx.db.selectFrom('savedCards').selectAll().where('customerId', '=', customerId).orderBy('lastUsedAt', 'desc').orderBy('id').execute();
  return rows.map(toSavedCard);
}

/** By the card's id or its gateway token, only among this customer's cards. */
export async function findCard(ctx: LedgerContext, customerId: string, idOrToken: string): Promise<SavedCard | undefined> {
  const row = await ctx.db
    .selectFrom('savedCards')
    .selectAll()
    .where('customerId', '=', customerId)
    .where((eb) => eb.or([eb('id', '=', idOrToken), eb('ccToken', '=', idOrToken)]))
    .executeTakeFirst();
  return row && toSavedCard(row);
}

export async function deleteCard(ctx: LedgerContext, customerId: string, cardId: string): Promise<void> {
  const result = await ctx.db.deleteFrom('savedCards').where('customerId', '=', customerId).where('id', '=', cardId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new LedgerNotFound('card', cardId);
}
