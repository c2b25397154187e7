// Browser component tests (`widget/**/*.browser.test.ts`) in Debian's Chromium through Playwright.
// `npx wtr --config widget/web-test-runner.config.mjs` (or `npm run test:widget`).
import { fileURLToPath, URL } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { tsImport } from 'tsx/esm/api';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium-binary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// The real sandbox and companions (TypeScript, loaded through tsx for this module only), started on
// free loopback ports with the dev server, stopped with it; see widget/test/dev-server-backend.ts.
const { checkoutBackend } = await tsImport('./test/dev-server-backend.ts', import.meta.url);
const backend = checkoutBackend();

export default {
  rootDir: root,
  files: ['widget/**/*.browser.test.ts'],
  // Pages at http://127.0.0.1 (the runner still listens on every interface: for this name it leaves
  // the host out; the backend routes answer loopback clients only). Without a port it takes the first
  // free one from 8000 up.
  hostname: '127.0.0.1',
  nodeResolve: true,
  // The root tsconfig: Lit's experimental decorators and useDefineForClassFields: false apply.
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: `${root}tsconfig.json` }), backend.plugin],
  // The shop's companion answers at the test page's own origin (the widget's default endpoint), plus the fixture routes.
  middleware: [backend.routes],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      },
      // Paste tests put text on the clipboard.
      createBrowserContext: ({ browser }) => browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] }),
    }),
  ],
  // Focus moves between fields are part of what is tested: one page at a time keeps focus real.
  concurrency: 1,
  testFramework: { config: { timeout: 15000 } },
  filterBrowserLogs: ({ args }) => !String(args[0]).startsWith('Lit is in dev mode'),
};
