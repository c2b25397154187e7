/**
 * The 3-D Secure page and the hosted checkout page driven in real Chromium against the sandbox
 * served over HTTP: a person's clicks and keystrokes, the redirect back to the shop, the
 * webhooks that follow, accessibility (axe) and the Content-Security-Policy (no violations).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { axeViolations } from '../../e2e/axe.js';
import { launchChromium } from '../../e2e/chromium.js';
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { direct, hosted } from './contract/params.js';
import { useServedSandbox } from './testing/served.js';

const sandbox = useServedSandbox();
let browser: Browser;
let shop: Server;
let shopUrl: string;
let page: Page;
/** Content-Security-Policy violations the page reported. */
let consoleErrors: string[];

beforeAll(async () => {
  browser = await launchChromium();
  // The shop the customer returns to (result_url).
  shop = createServer((request, response) => {
    // A companion's result_url that sends the customer on to the merchant's own page, elsewhere.
    if (request.url === '/hop') {
      response.writeHead(303, { Location: `http://localhost:${(shop.address() as AddressInfo).port}/checkout/return` }).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Shop</title><h1>Back at the shop</h1><p>${request.url ?? ''}</p>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/checkout/return`;
});

afterAll(async () => {
  await browser?.close();
  shop?.closeAllConnections();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

/**
 * The pages carry no script (their CSP allows none), so they work the same with JavaScript off —
 * which some tests prove. axe needs JavaScript to run its checks, so the tests that use it keep it on.
 */
async function newPage(options: { javaScript: boolean }): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript });
  page = await context.newPage();
  consoleErrors = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) consoleErrors.push(message.text());
  });
  return page;
}

afterEach(async () => {
  await page?.context().close();
  // A CSP violation (a blocked style, form target or redirect) is reported on the console.
  expect(consoleErrors).toEqual([]);
});

/** Types a card into the checkout form, as a person would. */
async function fillCard(current: Page, card: { number: string; month: string; year: string; cvv: string }): Promise<void> {
  await current.getByLabel('Card number').fill(card.number);
  await current.getByLabel('Month').fill(card.month);
  await current.getByLabel('Year').fill(card.year);
  await current.getByLabel('Security code').fill(card.cvv);
}

async function expectAccessible(current: Page): Promise<void> {
  const violations = await axeViolations(current);
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

// A browser is slower than a unit test, the more so on two cores.
describe('3-D Secure challenge page in Chromium', { timeout: 60_000 }, () => {
  it('completes the challenge, returns to the shop and the payment succeeds by webhook', async () => {
    const client = sandbox.client();
    const payment = await client.payments.create(direct(sandbox.receiver.url(), { result_url: shopUrl, amount: 4250 }, '4000000000003220'));
    expect(payment.status_code).toBe('2122');
    await newPage({ javaScript: true });
    await page.goto(payment.user_action_url ?? '');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Confirm this payment with your bank');
    expect(await page.getByText('42.50 UAH').isVisible()).toBe(true);
    await expectAccessible(page);
    await Promise.all([page.waitForURL(shopUrl), page.getByRole('button', { name: 'Complete authentication' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Back at the shop');
    const events = await sandbox.receiver.waitFor(payment.order_id, 2);
    expect(events.map((event) => event.status_code)).toEqual(['2122', '1000']);
    expect((await client.orders.get(payment.order_id))[0]).toMatchObject({ status: 'success', eci: '05' });
  });

  it('lets the customer go on from result_url to the merchant’s page on another origin', async () => {
    const client = sandbox.client();
    const resultUrl = shopUrl.replace('/checkout/return', '/hop');
    const payment = await client.payments.create(direct(sandbox.receiver.url(), { result_url: resultUrl }, '4000000000003220'));
    await newPage({ javaScript: false });
    await page.goto(payment.user_action_url ?? '');
    const merchantPage = shopUrl.replace('127.0.0.1', 'localhost');
    await Promise.all([page.waitForURL(merchantPage), page.getByRole('button', { name: 'Complete authentication' }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Back at the shop');
  });

  it('fails the challenge with the keyboard', async () => {
    const client = sandbox.client();
    const payment = await client.payments.create(direct(sandbox.receiver.url(), { result_url: shopUrl }, '4000000000003220'));
    await newPage({ javaScript: false });
    await page.goto(payment.user_action_url ?? '');
    await page.getByRole('button', { name: 'Fail authentication' }).focus();
    await Promise.all([page.waitForURL(shopUrl), page.keyboard.press('Enter')]);
    expect((await client.orders.get(payment.order_id))[0]).toMatchObject({ status: 'failure', status_code: '4153' });
  });
});

describe('hosted checkout page in Chromium', { timeout: 60_000 }, () => {
  it('shows server-side errors accessibly, then pays with a test card and returns to the shop', async () => {
    const client = sandbox.client();
    const params = hosted(sandbox.receiver.url(), { result_url: shopUrl, amount: 19999 });
    const { checkout_url } = await client.payments.create(params);
    await newPage({ javaScript: true });
    await page.goto(checkout_url);
    expect(await page.title()).toBe('Pay payform test shop · payform sandbox');
    await expectAccessible(page);

    await fillCard(page, { number: '4242 4242 4242 4241', month: '12', year: '31', cvv: '12' });
    await page.getByRole('button', { name: 'Pay 199.99 UAH' }).click();
    const summary = page.getByRole('alert');
    expect(await summary.getByRole('link').allTextContents()).toEqual([
      'The card number is not valid: check it for typing errors',
      'The security code must be 3 digits',
    ]);
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Card number').inputValue()).toBe(''); // never put back into the page
    expect(await page.getByLabel('Month').inputValue()).toBe('12');
    await expectAccessible(page);
    expect((await client.orders.get(params.order_id))[0]).toMatchObject({ status: 'init' });

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Security code').fill('123');
    await Promise.all([page.waitForURL(shopUrl), page.getByRole('button', { name: 'Pay 199.99 UAH' }).click()]);
    const [event] = await sandbox.receiver.waitFor(params.order_id, 1);
    expect(event).toMatchObject({ mode: 'hosted', status: 'success', status_code: '1000', amount: 199.99 });
    expect(sandbox.receiver.received.every((webhook) => webhook.signatureValid)).toBe(true);
  });

  it('takes the 3220 card through 3-D Secure from the checkout page', async () => {
    const client = sandbox.client();
    const params = hosted(sandbox.receiver.url(), { result_url: shopUrl, method: 'auth' });
    const { checkout_url } = await client.payments.create(params);
    await newPage({ javaScript: false });
    await page.goto(checkout_url);
    await fillCard(page, { number: '4000 0000 0000 3220', month: '01', year: '2032', cvv: '555' });
    await Promise.all([page.waitForURL(/\/3ds\/[0-9a-f]{32}$/), page.getByRole('button', { name: /^Pay / }).click()]);
    await Promise.all([page.waitForURL(shopUrl), page.getByRole('button', { name: 'Complete authentication' }).click()]);
    const events = await sandbox.receiver.waitFor(params.order_id, 2);
    expect(events.map((event) => event.status_code)).toEqual(['2122', '1002']);
    expect(await client.operations.capture({ order_id: params.order_id, order_currency: 'UAH' })).toMatchObject({ status: 'success' });
  });

  it('shows a decline on the sandbox when the payment has no result_url', async () => {
    const client = sandbox.client();
    const params = hosted(sandbox.receiver.url(), { result_url: undefined });
    const { checkout_url } = await client.payments.create(params);
    await newPage({ javaScript: true });
    await page.goto(checkout_url);
    await fillCard(page, { number: '4000000000000069', month: '12', year: '30', cvv: '123' });
    await page.getByRole('button', { name: /^Pay / }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payment declined');
    await expectAccessible(page);
    expect((await client.orders.get(params.order_id))[0]).toMatchObject({ status: 'failure', status_code: '4001' });
  });
});

describe('request inspector page in Chromium', { timeout: 60_000 }, () => {
  it('shows a new request without a reload, with the webhook it caused, under its CSP', async () => {
    await newPage({ javaScript: true });
    await page.goto(`${sandbox.url}/_sandbox`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Request inspector');
    await expect.poll(() => page.getByText('/api/v1/payment').count()).toBe(0);

    const payment = await sandbox.client().payments.create(direct(sandbox.receiver.url(), { description: '<b>bold?</b>' }));
    await sandbox.receiver.waitFor(payment.order_id, 1);
    const entry = page.locator('#requests > li', { hasText: '/api/v1/payment' });
    await entry.waitFor({ timeout: 10_000 });
    await entry.locator('summary').first().click();
    await expect.poll(() => entry.getByText('purchase success →').isVisible(), { timeout: 10_000 }).toBe(true);
    // Escaped, not interpreted: the description shows as text, in the request and in the answer.
    expect(await entry.locator('b').count()).toBe(0);
    expect(await entry.getByText('"description": "<b>bold?</b>"').count()).toBe(2);
    // It stays open across the next refresh.
    await page.waitForTimeout(2_500);
    expect(await entry.locator('details').first().getAttribute('open')).not.toBeNull();
    await expectAccessible(page);
  });
});
