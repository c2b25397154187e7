/**
 * Once for the whole packages suite: `npm pack` every workspace (prepack builds each one, as
 * publishing would), then ONE throwaway merchant project in the system's temporary directory —
 * outside the repository, so nothing resolves from its node_modules — with the five tarballs and
 * what a merchant adds beside them (better-sqlite3, express, vite, react, react-dom, @lit/react) installed
 * from the registry. Every test file reads it with `inject('packages')`; it is removed at the end.
 *
 * To look into a failure, PAYFORM_PACKAGES_KEEP=1 keeps the directory (its path is printed), and
 * PAYFORM_PACKAGES_REUSE=<that path> runs the tests again on it without packing or installing.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import type { PackedPackages, Tarball } from './packed.js';

const run = promisify(execFile);
const repository = new URL('../..', import.meta.url).pathname;
const rootManifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8'));

/** What a merchant installs beside the packages, in the ranges the repository itself uses. */
const MERCHANT_ADDS = ['better-sqlite3', 'express', 'vite', 'react', 'react-dom', '@lit/react'].map(
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
    const tarballs = await pack(join(work, 'tarballs'));
    timing.packed = Date.now();
    const shop = join(work, 'shop');
    await install(shop, tarballs.map((tarball) => join(work, 'tarballs', tarball.filename)));
    timing.installed = Date.now();
    console.error(
      `packages: packed in ${((timing.packed - timing.started) / 1000).toFixed(1)} s, installed in ${((timing.installed - timing.packed) / 1000).toFixed(1)} s at ${shop}`,
    );
    const packages: PackedPackages = { work, shop, tarballsDirectory: join(work, 'tarballs'), tarballs, addedByMerchant: MERCHANT_ADDS };
    writeFileSync(join(work, 'packages.json'), JSON.stringify(packages));
    project.provide('packages', packages);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  if (process.env.PAYFORM_PACKAGES_KEEP) return () => console.error(`packages: kept ${work}`);
  return () => rmSync(work, { recursive: true, force: true });
}

/** `npm pack --workspaces`: the builds' output goes first on stdout, then the JSON array. */
async function pack(destination: string): Promise<Tarball[]> {
  mkdirSync(destination, { recursive: true });
  // Packed as from a release shell: Vitest's NODE_ENV=test would make Vite build the widget with
  // Lit's development build (its warnings, 13 KB more) into the tarball and widget/dist.
  const { NODE_ENV: _vitest, ...env } = process.env;
  const { stdout } = await run('npm', ['pack', '--workspaces', '--json', '--pack-destination', destination], { cwd: repository, env, maxBuffer: 64 * 1024 * 1024 });
  const json = stdout.slice(stdout.search(/^\[$/m));
  const packed: { name: string; filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }[] = JSON.parse(json);
  return packed.map(({ name, filename, size, unpackedSize, entryCount, files }) => ({ name, filename, size, unpackedSize, entryCount, files: files.map((file) => file.path) }));
}

async function install(shop: string, tarballs: readonly string[]): Promise<void> {
  mkdirSync(shop, { recursive: true });
  // npm 11 runs a dependency's install script only when the project allows it; better-sqlite3
  // builds its native module there. The same list as the repository's own package.json.
  writeFileSync(join(shop, 'package.json'), JSON.stringify({ name: 'merchant-shop', private: true, type: 'module', allowScripts: rootManifest.allowScripts }, null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs, ...MERCHANT_ADDS], { cwd: shop, maxBuffer: 64 * 1024 * 1024 });
}

declare module 'vitest' {
  export interface ProvidedContext {
    packages: PackedPackages;
  }
}
