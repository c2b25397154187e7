// Composing the companion where a framework evaluates modules (Next.js's build, its dev server's
// reloads, a handler per request): refused during `next build`, warned of when a second one opens
// on the same ledger in one process.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import { dropSchema, freshSchemaName, withTestDatabase } from '../ledger/testing/databases.js';
import { withClient } from '../ledger/testing/schema-pool.js';
import { composeCompanion, startCompanion } from './start.js';
import type { ComposedCompanion } from './start.js';
import { readCompanionConfig } from './settings.js';
import { createLogger } from './log/logger.js';

const mountable = { PAYFORM_PUBLIC_URL: 'https://shop.example', PAYFORM_ADMIN_TOKEN: 'a-long-enough-admin-token' };

/** The process-wide count, where every copy of the module keeps it. */
const openCompanions = () => (globalThis as Record<symbol, { open: Map<string, number>; warned: boolean } | undefined>)[Symbol.for('payform.companion.openCompanions')];

let sandbox: ServedSandbox;
let dir: string;
const composed: ComposedCompanion[] = [];
beforeEach(async () => {
  sandbox = await serveSandbox();
  dir = mkdtempSync(join(tmpdir(), 'payform-composed-once-'));
  // The warning is said once per process: another file in this worker may have had it said.
  const kept = openCompanions();
  if (kept) kept.warned = false;
});
afterEach(async () => {
  await Promise.all(composed.splice(0).map((companion) => companion.close()));
  vi.unstubAllEnvs();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function compose(databaseUrl: string, lines: string[]): Promise<ComposedCompanion> {
  const companion = await composeCompanion(readCompanionConfig({ ...mountable, PAYFORM_DATABASE_URL: databaseUrl }), {
    gatewayBaseUrl: sandbox.url,
    logger: createLogger({ sink: (line) => void lines.push(line) }),
  });
  composed.push(companion);
  return companion;
}

const openWarnings = (lines: readonly string[]) => lines.filter((line) => line.includes('companions are open in this process'));

describe('composing the companion', () => {
  it('is refused during `next build`, before the ledger is opened, naming the cause and the fix', async () => {
    vi.stubEnv('NEXT_PHASE', 'phase-production-build');
    const databaseUrl = join(dir, 'payform.db');
    // Both causes: a module composing it as it is imported, and a page opening a session prerendered.
    const refusal = /^composeCompanion was called during `next build` \(NEXT_PHASE=phase-production-build\).*compose it at the first request and keep it on globalThis.*make it render on each request \(`await connection\(\)` from next\/server before it.*docs\/companion\.md, "Next\.js"$/;
    await expect(compose(databaseUrl, [])).rejects.toThrow(refusal);
    await expect(startCompanion(readCompanionConfig({ ...mountable, PORT: '0', PAYFORM_DATABASE_URL: databaseUrl }), { gatewayBaseUrl: sandbox.url })).rejects.toThrow(
      /^startCompanion was called during `next build`/,
    );
    // Nothing made on the build machine.
    expect(existsSync(databaseUrl)).toBe(false);
    // Serving (`next start`, `next dev`), it composes.
    vi.stubEnv('NEXT_PHASE', 'phase-production-server');
    await compose(databaseUrl, []);
    expect(existsSync(databaseUrl)).toBe(true);
  });

  it('is refused during `astro build`, `nuxi generate` and `react-router build`, which render prerendered pages, and composes under `astro dev`', async () => {
    const databaseUrl = join(dir, 'payform.db');
    const argv = process.argv;
    try {
      process.argv = ['/usr/bin/node', '/shop/node_modules/astro/astro.js', 'build'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `astro build`, which renders the pages it prerenders: .*export const prerender = false/);
      process.argv = ['/usr/bin/node', '/shop/node_modules/.bin/nuxi', 'generate'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `nuxi generate`/);
      // React Router runs the loaders of the pages its config prerenders, by the bin's link or its file.
      process.argv = ['/usr/bin/node', '/shop/node_modules/.bin/react-router', 'build'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `react-router build`.*React Router: leave it out of prerender/);
      process.argv = ['/usr/bin/node', '/shop/node_modules/@react-router/dev/bin.js', 'build'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `react-router build`/);
      process.argv = ['/usr/bin/node', '/shop/node_modules/@remix-run/dev/dist/cli.js', 'vite:build'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `remix vite:build`/);
      // An option's value before the subcommand, and a flag that takes none.
      process.argv = ['/usr/bin/node', '/shop/node_modules/astro/astro.js', '--root', 'site', 'build'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `astro build`/);
      process.argv = ['/usr/bin/node', '/shop/node_modules/astro/astro.js', '--verbose', 'build', '--outDir', 'dist'];
      await expect(compose(databaseUrl, [])).rejects.toThrow(/^composeCompanion was called during `astro build`/);
      expect(existsSync(databaseUrl)).toBe(false);
      process.argv = ['/usr/bin/node', '/shop/node_modules/astro/astro.js', 'preview', '--outDir', 'build'];
      await compose(databaseUrl, []);
      process.argv = ['/usr/bin/node', '/shop/node_modules/astro/astro.js', 'dev'];
      await compose(databaseUrl, []);
      expect(existsSync(databaseUrl)).toBe(true);
    } finally {
      process.argv = argv;
    }
  });

  it('warns once when a second companion opens on a ledger this process holds open, naming how many and the fix', async () => {
    const databaseUrl = join(dir, 'payform.db');
    const lines: string[] = [];
    await compose(databaseUrl, lines);
    // Another ledger, and in-memory ones (each its own), are not the same ledger.
    await compose(join(dir, 'other.db'), lines);
    await compose(':memory:', lines);
    await compose(':memory:', lines);
    expect(openWarnings(lines)).toEqual([]);
    await compose(databaseUrl, lines);
    const warned = openWarnings(lines);
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0]!)).toMatchObject({
      level: 'warn',
      msg: expect.stringMatching(new RegExp(`^2 companions are open in this process on the ledger at ${databaseUrl}: .*Compose it once and keep it .*Vite.s in React Router.*docs/companion\\.md, "Mount it in your server"$`)),
    });
    // Once per process: a reloading dev server is not told again at each reload.
    await compose(databaseUrl, lines);
    expect(openWarnings(lines)).toHaveLength(1);
  });

  it('counts a closed companion out, once however often it is closed', async () => {
    const databaseUrl = join(dir, 'payform.db');
    const lines: string[] = [];
    const first = await compose(databaseUrl, lines);
    await first.close();
    await compose(databaseUrl, lines);
    expect(openWarnings(lines)).toEqual([]);
    const second = await compose(databaseUrl, lines);
    expect(openWarnings(lines)).toEqual([expect.stringContaining('2 companions are open')]);
    await second.close();
    await second.close();
    expect(openCompanions()?.open.get(databaseUrl)).toBe(1);
  });
});

withTestDatabase((url) => {
  it('names a PostgreSQL ledger held open twice by its URL, password masked', async () => {
    const schema = freshSchemaName();
    await withClient(url, (client) => client.query(`create schema ${schema}`));
    try {
      const inSchema = new URL(url);
      inSchema.searchParams.set('options', `-c search_path=${schema}`);
      const lines: string[] = [];
      await compose(inSchema.href, lines);
      await compose(inSchema.href, lines);
      const [warned] = openWarnings(lines);
      const shown = new URL(inSchema);
      if (shown.password) shown.password = '***';
      expect(warned).toContain(`2 companions are open in this process on the ledger at ${shown.href}: `);
      await Promise.all(composed.splice(0).map((companion) => companion.close()));
    } finally {
      await dropSchema(url, schema);
    }
  });
});
