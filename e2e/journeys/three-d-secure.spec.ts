/**
 * 3-D Secure: the card form hands the customer to the sandbox's challenge page; whichever
 * button they press, they come back to the shop's result page, which shows the final state the
 * gateway reported (not what the address says).
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('3-D Secure passed: challenge page, back to a paid order', async ({ page, checkout, sandboxPages, sandbox, backOffice }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4000 0000 0000 3220');

  await sandboxPages.completeChallenge();
  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(orderId);
  const [payment] = await sandbox.order(orderId);
  expect(payment).toMatchObject({ status: 'success' });

  await backOffice.open(orderId);
  await expect(backOffice.status).toHaveText('Success');
});

test('Back from the challenge, or a reload, shows the session already paying, never a new one to pay', async ({ page, checkout, sandboxPages, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4000 0000 0000 3220');
  await expect(page).toHaveURL(/\/3ds\//);
  const challenge = page.url();
  const goOn = checkout.card.getByRole('button', { name: 'Continue with your bank' });

  // Back without finishing the challenge: the bank is waiting, and the way back to it is offered.
  await page.goBack();
  await expect(checkout.message).toHaveText('Your bank is waiting for you to confirm the payment.');
  await expect(goOn).toBeVisible();
  expect(await checkout.orderId()).toBe(orderId);
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toHaveCount(0);
  // Reloaded (as a page may reload itself when the back/forward cache restores it), still back
  // from the bank: this tab left for it.
  await page.reload();
  await expect(checkout.message).toHaveText('Your bank is waiting for you to confirm the payment.');
  await expect(goOn).toBeVisible();
  // Come by its address, the page is no return from the bank (its own return comes so): the
  // payment is being confirmed, and nothing is offered.
  await page.goto(page.url());
  await expect(checkout.message).toHaveText(/Confirming your payment|still being confirmed/);
  await expect(goOn).toHaveCount(0);
  expect(await checkout.orderId()).toBe(orderId);

  await page.goForward();
  await expect(page).toHaveURL(challenge);
  await page.goBack();
  await goOn.click();
  await expect(page).toHaveURL(challenge);
  await sandboxPages.completeChallenge();
  await new Result(page).expectOutcome('success');
  expect(await sandbox.order(orderId)).toEqual([expect.objectContaining({ status: 'success' })]);
});

test('3-D Secure failed: back to the result page, declined, and paying again works', async ({ page, checkout, sandboxPages, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4000 0000 0000 3220');

  await sandboxPages.failChallenge();
  const result = new Result(page);
  await result.expectOutcome('failure');
  // The status in the address is not believed: the session's own state is shown.
  await page.goto(page.url().replace('status=failure', 'status=success'));
  await result.expectOutcome('failure');
  const retryForm = page.getByRole('main');
  await expect(retryForm.getByRole('status').filter({ hasText: 'not confirmed' })).toBeVisible();
  const [payment] = await sandbox.order(orderId);
  expect(payment).toMatchObject({ status: 'failure' });

  // The form on the result page takes another card for the same order.
  await retryForm.getByLabel('Card number').fill('4242 4242 4242 4242');
  await retryForm.getByLabel('Expiry date').fill('12/30');
  await retryForm.getByLabel('Security code').fill('123');
  await retryForm.getByRole('button', { name: /^Pay / }).click();
  await result.expectOutcome('success');
});
