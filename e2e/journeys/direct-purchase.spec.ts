/**
 * A customer buys in the shop and pays by card on the checkout page: the payment succeeds
 * without 3-D Secure, the result page confirms it, and the back office shows the order as paid
 * for exactly the cart's amount.
 */
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('direct purchase: cart, card form, success page, paid order in the back office', async ({ page, shop, checkout, backOffice }) => {
  await shop.open();
  await shop.add(ESPRESSO.name);
  await shop.add(CUP.name, 2);
  await expect(shop.cart.getByRole('listitem')).toHaveCount(2);
  await expect(shop.cart).toContainText('UAH 1,720.00');
  await expect(page.getByRole('link', { name: /Cart, 3 items/ })).toBeVisible();
  await shop.goToCheckout();

  const orderId = await checkout.continueToPayment();
  await expect(checkout.payButton).toHaveText('Pay UAH 1,720.00');
  await checkout.pay('4242 4242 4242 4242');

  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(orderId);
  await expect(page.getByRole('link', { name: /Cart, 0 items/ })).toBeVisible();

  await backOffice.open(orderId);
  await expect(backOffice.row(orderId)).toContainText('UAH 1,720.00');
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.detail).toContainText('•••• 4242');
});
