// The widget's bundle, served by a companion mounted under /payments in a shop's Hono app, in
// Chromium: it finds the companion there by itself (`<pay-form session>` with no `endpoint`; before,
// it asked the shop's root and said the link was invalid), and after 3-D Secure a session without
// return_url brings the customer back to the page they paid from; an endpoint past the base path
// is named as such.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { launchChromium } from '../../e2e/chromium.js';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSandbox } from '../sandbox/testing/served.js';
import type { ServedSandbox } from '../sandbox/testing/served.js';
import { createLogger, memorySink } from './log/logger.js';
import { readCompanionConfig } from './settings.js';
import { composeCompanion } from './start.js';
import type { ComposedCompanion } from './start.js';

const ADMIN_TOKEN = 'a-long-enough-admin-token';

let browser: Browser;
let sandbox: ServedSandbox;
let host: Server;
let shopUrl: string;
let companion: ComposedCompanion;
const shop = new Hono();

beforeAll(async () => {
  browser = await launchChromium();
  sandbox = await serveSandbox();
  host = serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => (host.listening ? resolve() : host.once('listening', () => resolve())));
  shopUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN, PAYFORM_PUBLIC_URL: shopUrl }), {
    gatewayBaseUrl: sandbox.url,
    sandboxOrigin: sandbox.url,
    basePath: '/payments',
    logger: createLogger({ sink: memorySink().sink }),
  });
  shop.get('/checkout/:session', (c) =>
    c.html(`<!doctype html><title>Checkout</title><script type="module" src="/payments/widget/pay-form.js"></script><pay-form session="${c.req.param('session')}"></pay-form>`),
  );
  // The endpoint given with /api after the base path: what a developer copies from the API's address.
  shop.get('/checkout-api/:session', (c) =>
    c.html(`<!doctype html><title>Checkout</title><script type="module" src="/payments/widget/pay-form.js"></script><pay-form session="${c.req.param('session')}" endpoint="${shopUrl}/payments/api"></pay-form>`),
  );
  // A page that pins the widget by Subresource Integrity: the one-file build and its published hash.
  const pinned = async (src: string, session: string) => {
    const integrity = ((await (await companion.app.request('/payments/widget/integrity.json')).json()) as Record<string, string>)['pay-form.whole.js'];
    return `<!doctype html><title>Checkout</title><script type="module" src="${src}" integrity="${integrity}" crossorigin="anonymous"></script><pay-form session="${session}"></pay-form>`;
  };
  shop.get('/checkout-pinned/:session', async (c) => c.html(await pinned('/payments/widget/pay-form.whole.js', c.req.param('session'))));
  shop.get('/checkout-tampered/:session', async (c) => c.html(await pinned('/tampered/pay-form.whole.js', c.req.param('session'))));
  // The same file with one line more, as a compromised server or CDN would serve it.
  shop.get('/tampered/pay-form.whole.js', async (c) => {
    const genuine = await (await companion.app.request('/payments/widget/pay-form.whole.js', { headers: { 'Accept-Encoding': 'identity' } })).text();
    return c.body(`${genuine}\nconsole.log('changed');\n`, 200, { 'Content-Type': 'text/javascript' });
  });
  shop.route('/', companion.app);
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => {
    host?.close(() => resolve());
    host?.closeAllConnections();
  });
  await companion?.close();
  await sandbox?.close();
});

