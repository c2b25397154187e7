/**
 * Paying on the gateway's own page (hosted mode, the low-PCI-scope path): the customer leaves
 * for the sandbox's checkout page and comes back to a paid order. And the merchant's side of an
 * abandoned one: an unpaid hosted payment is cancelled from the back office, after which its
 * page no longer takes a card.
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('hosted payment through the sandbox page, back to a paid order', async ({ page, checkout, sandboxPages, backOffice }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.hostedButton.click();

  await sandboxPages.payOnHostedPage('4242 4242 4242 4242');
  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(orderId);

  await backOffice.open(orderId);
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.detail).toContainText('Hosted page');
});

test('an unpaid hosted payment is cancelled from the back office', async ({ page, checkout, backOffice, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.hostedButton.click();
  await expect(page).toHaveURL(/\/checkout\/[^/]+\/form/);
  const hostedPage = page.url();
  // The customer walks away from the gateway's page.

  await backOffice.open(orderId);
  await expect(backOffice.status).toHaveText('Awaiting payment');
  await expect(backOffice.actionButton('Refund')).toHaveCount(0);
  await backOffice.performed('Cancel payment');
  await expect(backOffice.announcement).toHaveText(`Order ${orderId}: the payment page is cancelled.`);
  await expect(backOffice.status).toHaveText('Cancelled');
  await expect(backOffice.detail).toContainText('6007');
  await expect(backOffice.actionButton('Cancel payment')).toHaveCount(0);

  const [payment] = await sandbox.order(orderId);
  expect(payment).toMatchObject({ status: 'failure' });
  const gone = await page.request.get(hostedPage);
  expect(gone.status()).toBe(410);
});
