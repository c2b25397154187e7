// On a PostgreSQL server shared with other applications, an operator tells the ledger's
// connections apart in pg_stat_activity by their application_name.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';

withTestDatabase((url) => {
  describe('the ledger’s PostgreSQL connections', () => {
    const named = async (watcher: pg.Client, name: string) =>
      (await watcher.query<{ open: number }>('select count(*)::int as open from pg_stat_activity where application_name = $1 and datname = current_database()', [name])).rows[0]!.open;

    it('are named payform, unless the URL names them otherwise', async () => {
      const schema = freshSchemaName();
      const own = `payform-test-${schema}`;
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      const plain = await openLedger(url, { schema });
      const renamed = await openLedger(Object.assign(new URL(url), { search: `?application_name=${own}` }).toString(), { schema });
      try {
        await Promise.all([plain.getPayment('no-such-order'), renamed.getPayment('no-such-order')]);
        // Other suites' ledgers may be connected too, named alike: none is named so without this.
        expect(await named(watcher, 'payform'), 'no connection named payform').toBeGreaterThan(0);
        expect(await named(watcher, own), 'the URL’s name').toBeGreaterThan(0);
      } finally {
        await plain.close();
        await renamed.close();
        await watcher.end();
        await dropSchema(url, schema);
      }
    });
  });
});
