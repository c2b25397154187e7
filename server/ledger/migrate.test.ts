// A migration that fails says which one and why (the database's own words), so whoever starts
// the companion can act on it without a debugger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { sqliteDialect } from './sqlite.js';

describe('a failed migration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'payform-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the migration and carries its cause, in the message and as `cause`', async () => {
    const path = join(dir, 'shop.db');
    // A database that already holds a table of that name, not the ledger's.
    const shop = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
    await sql`create table checkout_sessions (cart text)`.execute(shop);
    await shop.destroy();

    const failure = await openLedger(path).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/^ledger: migration 0001_initial failed: .*table "?checkout_sessions"? already exists/);
    expect((failure?.cause as Error | undefined)?.message).toMatch(/checkout_sessions/);
  });
});
