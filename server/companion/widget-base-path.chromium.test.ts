// The widget's bundle, served by a companion mounted under /payments in a shop's Hono app, finds
// the companion there by itself: `<pay-form session>` with no `endpoint`, in Chromium, loads its
// session and shows the card form (before, it asked the shop's root and said the link was invalid).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium } from 'playwright';
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
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  sandbox = await serveSandbox();
  host = serve({ fetch: (request, env) => shop.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => (host.listening ? resolve() : host.once('listening', () => resolve())));
  shopUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  companion = await composeCompanion(readCompanionConfig({ PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN, PAYFORM_PUBLIC_URL: shopUrl }), {
    gatewayBaseUrl: sandbox.url,
    basePath: '/payments',
    logger: createLogger({ sink: memorySink().sink }),
  });
  shop.get('/checkout/:session', (c) =>
    c.html(`<!doctype html><title>Checkout</title><script type="module" src="/payments/widget/pay-form.js"></script><pay-form session="${c.req.param('session')}"></pay-form>`),
  );
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
  it('takes the companion at the base path it came from, with no endpoint attribute', async () => {
    const opened = await fetch(`${shopUrl}/payments/api/checkout/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Tea' }),
    });
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
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
});
