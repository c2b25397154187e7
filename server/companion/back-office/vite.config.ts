/**
 * `npm run build -w @payform/companion` (and prepack): the back office's page into
 * dist/back-office, which back-office-routes.ts serves. Every URL in the built files is relative
 * (`base: './'`): the server places the page under whatever path and base path the merchant
 * mounts it at.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('web', import.meta.url)),
  base: './',
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
