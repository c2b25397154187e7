/**
 * The packaged `payform-companion` and `payform-sandbox` run by Bun (`bun --bun`: Bun's own
 * runtime and its `undici`, not the bins' Node) and by Deno, the companion on a PostgreSQL
 * ledger: better-sqlite3 12, the version the companion takes, loads in neither. They pass the
 * same HTTP journeys as under Node, webhooks included. Each runtime comes from the npm registry,
 * as a merchant's project gets it, into a folder of its own beside the shop.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropSchema, freshSchemaName, withTestDatabase } from '../../server/ledger/testing/databases.js';
import { withClient } from '../../server/ledger/testing/schema-pool.js';
import { describeCompanionJourneys } from '../companion-http/journeys.js';
import { startBin, startPackagedStack } from './merchant.js';
import type { PackagedStack } from './merchant.js';

const run = promisify(execFile);

/** The versions these journeys were proved on (each npm package carries the binary for this platform), and how each runs a bin. */
const RUNTIMES = [
  { name: 'Bun', install: 'bun@1.4.5', binary: 'bun', args: ['--bun'] },
  // No deno.lock written into the shop the other files share.
  { name: 'Deno', install: 'deno@2.9.6', binary: 'deno', args: ['run', '--allow-all', '--no-lock'] },
] as const;

withTestDatabase((url) => {
  for (const { name, install, binary, args } of RUNTIMES) {
    describe(`under ${name}`, () => {
      let stack: PackagedStack;
      let runtime: readonly string[];
      const schema = freshSchemaName();

      beforeAll(async () => {
        const { work, shop } = inject('packages');
        const folder = join(work, binary);
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, 'package.json'), '{ "private": true }');
        await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', install], { cwd: folder });
        runtime = [join(folder, 'node_modules', '.bin', binary), ...args];
        await withClient(url, (client) => client.query(`create schema ${schema}`));
        const ledger = new URL(url);
        ledger.searchParams.set('options', `-c search_path=${schema}`);
        stack = await startPackagedStack(shop, { database: ledger.href, runtime });
      }, 120_000);

      afterAll(async () => {
        await stack?.close();
        await dropSchema(url, schema);
      });

      it('stops at start on a SQLite ledger, naming what to do instead of what the runtime suggests', async () => {
        const { shop } = inject('packages');
        const env = { PAYFORM_GATEWAY_BASE_URL: stack.sandboxUrl, PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_DATABASE_URL: join(shop, `${binary}.db`) };
        // Started after all (a runtime that loads the driver), it is stopped before the test fails.
        const started = startBin(shop, 'payform-companion', [], env, runtime);
        void started.then((bin) => bin.stop(), () => undefined);
        await expect(started).rejects.toThrow(
          new RegExp(`the ledger could not be opened .* \\(${name} does not load better-sqlite3 12, the companion's SQLite driver: set PAYFORM_DATABASE_URL to a postgres:// ledger, or run the companion with Node\\)`, 's'),
        );
      });

      describeCompanionJourneys(`the packaged payform-companion and payform-sandbox run by ${name}, on PostgreSQL`, () => stack);
    });
  }
});
