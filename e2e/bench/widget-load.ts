/**
 * Widget start: from the moment the page asks for the module to an interactive `<pay-form>`
 * (its `pay-ready` event: the bundle loaded, the element upgraded, the session read from the
 * companion, the card fields rendered) in headless Chromium. The bundle and the session come
 * from a real companion (with the sandbox behind it) on loopback; each sample is a fresh
 * browser context, so nothing is cached — a first visit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoopbackClient } from './load/http-client.js';
import { summarise } from './load/latency.js';
import type { LatencySummary } from './load/latency.js';
import { launchChromium } from '../chromium.js';
import { BENCH_ADMIN_TOKEN } from './servers/credentials.js';
import { spawnServer } from './servers/processes.js';

export interface WidgetLoadFigures {
  /** Module requested → `pay-ready`, ms. */
  readonly interactive: LatencySummary;
}

/** The merchant's page: nothing but the element; the module is added by the measurement. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head>
<body><main><h1>Checkout</h1><pay-form></pay-form></main></body></html>`;

export async function measureWidgetLoad(samples = 15): Promise<WidgetLoadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-bench-widget-'));
  const sandbox = await spawnServer('sandbox');
  const companion = await spawnServer('companion', { env: { BENCH_GATEWAY_URL: sandbox.url, BENCH_DATABASE_URL: join(dir, 'ledger.db') } });
  const client = new LoopbackClient(2);
  const browser = await launchChromium();
  try {
    const times: number[] = [];
    // One warm-up visit: Chromium's own first-use costs are not the widget's.
    for (let sample = 0; sample < samples + 1; sample += 1) {
      const opened = await client.json('POST', `${companion.url}/api/checkout/sessions`, { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' }, {
        Authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
      });
      if (opened.status !== 201) throw new Error(`open a session: HTTP ${opened.status} ${opened.body}`);
      const sessionId = (JSON.parse(opened.body) as { id: string }).id;
      const context = await browser.newContext();
      const page = await context.newPage();
      // The page is the merchant's, on the companion's origin (same-origin API calls, as in the demo).
      await page.route(`${companion.url}/checkout-page`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
      await page.goto(`${companion.url}/checkout-page`);
      const ms = await page.evaluate(
        ({ sessionId, script }) =>
          new Promise<number>((resolve, reject) => {
            const form = document.querySelector('pay-form')!;
            form.setAttribute('session', sessionId);
            const start = performance.now();
            form.addEventListener('pay-ready', () => resolve(performance.now() - start), { once: true });
            form.addEventListener('pay-error', () => reject(new Error('pay-error instead of pay-ready')), { once: true });
            const module = document.createElement('script');
            module.type = 'module';
            module.src = script;
            document.head.append(module);
          }),
        { sessionId, script: `${companion.url}/widget/pay-form.js` },
      );
      // Interactive: the card number field takes typing.
      await page.getByLabel(/card number/i).fill('4242');
      if (sample > 0) times.push(ms);
      await context.close();
    }
    return { interactive: summarise(times) };
  } finally {
    await browser.close();
    client.close();
    await companion.stop();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
