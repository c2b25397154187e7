// Keys kept before idempotency keys had scopes (migration 0012): a ledger migrated as far as
// 0010 holds one, the ledger opens it (migrating the rest) and the first request of the key's
// exact content takes it over — so a retry across the upgrade is still answered once — while a
// request of other content under the key is refused as reused, as before scopes, whatever
// credential sent it: a retry whose body changed across the upgrade (0.2's decimals rewritten in
// minor units) must not run a second time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openLedger } from './index.js';
import type { Ledger } from './index.js';
import { ensureSchema, postgresDialect } from './postgres.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { migratedTo } from './testing/earlier-ledgers.js';

let dir: string;
let ledger: Ledger | undefined;
afterEach(async () => {
  await ledger?.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const answer = { status: 200, contentType: 'application/json', body: '{"operation":{"amount":2}}' };
const request = { key: 'refund-1', method: 'POST', path: '/api/orders/o-1/refund', leaseMs: 300_000, lifetimeMs: 86_400_000 };

/** A key 0.2 kept, answered: before scopes (0012 gives it scope ''). */
async function keptKey(db: Kysely<unknown>, now: number, scoped = false, key = 'refund-1'): Promise<void> {
  await db
    .insertInto('payform_idempotency_keys' as never)
    .values({ ...(scoped && { scope: '' }), key, method: 'POST', path: '/api/orders/o-1/refund', fingerprint: 'f'.repeat(64), state: 'done', claim_id: 'c-1', locked_until: null, status: 200, content_type: answer.contentType, body: answer.body, created_at: now, expires_at: now + HOUR } as never)
    .execute();
}

async function sqliteLedgerWithKeptKey(now: number, name: string): Promise<string> {
  const path = join(dir, name);
  const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) });
  await migratedTo(old, '0010_payform_prefix');
  await keptKey(old, now);
  await old.destroy();
  return path;
}

it('adopts a key kept from before scopes for the request of its exact content, and refuses another request under it', async () => {
  dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-'));
  let now = Date.now();
  const path = await sqliteLedgerWithKeptKey(now, 'ledger.db');
  ledger = await openLedger(path, { clock: () => now });
  // The same merchant retrying with its body rewritten in the new unit, or another credential:
  // one key, as before scopes — never a second refund.
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'e'.repeat(64) })).toEqual({ outcome: 'reused' });
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-b', fingerprint: 'e'.repeat(64) })).toEqual({ outcome: 'reused' });
  // The retry that sent it before the upgrade gets its answer again, and keeps getting it.
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'f'.repeat(64) })).toEqual({ outcome: 'replay', answer });
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'f'.repeat(64) })).toEqual({ outcome: 'replay', answer });
  // Adopted, the key is merchant-a's: another credential's request under it is its own.
  expect((await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-b', fingerprint: 'e'.repeat(64) })).outcome).toBe('claimed');
  // A kept key past its lifetime refuses nothing.
  await ledger.close();
  const later = await sqliteLedgerWithKeptKey(now, 'later.db');
  ledger = await openLedger(later, { clock: () => now });
  now += 2 * HOUR;
  expect((await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'e'.repeat(64) })).outcome).toBe('claimed');
});

/** A kept key beside a row its scope already holds under it: the scope's row answers, no error. */
async function expectScopeRowToAnswer(db: Kysely<unknown>, open: () => Promise<Ledger>): Promise<void> {
  const now = Date.now();
  await keptKey(db, now, true);
  const scoped = { status: 200, contentType: 'application/json', body: '{"operation":{"amount":600}}' };
  await db
    .insertInto('payform_idempotency_keys' as never)
    .values({ scope: 'merchant-a', key: 'refund-1', method: 'POST', path: '/api/orders/o-1/refund', fingerprint: 'e'.repeat(64), state: 'done', claim_id: 'c-2', locked_until: null, status: 200, content_type: scoped.contentType, body: scoped.body, created_at: now, expires_at: now + HOUR } as never)
    .execute();
  ledger = await open();
  // The kept key's own retry, in the scope that holds the key: it was a 500 for every retry.
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'f'.repeat(64) })).toEqual({ outcome: 'reused' });
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'e'.repeat(64) })).toEqual({ outcome: 'replay', answer: scoped });
}

it('answers from the scope\'s own row when the scope already holds a kept key (SQLite)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-'));
  const path = join(dir, 'ledger.db');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) });
  try {
    await migratedTo(db, '0012_idempotency_scopes');
    await expectScopeRowToAnswer(db, () => openLedger(path));
  } finally {
    await db.destroy();
  }
});

withTestDatabase((url) => {
  it('answers from the scope\'s own row when the scope already holds a kept key (PostgreSQL)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-'));
    const schema = freshSchemaName();
    const db = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
    try {
      await ensureSchema(db, schema);
      await migratedTo(db, '0012_idempotency_scopes', schema);
      await expectScopeRowToAnswer(db, () => openLedger(url, { schema }));
    } finally {
      await ledger?.close();
      ledger = undefined;
      await db.destroy();
      await dropSchema(url, schema);
    }
  });
});

it('adopts, or refuses under, a key 0.2 kept as sent that the companion now keeps as a digest (it holds a card number)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-'));
  const now = Date.now();
  const path = join(dir, 'ledger.db');
  const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) });
  await migratedTo(old, '0010_payform_prefix');
  // 0.2 kept keys as sent; one holding a card number is now kept as its digest.
  const former = 'order-4242 4242 4242 4242';
  await keptKey(old, now, false, former);
  await old.destroy();
  ledger = await openLedger(path, { clock: () => now });
  const digested = { ...request, scope: 'merchant-a', key: 'h-digest', formerKey: former };
  // Its body rewritten across the upgrade: refused, not a second refund.
  expect(await ledger.claimIdempotencyKey({ ...digested, fingerprint: 'e'.repeat(64) })).toEqual({ outcome: 'reused' });
  // Its exact retry: the first answer, under the digest from now on.
  expect(await ledger.claimIdempotencyKey({ ...digested, fingerprint: 'f'.repeat(64) })).toEqual({ outcome: 'replay', answer });
  expect(await ledger.claimIdempotencyKey({ ...digested, fingerprint: 'f'.repeat(64) })).toEqual({ outcome: 'replay', answer });
});
