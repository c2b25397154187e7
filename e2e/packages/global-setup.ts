/**
 * Once for the whole packages suite: `npm pack` every workspace (prepack builds each one, as
 * publishing would; pack.ts), or take the tarballs pack.ts left in PAYFORM_PACKAGES_PACKED
 * (`.ci/test` packs before the suites start), then ONE throwaway merchant project in the
 * system's temporary directory — outside the repository, so nothing resolves from its
 * node_modules — with the five tarballs and what a merchant adds beside them (better-sqlite3, pg,
 * express, vite, react, react-dom, @lit/react, vue, svelte; TypeScript and the types of Node, React
 * and Express for a merchant who writes TypeScript) installed from the registry. Every test file reads
 * it with `inject('packages')`; it is removed at the end.
 *
 * To look into a failure, PAYFORM_PACKAGES_KEEP=1 keeps the directory (its path is printed), and
 * PAYFORM_PACKAGES_REUSE=<that path> runs the tests again on it without packing or installing.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { packWorkspaces, packedIn } from './pack.js';
import type { PackedPackages } from './packed.js';

const run = promisify(execFile);
const repository = new URL('../..', import.meta.url).pathname;
const rootManifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8'));

/** What a merchant installs beside the packages, in the ranges the repository itself uses. */
const MERCHANT_ADDS = ['better-sqlite3', 'pg', 'express', 'vite', 'react', 'react-dom', '@lit/react', 'vue', 'svelte', 'typescript', '@types/node', '@types/react', '@types/express'].map(
  (name) => `${name}@${rootManifest.dependencies[name] ?? rootManifest.devDependencies[name]}`,
);

export default async function setup(project: TestProject): Promise<() => void> {
  const reused = process.env.PAYFORM_PACKAGES_REUSE?.trim();
  if (reused) {
    project.provide('packages', JSON.parse(readFileSync(join(reused, 'packages.json'), 'utf8')) as PackedPackages);
    return () => {};
  }
  const work = mkdtempSync(join(tmpdir(), 'payform-packages-'));
  if (!relative(repository, work).startsWith('..')) throw new Error(`${work} is inside the repository`);
  const timing = { started: Date.now(), packed: 0, installed: 0 };
  try {
    const packed = process.env.PAYFORM_PACKAGES_PACKED?.trim();
    const tarballsDirectory = packed ? resolve(packed) : join(work, 'tarballs');
    const tarballs = packed ? packedIn(tarballsDirectory) : await packWorkspaces(tarballsDirectory);
    timing.packed = Date.now();
    const shop = join(work, 'shop');
    const prebuilds = await prebuildFromRepository(join(work, 'prebuilds'));
    await install(shop, tarballs.map((tarball) => join(tarballsDirectory, tarball.filename)), prebuilds);
    timing.installed = Date.now();
    console.error(
      `packages: ${packed ? `packed beforehand in ${packed}` : `packed in ${((timing.packed - timing.started) / 1000).toFixed(1)} s`}, installed in ${((timing.installed - timing.packed) / 1000).toFixed(1)} s at ${shop}`,
    );
    const packages: PackedPackages = { work, shop, tarballsDirectory, tarballs, addedByMerchant: MERCHANT_ADDS };
    writeFileSync(join(work, 'packages.json'), JSON.stringify(packages));
    project.provide('packages', packages);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  if (process.env.PAYFORM_PACKAGES_KEEP) return () => console.error(`packages: kept ${work}`);
  return () => rmSync(work, { recursive: true, force: true });
}

async function install(shop: string, tarballs: readonly string[], prebuilds: string): Promise<void> {
  mkdirSync(shop, { recursive: true });
  // npm 11 runs a dependency's install script only when the project allows it; better-sqlite3
  // builds its native module there. The same list as the repository's own package.json.
  writeFileSync(join(shop, 'package.json'), JSON.stringify({ name: 'merchant-shop', private: true, type: 'module', allowScripts: rootManifest.allowScripts }, null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs, ...MERCHANT_ADDS], {
    cwd: shop,
    // better-sqlite3's install script (prebuild-install) looks in this folder before it downloads.
    env: { ...process.env, [LOCAL_PREBUILDS_VARIABLE]: prebuilds },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** prebuild-install's setting for better-sqlite3's local prebuilds folder, read from the environment. */
const LOCAL_PREBUILDS_VARIABLE = 'npm_config_better_sqlite3_local_prebuilds';

/**
 * better-sqlite3's native module, already compiled by the repository's own install, as the
 * prebuild its install script looks for first — what it would download on a machine that can
 * reach GitHub. This machine cannot, so without it every run compiled SQLite from source again
 * (about a minute of both cores). The shop still installs better-sqlite3 from the registry and
 * runs its install script; prebuild-install unpacks this file and loads it to check it. When the
 * shop resolves another version (or runs on musl) the name does not match and it is compiled.
 */
async function prebuildFromRepository(destination: string): Promise<string> {
  const module = join(repository, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(destination, { recursive: true });
  const file = join(destination, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  await run('tar', ['-czf', file, '-C', module, 'build/Release/better_sqlite3.node']);
  return destination;
}

declare module 'vitest' {
  export interface ProvidedContext {
    packages: PackedPackages;
  }
}
