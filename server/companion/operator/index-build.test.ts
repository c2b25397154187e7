// A companion started on a large PostgreSQL ledger that an upgrade left indexes to build
// (ledger/index-builds.ts): ready and taking payments at once while the build waits for another
// application's transaction, its start and wait in the log, and a stop that does not wait for it.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { serveSandbox } from '../../sandbox/testing/served.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';
import { dropSchema, freshSchemaName, withTestDatabase } from '../../ledger/testing/databases.js';
import { buildWaitingFor, connected, ledgerWithPayments, pidOf, snapshotHeld } from '../../ledger/testing/large-ledger.js';
import { createLogger, memorySink } from '../log/logger.js';
import { readCompanionConfig } from '../settings.js';
import { startCompanion } from '../start.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let sandbox: ServedSandbox;
beforeEach(async () => {
  sandbox = await serveSandbox();
});
afterEach(async () => {
  await sandbox.close();
});

withTestDatabase((url) => {
  it('is ready while the index build waits for a long transaction, says so, and stops without waiting for it', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const schema = freshSchemaName();
    await ledgerWithPayments(url, schema);
    const [report, watcher] = await Promise.all([snapshotHeld(url, schema), connected(url, schema)]);
    try {
      const databaseUrl = new URL(url);
      databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
      const memory = memorySink();
      const companion = await startCompanion(readCompanionConfig({ PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: databaseUrl.toString(), PAYFORM_METRICS_TOKEN: METRICS_TOKEN }), {
        gatewayBaseUrl: sandbox.url,
        sandboxOrigin: sandbox.url,
        logger: createLogger({ sink: memory.sink }),
      });
      const reportPid = pidOf(report);
      await buildWaitingFor(watcher, reportPid);

      expect((await fetch(`${companion.url}/readyz`)).status).toBe(200);
      const metrics = await (await fetch(`${companion.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(metrics).toContain('payform_ledger_index_build{state="building"} 1');
      const logged = memory.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(logged.find((message) => message.includes('building the index'))).toMatch(
        /^ledger: building the index payform_payments_by_email \(migration 0018_order_search\) in the background/,
      );

      await companion.close();
      const building = await watcher.query(`select pid from pg_stat_activity where state = 'active' and $1 = any (pg_blocking_pids(pid))`, [reportPid]);
      expect(building.rows, 'the stop cancelled the build').toEqual([]);
    } finally {
      await Promise.all([report.end(), watcher.end()]);
      await dropSchema(url, schema);
    }
  });
});
