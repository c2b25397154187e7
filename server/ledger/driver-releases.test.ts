// Which driver release the companion takes, said before one that would crash is loaded, and the
// commands in the words of the package manager that runs the companion.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { setAgent, startedBy } from './testing/started-by.js';
import { DRIVER_RANGES, installCommand, rebuildStep, unfitRelease } from './driver-releases.js';
import { loadSqlite } from './drivers.js';

it('are the companion package’s peer dependencies, each one caret range (its major is what the hints install)', () => {
  const manifest = JSON.parse(readFileSync(new URL('../companion/package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string> };
  expect(DRIVER_RANGES).toEqual(manifest.peerDependencies);
  for (const range of Object.values(DRIVER_RANGES)) expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
});

describe('a driver release that cannot run here', () => {
  const projects: string[] = [];
  startedBy('pnpm/10.4.1 npm/? node/v20.20.2 linux x64');
  afterEach(() => {
    for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true });
  });
  /** A module of a merchant's project with these drivers installed (one project each: require caches a package.json read). */
  const projectWith = (drivers: Record<string, object>): string => {
    const project = mkdtempSync(join(tmpdir(), 'payform-driver-release-'));
    projects.push(project);
    for (const [driver, manifest] of Object.entries(drivers)) {
      mkdirSync(join(project, 'node_modules', driver), { recursive: true });
      writeFileSync(join(project, 'node_modules', driver, 'package.json'), JSON.stringify({ name: driver, ...manifest }));
    }
    return pathToFileURL(join(project, 'server.js')).href;
  };

  it('is named before it is loaded: one that asks for another Node, or an older one than the companion takes', async () => {
    // As better-sqlite3 13 on Node 20 (>=22): a Node no test runner here has.
    const from = projectWith({ 'better-sqlite3': { version: '13.2.0', engines: { node: '>=99' } }, pg: { version: '8.0.0' } });
    const crash = `better-sqlite3 13.2.0 is installed, which asks for Node >=99: this is ${process.version}, where loading it would end the process without a word; run \`pnpm add better-sqlite3@12\`, the release the companion takes (^12.11.1)`;
    expect(await unfitRelease('better-sqlite3', from)).toBe(crash);
    expect(await unfitRelease('pg', from)).toBe('pg 8.0.0 is installed, older than the companion takes: run `pnpm add pg@8`, the release the companion takes (^8.23.1)');
    expect(await unfitRelease('better-sqlite3', projectWith({ 'better-sqlite3': { version: '12.4.0', engines: { node: '20.x || 22.x || >=24' } } }))).toBe(
      'better-sqlite3 12.4.0 is installed, older than the companion takes: run `pnpm add better-sqlite3@12`, the release the companion takes (^12.11.1)',
    );
    // Checked as the driver loads, before the import that would crash.
    await expect(loadSqlite(from)).rejects.toThrow(crash);
  });

  it('leaves alone one this Node runs, a later major too, and a driver not installed (the import says that)', async () => {
    const major = process.versions.node.split('.')[0];
    expect(await unfitRelease('better-sqlite3', projectWith({ 'better-sqlite3': { version: '13.2.0', engines: { node: `>=${major}` } } }))).toBeUndefined();
    expect(await unfitRelease('better-sqlite3', projectWith({ 'better-sqlite3': { version: '12.11.1', engines: { node: `${major}.x || 26.x` } } }))).toBeUndefined();
    expect(await unfitRelease('pg', projectWith({}))).toBeUndefined();
  });
});

describe('the commands', () => {
  startedBy(undefined);
  it('in the words of the package manager that started the companion, npm’s when none did', () => {
    const by = (agent: string | undefined) => {
      setAgent(agent);
      return [installCommand('better-sqlite3'), rebuildStep()];
    };
    expect(by('npm/11.6.2 node/v20.20.2 linux x64 workspaces/false')).toEqual(['npm install better-sqlite3@12', 'run `npm rebuild better-sqlite3`']);
    expect(by('pnpm/10.4.1 npm/? node/v20.20.2 linux x64')).toEqual(['pnpm add better-sqlite3@12', 'run `pnpm approve-builds`, then `pnpm rebuild better-sqlite3`']);
    // pnpm 9 runs install scripts, and has no approve-builds.
    expect(by('pnpm/9.15.9 npm/? node/v20.20.2 linux x64')).toEqual(['pnpm add better-sqlite3@12', 'run `pnpm rebuild better-sqlite3`']);
    expect(by('yarn/4.18.1 npm/? node/v20.20.2 linux x64')).toEqual([
      'yarn add better-sqlite3@12',
      'allow its build in package.json (`"dependenciesMeta": { "better-sqlite3": { "built": true } }`), then run `yarn install`',
    ]);
    const [install, rebuild] = by(undefined);
    expect(install).toBe('npm install better-sqlite3@12');
    expect(rebuild).toMatch(/^run `npm rebuild better-sqlite3` \(pnpm: `pnpm approve-builds`, then `pnpm rebuild better-sqlite3`; Yarn: allow its build/);
  });
});
