// The ledger's named prepared statements on PostgreSQL: a read prepared before another instance's
// migration added a column answers after it, as before (the whole paths: integration/later-release.test.ts).
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment } from './testing/contract.js';
import { stored } from './table-names.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';

withTestDatabase((url) => {
  describe('prepared statements on PostgreSQL', () => {
    let schema: string;
    let ledger: Ledger;

    beforeEach(async () => {
      schema = freshSchemaName();
      // One connection: the statement prepared before the migration is the one read after it.
      ledger = await openLedger(url, { schema, poolSize: 1 });
    });
    afterEach(async () => {
      await ledger.close();
      await dropSchema(url, schema);
    });

    it('read the same rows after another instance adds a column', async () => {
      const payment = await claimedPayment(ledger);
      expect(await ledger.getPayment(payment.orderId)).toMatchObject({ orderId: payment.orderId, status: 'init' });
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await other.query(`alter table ${schema}.${stored('payments')} add column added_by_a_later_release text`);
      } finally {
        await other.end();
      }
      expect(await ledger.getPayment(payment.orderId)).toMatchObject({ orderId: payment.orderId, status: 'init' });
      expect(await ledger.getPayment(payment.orderId)).toMatchObject({ orderId: payment.orderId, status: 'init' });
    });

    it('prepares a read again whose result a migration changed (a column’s type), rather than failing it', async () => {
      const payment = await claimedPayment(ledger);
      expect(await ledger.getPayment(payment.orderId)).toMatchObject({ orderId: payment.orderId, cardBrand: null });
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        // text → varchar: the named read's result type changes, which PostgreSQL refuses to run as planned (0A000).
        await other.query(`alter table ${schema}.${stored('payments')} alter column card_brand type varchar(64)`);
      } finally {
        await other.end();
      }
      expect(await ledger.getPayment(payment.orderId)).toMatchObject({ orderId: payment.orderId, cardBrand: null });
    });
  });
});
