/**
 * The packaged `payform-companion` and `payform-sandbox` run by Bun (`bun --bun`, so Bun's own
 * runtime and its `undici`, not the bins' Node), the companion on a PostgreSQL ledger:
 * better-sqlite3 12, the version the companion takes, does not load in Bun. They pass the same
 * HTTP journeys as under Node, webhooks included. Bun comes from the npm registry, as a
 * merchant's project gets it, into a folder of its own beside the shop.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { dropSchema, freshSchemaName, withTestDatabase } from '../../server/ledger/testing/databases.js';
import { withClient } from '../../server/ledger/testing/schema-pool.js';
import { describeCompanionJourneys } from '../companion-http/journeys.js';
import { startBin, startPackagedStack } from './merchant.js';
import type { PackagedStack } from './merchant.js';

/** The Bun these journeys were proved on (its npm package carries the binary for this platform). */
const BUN = 'bun@1.4.5';

const run = promisify(execFile);

withTestDatabase((url) => {
  let stack: PackagedStack;
  let bun: readonly string[];
  const schema = freshSchemaName();

  beforeAll(async () => {
    const { work, shop } = inject('packages');
    const runtime = join(work, 'bun');
    mkdirSync(runtime, { recursive: true });
    writeFileSync(join(runtime, 'package.json'), '{ "private": true }');
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', BUN], { cwd: runtime });
    bun = [join(runtime, 'node_modules', '.bin', 'bun'), '--bun'];
    await withClient(url, (client) => client.query(`create schema ${schema}`));
    const ledger = new URL(url);
    ledger.searchParams.set('options', `-c search_path=${schema}`);
    stack = await startPackagedStack(shop, { database: ledger.href, runtime: bun });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await dropSchema(url, schema);
  });

  it('stops at start on a SQLite ledger, naming what to do instead of the driver Bun suggests', async () => {
    const env = { PAYFORM_GATEWAY_BASE_URL: stack.sandboxUrl, PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: join(inject('packages').shop, 'bun.db') };
    await expect(startBin(inject('packages').shop, 'payform-companion', [], env, bun)).rejects.toThrow(
      /the ledger could not be opened .*better-sqlite3.* \(Bun does not load better-sqlite3 12, the companion's SQLite driver: set PAYFORM_DATABASE_URL to a postgres:\/\/ ledger, or run the companion with Node\)/s,
    );
  });

  describeCompanionJourneys('the packaged payform-companion and payform-sandbox run by Bun, on PostgreSQL', () => stack);
});
