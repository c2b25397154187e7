/**
 * A split refund in the back office: its dialog starts from what is left of each seller's share,
 * and says a share asked past that in the currency's units before anything is sent.
 */
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('a second split refund starts from what is left of each share, and a share too big is said before it is sent', async ({ page, checkout, backOffice, sandbox }) => {
  await checkout.open([
    { product: ESPRESSO.product, quantity: 1 },
    { product: CUP.product, quantity: 1 },
  ]);
  await checkout.choose({ split: true });
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
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
  // (The currency is written with a no-break space.)
  expect(await roasters.evaluate((input: HTMLInputElement) => input.validationMessage.replace(/\s/g, ' '))).toBe('At most UAH 320.00.');
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
