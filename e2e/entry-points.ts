/**
 * How a test starts a server's own entry point (`server/sandbox/main.ts`, `server/companion/main.ts`)
 * in a process of its own: from the JavaScript `npm run build` emitted into the packages' dist/
 * when each build is newer than its sources, else from the sources through tsx.
 *
 * Why: tsx's module hooks run on a thread of their own in Node 20, and every module a process loads
 * crosses to it and back. A companion loads about 600, so a start cost 2.6 s of CPU through tsx and
 * 1.0 s from dist/ on the 2-core CI machine, where `npm test` packs (and so builds) every package
 * before any suite starts. A developer who edited a source since the last build gets the sources,
 * never a stale build.
 */
import { join } from 'node:path';
import { newestChange, REPOSITORY } from '../demo/builds.js';

/**
 * The packages a server's process loads from dist/ (its own and its `@payform/*` imports): their
 * sources, and the file `tsc -b` writes last on every build that emits (the build's record).
 */
const PACKAGES = {
  card: { sources: ['widget/card'], record: 'widget/card/dist/tsconfig.build.tsbuildinfo' },
  gateway: { sources: ['server/gateway'], record: 'server/gateway/dist/tsconfig.build.tsbuildinfo' },
  sandbox: { sources: ['server/sandbox'], record: 'server/sandbox/dist/tsconfig.build.tsbuildinfo' },
  companion: { sources: ['server/companion', 'server/ledger'], record: 'server/companion/dist/companion/tsconfig.build.tsbuildinfo' },
} as const;

const ENTRIES = {
  sandbox: { source: 'server/sandbox/main.ts', built: 'server/sandbox/dist/main.js', packages: ['card', 'gateway', 'sandbox'] },
  companion: { source: 'server/companion/main.ts', built: 'server/companion/dist/companion/main.js', packages: ['card', 'gateway', 'companion'] },
} as const;

/** Built after the last change to any of its sources (tests and anything else under them count too). */
function built(name: keyof typeof PACKAGES): boolean {
  const { sources, record } = PACKAGES[name];
  const builtAt = newestChange(join(REPOSITORY, record));
  return builtAt > 0 && sources.every((source) => newestChange(join(REPOSITORY, source)) < builtAt);
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
