/**
 * Every packed tarball, as the registry would receive it: publint finds nothing at any level
 * (error, warning or suggestion), and attw (@arethetypeswrong/core, what its CLI runs) finds
 * no problem for any entry point under any resolution but TypeScript's node16 CommonJS, which
 * refuses a static import of an ES module (the packages ship ES modules only; docs/gateway.md
 * says what such a project writes). node10 — `module: commonjs`'s default up to TypeScript 5.9,
 * in many an Express project — finds the types by `types` and `typesVersions`. The sizes are
 * printed for docs/performance.md ("Packages").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import type { Problem } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, inject, it } from 'vitest';

const { tarballsDirectory, tarballs } = inject('packages');

/**
 * Expected: node16's CommonJS resolves an ES module. And node10 knows no `exports`, so the
 * custom-elements manifest, a JSON for tools (read by the `customElements` field), is not found
 * by its subpath there: no code imports it.
 */
function expected(problem: Problem): boolean {
  if (!('resolutionKind' in problem)) return false;
  if (problem.resolutionKind === 'node16-cjs') return problem.kind === 'CJSResolvesToESM';
  return problem.resolutionKind === 'node10' && problem.kind === 'NoResolution' && problem.entrypoint.endsWith('.json');
}

describe.each(tarballs.map((tarball) => [tarball.name, tarball] as const))('%s, packed', (_name, tarball) => {
  const file = join(tarballsDirectory, tarball.filename);

  it('publint: no error, no warning, no suggestion', async () => {
    const bytes = readFileSync(file);
    const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: 'suggestion', strict: true });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`)).toEqual([]);
  });

  // In this process rather than through attw's CLI: one TypeScript loaded for the five tarballs,
  // 3 CPU-seconds in all instead of 13.
  it('attw: no problem for the entry points, node10 included', async () => {
    const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(file))));
    expect(analysis.types, 'attw found no types').toBeTruthy();
    expect(analysis.types ? analysis.problems.filter((problem) => !expected(problem)) : []).toEqual([]);
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

// Read where the package is installed (node_modules, an offline laptop): its README sends the
// reader to them by these paths.
it('ships each package’s guide where its README says', () => {
  const guides: Record<string, string[]> = {
    '@payform/companion': ['docs/companion.md', 'docs/reliability.md'],
    '@payform/widget': ['docs/widget.md'],
    '@payform/sandbox': ['docs/sandbox.md', 'docs/sandbox-projects.example.json'],
    '@payform/gateway': ['docs/gateway.md'],
  };
  for (const [name, paths] of Object.entries(guides)) {
    const tarball = tarballs.find((packed) => packed.name === name)!;
    expect(tarball.files, name).toEqual(expect.arrayContaining(paths));
    const readme = execFileSync('tar', ['-xOzf', join(tarballsDirectory, tarball.filename), 'package/README.md'], { encoding: 'utf8' });
    expect(readme, name).toContain(`${paths[0]}\` in this package`);
  }
});

// Opened in an editor where npm installed them: a guide's relative links land on another
// installed @payform package's file; what no package ships is linked on GitHub.
it('links each shipped guide only to files the packages ship, beside it in node_modules', () => {
  const installed = new Set(tarballs.flatMap((tarball) => tarball.files.map((path) => `${tarball.name}/${path}`)));
  const unresolved: string[] = [];
  for (const tarball of tarballs) {
    for (const guide of tarball.files.filter((path) => /^docs\/.+\.md$/.test(path))) {
      const text = execFileSync('tar', ['-xOzf', join(tarballsDirectory, tarball.filename), `package/${guide}`], { encoding: 'utf8' });
      for (const [, target] of text.matchAll(/\]\(((?!https?:|mailto:|#)[^)\s#]+)/g)) {
        const path = posix.join(tarball.name, posix.dirname(guide), target!);
        if (!installed.has(path)) unresolved.push(`${tarball.name}/${guide} → ${target}`);
      }
    }
  }
  expect(unresolved).toEqual([]);
});

it('packs all five packages', () => {
  expect(tarballs.map((tarball) => tarball.name).sort()).toEqual(['@payform/card', '@payform/companion', '@payform/gateway', '@payform/sandbox', '@payform/widget']);
});

// Editors and documentation tools (VS Code's custom data, Storybook, the Lit analyzer) find the
// elements through `customElements` and import what each `path`/`module` names, from the
// package's root: a source path (widget/pay-form/pay-form.ts) exists only in the repository.
it('the widget’s custom-elements manifest names its elements and only files it ships', () => {
  const widget = tarballs.find((tarball) => tarball.name === '@payform/widget')!;
  const file = join(tarballsDirectory, widget.filename);
  const { customElements } = JSON.parse(execFileSync('tar', ['-xOzf', file, 'package/package.json'], { encoding: 'utf8' })) as { customElements: string };
  const manifest = JSON.parse(execFileSync('tar', ['-xOzf', file, `package/${customElements}`], { encoding: 'utf8' })) as { modules: Array<Record<string, unknown>> };
  const named = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const key of ['path', 'module'] as const) if (typeof (value as Record<string, unknown>)[key] === 'string') named.add((value as Record<string, string>)[key]!);
    Object.values(value).forEach(visit);
  };
  visit(manifest.modules);
  expect([...named].filter((path) => !widget.files.includes(path))).toEqual([]);
  const elements = manifest.modules.flatMap((module) => ((module.declarations ?? []) as Array<{ tagName?: string }>).flatMap((declaration) => declaration.tagName ?? []));
  expect(elements.sort()).toEqual(['pay-button', 'pay-form']);
});
