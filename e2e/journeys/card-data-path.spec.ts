/**
 * Where the card goes. A recording proxy stands in front of the companion and keeps every byte
 * it received (paths, query strings, headers, bodies); the recording is scanned for the test
 * card numbers and CVVs in every spelling the log and at-rest scanners know. In tokenize mode —
 * the demo's default — `<pay-form>` sends the card from Chromium straight to the gateway's
 * tokenizer and the scan finds nothing, 3-D Secure included; in relay mode the same scan finds
 * them, so the scan is seen to work. A tokenizer out of reach falls back to the hosted page.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { scanLogCapture } from '../../server/companion/test/log-capture.js';
import { TEST_CVV } from '../../server/companion/test/cards.js';
import { startStack } from '../../demo/stack.js';
import type { RunningStack } from '../../demo/stack.js';
import { expect, test } from '../fixtures.js';
import { Checkout } from '../pages/checkout.js';
import { Result } from '../pages/result.js';
import { SandboxPages } from '../pages/sandbox-pages.js';
import { startRecordingProxy } from '../recording-proxy.js';
import type { RecordingProxy } from '../recording-proxy.js';

interface ProxiedStack {
  readonly proxy: RecordingProxy;
  readonly stack: RunningStack;
  close(): Promise<void>;
}

/** A stack of its own whose companion is reached only through the recording proxy. */
async function proxiedStack(cardEntry: 'tokenize' | 'relay'): Promise<ProxiedStack> {
  const proxy = await startRecordingProxy();
  const stack = await startStack({
    env: {
      ...process.env,
      PORT: '0',
      SANDBOX_PORT: '0',
      PAYFORM_HOST: '127.0.0.1',
      PAYFORM_PUBLIC_URL: proxy.url,
      PAYFORM_DATABASE_URL: ':memory:',
      PAYFORM_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      PAYFORM_DEMO_CARD_ENTRY: cardEntry,
      PAYFORM_LOG_LEVEL: 'error',
    },
    sandboxLog: () => {},
  });
  proxy.target = stack.companion.url;
  return { proxy, stack, close: async () => (await stack.close(), await proxy.close()) };
}

/** Findings in everything the companion received, read raw and with percent-encoding undone. */
function scan(proxy: RecordingProxy): string[] {
  const text = proxy.received.join('\n');
  let decoded = text;
  try {
    decoded = decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // Not all of it decodes: the raw text is scanned.
  }
  return [...scanLogCapture(text), ...scanLogCapture(decoded)].map((finding) => finding.what);
}

async function checkoutThrough(browser: Browser, proxied: ProxiedStack): Promise<{ page: Page; checkout: Checkout }> {
  // Without the suite's X-Forwarded-For: what reaches the companion is what a browser sends.
  const context = await browser.newContext({ baseURL: proxied.proxy.url, extraHTTPHeaders: {} });
  const page = await context.newPage();
  const checkout = new Checkout(page);
  await checkout.open();
  await checkout.continueToPayment();
  return { page, checkout };
}

test.describe('card data and the merchant’s server', () => {
  test.describe.configure({ mode: 'serial' });

  test('tokenize mode: paid in Chromium, and nothing the companion received holds the card or its CVV', async ({ browser }) => {
    const proxied = await proxiedStack('tokenize');
    try {
      const { page, checkout } = await checkoutThrough(browser, proxied);
      const tokenized = page.waitForResponse((response) => response.url().endsWith('/api/v1/sdk/tokenize') && response.status() === 200);
      await checkout.pay('4242 4242 4242 4242', undefined, TEST_CVV);
      await tokenized;
      await new Result(page).expectOutcome('success');

      // 3-D Secure in this mode: the challenge, then back to a paid order.
      await checkout.open();
      await checkout.continueToPayment();
      await checkout.pay('4000 0000 0000 3220', undefined, TEST_CVV);
      await new SandboxPages(page).completeChallenge();
      await new Result(page).expectOutcome('success');

      const pays = proxied.proxy.received.filter((request) => /^POST \/api\/checkout\/sessions\/[^/]+\/pay\n/.test(request));
      expect(pays).toHaveLength(2);
      // The tokenizer's answer sealed for the shop (rich): base64(IV):base64(CRYPTOGRAM), no card in sight.
      for (const pay of pays) expect(pay).toMatch(/"card":\{"token":"[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]+={0,2}"\}/);
      expect(scan(proxied.proxy)).toEqual([]);
    } finally {
      await proxied.close();
    }
  });

  test('relay mode: the same scan finds the card number and CVV the companion received', async ({ browser }) => {
    const proxied = await proxiedStack('relay');
    try {
      const { page, checkout } = await checkoutThrough(browser, proxied);
      await checkout.pay('4242 4242 4242 4242', undefined, TEST_CVV);
      await new Result(page).expectOutcome('success');
      expect(scan(proxied.proxy)).toEqual(expect.arrayContaining(['test card 424242…', 'a test CVV']));
    } finally {
      await proxied.close();
    }
  });

  test('a tokenizer out of reach sends the customer to the gateway’s page, and the card never reaches the companion', async ({ browser }) => {
    const proxied = await proxiedStack('tokenize');
    try {
      const { page, checkout } = await checkoutThrough(browser, proxied);
      await page.route('**/api/v1/sdk/tokenize', (route) => route.abort('connectionrefused'));
      await checkout.pay('4242 4242 4242 4242', undefined, TEST_CVV);
      await expect(page).toHaveURL(/\/checkout\/[^/]+\/form/);
      await new SandboxPages(page).payOnHostedPage('4242 4242 4242 4242', TEST_CVV);
      await new Result(page).expectOutcome('success');
      expect(scan(proxied.proxy)).toEqual([]);
    } finally {
      await proxied.close();
    }
  });
});
