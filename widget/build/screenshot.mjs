// Takes docs/widget.png: the built bundle (widget/dist/pay-form.js) in Chromium, light and dark,
// against the real sandbox and companion of the browser tests. `npm run build:widget && node widget/build/screenshot.mjs`.
import { fileURLToPath, URL } from 'node:url';
import { startDevServer } from '@web/dev-server';
import { chromium } from 'playwright';
import { tsImport } from 'tsx/esm/api';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/chromium-binary.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { checkoutBackend } = await tsImport('../test/dev-server-backend.ts', import.meta.url);
const backend = checkoutBackend();

const page = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>pay-form</title>
<link rel="stylesheet" href="/widget/build/screenshot.css">
<script type="module" src="/widget/dist/pay-form.js"></script>
<script type="module" src="/widget/build/screenshot-page.mjs"></script>
<main>
  <section class="light"><h1>Checkout</h1><p>Order #1042 · Linen shirt</p><pay-form></pay-form></section>
  <section class="dark" lang="uk"><h1>Оплата</h1><p>Замовлення №1042 · Лляна сорочка</p><pay-form></pay-form></section>
</main>
</html>`;

const server = await startDevServer({
  config: {
    rootDir: root,
    port: 0,
    hostname: '127.0.0.1',
    plugins: [backend.plugin],
    middleware: [
      (ctx, next) => {
        if (ctx.path !== '/') return next();
        ctx.type = 'html';
        ctx.body = page;
      },
      backend.routes,
    ],
  },
  readCliArgs: false,
  readFileConfig: false,
  logStartMessage: false,
});
const { port } = server.server.address();

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
});
try {
  const tab = await browser.newPage({ viewport: { width: 1000, height: 640 }, deviceScaleFactor: 2 });
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.waitForFunction(() => globalThis.document.body.dataset.ready === 'true');
  await tab.screenshot({ path: `${root}docs/widget.png` });
} finally {
  await browser.close();
  await server.stop();
}
