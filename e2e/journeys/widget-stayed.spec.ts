/**
 * Paid with a card its bank challenges, the page leaves for the bank's page — and stays, when the
 * browser never gets there: the customer stopped it (Esc, the Stop button), chose to stay on the
 * shop's own "Leave site?" prompt, or the navigation came to nothing. The payment waits for its
 * challenge at the gateway, and no new attempt may start meanwhile. The form must not stay
 * "Processing payment…" for ever, its button disabled: it offers going on with the challenge.
 *
 * The bank's page is answered 204 No Content, which leaves the page as the customer left it, as
 * each of those does (e2e/pages/result.ts, `leftForTheBank`).
 */
import { expect, test } from '../fixtures.js';
import { leftForTheBank, Result } from '../pages/result.js';

test('a trip to the bank that never left the page offers the challenge instead of processing for ever', async ({ page, request, stack, sandboxPages }) => {
  const challengeUrl = await leftForTheBank(page, request, stack);
  const form = page.locator('pay-form');
  // The form's own live region; each field's error is one too.
  const message = form.getByRole('status').and(form.locator('[part="message"]'));
  await expect(message).toHaveText('Taking you to your bank to confirm the payment…');

  // Still here a few seconds on: the customer is offered the way on, and the focus the disabled
  // pay button held goes to it.
  await expect(message).toHaveText('Your bank is waiting for you to confirm the payment.', { timeout: 15_000 });
  const onward = form.getByRole('button', { name: 'Continue with your bank' });
  await expect(onward).toBeFocused();
  await expect(form.getByLabel('Card number')).toHaveCount(0);

  await page.unroute(/\/3ds\//);
  await onward.click();
  await expect(page).toHaveURL(challengeUrl);
  await sandboxPages.completeChallenge();
  await new Result(page).expectOutcome('success');
});
