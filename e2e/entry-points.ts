/**
 * How a test starts a server's own entry point (`server/sandbox/main.ts`, `server/companion/main.ts`)
 * in a process of its own: from the JavaScript `npm run build` emitted into the packages' dist/
 * when it is newer than every TypeScript source it comes from, else from the sources through tsx.
 *
 * Why: tsx's module hooks run on a thread of their own in Node 20, and every module a process loads
 * crosses to it and back. A companion loads about 600, so a start cost 2.6 s of CPU through tsx and
 * 1.0 s from dist/ on the 2-core CI machine, where `npm test` packs (and so builds) every package
 * before any suite starts. A developer who edited a source since the last build gets the sources,
 * never a stale build.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The packages a server's process loads from dist/ (their `@payform/*` imports) and their sources. */
const PACKAGES = {
  card: { sources: ['widget/card'], dist: 'widget/card/dist' },
  gateway: { sources: ['server/gateway'], dist: 'server/gateway/dist' },
  sandbox: { sources: ['server/sandbox'], dist: 'server/sandbox/dist' },
  companion: { sources: ['server/companion', 'server/ledger'], dist: 'server/companion/dist' },
} as const;

const ENTRIES = {
  sandbox: { source: 'server/sandbox/main.ts', built: 'server/sandbox/dist/main.js', packages: ['card', 'gateway', 'sandbox'] },
  companion: { source: 'server/companion/main.ts', built: 'server/companion/dist/companion/main.js', packages: ['card', 'gateway', 'companion'] },
} as const;

/** Not compiled into dist/: the tests, their helpers, the built output and the back office's page. */
const NOT_BUILT = new Set(['dist', 'node_modules', 'test', 'testing', 'integration', 'web']);

function* files(dir: string, extension: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!NOT_BUILT.has(entry.name)) yield* files(join(dir, entry.name), extension);
    } else if (entry.name.endsWith(extension) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      yield join(dir, entry.name);
    }
  }
}

function newestSource(name: keyof typeof PACKAGES): number {
  let newest = 0;
  for (const dir of PACKAGES[name].sources) for (const file of files(join(ROOT, dir), '.ts')) newest = Math.max(newest, statSync(file).mtimeMs);
  return newest;
}

function oldestBuilt(name: keyof typeof PACKAGES): number {
  let oldest = Infinity;
  try {
    for (const file of files(join(ROOT, PACKAGES[name].dist), '.js')) oldest = Math.min(oldest, statSync(file).mtimeMs);
  } catch {
    return 0; // never built
  }
  return oldest === Infinity ? 0 : oldest;
}

/** Every file the build emitted is newer than every source it compiles. */
function built(name: keyof typeof PACKAGES): boolean {
  return oldestBuilt(name) > newestSource(name);
}

const chosen = new Map<keyof typeof ENTRIES, readonly string[]>();

/**
 * Node's arguments that run the server's main module, relative to the repository's root (spawn
 * with `cwd` there): `[built main.js]` or `['--import', 'tsx', main.ts]`. Decided once a process.
 */
export function entryArgs(server: keyof typeof ENTRIES): readonly string[] {
  let args = chosen.get(server);
  if (!args) {
    const entry = ENTRIES[server];
    args = entry.packages.every(built) ? [entry.built] : ['--import', 'tsx', entry.source];
    chosen.set(server, args);
  }
  return args;
}
