/**
 * A customer pays in Chromium on a merchant's page built the way a merchant builds it: the
 * throwaway project's own Vite serves e2e/packages/shop (copied there), which imports the
 * installed `@payform/widget` — the web component, and `PayForm` from `@payform/widget/react` —
 * against the packaged companion and sandbox started from node_modules/.bin.
 */
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../chromium.js';
import type { Browser, FrameLocator, Page } from 'playwright';
import { expect as expectPage } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPackagedStack } from './merchant.js';
import type { PackagedStack } from './merchant.js';

const { shop } = inject('packages');
const FUTURE_EXPIRY = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

interface ViteServer {
  listen(): Promise<unknown>;
  close(): Promise<void>;
  readonly resolvedUrls: { readonly local: readonly string[] } | null;
}

let vite: ViteServer;
let pageOrigin: string;
let stack: PackagedStack;
let browser: Browser;

beforeAll(async () => {
  const root = join(shop, 'web');
  cpSync(new URL('shop', import.meta.url), root, { recursive: true });
  // The shop's own Vite, resolved from the shop as its vite.config would be.
  const { createServer } = (await import(/* @vite-ignore */ pathToFileURL(createRequire(join(shop, 'package.json')).resolve('vite')).href)) as {
    createServer(config: object): Promise<ViteServer>;
  };
  vite = await createServer({
    root,
    configFile: false,
    logLevel: 'warn',
    cacheDir: join(shop, 'node_modules', '.vite'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    // Bundled before the first page asks, so no "new dependencies found" reload mid-test.
    optimizeDeps: { include: ['@payform/widget', '@payform/widget/react', 'react', 'react-dom/client'] },
  });
  await vite.listen();
  pageOrigin = new URL(vite.resolvedUrls!.local[0]!).origin;
  stack = await startPackagedStack(shop, { allowedOrigins: [pageOrigin] });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await vite?.close();
});

async function openSession(overrides: Record<string, unknown> = {}): Promise<{ id: string; order_id: string }> {
  const response = await fetch(`${stack.companionUrl}/api/checkout/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ amount: 24950, currency: 'UAH', description: 'Order', method: 'purchase', ...overrides }),
  });
  expect(response.status).toBe(201);
  return response.json();
}

async function orderStatus(orderId: string): Promise<string> {
  const response = await fetch(`${stack.companionUrl}/api/orders/${orderId}`, { headers: { Authorization: `Bearer ${stack.adminToken}` } });
  return ((await response.json()) as { order: { status: string } }).order.status;
}

/** `use` on a new page whose script errors show in the test's output; the page is closed after, however it ends. */
async function onPage(use: (page: Page) => Promise<void>): Promise<void> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`console: ${message.text()}`);
  });
  try {
    await use(page);
  } finally {
    await page.close();
  }
}

/** The merchant's page at `path`, paying `sessionId`; `more`: its other settings (shop/main.js). */
const merchantPage = (path: string, sessionId: string, more: Record<string, string> = {}) =>
  `${pageOrigin}${path}?${new URLSearchParams({ session: sessionId, endpoint: stack.companionUrl, ...more })}`;

/** Opens `path` with the session, types the card and whatever customer fields it asks, and pays. */
async function payOn(page: Page, path: string, sessionId: string, number: string): Promise<void> {
  await page.goto(merchantPage(path, sessionId));
  await pay(page, number);
}

/** Where the 3-D Secure sessions send the customer back to: the merchant's page, marked. */
const returnUrl = () => `${pageOrigin}/index.html?returned=1`;

/** The tab at the sandbox's challenge: passed, the customer is back at the session's returnUrl(), the order paid. */
async function passChallenge(page: Page, session: { id: string; order_id: string }): Promise<void> {
  await expectPage(page).toHaveURL(new RegExp(`^${stack.sandboxUrl}/3ds/`), { timeout: 20_000 });
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expectPage(page).toHaveURL(new RegExp(`^${pageOrigin}/index\\.html\\?returned=1&checkout_session=${session.id}`), { timeout: 20_000 });
  await expect.poll(() => orderStatus(session.order_id), { timeout: 10_000 }).toBe('success');
}

/** Types the card and whatever customer fields the form in `scope` (a page or a frame) asks, and pays. */
async function pay(scope: Pick<Page, 'locator'> | FrameLocator, number: string): Promise<void> {
  const form = scope.locator('pay-form');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry date').fill(FUTURE_EXPIRY);
  await form.getByLabel('Security code').fill('123');
  await fillCustomer(scope);
  await form.getByRole('button', { name: /^Pay / }).click();
}

/** Fills whatever customer fields the form in `scope` asks. */
async function fillCustomer(scope: Pick<Page, 'locator'> | FrameLocator): Promise<void> {
  const form = scope.locator('pay-form');
  for (const [label, value] of [
    ['First name', 'Olena'],
    ['Last name', 'Koval'],
    ['Email', 'olena@example.com'],
    ['Phone', '+380501234567'],
  ] as const) {
    const field = form.getByLabel(label, { exact: true });
    if (await field.count()) await field.fill(value);
  }
}

it('the script-tag bundle is Lit’s production build', () => {
  expect(readFileSync(join(shop, 'node_modules', '@payform', 'widget', 'dist', 'pay-form.js'), 'utf8')).not.toMatch(/litIssuedWarnings|reactiveElementPolyfillSupportDevMode/);
});

it('the one-file bundle is the production build with nothing to import, and its published hash is its own', () => {
  const dist = join(shop, 'node_modules', '@payform', 'widget', 'dist');
  const whole = readFileSync(join(dist, 'pay-form.whole.js'));
  expect(whole.toString()).not.toMatch(/litIssuedWarnings|\bimport\(/);
  const published = JSON.parse(readFileSync(join(dist, 'integrity.json'), 'utf8'));
  expect(published).toEqual({ 'pay-form.whole.js': `sha384-${createHash('sha384').update(whole).digest('base64')}` });
});

it('the script-tag bundles (pay-form.js and its chunks, pay-form.whole.js) hold no React: that entry is @payform/widget/react', () => {
  const dist = join(shop, 'node_modules', '@payform', 'widget', 'dist');
  const bundle = [join(dist, 'pay-form.js'), join(dist, 'pay-form.whole.js'), ...readdirSync(join(dist, 'chunks')).map((chunk) => join(dist, 'chunks', chunk))];
  for (const file of bundle) expect(readFileSync(file, 'utf8'), file).not.toMatch(/\breact\b|@lit\/react|createComponent/i);
  expect(readFileSync(join(dist, 'lib', 'react.js'), 'utf8')).toMatch(/from\s*["']@lit\/react["']/);
});

describe('a merchant’s page served by Vite, paid in Chromium', () => {
  it.each([
    ['<pay-form> from @payform/widget', '/index.html'],
    ['PayForm from @payform/widget/react', '/react.html'],
  ])('%s: a test card pays, pay-success fires, the order is paid', async (_name, path) => {
    const session = await openSession();
    await onPage(async (page) => {
      await payOn(page, path, session.id, '4242 4242 4242 4242');
      await expectPage(page.locator('#outcome')).toHaveText(`Paid: order ${session.order_id}`, { timeout: 20_000 });
      await expect.poll(() => orderStatus(session.order_id), { timeout: 10_000 }).toBe('success');
    });
  });

  it('PayForm unmounted as it pays (the customer follows a link): its onPaySuccess stays silent, the document hears the end once', async () => {
    const session = await openSession();
    await onPage(async (page) => {
      await page.goto(merchantPage('/react.html', session.id, { leave: '1' }));
      // Pending at first, then paid by webhook: the form is gone before either.
      await pay(page, '4000 0000 0000 0119');
      await expectPage(page.getByRole('heading', { name: 'Another page' })).toBeVisible();
      await expect.poll(() => orderStatus(session.order_id), { timeout: 20_000 }).toBe('success');
      await expectPage(page.locator('#told')).toHaveText(JSON.stringify({ prop: [], document: [session.order_id] }), { timeout: 20_000 });
    });
  });

  // The shop's return page is on its own origin: the sandbox's challenge form, the companion's
  // result_url and the shop's page make a chain of redirects across three origins.
  it('3-D Secure: the sandbox’s challenge page, then back to the shop’s page, the order paid', async () => {
    const session = await openSession({ return_url: returnUrl() });
    await onPage(async (page) => {
      await payOn(page, '/index.html', session.id, '4000 0000 0000 3220');
      await passChallenge(page, session);
    });
  });
});

// A merchant's page inside another site's frame (a marketplace, a page builder): the bank's and
// the gateway's pages refuse to be framed, so the widget takes the whole tab there.
describe('the merchant’s page in a frame of another origin', () => {
  /**
   * Another site's page (shop/framing.html) holding the merchant's page at `src` in an iframe,
   * with `sandbox` when given. Served by the same Vite as localhost: another origin than the
   * merchant page's 127.0.0.1, and a secure context as this machine's pages are (or the frame
   * would be none, and the form take no card).
   */
  async function framed(page: Page, src: string, sandbox?: string): Promise<FrameLocator> {
    await page.goto(`http://localhost:${new URL(pageOrigin).port}/framing.html?${new URLSearchParams({ src, ...(sandbox === undefined ? {} : { sandbox }) })}`);
    return page.frameLocator('iframe');
  }

  it('3-D Secure takes the tab to the challenge, and the customer comes back to the session’s return_url, paid', async () => {
    const session = await openSession({ return_url: returnUrl() });
    await onPage(async (page) => {
      await pay(await framed(page, merchantPage('/index.html', session.id)), '4000 0000 0000 3220');
      await passChallenge(page, session);
    });
  });

  it('in a sandbox that forbids taking the tab: the form closes, and the console names the attribute to add', async () => {
    const session = await openSession();
    await onPage(async (page) => {
      const errors: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      const frame = await framed(page, merchantPage('/index.html', session.id), 'allow-scripts allow-same-origin allow-forms');
      await pay(frame, '4000 0000 0000 3220');
      await expectPage(frame.locator('pay-form').locator('[part="message"]')).toContainText('This shop cannot accept this payment.', { timeout: 20_000 });
      expect(errors).toContainEqual(expect.stringContaining('<pay-form>: this element is in a frame whose sandbox keeps it from taking the page to'));
      expect(errors.join('\n')).toContain('add allow-top-navigation-by-user-activation to the iframe');
      expect(new URL(page.url()).pathname).toBe('/framing.html');
    });
  });

  // A sandbox that lets the frame take the tab only while the customer's click lasts, and an
  // answer that came after it (shop/main.js uses the click up as the widget leaves).
  const atClickOnly = 'allow-scripts allow-same-origin allow-forms allow-popups allow-top-navigation-by-user-activation';

  it('3-D Secure after the click is over: "Continue with your bank" takes the tab to the challenge', async () => {
    const session = await openSession({ return_url: returnUrl() });
    await onPage(async (page) => {
      const frame = await framed(page, merchantPage('/index.html', session.id, { slow: '1' }), atClickOnly);
      await pay(frame, '4000 0000 0000 3220');
      const onward = frame.locator('pay-form').getByRole('button', { name: 'Continue with your bank' });
      await onward.click({ timeout: 20_000 });
      await passChallenge(page, session);
    });
  });

  it('the hosted page after the click is over: the next click goes to the page already opened', async () => {
    const session = await openSession();
    await onPage(async (page) => {
      const opened: string[] = [];
      page.on('request', (request) => void (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/hosted') && opened.push(request.url())));
      const frame = await framed(page, merchantPage('/index.html', session.id, { mode: 'hosted', slow: '1' }), atClickOnly);
      const form = frame.locator('pay-form');
      await expectPage(form.getByRole('button', { name: /^Pay / })).toBeVisible({ timeout: 20_000 });
      await fillCustomer(frame);
      await form.getByRole('button', { name: /^Pay / }).click();
      await expectPage(form.locator('[part="message"]')).toHaveText('Press the button again to go to the secure payment page.', { timeout: 20_000 });
      expect(new URL(page.url()).pathname).toBe('/framing.html');
      await form.getByRole('button', { name: /^Pay / }).click();
      await expectPage(page).toHaveURL(new RegExp(`^${stack.sandboxUrl}/`), { timeout: 20_000 });
      expect(opened).toHaveLength(1);
    });
  });
});
