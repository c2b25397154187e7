/**
 * Receipts from the back office, downloaded as the merchant would and opened: the order's
 * receipt as HTML (its text) and PDF (a real PDF), a refund's own receipt page linked from its
 * operation's row, and the day's receipts as a ZIP whose entries are this day's payments.
 */
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Download, Page } from '@playwright/test';
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';
import { CUP } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

async function downloaded(page: Page, start: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), start()]);
  const path = await download.path();
  return { download, bytes: await readFile(path) };
}

test('receipt as HTML and PDF, and the day’s receipts as a ZIP, of all payments or of one kind', async ({ page, request, stack, checkout, backOffice }) => {
  const orders: string[] = [];
  for (const card of ['4242 4242 4242 4242', '5454 5454 5454 5454']) {
    await checkout.open([{ product: CUP.product, quantity: 1 }]);
    orders.push(await checkout.continueToPayment());
    await checkout.pay(card);
    await new Result(page).expectOutcome('success');
  }
  const [orderId] = orders as [string, string];
  await backOffice.open(orderId);

  const html = await downloaded(page, () => backOffice.actionButton('Receipt (HTML)').click());
  expect(html.download.suggestedFilename()).toBe(`receipt-${orderId}.html`);
  const text = html.bytes.toString('utf8');
  expect(text).toMatch(/^<!doctype html>/i);
  expect(text).toContain(orderId);
  expect(text).toMatch(/650[.,]00/);

  const pdf = await downloaded(page, () => backOffice.actionButton('Receipt (PDF)').click());
  expect(pdf.download.suggestedFilename()).toBe(`receipt-${orderId}.pdf`);
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.bytes.subarray(-6).toString('latin1')).toContain('%%EOF');

  // The sandbox dates receipts in UTC; the form starts on today's UTC date.
  const receipts = page.getByRole('region', { name: 'Receipts of a day' });
  await expect(receipts.getByLabel('Day')).toHaveValue(new Date().toISOString().slice(0, 10));
  await receipts.getByLabel('Format').selectOption('pdf');
  const zip = await downloaded(page, () => receipts.getByRole('button', { name: 'Download ZIP' }).click());
  expect(zip.download.suggestedFilename()).toBe(`receipts-${new Date().toISOString().slice(0, 10)}.zip`);
  expect(zip.download.url()).toMatch(/\/api\/downloads\/receipts\/\d{4}-\d{2}-\d{2}\?format=pdf&expires=\d+&signature=[\w-]+$/);
  const entries = unzipSync(new Uint8Array(zip.bytes));
  const names = Object.keys(entries);
  for (const order of orders) expect(names.some((name) => name.startsWith(`${order}-`) && name.endsWith('.pdf'))).toBe(true);
  for (const name of names) expect(Buffer.from(entries[name]!.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

  // The day's purchases or its authorisations alone, as the gateway gives them.
  const hold = await paidOrder(request, stack, 'auth');
  const zipOf = async (method: string) => {
    await receipts.getByLabel('Payments').selectOption({ label: method });
    const file = await downloaded(page, () => receipts.getByRole('button', { name: 'Download ZIP' }).click());
    expect(file.download.url()).toContain(`&method=${method === 'Purchases' ? 'purchase' : 'auth'}&`);
    const files = Object.keys(unzipSync(new Uint8Array(file.bytes)));
    return (order: string) => files.some((name) => name.startsWith(`${order}-`));
  };
  const purchases = await zipOf('Purchases');
  expect(orders.every(purchases) && !purchases(hold)).toBe(true);
  const holds = await zipOf('Authorisations');
  expect(holds(hold) && !orders.some(holds)).toBe(true);
});

test('a refund’s own receipt from its row in the order’s operations', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  const capture = await paidOrder(request, stack, 'auth');
  expect((await request.post(`${stack.shop}/api/orders/${capture}/capture`, { headers: { Authorization: `Bearer ${stack.token}` }, data: {} })).status()).toBe(200);
  await backOffice.open(orderId);
  await backOffice.performed('Refund', { amount: '5.00', receipt: 'By SMS' });
  const refund = backOffice.operations.filter({ hasText: 'Refund' });
  // The way the receipt goes to the customer, as the operator chose it, reached the gateway.
  const { requests } = await (await request.get(`${stack.sandbox}/_sandbox/requests`)).json();
  const sent = (requests as { path: string; body: { order_id?: string; f_receipt_delivery?: string } }[]).find((one) => one.path === '/api/v1/refund' && one.body.order_id === orderId);
  expect(sent?.body.f_receipt_delivery).toBe('sms');
  await expect(refund).toContainText('Success');
  const { operations } = await (await request.get(`${stack.shop}/api/orders/${orderId}`, { headers: { Authorization: `Bearer ${stack.token}` } })).json();
  const receiptUrl = (operations as { receipt_url: string }[])[0]!.receipt_url;

  // The gateway's own receipt page of the refund (its answer's receipt_url), opened beside the back office.
  const link = refund.getByRole('link', { name: 'Refund receipt' });
  await expect(link).toHaveAttribute('href', receiptUrl);
  const [receipt] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await receipt.waitForLoadState();
  await expect(receipt.locator('body')).toContainText(/5[.,]00/);
  await receipt.close();
  await expectNoAxeViolations(page, 'an order with a refund’s receipt');

  // A capture has no receipt of its own: no column for it.
  await backOffice.select(capture);
  await expect(backOffice.operations.filter({ hasText: 'Capture' })).toContainText('Success');
  await expect(backOffice.detail.getByRole('columnheader', { name: 'Receipt' })).toHaveCount(0);
});

