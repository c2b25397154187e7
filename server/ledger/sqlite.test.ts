// The shared ledger suite on SQLite: in memory and in a WAL file; and how the file is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteDialect } from './sqlite.js';
import { describeLedgerContract } from './testing/contract.js';
import { fileBackend, memoryBackend } from './testing/databases.js';

describeLedgerContract(memoryBackend);
describeLedgerContract(fileBackend);

describe('a SQLite ledger file', () => {
  it('is written ahead (WAL) and synced at every commit, so a commit outlives a power loss', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-sqlite-'));
    const db = new Kysely<unknown>({ dialect: await sqliteDialect(join(dir, 'ledger.db')) });
    try {
      const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0] as unknown;
      expect(await pragma('journal_mode')).toBe('wal');
      // 2 is FULL: NORMAL (1) syncs the WAL only at checkpoints.
      expect(await pragma('synchronous')).toBe(2);
      expect(await pragma('foreign_keys')).toBe(1);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
