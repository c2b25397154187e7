// Whose payments a ledger holds. One ledger keeps one point of sale's payments: a companion of
// another point of sale on the same database would take them for its own — reconciliation asks
// its gateway about them, finds nothing, and ends them as never sent while the customer may still
// be paying at the other one. The first companion to open the ledger names its point of sale.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { LedgerContext } from './context.js';

const POINT_OF_SALE = 'pos_id';

/**
 * The point of sale this ledger holds the payments of: `posId` if it held none yet (recorded
 * now, first come first served across instances), else the one it holds — unless it holds
 * `handoverFrom`'s, which `posId` takes over (a project going live gets a new point of sale).
 */
export async function claimPointOfSale(ctx: LedgerContext, posId: string, handoverFrom?: string): Promise<string> {
  const value = posId.toLowerCase();
  await ctx.db.insertInto('ledger_settings').values({ key: POINT_OF_SALE, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
  if (handoverFrom !== undefined) {
    await ctx.db.updateTable('ledger_settings').set({ value }).where('key', '=', POINT_OF_SALE).where('value', '=', handoverFrom.toLowerCase()).execute();
  }
  const held = await ctx.db.selectFrom('ledger_settings').select('value').where('key', '=', POINT_OF_SALE).executeTakeFirstOrThrow();
  return held.value;
}

const GATEWAY = 'gateway';

/**
 * The gateway (its origin) this ledger's payments are sent to: `origin` if none was recorded yet,
 * or when `replace` (a handover, a gateway that moved); else the one recorded. A companion sent
 * to another finds none of the ledger's payments there, and would end those still being paid as
 * never sent.
 */
export async function claimGateway(ctx: LedgerContext, origin: string, replace = false): Promise<string> {
  const row = ctx.db.insertInto('ledger_settings').values({ key: GATEWAY, value: origin });
  await (replace ? row.onConflict((oc) => oc.column('key').doUpdateSet({ value: origin })) : row.onConflict((oc) => oc.column('key').doNothing())).execute();
  const held = await ctx.db.selectFrom('ledger_settings').select('value').where('key', '=', GATEWAY).executeTakeFirstOrThrow();
  return held.value;
}

const LEDGER_ID = 'ledger_id';

/**
 * The ledger's own name: a random id recorded by its first open (first come first served across
 * instances), read at every open. Instances on one database, file or schema read the same one;
 * any other ledger has its own — how a companion tells an instance of itself from a stranger.
 */
export async function readLedgerId(ctx: LedgerContext): Promise<string> {
  const read = () => ctx.db.selectFrom('ledger_settings').select('value').where('key', '=', LEDGER_ID).executeTakeFirst();
  const held = await read();
  if (held) return held.value;
  await ctx.db.insertInto('ledger_settings').values({ key: LEDGER_ID, value: randomUUID() }).onConflict((oc) => oc.column('key').doNothing()).execute();
  return (await read())!.value;
}

const ADMIN_TOKEN_CHECK = 'admin_token_check';
/** Each admin token an instance started with, by its check (a keyed hash): its key, under this prefix, holds when (ms, 13 digits). */
const ADMIN_TOKEN_STARTED = 'admin_token_started:';
/** How long a token an instance started with is remembered: one running that long on it is told by its own refusals. */
export const ADMIN_TOKEN_REMEMBERED_MS = 30 * 24 * 60 * 60_000;

/**
 * Records `check` (a keyed hash of an instance's admin token, never the token) and answers the
 * one recorded before it, if any: a companion starting on a shared ledger tells from it that
 * another instance was given another token. It is also kept among the tokens instances started
 * with (adminTokenStartedAt), those older than ADMIN_TOKEN_REMEMBERED_MS let go. Left out of a copy
 * (LEDGER_IDENTITY): it is the instances' own.
 */
export async function recordAdminTokenCheck(ctx: LedgerContext, check: string): Promise<string | undefined> {
  await recordDated(ctx, ADMIN_TOKEN_STARTED, check, ctx.now(), ADMIN_TOKEN_REMEMBERED_MS);
  return recordInstanceValue(ctx, ADMIN_TOKEN_CHECK, check);
}

const SHARED_SETTINGS = 'shared_settings';

/**
 * Records the settings instances must agree on (the companion's own text of them) and answers
 * those recorded before, if any, as recordAdminTokenCheck does the token's. Left out of a copy too.
 */
export const recordSharedSettings = (ctx: LedgerContext, settings: string): Promise<string | undefined> => recordInstanceValue(ctx, SHARED_SETTINGS, settings);

/** An instance's value under `key`, recorded at its start; the one an instance started before it recorded. */
async function recordInstanceValue(ctx: LedgerContext, key: string, value: string): Promise<string | undefined> {
  // The first record is an insert that only one instance wins: two first starting together
  // would each read none before either wrote, and neither be told of the other.
  const first = await ctx.db
    .insertInto('ledger_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('value')
    .executeTakeFirst();
  if (first) return undefined;
  const before = await ctx.db.selectFrom('ledger_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  if (before.value !== value) await ctx.db.updateTable('ledger_settings').set({ value }).where('key', '=', key).execute();
  return before.value;
}

/**
 * When an instance on this ledger last started with the admin token `check` names (its keyed
 * hash), within ADMIN_TOKEN_REMEMBERED_MS; undefined for one none started with. A token refused
 * here that another instance started with is this instance's mistake, not the caller's.
 */
export async function adminTokenStartedAt(ctx: LedgerContext, check: string): Promise<number | undefined> {
  const row = await ctx.db.selectFrom('ledger_settings').select('value').where('key', '=', ADMIN_TOKEN_STARTED + check).executeTakeFirst();
  return row && Number(row.value) > ctx.now() - ADMIN_TOKEN_REMEMBERED_MS ? Number(row.value) : undefined;
}

/** A client that sent the right admin or metrics token: its key, under this prefix, holds when (ms, 13 digits). */
const TOKEN_HOLDER = 'token_holder:';
/** How long a client that sent the right token keeps passing a stranger's lockout of its address. */
export const TOKEN_HOLDER_KEPT_MS = 24 * 60 * 60_000;

/**
 * Records that `client` (a network's key, never a token) sent the right token at `at`, for every
 * instance and start after this one; those older than a day are let go as it is written.
 */
export function recordTokenHolder(ctx: LedgerContext, client: string, at: number): Promise<void> {
  return recordDated(ctx, TOKEN_HOLDER, client, at, TOKEN_HOLDER_KEPT_MS);
}

/** Records `at` under `prefix` + `key`, and lets go those under `prefix` older than `keptMs` at it. */
async function recordDated(ctx: LedgerContext, prefix: string, key: string, at: number, keptMs: number): Promise<void> {
  const value = String(at);
  await ctx.db.insertInto('ledger_settings').values({ key: prefix + key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
  // Compared as text: every time since 2001 is 13 digits.
  await ctx.db.deleteFrom('ledger_settings').where('key', 'like', `${prefix}%`).where('value', '<=', String(at - keptMs)).execute();
}

/** The clients that sent the right token within the day, as every instance recorded them: each with when. */
export async function tokenHolders(ctx: LedgerContext): Promise<ReadonlyMap<string, number>> {
  const rows = await ctx.db.selectFrom('ledger_settings').select(['key', 'value']).where('key', 'like', `${TOKEN_HOLDER}%`).execute();
  const since = ctx.now() - TOKEN_HOLDER_KEPT_MS;
  return new Map(rows.filter(({ value }) => Number(value) > since).map(({ key, value }) => [key.slice(TOKEN_HOLDER.length), Number(value)]));
}

const WRITE_PROBE = 'write_probe';

/**
 * Commits one small write (when it ran, under its own key): whether the database takes writes
 * now. A full disk, or a file or disk made read-only, still answers reads; only a commit tells.
 */
export async function probeWrite(ctx: LedgerContext): Promise<void> {
  const value = String(ctx.now());
  await ctx.db.insertInto('ledger_settings').values({ key: WRITE_PROBE, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}

/**
 * How far this instance's clock (`now`) is ahead of the database server's, in milliseconds
 * (behind: below zero), read around one statement: instances sharing a PostgreSQL ledger judge
 * a session's expiry and a payment's age by their own clocks, so one skewed refuses sessions
 * the others opened. Undefined for SQLite, which reads this machine's clock.
 */
export async function clockOffset(ctx: LedgerContext): Promise<number | undefined> {
  if (ctx.dialect !== 'postgres') return undefined;
  const before = ctx.now();
  const { rows } = await sql<{ now: string }>`select extract(epoch from clock_timestamp()) * 1000 as now`.execute(ctx.db);
  const after = ctx.now();
  return Math.round((before + after) / 2 - Number(rows[0]!.now));
}

/**
 * The settings that go with the ledger when it is copied to another database (ledger-copy.ts):
 * its name and whose payments it holds. The others are the database's own and are left to it —
 * the write probe, the session sweep's place, the online index builder's claim, the admin
 * token's check and its holders.
 */
export const LEDGER_IDENTITY: readonly string[] = [LEDGER_ID, POINT_OF_SALE, GATEWAY];
