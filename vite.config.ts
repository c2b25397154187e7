import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { Plugin, UserConfig } from 'vite';
import { LongFirst } from './e2e/test-order.js';
import { subresourceIntegrity } from './widget/build/integrity.js';
import { thirdPartyLicenses } from './widget/build/licenses.js';
import { minifyTemplates } from './widget/build/minify-templates.js';
import { sharedChunksBeside } from './widget/build/shared-chunks.js';

const inRepository = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Inside the repository the @payform packages resolve to their TypeScript sources, as
// tsconfig.json's `paths` say (tsx, tsc and Playwright read them there); installed, a package
// resolves to its built dist/ through its `exports`.
const tsconfigPaths: Record<string, [string]> = JSON.parse(readFileSync(inRepository('tsconfig.json'), 'utf8')).compilerOptions.paths;
const packageSources = Object.entries(tsconfigPaths).map(([name, [source]]) => ({
  find: new RegExp(`^${name.replaceAll('/', '\\/')}$`),
  replacement: inRepository(source),
}));

// `vite build`: @payform/widget's bundle (widget/dist), Lit included, served by the companion at
// /widget/pay-form.js.
// The catalogs (English's specific error messages, the other languages), test mode's quick-fill,
// the card-number detector and the pay-time browser data (fingerprint) are small sibling modules
// under chunks/, loaded on demand; Lit's licence
// goes to LICENSES.txt beside them. The card schemes' table and Luhn, which the paying chunk, the
// customer checks and the detector share, are a chunk of their own (chunks/luhn.js), which
// pay-form.js asks for beside the chunk that imports it (widget/build/shared-chunks.ts); what
// pay-form.js has, they take from it (`allow-extension`: modules the bundle has stay in it rather
// than going to a third file).
const widget: UserConfig = {
  plugins: [minifyTemplates(), thirdPartyLicenses(), sharedChunksBeside()],
  build: {
    lib: { entry: inRepository('widget/index.ts'), formats: ['es'], fileName: () => 'pay-form.js' },
    outDir: inRepository('widget/dist'),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    copyPublicDir: false,
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      output: {
        chunkFileNames: 'chunks/[name].js',
        // What a chunk takes from pay-form.js keeps its name: files of two builds met in a cache
        // fail to link rather than swap functions.
        minifyInternalExports: false,
        minify: true,
        comments: false,
      },
    },
  },
};

// `vite build --mode whole`: the same widget in one file, its chunks inlined
// (widget/dist/pay-form.whole.js), for a page that pins its scripts by Subresource Integrity: a
// chunk pay-form.js loads by import() carries no hash of its own, so pay-form.js's would not cover
// the code that reads the card. Its sha384 goes to widget/dist/integrity.json.
const whole: UserConfig = {
  plugins: [minifyTemplates(), subresourceIntegrity()],
  build: {
    ...widget.build,
    lib: { entry: inRepository('widget/index.ts'), formats: ['es'], fileName: () => 'pay-form.whole.js' },
    // Beside the chunked build, which runs first.
    emptyOutDir: false,
    rolldownOptions: { output: { codeSplitting: false, minify: true, comments: false } },
  },
};

// `vite build --mode demo`: the demo shop (demo/web, one HTML file per page) into
// dist/demo, which the companion process serves. The pages load the widget from the companion
// (/widget/pay-form.js, `vite-ignore`d), as a merchant's pages do. The back office is the
// companion's own (server/companion/back-office, built by the package's `build`).
const demo: UserConfig = {
  root: 'demo/web',
  base: '/',
  plugins: [sharedPreferencesScript()],
  build: {
    outDir: '../../dist/demo',
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles anywhere: the pages run under a strict Content-Security-Policy.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: Object.fromEntries(
        ['index', 'checkout', 'result'].map((page) => [page, fileURLToPath(new URL(`demo/web/${page}.html`, import.meta.url))]),
      ),
    },
  },
};

// The pages apply the visitor's display preferences before the first paint with the back office's
// classic script (its public/preferences.js), which Vite copies only from a page set's own public/.
function sharedPreferencesScript(): Plugin {
  const script = inRepository('server/companion/back-office/web/public/preferences.js');
  return {
    name: 'payform:shared-preferences-script',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'preferences.js', source: readFileSync(script, 'utf8') });
    },
  };
}

// One Vite config for the repository: Vitest runs the Node-side suites from here
// (browser component tests run under web-test-runner, end-to-end under Playwright).
export default defineConfig(({ mode, command }) => ({
  ...(mode === 'demo' ? demo : mode === 'whole' ? whole : widget),
  resolve: {
    alias: packageSources,
    // The widget's bundle is always Lit's production build, whatever NODE_ENV the shell has
    // (Vite would add the `development` condition for any other value, and ship Lit's warnings).
    ...(command === 'build' && mode !== 'demo' ? { conditions: ['module', 'browser', 'production'] } : {}),
  },
  test: {
    include: ['server/**/*.test.ts', 'widget/**/*.test.ts', 'demo/**/*.test.ts', 'e2e/**/*.test.ts'],
    // e2e/packages runs on its own (npm run test:packages): it packs and installs the packages first.
    exclude: ['**/node_modules/**', 'widget/**/*.browser.test.ts', 'e2e/packages/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Most files wait rather than compute (servers on loopback, reconciliation windows, PostgreSQL,
    // a browser): three at a time keep two cores busy, where Vitest's default (cores - 1) ran one.
    maxWorkers: 3,
    // One module graph per worker instead of one per file: importing the stacks afresh for each of
    // 125 files was 40 % of the run's CPU. No file relies on a fresh module state (none mocks
    // modules; the env and spies they change, they restore).
    isolate: false,
    // The long files first, also on a clean clone without Vitest's cache of durations.
    sequence: { sequencer: LongFirst },
  },
}));
