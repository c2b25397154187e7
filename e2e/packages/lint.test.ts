/**
 * Every packed tarball, as the registry would receive it: publint finds nothing at any level
 * (error, warning or suggestion), and attw (@arethetypeswrong/core, what its CLI runs) finds
 * no problem for the ESM entry points (its CLI's `--profile esm-only`: the packages ship ES
 * modules only, so a CommonJS `require` and node10's resolution, which knows no `exports`, are
 * out of scope). The sizes are printed for docs/performance.md ("Packages").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';

const { tarballsDirectory, tarballs } = inject('packages');

/** attw's ESM-only profile ignores these resolutions (its CLI's --profile esm-only). */
const NOT_ESM = new Set(['node10', 'node16-cjs']);

describe.each(tarballs.map((tarball) => [tarball.name, tarball] as const))('%s, packed', (_name, tarball) => {
  const file = join(tarballsDirectory, tarball.filename);

  it('publint: no error, no warning, no suggestion', async () => {
    const bytes = readFileSync(file);
    const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: 'suggestion', strict: true });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`)).toEqual([]);
  });

  // In this process rather than through attw's CLI: one TypeScript loaded for the five tarballs,
  // 3 CPU-seconds in all instead of 13.
  it('attw: no problem for the ESM entry points', async () => {
    const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(file))));
    expect(analysis.types, 'attw found no types').toBeTruthy();
    const esm = analysis.types ? analysis.problems.filter((problem) => !('resolutionKind' in problem) || !NOT_ESM.has(problem.resolutionKind)) : [];
    expect(esm).toEqual([]);
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
