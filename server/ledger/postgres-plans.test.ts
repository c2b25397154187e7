// PostgreSQL plans each named prepared statement once per connection, and a fresh ledger's
// tables are empty and unanalysed when it does: an index that leads with status then costs what
// the key costs, and the plan it picks is kept while the table grows. A statement that finds its
// row by key must find it by the key, whatever the statistics say (progression.ts isStatus).
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import { claimedPayment, gatewayEvent } from './testing/contract.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';

/** The ledger's indexes that lead with a status column. */
const STATUS_LED = /payform_(payments_by_status|operations_by_status|operations_unsettled)\b/;

withTestDatabase((url) => {
  describe('generic plans on a fresh PostgreSQL schema', () => {
    let schema: string;
    let ledger: Ledger;
    let sent: Set<string>;

    beforeEach(async () => {
      schema = freshSchemaName();
      sent = new Set();
      ledger = await openLedger(url, { schema, onStatement: (sql) => void sent.add(sql) });
    });
    afterEach(async () => {
      await ledger.close();
      await dropSchema(url, schema);
    });

    it('find payments and operations by key on the paths of a payment, its webhooks and its refunds', async () => {
      const figures = { amount: 1000, currency: 'XTS' };
      const payment = await claimedPayment(ledger);
      const { orderId } = payment;
      const paymentId = `pay-${orderId}`;
      await ledger.countAbsentPayment(orderId, { readAt: Date.now() + 1, reads: 3, spacingMs: 0 });
      await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2119', paymentId });
      // The same status again: the refresh's guarded UPDATE.
      await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2119', paymentId });
      // A webhook of that status (the refresh in the group's batch statement), then the step forward.
      await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'pending', statusCode: '2119', orderId, paymentId, ...figures }));
      await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', statusCode: '1000', orderId, paymentId, ...figures }));
      await ledger.noticeTold({ kind: 'payment', orderId, status: 'success', discrepancy: null });
      const refund = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
      await ledger.countAbsentOperation(refund.id, { readAt: Date.now() + 1, reads: 3, spacingMs: 0 });
      await ledger.settleOperation(refund.id, { status: 'pending', statusCode: '2119' });
      await ledger.settleOperation(refund.id, { status: 'pending', statusCode: '2119' });
      await ledger.noticeTold({ kind: 'operation', id: refund.id, orderId, status: 'pending' });
      // A refund's webhook that names no operation id: matched to the reservation by its order, kind and amount.
      await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', statusCode: '1000', orderId, amount: 100, currency: 'XTS' }));

      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`set search_path to "${schema}"`);
        await client.query('set plan_cache_mode = force_generic_plan');
        const planned = [...sent].filter((sql) => /"payform_(payments|operations)"/.test(sql) && sql.includes('$1'));
        // Each kind of statement above was sent, so a plan that walks by status would be among them.
        expect(planned.filter((sql) => /^update "payform_payments"/.test(sql)).length).toBeGreaterThanOrEqual(4);
        expect(planned.filter((sql) => /^update "payform_operations"/.test(sql)).length).toBeGreaterThanOrEqual(3);
        expect(planned.some((sql) => sql.startsWith('with "batch"'))).toBe(true);
        const walks: string[] = [];
        for (const [index, sql] of planned.entries()) {
          const parameters = Math.max(...[...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
          await client.query(`prepare statement_${index} as ${sql}`);
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain execute statement_${index}(${Array.from({ length: parameters }, () => 'null').join(', ')})`);
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          if (STATUS_LED.test(plan)) walks.push(`${sql}\n${plan}`);
        }
        expect(walks).toEqual([]);
      } finally {
        await client.end();
      }
    });
  });
});
