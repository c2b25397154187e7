/**
 * Back from 3-D Secure into a merchant's page the browser kept whole (the back/forward cache,
 * which Safari uses above all): the page comes back as it was left, the form paying and its
 * button disabled, and nothing loads it anew. The form must read the session then, as a page
 * loaded anew does, never stay "Processing payment…" for ever, and offer the challenge again.
 *
 * The page is the demo's result page, which shows `<pay-form>` for a session still open and, unlike
 * its checkout page, does not reload itself on such a return. Chromium's headless shell keeps no page
 * in that cache, so the journey gives the page what such a return gives it: the challenge page
 * is not loaded (answered 204 No Content, which leaves the page as the customer left it) and the
 * page is shown again with the `pageshow` event a restored page gets (`persisted`).
 */
import { expect, test } from '../fixtures.js';
import { leftForTheBank, Result } from '../pages/result.js';

test('back into a page the browser kept whole after 3-D Secure, the form confirms the payment instead of processing for ever', async ({ page, request, stack, sandboxPages }) => {
  const challengeUrl = await leftForTheBank(page, request, stack);
  const form = page.locator('pay-form');
  // The form's own live region; each field's error is one too.
  const message = form.getByRole('status').and(form.locator('[part="message"]'));
  await expect(message).toHaveText('Taking you to your bank to confirm the payment…');

  await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
  // Back without finishing the challenge: the bank waits for the customer, and going on is offered.
  await expect(message).toHaveText('Your bank is waiting for you to confirm the payment.');
  await expect(form.getByLabel('Card number')).toHaveCount(0);

  // The challenge taken after all: the page it returns to shows the payment made.
  await page.unroute(/\/3ds\//);
  await form.getByRole('button', { name: 'Continue with your bank' }).click();
  await expect(page).toHaveURL(challengeUrl);
  await sandboxPages.completeChallenge();
  await new Result(page).expectOutcome('success');
});
