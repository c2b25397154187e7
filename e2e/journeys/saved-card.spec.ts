/**
 * A returning customer: the first payment keeps the card (as the gateway's token, with the
 * customer's consent), and the second checkout offers it — paid without typing the card again.
 */
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('saved card used for a second payment', async ({ page, checkout, backOffice }) => {
  await checkout.open([{ product: ESPRESSO.product, quantity: 1 }]);
  await checkout.choose({ remember: true });
  await checkout.continueToPayment();
  await expect(checkout.card.getByRole('radio')).toHaveCount(0);
  await checkout.pay('5454 5454 5454 5454');
  await new Result(page).expectOutcome('success');

  await checkout.open([{ product: CUP.product, quantity: 1 }]);
  await checkout.choose({ remember: true });
  const secondOrder = await checkout.continueToPayment();
  const saved = checkout.card.getByRole('radio', { name: /•••• 5454/ });
  await expect(saved).toBeChecked();
  await expect(checkout.cardNumber).toHaveCount(0);
  await checkout.payButton.click();
  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(secondOrder);

  await backOffice.open(secondOrder);
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.detail).toContainText('•••• 5454');
  await expect(backOffice.detail).toContainText('UAH 650.00');
});

test('without consent no card is kept', async ({ page, checkout }) => {
  await checkout.open();
  await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');

  await checkout.open();
  await checkout.choose({ remember: true });
  await checkout.continueToPayment();
  await expect(checkout.cardNumber).toBeVisible();
  await expect(checkout.card.getByRole('radio')).toHaveCount(0);
});
