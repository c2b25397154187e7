/**
 * A page that only needs the card form installs `@payform/widget` alone: that must pull Lit, Lit's
 * own dependencies and `@payform/card` (no dependencies of its own), and nothing else (React, Vue
 * and @lit/react are optional peers). The closure's size is printed for docs/performance.md
 * ("Packages"). The card package comes from its tarball, as the registry would give it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, inject, it } from 'vitest';

const run = promisify(execFile);
const { work, tarballsDirectory, tarballs } = inject('packages');

interface LockEntry {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

it('installing @payform/widget alone pulls only lit, @payform/card and their dependencies', { timeout: 180_000 }, async () => {
  const project = mkdtempSync(join(work, 'widget-alone-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'card-form-only', private: true, type: 'module' }));
  const tarball = (name: string) => join(tarballsDirectory, tarballs.find((packed) => packed.name === name)!.filename);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball('@payform/widget'), tarball('@payform/card')], { cwd: project });

  // npm's record of what it put in node_modules, keyed by path.
  const lock: Record<string, LockEntry> = JSON.parse(readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8')).packages;
  const installed = Object.keys(lock).filter((path) => path.startsWith('node_modules/'));
  const reached = new Set<string>();
  const visit = (from: string, name: string) => {
    // Node's lookup: the nearest node_modules/<name> up from the dependent.
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const path = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (lock[path]) {
        if (reached.has(path)) return;
        reached.add(path);
        for (const dependency of Object.keys(lock[path].dependencies ?? {})) visit(path, dependency);
        return;
      }
      if (!base) return;
    }
  };
  visit('', 'lit');
  visit('', '@payform/card');

  expect(installed.filter((path) => path !== 'node_modules/@payform/widget').sort()).toEqual([...reached].sort());
  expect(reached.has('node_modules/lit')).toBe(true);
  expect(lock['node_modules/@payform/card']?.dependencies ?? {}).toEqual({});

  const bytes = installed.reduce((sum, path) => sum + size(join(project, path)), 0);
  console.log(`@payform/widget alone: ${installed.length} packages (${installed.map((path) => path.replace(/^.*node_modules\//, '')).join(', ')}), ${(bytes / 1024 / 1024).toFixed(2)} MB on disk`);
});

/** Bytes of the files under `path`, nested node_modules left to their own entries. */
function size(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path)
    .filter((name) => name !== 'node_modules')
    .reduce((sum, name) => sum + size(join(path, name)), 0);
}