describe('<pay-form> served by a companion mounted under /payments', () => {
  /** A session without return_url, its customer known (the form asks for nothing but the card). */
  async function openSession(): Promise<{ id: string; order_id: string }> {
    const opened = await fetch(`${shopUrl}/payments/api/checkout/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Tea', customer: { fname: 'Olena', lname: 'Koval', email: 'olena@example.com', phone: '+380501234567' } }),
    });
    expect(opened.status).toBe(201);
    return (await opened.json()) as { id: string; order_id: string };
  }

  it('on a page that is not a secure context, offers the hosted page and tells the developer why', async () => {
    const { id } = await openSession();
    // A host name other than localhost, over http: what a shop on its LAN address looks like.
    const elsewhere = await launchChromium(['--host-resolver-rules=MAP shop.test 127.0.0.1']);
    try {
      const page = await elsewhere.newPage();
      const warnings: string[] = [];
      page.on('console', (message) => void (message.type() === 'warning' && warnings.push(message.text())));
      await page.goto(`${shopUrl.replace('127.0.0.1', 'shop.test')}/checkout/${id}`);
      await expect.poll(() => page.locator('pay-form button').textContent(), { timeout: 10_000 }).toMatch(/on the secure payment page$/);
      expect(await page.locator('pay-form input').count()).toBe(0);
      await expect.poll(() => warnings).toContain(
        '<pay-form>: this page is not a secure context (https, or http on localhost), so the card form is off and customers pay on the hosted page: serve it over https',
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('takes the companion at the base path it came from, with no endpoint attribute', async () => {
    const { id } = await openSession();
    const page = await browser.newPage();
    try {
      const reads: string[] = [];
      page.on('request', (request) => void (request.url().includes('/api/checkout/sessions/') && reads.push(new URL(request.url()).pathname)));
      await page.goto(`${shopUrl}/checkout/${id}`);
      await page.locator('pay-form input#number').waitFor({ state: 'visible', timeout: 10_000 });
      expect(reads[0]).toBe(`/payments/api/checkout/sessions/${id}`);
    } finally {
      await page.close();
    }
  });

  it('given an endpoint with /api after the base path, names the endpoint to give rather than a connection that failed', async () => {
    const { id } = await openSession();
    const page = await browser.newPage();
    try {
      const errors: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      await page.goto(`${shopUrl}/checkout-api/${id}`);
      // The shop's Hono answered the companion's own 404 there, which the widget reads.
      await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toContain(`set <pay-form endpoint> to ${shopUrl}/payments`);
      expect(errors.join('\n')).not.toContain('Content-Security-Policy');
    } finally {
      await page.close();
    }
  });

  it('pinned by its published Subresource Integrity hash, the one-file widget pays with no chunk to fetch; a changed copy never runs', { timeout: 30_000 }, async () => {
    const session = await openSession();
    const page = await browser.newPage();
    try {
      const widgetFiles: string[] = [];
      page.on('request', (request) => void (request.url().includes('/widget/') && widgetFiles.push(new URL(request.url()).pathname)));
      await page.goto(`${shopUrl}/checkout-pinned/${session.id}`);
      const form = page.locator('pay-form');
      await form.getByLabel('Card number').fill('4242 4242 4242 4242');
      await form.getByLabel('Expiry date').fill('12/40');
      await form.getByLabel('Security code').fill('123');
      await form.getByRole('button', { name: /^Pay/ }).click();
      await expect.poll(() => form.getByText('Payment successful').count(), { timeout: 10_000 }).toBe(1);
      // Everything the card passes through came under the one hash: no chunk was asked for.
      expect(widgetFiles).toEqual(['/payments/widget/pay-form.whole.js']);
      // Asked again at each use, so a copy cached before an upgrade never meets the new hash.
      for (const file of ['pay-form.whole.js', 'integrity.json']) {
        expect((await companion.app.request(`/payments/widget/${file}`)).headers.get('cache-control'), file).toBe('public, no-cache');
      }

      const tampered = await browser.newPage();
      try {
        const errors: string[] = [];
        tampered.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
        await tampered.goto(`${shopUrl}/checkout-tampered/${(await openSession()).id}`);
        await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toMatch(/integrity/i);
        expect(await tampered.evaluate(() => customElements.get('pay-form'))).toBeUndefined();
      } finally {
        await tampered.close();
      }
    } finally {
      await page.close();
    }
  });

  it('after 3-D Secure, brings a customer without return_url back to the page they paid from', { timeout: 60_000 }, async () => {
    const session = await openSession();
    const page = await browser.newPage();
    try {
      const paidFrom = `${shopUrl}/checkout/${session.id}`;
      await page.goto(`${paidFrom}#card`);
      const form = page.locator('pay-form');
      await form.getByLabel('Card number').fill('4000 0000 0000 3220');
      await form.getByLabel('Expiry date').fill('12/40');
      await form.getByLabel('Security code').fill('123');
      await Promise.all([page.waitForURL(/\/3ds\//), form.getByRole('button', { name: /^Pay/ }).click()]);
      await Promise.all([page.waitForURL((url) => url.pathname === `/checkout/${session.id}`), page.getByRole('button', { name: 'Complete authentication' }).click()]);
      const back = new URL(page.url());
      expect(`${back.origin}${back.pathname}`).toBe(paidFrom);
      expect(back.searchParams.get('checkout_session')).toBe(session.id);
      expect(back.searchParams.get('order_id')).toBe(session.order_id);
      expect(['success', 'pending']).toContain(back.searchParams.get('status'));
    } finally {
      await page.close();
    }
  });
});
