/**
 * Declines on the card form: the customer reads why in their words, the form stays for another
 * try, and a retry with another card on the same checkout succeeds (as a new attempt; the
 * declined one stays declined in the back office).
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('a declined card, then another card on the same checkout succeeds', async ({ page, checkout, backOffice }) => {
  await checkout.open();
  const firstAttempt = await checkout.continueToPayment();

  await checkout.pay('4000 0000 0000 0002');
  await expect(checkout.message).toHaveText('The payment was declined. Try another card or contact your bank.');
  await expect(checkout.cardNumber).toHaveValue('4000 0000 0000 0002');
  await expect(checkout.payButton).toBeEnabled();

  await checkout.pay('5454 5454 5454 5454');
  const result = new Result(page);
  await result.expectOutcome('success');
  const retry = await result.orderId();
  expect(retry).toBe(`${firstAttempt}:2`);

  // Looked up by the checkout's first order id, the declined attempt leads to the paid one.
  await backOffice.open(firstAttempt);
  await expect(backOffice.status).toHaveText('Failed');
  await expect(backOffice.detail).toContainText('4153');
  const attempts = backOffice.detail.getByRole('definition').filter({ has: page.getByRole('link', { name: retry, exact: true }) });
  await expect(attempts).toContainText('Success');
  await attempts.getByRole('link', { name: retry, exact: true }).click();
  await expect(backOffice.detailHeading).toHaveText(retry);
  await expect(backOffice.status).toHaveText('Success');
  await backOffice.select(firstAttempt);
  await expect(backOffice.status).toHaveText('Failed');
});

test('insufficient funds: the customer is told and charged nothing', async ({ checkout, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4000 0000 0000 9995');
  await expect(checkout.message).toHaveText('Insufficient funds. Try another card.');
  await expect(checkout.payButton).toBeEnabled();
  const [payment] = await sandbox.order(orderId);
  expect(payment).toMatchObject({ status: 'failure' });
});

test('expired card: refused with the expiry named', async ({ checkout, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  // The sandbox's expired card (its expiry is in the future as typed: the card itself is expired).
  await checkout.pay('4000 0000 0000 0069');
  await expect(checkout.message).toHaveText('The card has expired. Try another card.');
  const [payment] = await sandbox.order(orderId);
  expect(payment).toMatchObject({ status: 'failure' });
});

test('the tenth decline ends the checkout; the shop opens a new one, which pays', async ({ page, checkout }) => {
  await checkout.open();
  const first = await checkout.continueToPayment();
  const declined = 'The payment was declined. Try another card or contact your bank.';
  for (let attempt = 1; attempt < 10; attempt += 1) {
    await checkout.pay('4000 0000 0000 0002');
    await expect(checkout.message).toHaveText(declined);
    await expect(checkout.payButton).toBeEnabled();
  }
  await checkout.pay('4000 0000 0000 0002');
  // No form to type an eleventh card into, which the companion would refuse.
  await expect(checkout.message).toHaveText('The card was declined, and this checkout takes no more attempts. Please start again.');
  await expect(checkout.cardNumber).toHaveCount(0);

  await page.getByRole('button', { name: 'Start a new payment' }).click();
  await expect(checkout.cardNumber).toBeVisible();
  const second = await checkout.orderId();
  expect(second).not.toBe(first);
  await checkout.pay('4242 4242 4242 4242');
  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(second);
});
