/**
 * A merchant's TypeScript against the packed packages. The files in e2e/packages/typescript — a
 * server (companion, gateway client and webhook, sandbox, ledger, card checks), a page with
 * <pay-form>, a React checkout, a Vue one's props and a Svelte one's markup — and an import of
 * every entry point of every package are compiled by the shop's own TypeScript against what the
 * tarballs installed, `strict`, with the declaration files checked (`skipLibCheck` off, tsc's
 * default): payform's and what it installs whole, the shop's own libraries where they are used
 * (check-types.mjs). A published .d.ts that needs a package the merchant has no reason to
 * install, that does not compile itself or that clashes with a framework's types fails here; so
 * does a README's promise about the types that stopped holding (a fraction of a minor unit
 * compiles). One program, under Node's resolution: attw (lint.test.ts) already resolves each
 * entry point the way bundlers do.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, inject, it } from 'vitest';

const run = promisify(execFile);
const { shop, tarballs } = inject('packages');
const project = join(shop, 'typescript');
cpSync(new URL('typescript', import.meta.url), project, { recursive: true });

/**
 * Every entry point of every package, read from its installed exports map (the JSON ones
 * aside): imported whole, so each one's declarations are compiled, the entries a merchant's
 * code above does not name included, and any added later.
 */
function everyEntry(): string {
  const specifiers = tarballs.flatMap(({ name }) => {
    const { exports } = JSON.parse(readFileSync(join(shop, 'node_modules', name, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    return Object.keys(exports)
      .filter((subpath) => !subpath.endsWith('.json'))
      .map((subpath) => `${name}${subpath.slice(1)}`);
  });
  const names = specifiers.map((_, index) => `entry${index}`);
  return `${specifiers.map((specifier, index) => `import * as ${names[index]} from '${specifier}';`).join('\n')}\nexport const entries = [${names.join(', ')}];\n`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', lib: ['ES2023', 'DOM', 'DOM.Iterable'], module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], jsx: 'react-jsx',
    // As strict as a merchant's project gets: optional properties exact, indexed reads checked.
    strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false, noEmit: true,
  },
  files: ['server.ts', 'page.ts', 'checkout.tsx', 'vue-checkout.ts', 'svelte-checkout.ts', 'entries.ts'],
};

/** The diagnostics, as tsc prints them (none when it compiles), and the exit code. */
async function compile(): Promise<{ diagnostics: string; code: number }> {
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(project, 'entries.ts'), everyEntry());
  try {
    await run(process.execPath, [fileURLToPath(new URL('check-types.mjs', import.meta.url)), project, ...tarballs.map(({ name }) => name)], { cwd: project });
    return { diagnostics: '', code: 0 };
  } catch (error) {
    const { stdout = '', stderr = '', code } = error as { stdout?: string; stderr?: string; code?: number };
    return { diagnostics: `${stdout}${stderr}`.trim(), code: code ?? -1 };
  }
}

// 15 s alone; beside the Vitest run on 2 cores, up to a minute.
const COMPILE_TIMEOUT_MS = 240_000;

it("a merchant's server, page, React, Vue and Svelte checkouts, and every entry point, compile against the packed types", { timeout: COMPILE_TIMEOUT_MS }, async () => {
  expect(await compile()).toEqual({ diagnostics: '', code: 0 });
});
