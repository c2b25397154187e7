// A PostgreSQL ledger's database closed to connections for maintenance (ALTER DATABASE …
// ALLOW_CONNECTIONS false, its sessions ended) is an outage the operator hears of once, with the
// fix: 503 with Retry-After, counted for the alert, back by itself — not a 500 with a stack for
// every request while the documented PayformDatabaseUnreachable alert stays quiet.
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { withTestDatabase } from '../../ledger/testing/databases.js';
import { databaseWithRoleSettings } from '../../ledger/testing/role-settings.js';
import { withClient } from '../../ledger/testing/schema-pool.js';
import { createStack, eventually } from '../test/stack.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const undo: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
}, 90_000);

withTestDatabase((url) => {
  describe('a PostgreSQL ledger whose database is closed for maintenance', () => {
    it('answers 503 with Retry-After, says once what to allow again, counts it for the alert, and is back by itself', async () => {
      const database = await databaseWithRoleSettings(url, {}, async (own) => (await openLedger(own)).close());
      undo.push(() => database.drop());
      const name = new URL(database.url).pathname.slice(1);
      const backend: LedgerBackend = {
        name: 'PostgreSQL, a database of its own',
        persistent: true,
        async open(clock) {
          const ledger = await openLedger(database.url, { clock: clock.read, poolSize: 2 });
          return { ledger, dispose: () => ledger.close().catch(() => undefined) };
        },
      };
      const stack = await createStack({ backend, companion: { metricsToken: METRICS_TOKEN } });
      undo.push(() => stack.close());
      const paid = await stack.openSession();
      expect((await stack.pay(paid.id)).status).toBe(200);
      const admin = (statement: string) => withClient(url, (client) => client.query(statement));

      await admin(`alter database ${name} with allow_connections false`);
      await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and usename = current_user and pid <> pg_backend_pid()`);
      // The pool has let its ended connections go (a request on one would meet 57P01, the end, not the closed database).
      await expect.poll(() => stack.ledger.listOrders({ limit: 1 }).then(() => 'open', (error: { code?: string }) => error.code)).toBe('55000');
      for (let i = 0; i < 3; i += 1) {
        const answer = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' } });
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        expect((await answer.json()).error.code).toBe('ledger_unavailable');
      }
      const metrics = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(Number(/^payform_ledger_errors_total\{kind="unavailable"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);
      const lines = () => stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines().filter((line) => line.level === 'error')).toEqual([
        expect.objectContaining({ msg: 'the database cannot be reached; answering 503 with Retry-After until it is back', fix: expect.stringContaining('takes no connections (ALTER DATABASE … ALLOW_CONNECTIONS false') }),
      ]);
      expect(stack.logs.filter((line) => line.includes('"stack"'))).toEqual([]);

      await admin(`alter database ${name} with allow_connections true`);
      await eventually(async () => expect(await stack.json('GET', '/readyz', 200)).toEqual({ status: 'ready' }));
      await stack.openSession();
      await eventually(() => expect(lines().filter((line) => line.msg === 'the database is back')).toEqual([expect.objectContaining({ level: 'warn' })]));
    });
  });
});
