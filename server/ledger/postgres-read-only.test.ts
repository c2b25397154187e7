// A PostgreSQL that took no writes for a while (a failover's standby first, a managed service's
// full disk, default_transaction_read_only): once it takes them again, so does the ledger, with
// no restart. A session opened read-only stays so for its life; the ledger must not keep it. And a
// database closed to connections for maintenance (ALLOW_CONNECTIONS false, renamed away and
// back) is the database away, not a fault in a query: used again once it is back.
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
  describe('a PostgreSQL that takes no writes, or no connections, for a while', () => {
    let database: RoleSettingsDatabase | undefined;
    let ledger: Ledger | undefined;
    // A database made and dropped for the test: on a busy server each waits for a checkpoint,
    // which took the hook past Vitest's 30 s once in a clean-clone run (alone it takes a second).
    afterEach(async () => {
      await ledger?.close();
      await database?.drop();
    }, 90_000);

    it('refuses writes as the database being away, then takes them once it does, on new connections', async () => {
      database = await databaseWithRoleSettings(url, {}, async (own) => (await openLedger(own)).close());
      const name = new URL(database.url).pathname.slice(1);
      ledger = await openLedger(database.url, { poolSize: 1 });
      await ledger.createSession(teaSession);
      // Read-only from its next session on, and the ledger's sessions ended, as a failover ends them.
      const sessions = (setting: string) =>
        withClient(url, async (client) => {
          await client.query(`alter role current_user in database ${name} ${setting}`);
          await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and usename = current_user and pid <> pg_backend_pid()', [name]);
        });
      await sessions('set default_transaction_read_only = on');
      const refused = await ledger.createSession(teaSession).then(() => undefined, (error: unknown) => error);
      expect(isLedgerUnavailable(refused), String(refused)).toBe(true);
      await expect.poll(async () => (await ledger!.createSession(teaSession).catch((error: unknown) => error)) as { code?: string }).toMatchObject({ code: '25006' });
      // Writable again: the connection opened read-only is not the one the next write gets.
      await withClient(url, (client) => client.query(`alter role current_user in database ${name} reset default_transaction_read_only`));
      expect((await ledger.createSession(teaSession)).amount).toBe(teaSession.amount);
    });

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
      const terminate = `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and usename = current_user and pid <> pg_backend_pid()`;
      await admin(`alter database ${name} with allow_connections false`, terminate);
      await expect.poll(refusal).toMatchObject({ code: '55000' });
      await admin(`alter database ${name} rename to ${name}_away`);
      await expect.poll(refusal).toMatchObject({ code: '3D000' });
      await admin(`alter database ${name}_away rename to ${name}`, `alter database ${name} with allow_connections true`);
      expect((await ledger.createSession(teaSession)).amount).toBe(teaSession.amount);
    });
  });
});
