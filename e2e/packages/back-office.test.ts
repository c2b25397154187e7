/**
 * The back office from the packed @payform/companion, as a merchant turns it on: the companion
 * mounted under /payments in the throwaway shop's own Express 5 server (shop/express/server.js,
 * `backOffice: { path: '/admin' }`), against the packaged sandbox. A customer pays on the shop's
 * page in Chromium; the payment shows up in the back office; a refund made there reaches the
 * sandbox, read over its HTTP API.
 */
import { cpSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { launchChromium } from '../chromium.js';
import type { Browser, Page } from 'playwright';
import { expect as expectPage } from '@playwright/test';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { TEST_PROJECT_DEFAULTS } from '@payform/gateway/testing';
import { BackOffice } from '../pages/back-office.js';
import { startBin, startScript } from './merchant.js';
import type { RunningBin } from './merchant.js';

const { shop, tarballs } = inject('packages');
const FUTURE_EXPIRY = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
const ADMIN_TOKEN = randomBytes(24).toString('base64url');

let sandbox: RunningBin;
let server: RunningBin;
let browser: Browser;

beforeAll(async () => {
  cpSync(new URL('shop/express', import.meta.url), join(shop, 'express'), { recursive: true });
  sandbox = await startBin(shop, 'payform-sandbox', ['--port', '0', '--host', '127.0.0.1'], {});
  server = await startScript(shop, 'express/server.js', {
    PAYFORM_GATEWAY_BASE_URL: sandbox.url,
    PAYFORM_SANDBOX_ORIGIN: new URL(sandbox.url).origin,
    PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    PAYFORM_DATABASE_URL: join(shop, `ledger-${randomBytes(4).toString('hex')}.db`),
    PAYFORM_LOG_LEVEL: 'error',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sandbox?.stop();
});

/** A page on the shop's origin whose script errors and CSP refusals fail loudly in the output. */
async function newPage(): Promise<Page> {
  const page = await browser.newPage({ baseURL: server.url });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`console: ${message.text()}`);
  });
  return page;
}

/** The order's transactions as the sandbox knows them, read with the test project's credentials. */
async function atTheGateway(orderId: string): Promise<{ method: string; status: string; amount: number }[]> {
  const { posId, apiKey, apiSecret, endpointsKey } = TEST_PROJECT_DEFAULTS;
  const response = await fetch(`${sandbox.url}/api/v1/pos/${posId}/orders/${encodeURIComponent(orderId)}`, {
    headers: { 'X-API-AUTH': `CPAY ${apiKey}:${apiSecret}`, 'X-API-KEY': endpointsKey },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { method: string; status: string; amount: number }[] | { transactions: { method: string; status: string; amount: number }[] };
  return Array.isArray(body) ? body : body.transactions;
}

it('ships the built page in the tarball', () => {
  const files = tarballs.find((tarball) => tarball.name === '@payform/companion')!.files;
  expect(files).toContain('dist/back-office/index.html');
  expect(files.filter((file) => /^dist\/back-office\/assets\/.+\.js$/.test(file))).toHaveLength(1);
});

it('a payment made on the shop’s page shows up in the back office under /payments/admin, and a refund from it reaches the sandbox', async () => {
  const opened = await fetch(`${server.url}/payments/api/checkout/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ amount: 24950, currency: 'UAH', description: 'Order 1042', method: 'purchase' }),
  });
  expect(opened.status).toBe(201);
  const session = (await opened.json()) as { id: string; order_id: string };

  const customer = await newPage();
  await customer.goto(`/pay.html?${new URLSearchParams({ session: session.id })}`);
  const form = customer.locator('pay-form');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry date').fill(FUTURE_EXPIRY);
  await form.getByLabel('Security code').fill('123');
  // The session named no customer: the form asks for what the gateway needs.
  for (const [label, value] of [['First name', 'Olena'], ['Last name', 'Koval'], ['Email', 'olena@example.com'], ['Phone', '+380501234567']] as const) {
    const field = form.getByLabel(label, { exact: true });
    if (await field.count()) await field.fill(value);
  }
  await form.getByRole('button', { name: /^Pay / }).click();
  await expectPage(customer.locator('#outcome')).toHaveText(`Paid: order ${session.order_id}`, { timeout: 20_000 });

  const page = await newPage();
  const served = page.waitForResponse((response) => new URL(response.url()).pathname === '/payments/admin');
  const backOffice = new BackOffice(page, ADMIN_TOKEN, '/payments/admin');
  await backOffice.open(session.order_id);
  expect((await served).headers()['content-security-policy']).toContain("script-src 'self'");
  await expectPage(backOffice.row(session.order_id)).toContainText('Success');
  await expectPage(backOffice.row(session.order_id)).toContainText('249.50');

  await backOffice.performed('Refund', { amount: '100', comment: 'One bag arrived damaged' });
  await expectPage(backOffice.announcement).toHaveText('Refund of UAH 100.00: done.');
  await expectPage(backOffice.operations).toHaveCount(1);
  const refunds = (await atTheGateway(session.order_id)).filter((entry) => entry.method === 'refund');
  expect(refunds).toEqual([expect.objectContaining({ status: 'success', amount: 100 })]);
});

it('payform-companion serves it at PAYFORM_BACK_OFFICE, with the sellers of PAYFORM_BACK_OFFICE_SELLERS, and says where', async () => {
  const seller = { id: '3f0c2a1e-7b4d-4c8e-9a6f-1d2e3b4c5d6e', name: 'Kavarnia Roasters' };
  const companion = await startBin(shop, 'payform-companion', [], {
    PAYFORM_GATEWAY_BASE_URL: sandbox.url,
    PORT: '0',
    PAYFORM_HOST: '127.0.0.1',
    PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    PAYFORM_DATABASE_URL: ':memory:',
    PAYFORM_BACK_OFFICE: '/admin',
    PAYFORM_BACK_OFFICE_SELLERS: `${seller.id}=${seller.name}`,
  });
  try {
    await expect.poll(() => companion.output()).toContain(`back office at ${companion.url}/admin`);
    const page = await fetch(`${companion.url}/admin`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(JSON.parse(/<script type="application\/json" id="payform-back-office">(.*)<\/script>/.exec(html)![1]!)).toEqual({ apiBase: '', subMerchants: [seller], merchantSector: null });
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    expect((await fetch(`${companion.url}${script}`)).status).toBe(200);
  } finally {
    await companion.stop();
  }
});
