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
import { SAVED_CARD_COLUMNS } from './columns.js';

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
  const row = await ctx.db.insertInto('saved_cards').values(newCardRow(ctx, input)).onConflict(refreshed).returning(SAVED_CARD_COLUMNS).executeTakeFirstOrThrow();
  return toSavedCard(row);
}

/** An attempt pays with a saved card of its customer's (savePaymentCard): marked before it is sent. */
export async function markSavedCardPayment(ctx: LedgerContext, orderId: string): Promise<void> {
  await ctx.db.insertInto('saved_card_payments').values({ order_id: orderId }).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * The card of a session's successful payment, saved as saveCard does — unless the session was
 * opened with `saveCard: false`: then nothing (undefined). A payment made with a saved card
 * (markSavedCardPayment) refreshes that card only while it is saved: a customer who deleted it
 * during the payment's 3-D Secure does not find it back. One statement, the checks inside it.
 */
export async function savePaymentCard(ctx: LedgerContext, payment: PaidAttempt, input: NewSavedCard): Promise<SavedCard | undefined> {
  const row = newCardRow(ctx, input);
  const columns = Object.keys(cardTypes) as (keyof SavedCardRow)[];
  const saved = await ctx.db
    .insertInto('saved_cards')
    .columns(columns)
    .expression(
      ctx.db
        .selectNoFrom(columns.map((column) => sql`cast(${row[column]} as ${sql.raw(cardTypes[column])})`.as(column)))
        .where(({ and, or, not, exists, selectFrom }) =>
          and([
            not(exists(selectFrom('no_card_sessions').select(sql.lit(1).as('one')).where('session_id', '=', payment.sessionId))),
            // A saved card's payment only ever meets its row (the conflict refreshes it), never makes one.
            or([
              not(exists(selectFrom('saved_card_payments').select(sql.lit(1).as('one')).where('order_id', '=', payment.orderId))),
              exists(selectFrom('saved_cards').select(sql.lit(1).as('one')).where('customer_id', '=', row.customer_id).where('cc_token', '=', row.cc_token)),
            ]),
          ]),
        ),
    )
    .onConflict(refreshed)
    .returning(SAVED_CARD_COLUMNS)
    .executeTakeFirst();
  return saved && toSavedCard(saved);
}

/** The attempt whose success keeps its card: its session's consent, and whether a saved card paid it. */
export interface PaidAttempt {
  readonly sessionId: string;
  readonly orderId: string;
}

/** Most recently used first. */
export async function listCards(ctx: LedgerContext, customerId: string): Promise<SavedCard[]> {
  const rows = await ctx.db.selectFrom('saved_cards').select(SAVED_CARD_COLUMNS).where('customer_id', '=', customerId).orderBy('last_used_at', 'desc').orderBy('id').execute();
  return rows.map(toSavedCard);
}

/** By the card's id or its gateway token, only among this customer's cards. */
export async function findCard(ctx: LedgerContext, customerId: string, idOrToken: string): Promise<SavedCard | undefined> {
  const row = await ctx.db
    .selectFrom('saved_cards')
    .select(SAVED_CARD_COLUMNS)
    .where('customer_id', '=', customerId)
    .where((eb) => eb.or([eb('id', '=', idOrToken), eb('cc_token', '=', idOrToken)]))
    .executeTakeFirst();
  return row && toSavedCard(row);
}

/**
 * Who the cardholder is when the merchant charges the card without them present: the customer
 * details of the latest payment (or verification) made with this saved card. A field it lacks —
 * all of them, for a card saved on a hosted page, whose details the customer typed at the
 * gateway — comes from the customer's latest successful payment that had it: the gateway takes a
 * customer's details as theirs, for every card. Never their address (`ip`): a charge's is none.
 */
export async function cardholderOf(ctx: LedgerContext, customerId: string, ccToken: string): Promise<CustomerDetails | undefined> {
  const newestFirst = ctx.db.selectFrom('payments').select('customer').where('customer_id', '=', customerId).orderBy('created_at', 'desc').orderBy('order_id', 'desc');
  const own = await newestFirst.where('cc_token', '=', ccToken).limit(1).executeTakeFirst();
  const ownDetails = own && (JSON.parse(own.customer) as CustomerDetails);
  if (ownDetails && HOLDER_FIELDS.every((field) => ownDetails[field])) return ownDetails;
  const others = await newestFirst.where('status', '=', 'success').where('customer', '<>', '{}').limit(HOLDER_READS).execute();
  if (others.length === 0) return ownDetails;
  const { ip: _address, ...known } = Object.assign({}, ...others.reverse().map((row) => JSON.parse(row.customer) as CustomerDetails)) as CustomerDetails;
  return { ...known, ...ownDetails };
}

/** What the gateway requires of a customer paying directly. */
const HOLDER_FIELDS = ['fname', 'lname', 'email', 'phone'] as const;

/** How many of the customer's latest successful payments a card's holder is completed from. */
const HOLDER_READS = 50;

export async function deleteCard(ctx: LedgerContext, customerId: string, cardId: string): Promise<void> {
  const result = await ctx.db.deleteFrom('saved_cards').where('customer_id', '=', customerId).where('id', '=', cardId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new LedgerNotFound('card', cardId);
}