/** Holds the first request `pattern` matches until `release` is called, counting every one asked. */
async function held(page: Page, pattern: RegExp): Promise<{ asked: Promise<void>; release: () => void; count: () => number }> {
  let count = 0;
  let asked!: () => void;
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    count += 1;
    asked();
    await released;
    await route.continue();
  });
  return { asked: askedOnce, release, count: () => count };
}

test('a receipt on its way waits for its file, and a day without receipts says so', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  const downloads: Download[] = [];
  page.on('download', (download) => downloads.push(download));

  // A double click is one file: the button waits, saying so, until the first is saved.
  const receipt = await held(page, /\/receipt\?format=pdf/);
  await backOffice.actionButton('Receipt (PDF)').click();
  await receipt.asked;
  const waiting = backOffice.detail.getByRole('button', { name: 'Downloading…' });
  await expect(waiting).toHaveAttribute('aria-disabled', 'true');
  await waiting.click({ force: true });
  receipt.release();
  await expect(backOffice.actionButton('Receipt (PDF)')).toHaveAttribute('aria-disabled', 'false');
  expect(receipt.count()).toBe(1);
  expect(downloads.map((download) => download.suggestedFilename())).toEqual([`receipt-${orderId}.pdf`]);

  const receipts = page.getByRole('region', { name: 'Receipts of a day' });
  const day = await held(page, /\/api\/receipts\//);
  await receipts.getByRole('button', { name: 'Download ZIP' }).click();
  await day.asked;
  await receipts.getByRole('button', { name: 'Downloading…' }).click({ force: true });
  day.release();
  await expect(receipts.getByRole('button', { name: 'Download ZIP' })).toHaveAttribute('aria-disabled', 'false');
  expect(day.count()).toBe(1);
  // The browser's own download starts once the link's file answers, after the button is free again.
  await expect.poll(() => downloads.length).toBe(2);

  // A day before any payment of this sandbox: an empty ZIP is not handed over, the day is named.
  await receipts.getByLabel('Day').fill('2024-01-01');
  await receipts.getByRole('button', { name: 'Download ZIP' }).click();
  await expect(receipts.getByRole('status')).toHaveText('No receipts for 2024-01-01: no payment succeeded that day (UTC).');
  expect(day.count()).toBe(2);
  expect(downloads).toHaveLength(2);
});
