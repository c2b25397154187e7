// A scrape while the PostgreSQL server's packets are lost (a network cut, a failover): the
// backlog read is held until the statement deadline, and a scrape that waits for it fails at
// Prometheus's scrape_timeout — every series stale, the documented PayformDatabaseUnreachable
// alert resolved while the database is away. The scrape answers without it instead.
import { afterEach, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import { withTestDatabase } from '../../ledger/testing/databases.js';
import { databaseProxy } from '../../ledger/testing/database-proxy.js';
import { claimSchema, releaseSchema } from '../../ledger/testing/schema-pool.js';
import { CompanionMetrics } from './metrics.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

withTestDatabase((databaseUrl) => {
  it('answers a scrape while the database loses every packet, the ledger down', async () => {
    const schema = await claimSchema(databaseUrl);
    cleanups.push(() => releaseSchema(databaseUrl, schema));
    const proxy = await databaseProxy(databaseUrl);
    // A statement deadline raised for long reports, as PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS allows.
    const ledger: Ledger = await openLedger(proxy.url, { schema, statementTimeoutMs: 120_000 });
    // The proxy first: a pool whose reads are held ends only once their connections drop.
    cleanups.push(async () => {
      await proxy.close();
      await ledger.close().catch(() => undefined);
    });
    const metrics = new CompanionMetrics();
    const up = (text: string) => /^payform_ledger_up (\d)$/m.exec(text)?.[1];
    expect(up(await metrics.exposition(ledger, Date.now()))).toBe('1');

    proxy.hold();
    // Two scrapes in a row: the second does not wait behind the first one's held read either.
    expect(up(await metrics.exposition(ledger, Date.now()))).toBe('0');
    const text = await metrics.exposition(ledger, Date.now());
    expect(up(text)).toBe('0');
    expect(text).toContain('payform_ledger_errors_total{kind="unavailable"} 0');
  }, 20_000);
});
