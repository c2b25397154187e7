// Idempotency keys of the merchant API, each the merchant credential's that sent it (`scope`). A
// key is claimed by inserting its row: the primary key (scope, key) makes exactly one claimer win, whichever instance it runs on. The winner runs the request and
// stores the answer (or releases the key when the answer changed nothing); everyone else gets
// the stored answer, "in use" while the winner runs, or "reused" when their request differs.
// A claim whose holder died is taken over once its lease has run out, but not to run its request
// again: that may have reached the gateway, so the taker answers that the outcome is unknown. A
// key past its lifetime is free again, and swept.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { parseInput } from './input.js';
import type { IdempotencyKeyRow } from './schema.js';
import { IDEMPOTENCY_KEY_COLUMNS } from './columns.js';

export interface IdempotencyRequest {
  /**
   * Whose key it is: the credential that sent it, as a keyed hash (never the credential). Two
   * merchants sharing a database each have their own keys.
   */
  readonly scope: string;
  /** The client's Idempotency-Key, as the ledger keeps it. */
  readonly key: string;
  /**
   * How an earlier version kept the same key (as sent, where it now keeps a digest): a row under
   * it in this scope is moved to `key` first, so a retry across the upgrade finds it (and another
   * request under it is refused as reused).
   */
  readonly formerKey?: string;
  readonly method: string;
  readonly path: string;
  /** What identifies the request's content (a keyed hash of it); a different one is a reuse. */
  readonly fingerprint: string;
  /** How long the claim holds while the request runs; then another request may take it over. */
  readonly leaseMs: number;
  /** How long the key lives, counted from the claim and again from the stored answer. */
  readonly lifetimeMs: number;
}

/** An answer as it went out, to give again. */
export interface StoredAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export type IdempotencyClaim =
  | { readonly outcome: 'claimed'; readonly claimId: string }
  /** The claim's holder died mid-request (its lease ran out): this claim is to answer so, not to run. */
  | { readonly outcome: 'interrupted'; readonly claimId: string }
  | { readonly outcome: 'replay'; readonly answer: StoredAnswer }
  | { readonly outcome: 'in_progress' }
  | { readonly outcome: 'reused' };

const duration = z.number().int().positive().max(366 * 24 * 3_600_000);
const idempotencyRequest = z.strictObject({
  scope: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
  key: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  formerKey: z.string().min(1).max(255).optional(),
  method: z.string().min(1).max(16),
  path: z.string().min(1).max(2048, 'must be at most 2048 characters'),
  fingerprint: z.string().min(1).max(128),
  leaseMs: duration,
  lifetimeMs: duration,
});
const storedAnswer = z.strictObject({
  status: z.number().int().min(100).max(599),
  contentType: z.string().max(256),
  body: z.string(),
});

// A release racing with a claim can make the claimer find no row after losing the insert; it
// tries again, a few times, before it calls the key busy.
const CLAIM_ROUNDS = 3;

export async function claimIdempotencyKey(ctx: LedgerContext, input: IdempotencyRequest): Promise<IdempotencyClaim> {
  const request = parseInput(idempotencyRequest, input);
  if (await adoptUnscopedKey(ctx, request)) return { outcome: 'reused' };
  if (request.formerKey !== undefined) await adoptFormerKey(ctx, request, request.formerKey);
  const ours = { scope: request.scope, key: request.key };
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    const now = ctx.now();
    const claimId = randomUUID();
    const claim = {
      method: request.method,
      path: request.path,
      fingerprint: request.fingerprint,
      state: 'in_progress' as const,
      claim_id: claimId,
      locked_until: now + request.leaseMs,
      status: null,
      content_type: null,
      body: null,
      created_at: now,
      expires_at: now + request.lifetimeMs,
    };
    const inserted = await ctx.db
      .insertInto('idempotency_keys')
      .values({ ...ours, ...claim })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { outcome: 'claimed', claimId };

    // Taken over in one guarded statement each, so of two takers racing only one matches.
    const renewed = await ctx.db
      .updateTable('idempotency_keys')
      .set(claim)
      .where('scope', '=', ours.scope)
      .where('key', '=', ours.key)
      .where('expires_at', '<=', now)
      .returning('key')
      .executeTakeFirst();
    if (renewed) return { outcome: 'claimed', claimId };
    const orphaned = await ctx.db
      .updateTable('idempotency_keys')
      .set(claim)
      .where('scope', '=', ours.scope)
      .where('key', '=', ours.key)
      .where('state', '=', 'in_progress')
      .where('locked_until', '<=', now)
      .where('fingerprint', '=', request.fingerprint)
      .returning('key')
      .executeTakeFirst();
    if (orphaned) return { outcome: 'interrupted', claimId };

    const row = await ctx.db.selectFrom('idempotency_keys').select(IDEMPOTENCY_KEY_COLUMNS).where('scope', '=', ours.scope).where('key', '=', ours.key).executeTakeFirst();
    if (!row) continue;
    if (row.fingerprint !== request.fingerprint) return { outcome: 'reused' };
    const answer = storedOf(row);
    return answer ? { outcome: 'replay', answer } : { outcome: 'in_progress' };
  }
  return { outcome: 'in_progress' };
}

/**
 * A key kept from before keys had scopes ('') becomes the scope's whose request has its exact
 * fingerprint — a keyed hash only the credential that sent it can produce — so a retry across
 * the upgrade is still answered once. A request of another fingerprint under it is refused as
 * reused (true), whatever its scope, as it was before scopes: it cannot be told from the key's
 * own merchant retrying with a body changed across the upgrade (0.2's decimals rewritten in
 * minor units), which must not make a second refund or charge. A key 0.2 kept as sent that is
 * now kept as a digest (`formerKey`: it holds a card number) is the same key: adopted so, the
 * scope's row is then moved to the digest by adoptFormerKey. None left after their 24 hours.
 */
