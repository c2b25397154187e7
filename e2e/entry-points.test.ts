/**
 * The bundles `npm start` and spawned processes run (entry-points.mjs): each module keeps its own import.meta.url,
 * installed packages are in the bundle but for the ledger's drivers, an edit to any module makes a new bundle, and
 * an unchanged one is reused as it is.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY } from '../demo/builds.js';
import { bundled } from './entry-points.mjs';

const run = promisify(execFile);
// Inside the repository, as entries are (the bundle resolves installed packages from there).
const FIXTURE = join(REPOSITORY, 'node_modules', '.cache', 'payform', `entry-points-test-${process.pid}`);
const ENTRY = relative(REPOSITORY, join(FIXTURE, 'main.ts'));

beforeAll(() => {
  mkdirSync(join(FIXTURE, 'nested'), { recursive: true });
  writeFileSync(join(FIXTURE, 'main.ts'), "import { here } from './nested/here.js';\nconst greeting: string = 'one';\nconsole.log(JSON.stringify({ greeting, here, main: import.meta.url }));\n");
  writeFileSync(join(FIXTURE, 'nested', 'here.ts'), "export const here: string = new URL('.', import.meta.url).href;\n");
});
afterAll(() => rmSync(FIXTURE, { recursive: true, force: true }));

describe('a TypeScript entry point bundled for a process of its own', () => {
  it('runs in plain Node, each module seeing its own file as import.meta.url', async () => {
    const { stdout } = await run(process.execPath, [await bundled(ENTRY)]);
    expect(JSON.parse(stdout)).toEqual({
      greeting: 'one',
      here: pathToFileURL(join(FIXTURE, 'nested')).href + '/',
      main: pathToFileURL(join(FIXTURE, 'main.ts')).href,
    });
  });

  it('holds the installed packages, CommonJS ones calling require included, and imports the ledger drivers', async () => {
    const entry = relative(REPOSITORY, join(FIXTURE, 'packages.ts'));
    const certificate = join(FIXTURE, 'certificate.pem');
    writeFileSync(certificate, 'a certificate');
    writeFileSync(
      join(FIXTURE, 'packages.ts'),
      // pg-connection-string is CommonJS: it reads the certificate with require('fs').
      "import { parse } from 'pg-connection-string';\nimport Database from 'better-sqlite3';\n" +
        `console.log(JSON.stringify({ cert: parse('postgres://h/db?sslcert=${certificate}').ssl, database: typeof Database }));\n`,
    );
    const bundle = await bundled(entry);
    const { stdout } = await run(process.execPath, [bundle]);
    expect(JSON.parse(stdout)).toEqual({ cert: { cert: 'a certificate' }, database: 'function' });
    const source = readFileSync(bundle, 'utf8');
    expect(source).toMatch(/from "better-sqlite3"/);
    expect(source).not.toMatch(/from "pg-connection-string"/);
  });

  it('is reused while nothing in it changed, and made again after an edit to any module', async () => {
    const first = await bundled(ENTRY);
    const builtAt = statSync(first).mtimeMs;
    expect(statSync(await bundled(ENTRY)).mtimeMs).toBe(builtAt);

    writeFileSync(join(FIXTURE, 'main.ts'), "import { here } from './nested/here.js';\nconst greeting: string = 'two';\nconsole.log(JSON.stringify({ greeting, here, main: import.meta.url }));\n");
    // Newer than the bundle however coarse the file system's clock.
    const later = new Date(builtAt + 2_000);
    utimesSync(join(FIXTURE, 'main.ts'), later, later);
    const { stdout } = await run(process.execPath, [await bundled(ENTRY)]);
    expect(JSON.parse(stdout)).toMatchObject({ greeting: 'two' });
  });
});
