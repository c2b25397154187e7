/**
 * A split refund in the back office: its dialog starts from what is left of each seller's share,
 * and says a share asked past that in the currency's units before anything is sent. What the
 * companion refuses is said at the share it concerns, or at the shares when it is about all of them.
 */
import type { Page } from '@playwright/test';
import { readAsInvalid } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO } from '../pages/checkout.js';
import type { Checkout } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

/** An espresso and a cup, paid in the shop split between their makers: the order's id. */
async function paySplitOrder(page: Page, checkout: Checkout): Promise<string> {
  await checkout.open([
    { product: ESPRESSO.product, quantity: 1 },
    { product: CUP.product, quantity: 1 },
  ]);
  await checkout.choose({ split: true });
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
  return orderId;
}

test('a second split refund starts from what is left of each share, and a share too big is said before it is sent', async ({ page, checkout, backOffice, sandbox }) => {
  const orderId = await paySplitOrder(page, checkout);
  await backOffice.open(orderId);
  await expect(backOffice.detail).toContainText('Kavarnia Roasters: UAH 420.00');

  await backOffice.performed('Split refund', { shares: { 'Kavarnia Roasters': '100', 'Kosiv Ceramics': '' } });
  await expect(backOffice.announcement).toHaveText('Refund of UAH 100.00: done.');

  // Opened again: the roasters have 320.00 of their 420.00 left, the ceramics all of their 650.00.
  await backOffice.actionButton('Split refund').click();
  const roasters = backOffice.dialog.getByLabel('Kavarnia Roasters', { exact: true });
  const ceramics = backOffice.dialog.getByLabel('Kosiv Ceramics', { exact: true });
  await expect(roasters).toHaveValue('320.00');
  await expect(ceramics).toHaveValue('650.00');
  await expect(backOffice.dialog).toContainText('Up to UAH 970.00 in all.');

  // More than is left of a share: said on its field, in hryvnias, and not sent.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') sent.push(new URL(request.url()).pathname);
  });
  await roasters.fill('400');
  const submit = backOffice.dialog.getByRole('button', { name: 'Split refund', exact: true });
  await submit.click();
  // (The currency is written with a no-break space; the amount and the words around it each isolated,
  // U+2068…U+2069, to read as written in right-to-left text.)
  expect(await roasters.evaluate((input: HTMLInputElement) => input.validationMessage.replace(/\s/g, ' '))).toBe('\u2068At most \u2068UAH 320.00\u2069.\u2069');
  await expect(roasters).toBeFocused();
  await expect(backOffice.dialog.getByRole('alert')).toHaveCount(0);

  // What is left, as pre-filled, is refunded.
  await roasters.fill('320.00');
  await submit.click();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.announcement).toHaveText('Refund of UAH 970.00: done.');
  await expect(backOffice.operations).toHaveCount(2);
  expect(sent.filter((path) => path.endsWith('/split-refund'))).toHaveLength(1);
  const refunds = (await sandbox.order(orderId)).filter((entry) => entry.method.includes('refund'));
  expect(refunds.map((entry) => entry.amount)).toEqual([100, 970]);
});

test('a split the companion refuses is said at the share it concerns, in the page’s words, on a phone too', async ({ page, checkout, backOffice }) => {
  const orderId = await paySplitOrder(page, checkout);
  await page.setViewportSize({ width: 320, height: 740 });
  await backOffice.open(orderId);
  const share = (seller: string) => backOffice.dialog.getByLabel(seller, { exact: true });
  const submit = () => backOffice.dialog.getByRole('button', { name: /^(Split refund|Повернути з розподілом)$/ }).click();

  // Brew Tools Co. has no share in this payment. The roasters' share left empty is not sent, so
  // the companion names the tools' as the second (`split[1].sub_merchant_id`): said at the tools'.
  await backOffice.actionButton('Split refund').click();
  await share('Kavarnia Roasters').fill('');
  await share('Brew Tools Co.').fill('10');
  await submit();
  await expect(share('Brew Tools Co.')).toHaveAttribute('aria-invalid', 'true');
  await expect(share('Brew Tools Co.')).toHaveAccessibleDescription('This seller has no share in this payment: leave it empty.');
  await expect(share('Brew Tools Co.')).toBeFocused();
  expect(await readAsInvalid(share('Kosiv Ceramics'))).toBe(false);
  await expect(backOffice.dialog).not.toContainText('split[');
  await expect(backOffice.dialog.getByRole('alert')).toHaveCount(0);

  // Not an amount (a letter O for a zero), sent as typed: `split[0].amount` is the ceramics' share.
  await share('Brew Tools Co.').fill('');
  await share('Kosiv Ceramics').fill('65O');
  await submit();
  await expect(share('Kosiv Ceramics')).toHaveAttribute('aria-invalid', 'true');
  await expect(share('Kosiv Ceramics')).toHaveAccessibleDescription('Write the amount in the currency’s units, as in 1070.00.');
  await expect(share('Kosiv Ceramics')).toBeFocused();
  expect(await readAsInvalid(share('Brew Tools Co.'))).toBe(false);

  await page.keyboard.press('Escape');
  await expect(backOffice.dialog).toBeHidden();

  // Part of it refunded without shares: the companion would want it per seller (its `split`
  // field, split_refund_required). Said at the amount, in the page, before anything is sent.
  await backOffice.actionButton('Refund').click();
  const amount = backOffice.dialog.getByLabel(/^Amount/);
  const refunds: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/refund')) refunds.push(sent.url());
  });
  await amount.fill('10');
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  expect(await amount.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('Part of a payment shared between sellers is refunded seller by seller, with Split refund; here, only all that is left.');
  await expect(amount).toBeFocused();
  expect(refunds).toEqual([]);
  await expect(backOffice.dialog.getByRole('alert')).toHaveCount(0);

  // No share at all, in Ukrainian: said at the shares, each of them marked, the focus on the first.
  await page.keyboard.press('Escape');
  await expect(backOffice.dialog).toBeHidden();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await backOffice.detail.getByRole('button', { name: 'Повернути з розподілом', exact: true }).click();
  for (const seller of ['Kavarnia Roasters', 'Kosiv Ceramics', 'Brew Tools Co.']) await share(seller).fill('');
  await submit();
  await expect(backOffice.dialog.getByRole('group', { name: 'Частки (UAH)' })).toHaveAccessibleDescription('Введіть частку хоча б одного продавця.');
  for (const seller of ['Kavarnia Roasters', 'Kosiv Ceramics', 'Brew Tools Co.']) await expect(share(seller)).toHaveAttribute('aria-invalid', 'true');
  await expect(share('Kavarnia Roasters')).toBeFocused();
  // The dialog, its longest words included, fits the screen.
  expect(await backOffice.dialog.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)).toBeLessThanOrEqual(0);
  // The page behind takes live updates from other journeys' payments while this one runs: read
  // until a layout holds, so that a row laid out mid-update does not count, and one that stays does.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  await share('Kavarnia Roasters').fill('100');
  await submit();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.announcement).toHaveText('Повернення на 100,00 грн: виконано.');
});
