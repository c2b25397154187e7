/**
 * `npm run build -w @payform/companion` (and prepack): the back office's page into
 * dist/back-office, which back-office-routes.ts serves. Every URL in the built files is relative
 * (`base: './'`): the server places the page under whatever path and base path the merchant
 * mounts it at.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// In the repository the @payform packages resolve to their TypeScript sources, as tsconfig.json's
// `paths` say: the page bundles @payform/card's currency table whether or not its dist is built.
const inRepository = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const tsconfigPaths: Record<string, [string]> = JSON.parse(readFileSync(inRepository('tsconfig.json'), 'utf8')).compilerOptions.paths;
const packageSources = Object.entries(tsconfigPaths).map(([name, [source]]) => ({
  find: new RegExp(`^${name.replaceAll('/', '\\/')}$`),
  replacement: inRepository(source),
}));

export default defineConfig({
  root: fileURLToPath(new URL('web', import.meta.url)),
  base: './',
  resolve: { alias: packageSources },
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/back-office', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles: the page runs under a strict Content-Security-Policy.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // The merchant's browser gets no source: no maps in the package.
    sourcemap: false,
  },
});
