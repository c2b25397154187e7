import { defineConfig } from 'vitest/config';
import { thirdPartyLicenses } from './widget/build/licenses.js';
import { minifyTemplates } from './widget/build/minify-templates.js';

// One Vite config for the repository: Vitest runs the Node-side suites from here
// (browser component tests run under web-test-runner, end-to-end under Playwright).
export default defineConfig({
  plugins: [minifyTemplates(), thirdPartyLicenses()],
  // `vite build`: the widget's bundle, Lit included, served by the companion at /widget/pay-form.js.
  // Languages other than English and test mode's quick-fill are small sibling modules under
  // chunks/, loaded on demand; Lit's licence goes to LICENSES.txt beside them.
  build: {
    lib: { entry: 'widget/index.ts', formats: ['es'], fileName: () => 'pay-form.js' },
    outDir: 'dist/widget',
    target: 'es2022',
    minify: true,
    copyPublicDir: false,
    rolldownOptions: {
      output: {
        chunkFileNames: 'chunks/[name].js',
        minify: true,
        comments: false,
      },
    },
  },
  test: {
    include: ['server/**/*.test.ts', 'widget/**/*.test.ts', 'demo/**/*.test.ts', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'widget/**/*.browser.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