async function adoptUnscopedKey(ctx: LedgerContext, request: { scope: string; key: string; formerKey?: string | undefined; fingerprint: string }): Promise<boolean> {
  // Once none is left none comes back (every new key has a scope): no statement per request then.
  const known = unscopedKeys.get(ctx.db);
  if (known?.remain === false) return false;
  if (!known || ctx.now() - known.readAt >= UNSCOPED_RECHECK_MS) {
    if (!(await readUnscopedKeys(ctx))) return false;
  }
  const keys = request.formerKey === undefined ? [request.key] : [request.key, request.formerKey];
  try {
    const adopted = await ctx.db
      .updateTable('idempotency_keys')
      .set({ scope: request.scope })
      .where('scope', '=', '')
      .where('key', 'in', keys)
      .where('fingerprint', '=', request.fingerprint)
      .executeTakeFirst();
    if (adopted.numUpdatedRows > 0n) return false;
  } catch (error) {
    // The scope holds the key already (claimed before kept keys were refused to other
    // requests): its row is the one that answers.
    if (!isUniqueViolation(error)) throw error;
    return false;
  }
  // A row of the scope's own answers for the key; otherwise a kept one still alive refuses it.
  const now = ctx.now();
  const rows = await ctx.db
    .selectFrom('idempotency_keys')
    .select('scope')
    .where('key', 'in', keys)
    .where((eb) => eb.or([eb('scope', '=', request.scope), eb.and([eb('scope', '=', ''), eb('expires_at', '>', now)])]))
    .execute();
  return rows.length > 0 && rows.every((row) => row.scope === '');
}

/**
 * A key an earlier version kept as sent, kept from now on under its new form: the same key of the
 * same scope, whatever request it was (one of another fingerprint is then refused as reused, as
 * before). Where both forms have a row (the new one claimed meanwhile), the new one stands and
 * the old — a card number at rest — is deleted.
 */
async function adoptFormerKey(ctx: LedgerContext, request: { scope: string; key: string }, formerKey: string): Promise<void> {
  try {
    await ctx.db
      .updateTable('idempotency_keys')
      .set({ key: request.key })
      .where('scope', '=', request.scope)
      .where('key', '=', formerKey)
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await ctx.db.deleteFrom('idempotency_keys').where('scope', '=', request.scope).where('key', '=', formerKey).execute();
  }
}

/** SQLite's or PostgreSQL's refusal of a second row under one primary key. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

function storedOf(row: IdempotencyKeyRow): StoredAnswer | undefined {
  if (row.state !== 'done' || row.status === null || row.body === null) return undefined;
  return { status: row.status, contentType: row.content_type ?? 'application/json', body: row.body };
}

/**
 * Stores the answer of the claim `claimId` holds; the key then lives `lifetimeMs` from now.
 * False when the claim is no longer this one's (its lease ran out and another took it).
 */
export async function storeIdempotentAnswer(ctx: LedgerContext, key: string, claimId: string, answer: StoredAnswer, lifetimeMs: number): Promise<boolean> {
  const stored = parseInput(storedAnswer, answer);
  const now = ctx.now();
  const result = await ctx.db
    .updateTable('idempotency_keys')
    .set({ state: 'done', locked_until: null, status: stored.status, content_type: stored.contentType, body: stored.body, expires_at: now + parseInput(duration, lifetimeMs) })
    .where('claim_id', '=', claimId)
    .where('key', '=', key)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Frees a key whose request changed nothing, so it may be sent again (corrected or not). */
export async function releaseIdempotencyKey(ctx: LedgerContext, key: string, claimId: string): Promise<void> {
  await ctx.db.deleteFrom('idempotency_keys').where('claim_id', '=', claimId).where('key', '=', key).where('state', '=', 'in_progress').execute();
}

/**
 * Ends now the lease of a claim whose request could not be answered (the database went away
 * during it): the next request under the key takes it over as interrupted, to be answered from
 * what the ledger knows of it, rather than waiting out the lease or replaying the failure.
 * Ended as of the epoch (0), not of this instance's clock: another instance whose clock runs
 * behind would otherwise still see the lease running.
 */
export async function endIdempotencyLease(ctx: LedgerContext, key: string, claimId: string): Promise<void> {
  await ctx.db.updateTable('idempotency_keys').set({ locked_until: 0 }).where('claim_id', '=', claimId).where('key', '=', key).where('state', '=', 'in_progress').execute();
}

/** Deletes the keys past their lifetime; how many. */
export async function sweepIdempotencyKeys(ctx: LedgerContext): Promise<number> {
  const result = await ctx.db.deleteFrom('idempotency_keys').where('expires_at', '<=', ctx.now()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Per ledger: whether keys from before scopes may remain, and when that was last read. */
const unscopedKeys = new WeakMap<LedgerContext['db'], { remain: boolean; readAt: number }>();
const UNSCOPED_RECHECK_MS = 60 * 60_000;

/** Looks once (at open, then hourly while some remain) for keys kept from before scopes. */
export async function readUnscopedKeys(ctx: LedgerContext): Promise<boolean> {
  const row = await ctx.db.selectFrom('idempotency_keys').select('key').where('scope', '=', '').limit(1).executeTakeFirst();
  unscopedKeys.set(ctx.db, { remain: row !== undefined, readAt: ctx.now() });
  return row !== undefined;
}
