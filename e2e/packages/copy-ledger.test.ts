/**
 * A merchant outgrowing one machine moves the installed companion's SQLite ledger into
 * PostgreSQL with the installed bin (`payform-companion copy-ledger`): a companion started on the
 * copy finds the order paid on SQLite and refunds it.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { card, CUSTOMER, FINGERPRINT } from '../../server/companion/test/cards.js';
import { dropSchema, freshSchemaName, withTestDatabase } from '../../server/ledger/testing/databases.js';
import { withClient } from '../../server/ledger/testing/schema-pool.js';
import { startPackagedStack } from './merchant.js';
import type { PackagedStack } from './merchant.js';

/** A JSON request to the stack's companion that must succeed; its answer. */
async function call(stack: PackagedStack, method: string, path: string, body?: unknown, admin = true): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.companionUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(admin ? { Authorization: `Bearer ${stack.adminToken}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${path}: ${await response.clone().text()}`).toBe(true);
  return response.json() as Promise<Record<string, unknown>>;
}

withTestDatabase((url) => {
  describe('payform-companion copy-ledger, installed', () => {
    const schema = freshSchemaName();
    afterAll(() => dropSchema(url, schema));

    it('moves a SQLite ledger into PostgreSQL, where a companion finds the paid order and refunds it', async () => {
      const { shop } = inject('packages');
      const file = join(shop, `ledger-moved-${randomBytes(4).toString('hex')}.db`);
      const onSqlite = await startPackagedStack(shop, { database: file });
      let orderId: string;
      try {
        const session = await call(onSqlite, 'POST', '/api/checkout/sessions', { amount: 24950, currency: 'UAH', description: 'Green tea' });
        expect((await call(onSqlite, 'POST', `/api/checkout/sessions/${session.id}/pay`, { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT }, false)).status).toBe('success');
        orderId = String(session.order_id);
      } finally {
        await onSqlite.close();
      }

      await withClient(url, (client) => client.query(`create schema ${schema}`));
      const target = new URL(url);
      target.searchParams.set('options', `-c search_path=${schema}`);
      const copied = spawnSync(join(shop, 'node_modules', '.bin', 'payform-companion'), ['copy-ledger', '--from', file, '--to', target.href], { encoding: 'utf8', timeout: 60_000 });
      expect(copied.status, copied.stderr).toBe(0);
      expect(copied.stdout).toMatch(/payform_payments: 1 row\b/);
      // The database's password is in none of its lines.
      expect(copied.stdout + copied.stderr).not.toContain(`:${decodeURIComponent(target.password)}@`);

      const onPostgres = await startPackagedStack(shop, { database: target.href });
      try {
        expect(await call(onPostgres, 'GET', `/api/orders/${orderId}`)).toMatchObject({ order: { order_id: orderId, status: 'success', amount: 24950 } });
        expect(await call(onPostgres, 'POST', `/api/orders/${orderId}/refund`, { amount: 4950 })).toMatchObject({ amount: 4950 });
      } finally {
        await onPostgres.close();
      }
    }, 120_000);
  });
});
