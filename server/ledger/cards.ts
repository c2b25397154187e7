// Saved cards: the gateway's token and mask per merchant customer. There is no column for a
// card number or CVV, and a mask with more than ten digits is refused.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { OnConflictBuilder } from 'kysely';
import type { LedgerContext } from './context.js';
import { LedgerNotFound } from './errors.js';
import { newSavedCardInput, parseInput } from './input.js';
import { toSavedCard } from './rows.js';
import type { LedgerTables, SavedCardRow } from './schema.js';
import type { CustomerDetails, NewSavedCard, SavedCard } from './types.js';

/** A card's row, new: saving a token the customer already has refreshes it instead (below). */
function newCardRow(ctx: LedgerContext, input: NewSavedCard): SavedCardRow {
  const card = parseInput(newSavedCardInput, input);
  const now = ctx.now();
  return {
    id: randomUUID(),
    customer_id: card.customerId,
    cc_token: card.ccToken,
    cc_mask: card.ccMask,
    brand: card.brand ?? null,
    token_expiration: card.tokenExpiration ?? null,
    created_at: now,
    last_used_at: now,
  };
}

/** The SQL type of each column, for an INSERT … SELECT (PostgreSQL cannot tell a parameter's type there). */
const cardTypes = {
  id: 'text', customer_id: 'text', cc_token: 'text', cc_mask: 'text', brand: 'text', token_expiration: 'text', created_at: 'bigint', last_used_at: 'bigint',
} as const satisfies Record<keyof SavedCardRow, 'text' | 'bigint'>;

/** A token the customer already has: its mask, brand, expiry and last use refreshed. */
const refreshed = (oc: OnConflictBuilder<LedgerTables, 'saved_cards'>) =>
  oc.columns(['customer_id', 'cc_token']).doUpdateSet((eb) => ({
    cc_mask: eb.ref('excluded.cc_mask'),
    brand: eb.ref('excluded.brand'),
    token_expiration: eb.ref('excluded.token_expiration'),
    last_used_at: eb.ref('excluded.last_used_at'),
  }));

export async function saveCard(ctx: LedgerContext, input: NewSavedCard): Promise<SavedCard> {
  const row = await ctx.db.insertInto('saved_cards').values(newCardRow(ctx, input)).onConflict(refreshed).returningAll().executeTakeFirstOrThrow();
  return toSavedCard(row);
}

/**
 * The card of a session's successful payment, saved as saveCard does — unless the session was
 * opened with `saveCard: false`: then nothing (undefined). One statement, the check inside it.
 */
export async function savePaymentCard(ctx: LedgerContext, sessionId: string, input: NewSavedCard): Promise<SavedCard | undefined> {
  const row = newCardRow(ctx, input);
  const columns = Object.keys(cardTypes) as (keyof SavedCardRow)[];
  const saved = await ctx.db
    .insertInto('saved_cards')
    .columns(columns)
    .expression(
      ctx.db
        .selectNoFrom(columns.map((column) => sql`cast(${row[column]} as ${sql.raw(cardTypes[column])})`.as(column)))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('no_card_sessions').select(sql.lit(1).as('one')).where('session_id', '=', sessionId)))),
    )
    .onConflict(refreshed)
    .returningAll()
    .executeTakeFirst();
  return saved && toSavedCard(saved);
}

/** Most recently used first. */
export async function listCards(ctx: LedgerContext, customerId: string): Promise<SavedCard[]> {
  const rows = await ctx.db.selectFrom('saved_cards').selectAll().where('customer_id', '=', customerId).orderBy('last_used_at', 'desc').orderBy('id').execute();
  return rows.map(toSavedCard);
}

/** By the card's id or its gateway token, only among this customer's cards. */
export async function findCard(ctx: LedgerContext, customerId: string, idOrToken: string): Promise<SavedCard | undefined> {
  const row = await ctx.db
    .selectFrom('saved_cards')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where((eb) => eb.or([eb('id', '=', idOrToken), eb('cc_token', '=', idOrToken)]))
    .executeTakeFirst();
  return row && toSavedCard(row);
}

/**
 * The customer details of the latest payment (or verification) made with this saved card, each
 * field they lack from the customer's latest payment that had it: who the cardholder is when the merchant
 * charges the card without them present (the gateway takes a customer's details as theirs, for
 * every card).
 */
export async function cardholderOf(ctx: LedgerContext, customerId: string, ccToken: string): Promise<CustomerDetails | undefined> {
  // The customer's latest payments that carried details: a hosted one carries none (they typed
  // them at the gateway), so a card saved by a hosted verification has its customer's others.
  const rows = await ctx.db
    .selectFrom('payments')
    .select(['customer', 'cc_token'])
    .where('customer_id', '=', customerId)
    .where('customer', '<>', '{}')
    .orderBy('created_at', 'desc')
    .limit(CARDHOLDER_READS)
    .execute();
  if (rows.length === 0) return undefined;
  const details = (row: { customer: string }) => JSON.parse(row.customer) as CustomerDetails;
  const withCard = rows.find((row) => row.cc_token === ccToken);
  // What was sent with this card wins; each field it lacks, the latest payment that had it gives.
  return Object.assign({}, ...rows.reverse().map(details), withCard && details(withCard)) as CustomerDetails;
}

/** How many of a customer's latest payments cardholderOf looks through for the card's own. */
const CARDHOLDER_READS = 50;

export async function deleteCard(ctx: LedgerContext, customerId: string, cardId: string): Promise<void> {
  const result = await ctx.db.deleteFrom('saved_cards').where('customer_id', '=', customerId).where('id', '=', cardId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new LedgerNotFound('card', cardId);
}
