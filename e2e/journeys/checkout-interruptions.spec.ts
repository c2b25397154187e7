/**
 * The demo checkout page interrupted. Paid, the customer reloads it before the result page has
 * come (a slow network, an impatient finger): the page must show that session paid and go on to
 * the result, never the details form with the cart still full, which opens a new session to pay a
 * second time. Paid in a duplicate of the tab, the other copy shows the payment, not an empty cart.
 * Offline, opening the payment says the shop could not be reached, in the page's words; and Back
 * into the payment while offline keeps the page, saying why, where reloading it put the browser's
 * own error page in its place: it loads again by itself once the connection is back.
 */
import { expect, test } from '../fixtures.js';
import { Checkout } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('a reload of the checkout between "paid" and the result page shows the payment, not a new checkout', async ({ page, checkout }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  // The result page is slow to come: the customer reloads the checkout meanwhile.
  let resultAsked!: () => void;
  const asked = new Promise<void>((resolve) => (resultAsked = resolve));
  await page.route(/\/result\?/, (route) => (resultAsked(), route.fulfill({ status: 204 })), { times: 1 });
  await checkout.pay('4242 4242 4242 4242');
  await asked;
  await expect(checkout.message).toHaveText('Payment successful');
  await page.reload();

  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(orderId);
  // Back to the checkout: the cart is paid for, nothing to pay again (and no bounce forward).
  await page.goBack();
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/checkout$/);
});

test('paid in a duplicate of the tab, the first copy shows the payment, not an empty cart', async ({ page, context, checkout }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  // "Duplicate tab" copies the tab's session storage, and with it the checkout the tab keeps.
  const kept = await page.evaluate(() => JSON.stringify(sessionStorage));
  const duplicate = await context.newPage();
  await duplicate.addInitScript((stored) => {
    if (!sessionStorage.length) for (const [key, value] of Object.entries(JSON.parse(stored) as Record<string, string>)) sessionStorage.setItem(key, value);
  }, kept);
  await duplicate.goto(page.url());
  const copy = new Checkout(duplicate);
  expect(await copy.orderId()).toBe(orderId);
  await copy.pay('4242 4242 4242 4242');
  await new Result(duplicate).expectOutcome('success');

  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(orderId);
});

test('offline, "Continue to payment" says the shop could not be reached, not the browser\'s "Failed to fetch"', async ({ page, context, checkout }) => {
  await checkout.open();
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('alert')).toHaveText('The payment could not be opened: the shop could not be reached. Check your connection and try again.');
  await context.setOffline(false);
  await checkout.continueToPayment();
});

test('Back into the payment while offline keeps the page and says so, then loads it again once online', async ({ page, context, checkout }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await expect(checkout.cardNumber).toBeVisible();
  await context.setOffline(true);
  // As Back from another page shows a page the browser kept whole (Chromium's headless shell keeps
  // none, so the journey gives the page the event such a return gives it: widget-back-forward.spec.ts).
  await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
  const notice = page.getByRole('alert');
  await expect(notice).toHaveText('You are offline. This payment will load again once you are back online.');
  // Still the shop's page, the payment as it was, not the browser's "No internet".
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(checkout.cardNumber).toBeVisible();

  // The connection back: the page loads again by itself, and shows the same payment.
  const loaded = page.waitForEvent('load');
  await context.setOffline(false);
  await loaded;
  await expect(checkout.cardNumber).toBeVisible();
  await expect(notice).toHaveCount(0);
  expect(await checkout.orderId()).toBe(orderId);
});
