// A PostgreSQL URL's parameters that node-postgres does not read change nothing: an operator who
// wrote Prisma's `?connection_limit=` or `?sslMode=` is told so once, as the ledger opens.
import { describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';

withTestDatabase((url) => {
  describe('a PostgreSQL URL’s parameters', () => {
    const opened = async (search: string) => {
      const schema = freshSchemaName();
      const warnings: string[] = [];
      const log = { info: () => {}, warn: (message: string) => warnings.push(message), error: () => {} };
      const ledger = await openLedger(Object.assign(new URL(url), { search }).toString(), { schema, log });
      try {
        await expect(ledger.getPayment('no-such-order')).resolves.toBeUndefined();
      } finally {
        await ledger.close();
        await dropSchema(url, schema);
      }
      return warnings;
    };

    it('that nothing reads are warned of once each, naming the parameter and what holds instead', async () => {
      const warnings = await opened('?connection_limit=5&sslMode=disable&target_session_attrs=read-write&connection_limit=6');
      expect(warnings).toHaveLength(3);
      expect(warnings[0]).toMatch(/^ledger: \?connection_limit= in the PostgreSQL URL is not read by node-postgres, .* \(the ledger keeps a pool of 10 connections an instance/);
      expect(warnings[1]).toMatch(/^ledger: \?sslMode= .* \(parameter names are case-sensitive: write \?sslmode=\)/);
      expect(warnings[2]).toMatch(/^ledger: \?target_session_attrs= .*: remove it from the URL the companion gets, or keep it if another program reading the same URL needs it$/);
    });

    it('that node-postgres or the ledger reads are not', async () => {
      expect(await opened('?application_name=payform-url-test&sslmode=disable&schema=public&statement_timeout=60000')).toEqual([]);
    });
  });
});
