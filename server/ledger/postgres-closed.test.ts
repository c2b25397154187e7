// A PostgreSQL database closed to connections for a while — ALTER DATABASE … ALLOW_CONNECTIONS
// false for maintenance, renamed away and back — is the database away, not a fault in a query:
// answered 503 and said once as an outage, then used again with no restart.
import { afterEach, describe, expect, it } from 'vitest';
import { isLedgerUnavailable } from './availability.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { teaSession } from './testing/contract.js';
import { withTestDatabase } from './testing/databases.js';
import { withClient } from './testing/schema-pool.js';
import { databaseWithRoleSettings } from './testing/role-settings.js';
import type { RoleSettingsDatabase } from './testing/role-settings.js';

withTestDatabase((url) => {
  describe('a PostgreSQL database closed to connections for a while', () => {
    let database: RoleSettingsDatabase | undefined;
    let ledger: Ledger | undefined;
    afterEach(async () => {
      await ledger?.close();
      await database?.drop();
    }, 90_000);

    it('refuses work as the database being away while it takes none (55000) or is renamed away (3D000), then works again', async () => {
      database = await databaseWithRoleSettings(url, {}, async (own) => (await openLedger(own)).close());
      const name = new URL(database.url).pathname.slice(1);
      ledger = await openLedger(database.url, { poolSize: 1 });
      await ledger.createSession(teaSession);
      const admin = (...statements: string[]) =>
        withClient(url, async (client) => {
          for (const statement of statements) await client.query(statement);
        });
      const refusal = async () => {
        const refused = await ledger!.createSession(teaSession).then(() => undefined, (error: unknown) => error);
        expect(isLedgerUnavailable(refused), String(refused)).toBe(true);
        return refused as { code?: string };
      };
      const terminate = `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`;
      await admin(`alter database ${name} with allow_connections false`, terminate);
      await expect.poll(refusal).toMatchObject({ code: '55000' });
      await admin(`alter database ${name} rename to ${name}_away`);
      await expect.poll(refusal).toMatchObject({ code: '3D000' });
      await admin(`alter database ${name}_away rename to ${name}`, `alter database ${name} with allow_connections true`);
      expect((await ledger.createSession(teaSession)).amount).toBe(teaSession.amount);
    });
  });
});
