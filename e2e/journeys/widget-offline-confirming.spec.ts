/**
 * The connection drops while the widget waits for a payment's outcome (a train's tunnel, a lift):
 * the customer is told they are offline — never a spinner that says nothing, never a form to pay
 * again — and the outcome shows as soon as the connection is back.
 *
 * The page keeps the customer for the challenge (a popup of its own: `pay-redirect` cancelled), so
 * the form confirms the payment, and the bank's answer is given through the sandbox's control
 * plane, which the browser's lost connection does not reach.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, type Stack } from '../fixtures.js';
import { Result } from '../pages/result.js';

const OFFLINE = 'You are offline. The outcome of your payment will show here once you are back online.';

/** Completes the challenge at the sandbox, and waits until the companion has heard (its webhook): the session then reads paid. */
async function bankSaysYes(page: Page, request: APIRequestContext, stack: Stack, paymentId: string): Promise<void> {
  expect((await request.post(`${stack.sandbox}/_sandbox/3ds/${paymentId}`, { data: { result: 'success' } })).ok()).toBe(true);
  const session = await page.locator('pay-form').getAttribute('session');
  await expect.poll(async () => ((await (await request.get(`${stack.shop}/api/checkout/sessions/${session}`)).json()) as { status: string }).status).toBe('success');
}

/** Pays with a card that asks for 3-D Secure, the challenge kept from the page: answers the payment's id. */
async function payKeptFromTheBank(page: Page, pay: () => Promise<void>): Promise<string> {
  await page.evaluate(() => document.addEventListener('pay-redirect', (event) => event.preventDefault()));
  const answer = page.waitForResponse((response) => response.url().endsWith('/pay'));
  await pay();
  return ((await (await answer).json()) as { payment_id: string }).payment_id;
}

test('offline while the payment is confirmed: said, no way to pay twice, and the outcome once back online', async ({ page, context, checkout, request, stack, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  const paymentId = await payKeptFromTheBank(page, () => checkout.pay('4000 0000 0000 3220'));
  await expect(checkout.message).toHaveText('Confirming your payment…');

  await context.setOffline(true);
  await expect(checkout.message).toHaveText(OFFLINE);
  await expect(checkout.cardNumber).toHaveCount(0);
  await expect(checkout.hostedButton).toHaveCount(0);
  // The bank's answer comes meanwhile; the browser cannot read it yet.
  await bankSaysYes(page, request, stack, paymentId);
  await expect(checkout.message).toHaveText(OFFLINE);

  await context.setOffline(false);
  await new Result(page).expectOutcome('success');
  expect(await sandbox.order(orderId)).toEqual([expect.objectContaining({ status: 'success' })]);
});

test('offline once polling gave up: the outcome is read the moment the connection is back, not at the next slow check', async ({ page, context, checkout, request, stack }) => {
  await checkout.open();
  await checkout.continueToPayment();
  // Polling gives up after its first read: the form then checks only every 30 s.
  await page.locator('pay-form').evaluate((form: HTMLElement & { pollTimeout: number }) => (form.pollTimeout = 1));
  const paymentId = await payKeptFromTheBank(page, () => checkout.pay('4000 0000 0000 3220'));
  await expect(checkout.message).toHaveText(/still being confirmed/);

  await context.setOffline(true);
  await expect(checkout.message).toHaveText(OFFLINE);
  await bankSaysYes(page, request, stack, paymentId);
  await context.setOffline(false);
  // Well within the slow check's 30 s.
  await new Result(page).expectOutcome('success');
});
