// A scrape while the PostgreSQL server's packets are lost (a network cut, a failover): the
// backlog read is held until the statement deadline, and a scrape that waits for it fails at
// Prometheus's scrape_timeout — every series stale, the documented PayformDatabaseUnreachable
// alert resolved while the database is away. The scrape answers without it instead.
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import { withTestDatabase } from '../../ledger/testing/databases.js';
import { claimSchema, releaseSchema } from '../../ledger/testing/schema-pool.js';
import { CompanionMetrics } from './metrics.js';

interface HoldingProxy {
  readonly url: string;
  /** From now on nothing passes either way, and new connections are taken but never answered. */
  hold(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of the shared server that can lose every packet, as a cut network does. */
async function holdingProxy(databaseUrl: string): Promise<HoldingProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let held = false;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    if (held) return;
    const database = connect(Number(target.port || 5432), target.hostname);
    sockets.add(database);
    database.on('error', () => client.destroy());
    client.on('data', (chunk) => held || database.write(chunk));
    database.on('data', (chunk) => held || client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    hold: () => (held = true),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

withTestDatabase((databaseUrl) => {
  it('answers a scrape while the database loses every packet, the ledger down', async () => {
    const schema = await claimSchema(databaseUrl);
    cleanups.push(() => releaseSchema(databaseUrl, schema));
    const proxy = await holdingProxy(databaseUrl);
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
