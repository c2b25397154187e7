/**
 * Marketplace payments: a purchase split between the makers of the cart, refunded from one
 * maker's share; and an authorisation captured with a split of the merchant's choosing.
 */
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO, KETTLE } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('split purchase by the cart’s makers, then a split refund from one share', async ({ page, checkout, backOffice, sandbox }) => {
  await checkout.open([
    { product: ESPRESSO.product, quantity: 1 },
    { product: CUP.product, quantity: 1 },
  ]);
  await checkout.choose({ split: true });
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('Kavarnia Roasters');
  await expect(summary).toContainText('Kosiv Ceramics');
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');

  await backOffice.open(orderId);
  await expect(backOffice.detail).toContainText('Kavarnia Roasters: UAH 420.00');
  await expect(backOffice.detail).toContainText('Kosiv Ceramics: UAH 650.00');
  const [purchase] = await sandbox.order(orderId);
  expect(purchase).toMatchObject({ status: 'success', amount: 1070 });

  await backOffice.performed('Split refund', { shares: { 'Kavarnia Roasters': '', 'Kosiv Ceramics': '100' } });
  await expect(backOffice.announcement).toHaveText('Refund of UAH 100.00: done.');
  await expect(backOffice.operations).toHaveCount(1);
  await expect(backOffice.operations.first()).toContainText('(split)');
  await expect(backOffice.operations.first()).toContainText('Kosiv Ceramics: UAH 100.00');

  // More than the roasters' share cannot come out of it.
  await backOffice.perform('Split refund', { shares: { 'Kavarnia Roasters': '500', 'Kosiv Ceramics': '' } });
  await expect(backOffice.dialog.getByLabel('Kavarnia Roasters', { exact: true })).toBeFocused();
  await expect(backOffice.dialog.getByRole('alert')).toHaveCount(0);
  await backOffice.dialog.getByRole('button', { name: 'Close' }).click();

  const refunds = (await sandbox.order(orderId)).filter((entry) => entry.method.includes('refund'));
  expect(refunds).toEqual([expect.objectContaining({ status: 'success', amount: 100 })]);
});

test('authorisation captured with a split', async ({ page, checkout, backOffice, sandbox }) => {
  await checkout.open([{ product: KETTLE.product, quantity: 1 }]);
  await checkout.choose({ method: 'auth' });
  const orderId = await checkout.continueToPayment();
  await checkout.pay('5454 5454 5454 5454');
  await new Result(page).expectOutcome('success');

  await backOffice.open(orderId);
  await backOffice.performed('Split capture', { shares: { 'Kavarnia Roasters': '', 'Kosiv Ceramics': '649', 'Brew Tools Co.': '1500' } });
  await expect(backOffice.announcement).toHaveText('Capture of UAH 2,149.00: done.');
  await expect(backOffice.operations.first()).toContainText('(split)');
  await expect(backOffice.operations.first()).toContainText('Brew Tools Co.: UAH 1,500.00');
  await expect(backOffice.operations.first()).toContainText('Kosiv Ceramics: UAH 649.00');

  const captures = (await sandbox.order(orderId)).filter((entry) => entry.method.includes('capture'));
  expect(captures).toEqual([expect.objectContaining({ status: 'success', amount: 2149 })]);
  // A split capture can be refunded by share.
  await expect(backOffice.actionButton('Split refund')).toBeVisible();
});
