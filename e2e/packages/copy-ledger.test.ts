/**
 * A merchant outgrowing one machine moves the installed companion's SQLite ledger into
 * PostgreSQL with the installed bin (`payform-companion copy-ledger`): a companion started on the
 * copy, on the same gateway, finds the order paid on SQLite and refunds it.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { card, CUSTOMER, FINGERPRINT } from '../../server/companion/test/cards.js';
import { dropSchema, freshSchemaName, withTestDatabase } from '../../server/ledger/testing/databases.js';
import { withClient } from '../../server/ledger/testing/schema-pool.js';
import { startBin, startPackagedStack } from './merchant.js';

/** A JSON request to a companion that must succeed (with the admin token when given); its answer. */
async function call(companion: string, adminToken: string | undefined, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${companion}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(adminToken ? { Authorization: `Bearer ${adminToken}` } : {}) },
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
      const name = `ledger-moved-${randomBytes(4).toString('hex')}.db`;
      const file = join(shop, name);
      const onSqlite = await startPackagedStack(shop, { database: name });
      try {
        const session = await call(onSqlite.companionUrl, onSqlite.adminToken, 'POST', '/api/checkout/sessions', { amount: 24950, currency: 'UAH', description: 'Green tea' });
        const paid = await call(onSqlite.companionUrl, undefined, 'POST', `/api/checkout/sessions/${session.id}/pay`, { card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT });
        expect(paid.status).toBe('success');
        const orderId = String(session.order_id);
        // Stopped, as the copy needs; the sandbox, the gateway, goes on.
        await onSqlite.companion.stop();

        await withClient(url, (client) => client.query(`create schema ${schema}`));
        const target = new URL(url);
        target.searchParams.set('options', `-c search_path=${schema}`);
        const copied = spawnSync(join(shop, 'node_modules', '.bin', 'payform-companion'), ['copy-ledger', '--from', file, '--to', target.href], { encoding: 'utf8', timeout: 60_000 });
        expect(copied.status, copied.stderr).toBe(0);
        expect(copied.stdout).toMatch(/payform_payments: 1 row\b/);
        // The database's password is in none of its lines (the suite's database has one).
        expect(target.password).not.toBe('');
        expect(copied.stdout + copied.stderr).not.toContain(`:${decodeURIComponent(target.password)}@`);

        const adminToken = randomBytes(24).toString('base64url');
        const onPostgres = await startBin(shop, 'payform-companion', [], {
          PAYFORM_GATEWAY_BASE_URL: onSqlite.sandboxUrl, PAYFORM_SANDBOX_ORIGIN: onSqlite.sandboxUrl, PORT: '0', PAYFORM_HOST: '127.0.0.1',
          PAYFORM_ADMIN_TOKEN: adminToken, PAYFORM_DATABASE_URL: target.href, PAYFORM_LOG_LEVEL: 'error',
        });
        try {
          expect(await call(onPostgres.url, adminToken, 'GET', `/api/orders/${orderId}`)).toMatchObject({ order: { order_id: orderId, status: 'success', amount: 24950 } });
          expect(await call(onPostgres.url, adminToken, 'POST', `/api/orders/${orderId}/refund`, { amount: 4950 })).toMatchObject({ operation: { kind: 'refund', amount: 4950, status: 'success' } });
        } finally {
          await onPostgres.stop();
        }
      } finally {
        await onSqlite.close();
      }
    }, 120_000);
  });
});
