/**
 * A merchant's TypeScript against the packed packages. The files in e2e/packages/typescript — a
 * server (companion, gateway client and webhook, sandbox, ledger, card checks) under Node's
 * module resolution, a Vite page and a React checkout under a bundler's — are compiled by the
 * shop's own TypeScript against what the tarballs installed, `strict`, with the declaration files
 * checked (`skipLibCheck` off, tsc's default). A published .d.ts that needs a package the
 * merchant has no reason to install, or that does not compile itself, fails here; so does a
 * README's promise about the types that stopped holding (a fraction of a minor unit compiles).
 */
import { execFile } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const { shop } = inject('packages');
const project = join(shop, 'typescript');
cpSync(new URL('typescript', import.meta.url), project, { recursive: true });

const CHECKED = { target: 'ES2022', lib: ['ES2023', 'DOM', 'DOM.Iterable'], strict: true, skipLibCheck: false, noEmit: true, jsx: 'react-jsx' };

/** Compiles one tsconfig of the project: tsc's diagnostics (none when it compiles) and its exit code. */
async function compile(name: string, compilerOptions: Record<string, unknown>, files: readonly string[]): Promise<{ diagnostics: string; code: number }> {
  const config = join(project, `tsconfig.${name}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...CHECKED, ...compilerOptions }, files }));
  try {
    await run(join(shop, 'node_modules', '.bin', 'tsc'), ['-p', config, '--pretty', 'false'], { cwd: project });
    return { diagnostics: '', code: 0 };
  } catch (error) {
    const { stdout = '', stderr = '', code } = error as { stdout?: string; stderr?: string; code?: number };
    return { diagnostics: `${stdout}${stderr}`.trim(), code: code ?? -1 };
  }
}

describe("a merchant's TypeScript, compiled against the packed types", () => {
  it('a Node server: companion, gateway client and webhooks, sandbox, ledger, card checks', async () => {
    expect(await compile('server', { module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'] }, ['server.ts'])).toEqual({ diagnostics: '', code: 0 });
  });

  it('a Vite page with <pay-form>, and a React checkout', async () => {
    expect(await compile('page', { module: 'ESNext', moduleResolution: 'Bundler', types: [] }, ['page.ts', 'checkout.tsx'])).toEqual({ diagnostics: '', code: 0 });
  });
});
