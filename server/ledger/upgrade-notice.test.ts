// The start's line about an upgraded ledger: an upgrade from 0.2 renames the tables under the
// feet of any 0.2 instance still running on the ledger (a rolling upgrade), which from then on
// fails every request — so the line warns and says to stop them; a later upgrade only informs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openLedger, upgradeNotice } from './index.js';
import { ensureSchema, postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { migratedTo, paidOrderOf02 } from './testing/earlier-ledgers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'payform-upgrade-notice-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const STOP_0_2 = 'A payform 0.2 instance still running on this ledger fails every request from now on';

it('warns, opening a 0.2 ledger, that 0.2 instances still on it fail from now on, and says what each migration did', async () => {
  const path = join(dir, 'ledger.db');
  const old = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
  await migratedTo(old, '0009_lookup_method');
  await paidOrderOf02(old);
  const ledger = await openLedger(path);
  try {
    // What a 0.2 instance still open on the file reads: its tables are gone under its names.
    await expect(sql`select order_id from payments`.execute(old)).rejects.toThrow(/no such table: payments/);
    const notice = upgradeNotice(ledger.upgradedNow, ledger.dialect);
    expect(notice?.level).toBe('warn');
    expect(notice?.message).toContain('(migrations 0010_payform_prefix, 0011_charge_cards, ');
    expect(notice?.message).toContain('): tables and indexes renamed with the payform_ prefix, rows kept; ');
    expect(notice?.message).toContain(`${STOP_0_2} (no such table: payments): stop every 0.2 instance`);
    expect(notice?.message).toContain('docs/companion.md, "Upgrading from 0.2"');
  } finally {
    await old.destroy();
    await ledger.close();
  }
});

it('only informs when a 0.3 ledger is brought up to date, and says nothing when nothing ran', async () => {
  const path = join(dir, 'ledger.db');
  const old = new Kysely<unknown>({ dialect: await sqliteDialect(path) });
  await migratedTo(old, '0014_held_payments');
  await old.destroy();
  const ledger = await openLedger(path);
  const notice = upgradeNotice(ledger.upgradedNow, ledger.dialect);
  await ledger.close();
  expect(notice).toEqual({ level: 'info', message: expect.stringContaining('(migrations 0015_reviewed_events, 0016_ledger_settings, 0017_operation_transactions, 0018_order_search, 0019_card_consent, 0020_orders_by_currency, 0021_session_expiry, 0022_session_extension, 0023_movement_dates, 0024_operation_currency, 0025_saved_card_payments, 0026_erased_orders, 0027_erased_order_tokens, 0028_retention_waits): unmatched webhook events may be marked reviewed; ') });
  expect(notice?.message).not.toContain('0.2');
  const again = await openLedger(path);
  expect(upgradeNotice(again.upgradedNow, again.dialect)).toBeUndefined();
  await again.close();
});

withTestDatabase((url) => {
  it('warns on PostgreSQL too, where a 0.2 instance\'s pool meets the renamed tables', async () => {
    const schema = freshSchemaName();
    const old = new Kysely<unknown>({ dialect: await postgresDialect(url, { schema, poolSize: 1 }) });
    try {
      await ensureSchema(old, schema);
      await migratedTo(old, '0009_lookup_method', schema);
      await paidOrderOf02(old);
      const ledger = await openLedger(url, { schema });
      try {
        await expect(sql`select order_id from payments`.execute(old)).rejects.toThrow('relation "payments" does not exist');
        expect(upgradeNotice(ledger.upgradedNow, ledger.dialect)).toMatchObject({ level: 'warn', message: expect.stringContaining(`${STOP_0_2} (relation "payments" does not exist)`) });
      } finally {
        await ledger.close();
      }
    } finally {
      await old.destroy();
      await dropSchema(url, schema);
    }
  });
});
