/**
 * The two bins as a merchant's install runs them (node_modules/.bin of the throwaway project):
 * `--version` reads the version from the installed package.json, wherever the build put the bin,
 * and `--help` starts nothing and points at the package's own documentation.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

const { shop } = inject('packages');

describe.each([
  ['payform-companion', '@payform/companion', 'server/companion#readme'],
  ['payform-sandbox', '@payform/sandbox', 'server/sandbox#readme'],
])('%s, installed', (bin, name, docs) => {
  const run = (flag: string) => execFileSync(join(shop, 'node_modules', '.bin', bin), [flag], { encoding: 'utf8', timeout: 30_000 });

  it('prints its installed version with --version', () => {
    const { version } = JSON.parse(readFileSync(join(shop, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    expect(run('--version')).toBe(`${name} ${version}\n`);
  });

  it('prints its usage and documentation with --help', () => {
    const help = run('--help');
    expect(help).toMatch(new RegExp(`^Usage: ${bin}`));
    expect(help).toContain(docs);
  });
});
