/**
 * A page with `<pay-form>` and `<pay-button>` for one session: what a payment of the session
 * shows, it shows once, and the customer never meets the same prompt twice.
 */
import { expect, test } from '../fixtures.js';

test('back from 3-D Secure to a page with the form and the hosted button, going on with the bank is offered once', async ({ page, checkout }) => {
  await checkout.open();
  await checkout.continueToPayment();
  await checkout.pay('4000 0000 0000 3220');
  await expect(page).toHaveURL(/\/3ds\//);

  await page.goBack();
  await expect(checkout.message).toHaveText('Your bank is waiting for you to confirm the payment.');
  const goOn = page.getByRole('button', { name: 'Continue with your bank' });
  await expect(goOn).toHaveCount(1);
  await expect(checkout.card.getByRole('button', { name: 'Continue with your bank' })).toBeVisible();
  await expect(checkout.hosted.getByText('Your bank is waiting for you to confirm the payment.')).toHaveCount(0);
});
