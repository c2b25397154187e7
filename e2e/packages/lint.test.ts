/**
 * Every packed tarball, as the registry would receive it: publint finds nothing at any level
 * (error, warning or suggestion), and @arethetypeswrong/cli finds no problem for the ESM
 * entry points (`--profile esm-only`: the packages ship ES modules only, so a CommonJS
 * `require` and node10's resolution, which knows no `exports`, are out of scope). The sizes
 * are printed for docs/performance.md ("Packages").
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';

const { tarballsDirectory, tarballs, work } = inject('packages');
const attw = new URL('../../node_modules/.bin/attw', import.meta.url).pathname;

/** attw's ESM-only profile ignores these resolutions (its --profile esm-only). */
const NOT_ESM = new Set(['node10', 'node16-cjs']);

describe.each(tarballs.map((tarball) => [tarball.name, tarball] as const))('%s, packed', (_name, tarball) => {
  const file = join(tarballsDirectory, tarball.filename);

  it('publint: no error, no warning, no suggestion', async () => {
    const bytes = readFileSync(file);
    const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: 'suggestion', strict: true });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`)).toEqual([]);
  });

  it('@arethetypeswrong/cli: no problem for the ESM entry points', () => {
    // attw exits before a piped stdout drains: its JSON goes to a file.
    const report = join(work, `${tarball.filename}.attw.json`);
    const out = openSync(report, 'w');
    const { status } = spawnSync(attw, [file, '--profile', 'esm-only', '--format', 'json'], { stdio: ['ignore', out, 'inherit'] });
    closeSync(out);
    const { problems = {} } = JSON.parse(readFileSync(report, 'utf8')) as { problems?: Record<string, { entrypoint?: string; resolutionKind?: string }[]> };
    const esm = Object.values(problems)
      .flat()
      .filter((problem) => !problem.resolutionKind || !NOT_ESM.has(problem.resolutionKind));
    expect(esm).toEqual([]);
    expect(status).toBe(0);
  });

  it('tells the registry where its source, docs and issue tracker are', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xOzf', file, 'package/package.json'], { encoding: 'utf8' })) as {
      repository?: { url?: string; directory?: string };
      homepage?: string;
      bugs?: { url?: string };
    };
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(manifest.repository?.directory).toMatch(/^(widget|server)(\/|$)/);
    expect(manifest.homepage).toMatch(new RegExp(`/tree/main/${manifest.repository?.directory ?? '-'}#readme$`));
    expect(manifest.bugs?.url).toMatch(/^https:\/\/.+\/issues$/);
  });

  it('ships its built code and no test, source map or TypeScript source', () => {
    expect(tarball.files).toContain('package.json');
    expect(tarball.files.some((path) => path.startsWith('dist/'))).toBe(true);
    expect(tarball.files.filter((path) => /\.test\.|(?<!\.d)\.ts$|\.map$/.test(path))).toEqual([]);
    console.log(
      `${tarball.name}: ${(tarball.size / 1024).toFixed(1)} KB packed, ${(tarball.unpackedSize / 1024).toFixed(1)} KB unpacked, ${tarball.entryCount} files`,
    );
  });
});

it('packs all five packages', () => {
  expect(tarballs.map((tarball) => tarball.name).sort()).toEqual(['@payform/card', '@payform/companion', '@payform/gateway', '@payform/sandbox', '@payform/widget']);
});
