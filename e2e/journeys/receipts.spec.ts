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

test('receipt as HTML and PDF, and the day’s receipts as a ZIP', async ({ page, checkout, backOffice }) => {
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
  const entries = unzipSync(new Uint8Array(zip.bytes));
  const names = Object.keys(entries);
  for (const order of orders) expect(names.some((name) => name.startsWith(`${order}-`) && name.endsWith('.pdf'))).toBe(true);
  for (const name of names) expect(Buffer.from(entries[name]!.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
});

test('a refund’s own receipt from its row in the order’s operations', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  const capture = await paidOrder(request, stack, 'auth');
  expect((await request.post(`${stack.shop}/api/orders/${capture}/capture`, { headers: { Authorization: `Bearer ${stack.token}` }, data: {} })).status()).toBe(200);
  await backOffice.open(orderId);
  await backOffice.performed('Refund', { amount: '5.00' });
  const refund = backOffice.operations.filter({ hasText: 'Refund' });
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
