// Which driver release the companion takes, said before one that would crash is loaded, and the
// commands in the words of the package manager that runs the companion.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRIVER_RANGES, installCommand, otherRelease, rebuildCommand } from './driver-releases.js';

const userAgent = process.env.npm_config_user_agent;
afterEach(() => {
  if (userAgent === undefined) delete process.env.npm_config_user_agent;
  else process.env.npm_config_user_agent = userAgent;
});

it('are the companion package’s peer dependencies', () => {
  const manifest = JSON.parse(readFileSync(new URL('../companion/package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string> };
  expect(DRIVER_RANGES).toEqual(manifest.peerDependencies);
});

describe('a driver of another release than the companion takes', () => {
  let project: string;
  /** A module of the merchant's project, where the drivers below are installed. */
  let from: string;
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'payform-driver-release-'));
    from = pathToFileURL(join(project, 'server.js')).href;
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));
  const installed = (driver: string, manifest: object) => {
    mkdirSync(join(project, 'node_modules', driver), { recursive: true });
    writeFileSync(join(project, 'node_modules', driver, 'package.json'), JSON.stringify({ name: driver, ...manifest }));
  };

  it('is named before it is loaded, with the Node it asks for and the install that fixes it', () => {
    process.env.npm_config_user_agent = 'pnpm/10.4.1 npm/? node/v20.20.2 linux x64';
    installed('better-sqlite3', { version: '13.2.0', engines: { node: '>=22' } });
    installed('pg', { version: '9.0.0' });
    expect(otherRelease('better-sqlite3', from)).toBe(
      `better-sqlite3 13.2.0 is installed, and the companion takes better-sqlite3 ^12.11.1, its peer dependency (13.2.0 asks for Node >=22; this is ${process.version}): run \`pnpm add better-sqlite3@12\``,
    );
    expect(otherRelease('pg', from)).toBe('pg 9.0.0 is installed, and the companion takes pg ^8.23.1, its peer dependency: run `pnpm add pg@8`');
  });

  it('says nothing of a release it takes, or of a driver not installed (the import says that)', () => {
    installed('better-sqlite3', { version: '12.4.0', engines: { node: '20.x || 22.x' } });
    expect(otherRelease('better-sqlite3', from)).toBeUndefined();
    expect(otherRelease('pg', from)).toBeUndefined();
  });
});

describe('the commands', () => {
  it('in the words of the package manager that started the companion, npm’s when none did', () => {
    const by = (agent: string | undefined) => {
      if (agent === undefined) delete process.env.npm_config_user_agent;
      else process.env.npm_config_user_agent = agent;
      return [installCommand('better-sqlite3'), rebuildCommand()];
    };
    expect(by('npm/11.6.2 node/v20.20.2 linux x64 workspaces/false')).toEqual(['npm install better-sqlite3@12', '`npm rebuild better-sqlite3`']);
    expect(by('pnpm/10.4.1 npm/? node/v20.20.2 linux x64')).toEqual(['pnpm add better-sqlite3@12', '`pnpm approve-builds`, then `pnpm rebuild better-sqlite3`']);
    expect(by('yarn/4.18.1 npm/? node/v20.20.2 linux x64')).toEqual([
      'yarn add better-sqlite3@12',
      'allow its build in package.json (`"dependenciesMeta": { "better-sqlite3": { "built": true } }`), then `yarn install`',
    ]);
    const [install, rebuild] = by(undefined);
    expect(install).toBe('npm install better-sqlite3@12');
    expect(rebuild).toMatch(/^`npm rebuild better-sqlite3` \(pnpm: `pnpm approve-builds`, then `pnpm rebuild better-sqlite3`; Yarn: allow its build/);
  });
});
