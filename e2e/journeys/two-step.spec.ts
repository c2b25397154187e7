/**
 * The merchant's money operations from the back office, each checked at the gateway too:
 * an authorisation captured in part, an authorisation voided, and a purchase refunded twice in
 * part with a third refund refused because it would return more than was paid.
 */
import { readAsInvalid } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO } from '../pages/checkout.js';
import type { CartLine, Checkout } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

async function paid(checkout: Checkout, options: Parameters<Checkout['choose']>[0], lines: readonly CartLine[] = [{ product: ESPRESSO.product, quantity: 1 }]): Promise<string> {
  await checkout.open(lines);
  await checkout.choose(options);
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(checkout.page).expectOutcome('success');
  return orderId;
}

test('authorisation, then a partial capture', async ({ checkout, backOffice, sandbox }) => {
  const orderId = await paid(checkout, { method: 'auth' });
  await backOffice.open(orderId);
  await expect(backOffice.detail).toContainText('Authorisation');
  await expect(backOffice.detail.getByText('Can capture').locator('..')).toContainText('UAH 420.00');
  // The amount starts at the reserve; the project's over-capture allowance is said apart.
  await backOffice.actionButton('Capture').click();
  await expect(backOffice.dialog.getByLabel(/^Amount/)).toHaveValue('420.00');
  await expect(backOffice.dialog.getByText('As written, all that is left: UAH 420.00.')).toBeVisible();
  await expect(backOffice.dialog).toContainText('The project allows taking up to UAH 483.00, more than the UAH 420.00 the customer authorised');
  await backOffice.dialog.getByRole('button', { name: 'Close' }).click();

  await backOffice.performed('Capture', { amount: '300', comment: 'two of three bags in stock' });
  await expect(backOffice.announcement).toHaveText('Capture of UAH 300.00: done.');
  await expect(backOffice.operations).toHaveCount(1);
  await expect(backOffice.operations.first()).toContainText('Capture');
  await expect(backOffice.operations.first()).toContainText('UAH 300.00');
  await expect(backOffice.operations.first()).toContainText('two of three bags in stock');
  // One capture per authorisation: the rest of the reserve is released, nothing more to capture.
  await expect(backOffice.actionButton('Capture')).toHaveCount(0);
  await expect(backOffice.actionButton('Void')).toHaveCount(0);
  await expect(backOffice.actionButton('Refund')).toBeVisible();
  await expect(backOffice.listed(orderId).state).toHaveText('Partly captured');
  await expect(backOffice.listed(orderId).amount).toHaveText('UAH 300.00 was UAH 420.00');

  const captures = (await sandbox.order(orderId)).filter((entry) => entry.method === 'capture');
  expect(captures).toEqual([expect.objectContaining({ status: 'success', amount: 300 })]);
});

test('authorisation, then a void', async ({ page, checkout, backOffice, sandbox }) => {
  const orderId = await paid(checkout, { method: 'auth' });
  await backOffice.open(orderId);
  await backOffice.performed('Void');
  await expect(backOffice.announcement).toContainText('Void of UAH 420.00: done.');
  // The Void button went with what it offered: the focus is on the order, not the page's start.
  await expect(backOffice.detail.locator(':focus')).toHaveCount(1);
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  await expect(backOffice.operations).toHaveCount(1);
  await expect(backOffice.operations.first()).toContainText('Void');
  await expect(backOffice.status).toHaveText('Voided');
  await expect(backOffice.detail.locator('.totals').getByText('Voided')).toBeVisible();
  // The list keeps nothing of a voided hold: it shows what it came to beside what was held.
  await expect(backOffice.listed(orderId).state).toHaveText('Voided');
  await expect(backOffice.listed(orderId).amount).toHaveText('UAH 0.00 was UAH 420.00');
  await expect(backOffice.actionButton('Capture')).toHaveCount(0);
  await expect(backOffice.actionButton('Void')).toHaveCount(0);

  const voids = (await sandbox.order(orderId)).filter((entry) => entry.method === 'void');
  expect(voids).toEqual([expect.objectContaining({ status: 'success' })]);
});

test('purchase, two partial refunds, and a third refused for exceeding the amount', async ({ checkout, backOffice, sandbox }) => {
  const orderId = await paid(checkout, { method: 'purchase' }, [{ product: CUP.product, quantity: 1 }]);
  await backOffice.open(orderId);

  await backOffice.performed('Refund', { amount: '200' });
  await expect(backOffice.announcement).toHaveText('Refund of UAH 200.00: done.');
  await backOffice.performed('Refund', { amount: '300.50' });
  await expect(backOffice.announcement).toHaveText('Refund of UAH 300.50: done.');
  await expect(backOffice.operations).toHaveCount(2);
  await expect(backOffice.detail.getByText('Can refund').locator('..')).toContainText('UAH 149.50');
  await expect(backOffice.listed(orderId).state).toHaveText('Partly refunded');
  await expect(backOffice.listed(orderId).amount).toHaveText('UAH 149.50 was UAH 650.00');

  // 200 more would return 700.50 of 650.00: refused in the dialog, in the currency's units, before anything is sent.
  await backOffice.perform('Refund', { amount: '200' });
  const amount = backOffice.dialog.getByLabel(/^Amount/);
  // Intl puts a no-break space between the code and the figure; the amount and the words around it
  // are each isolated (U+2068…U+2069), to read as written in right-to-left text.
  await expect(amount).toHaveJSProperty('validationMessage', '\u2068At most \u2068UAH\u00a0149.50\u2069.\u2069');
  await expect(amount).toBeFocused();
  // Told to a screen reader as invalid too, not only shown in the browser's bubble.
  expect(await readAsInvalid(amount)).toBe(true);
  await amount.fill('12.345');
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(amount).toHaveJSProperty('validationMessage', 'Write the amount in the currency’s units, as in 149.50.');
  await backOffice.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(backOffice.operations).toHaveCount(2);

  const refunds = (await sandbox.order(orderId)).filter((entry) => entry.method === 'refund');
  expect(refunds.map((refund) => refund.amount)).toEqual([200, 300.5]);
});
