// Keys kept before idempotency keys had scopes (migration 0012): a SQLite file migrated as far as
// 0010 holds one, the ledger opens it (migrating the rest) and the first request of the key's
// exact content takes it over — so a retry across the upgrade is still answered once — while
// another credential's request under the same key is its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openLedger } from './index.js';
import type { Ledger } from './index.js';
import { migratedTo } from './testing/earlier-ledgers.js';

let dir: string;
let ledger: Ledger | undefined;
afterEach(async () => {
  await ledger?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('adopts a key kept from before scopes for the request of its exact content only', async () => {
  dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-'));
  const path = join(dir, 'ledger.db');
  const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) });
  await migratedTo(old, '0010_payform_prefix');
  const now = Date.now();
  const answer = { status: 200, contentType: 'application/json', body: '{"operation":{"amount":2}}' };
  await old
    .insertInto('payform_idempotency_keys' as never)
    .values({ key: 'refund-1', method: 'POST', path: '/api/orders/o-1/refund', fingerprint: 'f'.repeat(64), state: 'done', claim_id: 'c-1', locked_until: null, status: 200, content_type: answer.contentType, body: answer.body, created_at: now, expires_at: now + 3_600_000 } as never)
    .execute();
  await old.destroy();

  ledger = await openLedger(path);
  const request = { key: 'refund-1', method: 'POST', path: '/api/orders/o-1/refund', leaseMs: 300_000, lifetimeMs: 86_400_000 };
  // Another merchant's request under the same key (another fingerprint) is its own claim.
  expect((await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-b', fingerprint: 'e'.repeat(64) })).outcome).toBe('claimed');
  // The retry that sent it before the upgrade gets its answer again.
  expect(await ledger.claimIdempotencyKey({ ...request, scope: 'merchant-a', fingerprint: 'f'.repeat(64) })).toEqual({ outcome: 'replay', answer });
});
