/**
 * The back office sends each operation dialog's requests under one Idempotency-Key: a refund
 * sent again after its answer was lost on the way, or clicked twice, refunds once — checked at
 * the gateway.
 */
import { expect, test } from '../fixtures.js';
import { CUP } from '../pages/checkout.js';
import { Result } from '../pages/result.js';
import { paidOrder } from '../pages/back-office.js';

test('a refund sent again after its answer was lost, or clicked twice, refunds once', async ({ page, checkout, backOffice, sandbox }) => {
  await checkout.open([{ product: CUP.product, quantity: 1 }]);
  await checkout.choose({ method: 'purchase' });
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(checkout.page).expectOutcome('success');
  await backOffice.open(orderId);
  const refunds = async () => (await sandbox.order(orderId)).filter((entry) => entry.method === 'refund').map((entry) => entry.amount);

  // The companion makes the refund, but its answer never comes back: the dialog says the request
  // failed, and the merchant clicks Refund again.
  const refundPath = `**/api/orders/${orderId}/refund`;
  await page.route(refundPath, async (route) => {
    await route.fetch();
    await route.abort('connectionreset');
  }, { times: 1 });
  await backOffice.perform('Refund', { amount: '100' });
  // Not "not done": it may have been, and the order behind the dialog is read again to show it.
  await expect(backOffice.dialog.getByRole('alert')).toContainText('Outcome unknown:');
  await expect(backOffice.dialog.getByRole('alert')).toContainText('Sending again from this dialog is safe');
  await expect(backOffice.operations).toHaveCount(1);
  expect(await refunds()).toEqual([100]);
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.announcement).toHaveText('Refund of UAH 100.00: done.');
  await expect(backOffice.operations).toHaveCount(1);
  expect(await refunds()).toEqual([100]);

  // A new dialog is a new refund; a double click in it is one.
  await backOffice.actionButton('Refund').click();
  await backOffice.dialog.getByLabel(/^Amount/).fill('50');
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).dblclick();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.operations).toHaveCount(2);
  expect(await refunds()).toEqual([100, 50]);
});

test('a refund of everything left, its answer lost, is sent again and done: the order read since shows nothing left', async ({ page, request, stack, backOffice, sandbox }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  const paid = (await sandbox.order(orderId)).find((entry) => entry.method === 'purchase')!.amount;
  await page.route(`**/api/orders/${orderId}/refund`, async (route) => {
    await route.fetch();
    await route.abort('connectionreset');
  }, { times: 1 });
  await backOffice.perform('Refund', { amount: String(paid) });
  await expect(backOffice.dialog.getByRole('alert')).toContainText('Outcome unknown:');
  // The order read again shows the refund made: nothing is left, yet sending again must go.
  await expect(backOffice.operations).toHaveCount(1);
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.announcement).toContainText(': done.');
  expect((await sandbox.order(orderId)).filter((entry) => entry.method === 'refund').map((entry) => entry.amount)).toEqual([paid]);
});

test('a refund the gateway declines stays in view with its reason, and is not taken for done', async ({ page, checkout, backOffice, sandbox }) => {
  await checkout.open([{ product: CUP.product, quantity: 1 }]);
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(checkout.page).expectOutcome('success');
  await backOffice.open(orderId);
  // Refunded in the gateway's portal, its webhook held back: the companion still offers a refund.
  await sandbox.faults({ webhook_delay_ms: 60_000 });
  await sandbox.refundBehind(orderId, 'UAH');
  await backOffice.perform('Refund', { amount: '100' });
  await expect(backOffice.dialog).toBeVisible();
  await expect(backOffice.dialog.getByRole('alert')).toContainText('Declined by the gateway:');
  await expect(backOffice.operations.filter({ hasText: 'Failed' })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(backOffice.dialog).toBeHidden();
});
