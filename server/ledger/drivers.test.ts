import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startedBy } from './testing/started-by.js';
import { sqliteBuildProblem } from './drivers.js';

const require = createRequire(import.meta.url);

// As started by npm: its commands are the ones named (driver-releases.test.ts tries the others).
startedBy('npm/11.6.2 node/v20.20.2 linux x64');

/** What better-sqlite3 throws when its native module was never built: `bindings`' own error, for a package root without one. */
function unbuiltModuleError(): unknown {
  const root = mkdtempSync(join(tmpdir(), 'payform-unbuilt-'));
  try {
    (require('bindings') as (options: object) => unknown)({ bindings: 'better_sqlite3.node', module_root: root });
  } catch (error) {
    return error;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  throw new Error('bindings found a module in an empty folder');
}

describe('a SQLite driver that cannot load', () => {
  it('says npm rebuild better-sqlite3 for a native module never built, in place of the paths tried', () => {
    const error = unbuiltModuleError();
    expect((error as Error).message).toMatch(/^Could not locate the bindings file/);
    expect(sqliteBuildProblem(error)).toMatch(/installed without its native module .*run `npm rebuild better-sqlite3`/);
  });

  it('says the same for a module built for another Node.js, and nothing of other errors', () => {
    const other = new Error("The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 108. This version of Node.js requires NODE_MODULE_VERSION 115.");
    expect(sqliteBuildProblem(other)).toContain(`another Node.js than this one (${process.version}): run \`npm rebuild better-sqlite3\``);
    expect(sqliteBuildProblem(new Error('unable to open database file'))).toBeUndefined();
    expect(sqliteBuildProblem('not an error')).toBeUndefined();
  });
});
