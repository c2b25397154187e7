/**
 * The two bins as a merchant's install runs them (node_modules/.bin of the throwaway project):
 * `--version` reads the version from the installed package.json, wherever the build put the bin,
 * and `--help` starts nothing and points at the package's own documentation.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

describe('payform-companion, installed', () => {
  /** The UV_THREADPOOL_SIZE the installed bin's process had when it ended (a preloaded probe says), given `env`. */
  const poolSizeAtExit = (env: NodeJS.ProcessEnv): string => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-probe-'));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(probe, "process.on('exit', () => process.stderr.write(`pool ${process.env.UV_THREADPOOL_SIZE}\\n`));\n");
      const { UV_THREADPOOL_SIZE: _, ...inherited } = process.env;
      const ran = spawnSync(join(shop, 'node_modules', '.bin', 'payform-companion'), ['--version'], {
        env: { ...inherited, ...env, NODE_OPTIONS: `--require ${JSON.stringify(probe)}` },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(ran.status).toBe(0);
      return /^pool (.*)$/m.exec(ran.stderr)?.[1] ?? ran.stderr;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("sizes libuv's thread pool before its first use, keeping an operator's own size", () => {
    expect(poolSizeAtExit({})).toBe('16');
    expect(poolSizeAtExit({ UV_THREADPOOL_SIZE: '6' })).toBe('6');
    // Before its first use: loading an ES module already starts the pool, so the size is set by
    // the CommonJS file the bin runs first, never by a module it loads.
    const { bin } = JSON.parse(readFileSync(join(shop, 'node_modules', '@payform/companion', 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(bin['payform-companion']).toMatch(/\.cjs$/);
  });
});
