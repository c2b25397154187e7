/**
 * `npm pack --workspaces` into a folder, as publishing would (each package's prepack builds it:
 * widget/dist and the companion's back office are rewritten). The packages suite's global setup
 * packs this way itself, or — when PAYFORM_PACKAGES_PACKED names a folder this script filled —
 * takes those tarballs: `.ci/test` packs before the suites start, so the packages suite can run
 * beside Vitest without the builds rewriting widget/dist under the tests that serve it.
 *
 *   npx tsx e2e/packages/pack.ts <folder>     # the tarballs and tarballs.json
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Tarball } from './packed.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../..', import.meta.url));
/** What the folder says about its tarballs. */
const LISTING = 'tarballs.json';

/**
 * TypeScript 7, which the packages' own `build` scripts run too: the repository's `typescript` is
 * 6, whose API typescript-eslint and openapi-typescript need, so 7 is installed beside it as
 * `typescript-7`, and both would claim `node_modules/.bin/tsc`. A prepack's `tsc -b` takes this
 * build as up to date only when it is the same compiler.
 */
const TSC = join(repository, 'node_modules', 'typescript-7', 'bin', 'tsc');

/**
 * The packages whose build is `tsc -b tsconfig.build.json`, dependencies first. One `tsc -b` over
 * them all reads TypeScript, the lib and @types files once instead of once a package (39 -> 28 s of
 * CPU with TypeScript 6; 13 s since the builds emit without checking, `noCheck`, as `npm run
 * typecheck` and the packages suite's types.test.ts check; 4 s with 7); each prepack's own
 * `tsc -b` then finds its dist/ up to date and emits nothing. The output is the same, byte for
 * byte, as four `tsc -p` runs; the .tsbuildinfo that `tsc -b` leaves in dist/ stays out of the
 * tarballs (each package.json's `files`). The widget's own types are not among them: its Vite build empties widget/dist first.
 */
const TYPESCRIPT_BUILDS = ['widget/card', 'server/gateway', 'server/sandbox', 'server/companion'].map((folder) => `${folder}/tsconfig.build.json`);

/** Packs every workspace into `destination`; the builds' output goes first on stdout, then the JSON array. */
export async function packWorkspaces(destination: string): Promise<Tarball[]> {
  mkdirSync(destination, { recursive: true });
  const typescript = spawnSync(process.execPath, [TSC, '-b', ...TYPESCRIPT_BUILDS], { cwd: repository, stdio: 'inherit' });
  if (typescript.status !== 0) throw new Error(`tsc -b ${TYPESCRIPT_BUILDS.join(' ')} failed (exit ${typescript.status ?? typescript.signal})`);
  // Packed as from a release shell: Vitest's NODE_ENV=test would make Vite build the widget with
  // Lit's development build (its warnings, 13 KB more) into the tarball and widget/dist.
  const { NODE_ENV: _vitest, ...env } = process.env;
  const { stdout } = await run('npm', ['pack', '--workspaces', '--json', '--pack-destination', destination], { cwd: repository, env, maxBuffer: 64 * 1024 * 1024 });
  const json = stdout.slice(stdout.search(/^\[$/m));
  const packed: { name: string; filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }[] = JSON.parse(json);
  const tarballs = packed.map(({ name, filename, size, unpackedSize, entryCount, files }) => ({ name, filename, size, unpackedSize, entryCount, files: files.map((file) => file.path) }));
  writeFileSync(join(destination, LISTING), JSON.stringify(tarballs));
  return tarballs;
}

/** The tarballs an earlier `packWorkspaces` left in `folder`. */
export function packedIn(folder: string): Tarball[] {
  try {
    return JSON.parse(readFileSync(join(folder, LISTING), 'utf8')) as Tarball[];
  } catch (error) {
    throw new Error(`PAYFORM_PACKAGES_PACKED=${folder} holds no ${LISTING}: fill it with \`npx tsx e2e/packages/pack.ts ${folder}\``, { cause: error });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: npx tsx e2e/packages/pack.ts <folder>');
    process.exit(2);
  }
  const started = Date.now();
  const tarballs = await packWorkspaces(resolve(folder));
  console.log(`packages: packed ${tarballs.map((tarball) => tarball.filename).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
