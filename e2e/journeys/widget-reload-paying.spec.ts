/**
 * A reload while a 3-D Secure payment is being answered — the customer thought the page stuck —
 * loses the answer that would have taken them to their bank. The payment waits for its challenge
 * at the gateway, and no new attempt may start meanwhile: the page offers going on with it at
 * once, as after Back from the bank, not a minute of "Confirming your payment…" first.
 */
import { expect, test } from '../fixtures.js';
import { challengedCard, Result } from '../pages/result.js';

test('a reload while the payment is answered offers the 3-D Secure challenge at once', async ({ page, request, stack, sandboxPages }) => {
  const form = await challengedCard(page, request, stack);
  // The pay request reaches the companion; its answer never reaches the page, which reloads.
  let reached!: () => void;
  const atCompanion = new Promise<void>((resolve) => (reached = resolve));
  await page.route(/\/pay$/, async (route) => {
    await route.fetch();
    reached();
  });
  await form.getByRole('button', { name: /^Pay / }).click();
  await atCompanion;
  await page.reload();

  // The form's own live region; each field's error is one too.
  const message = form.getByRole('status').and(form.locator('[part="message"]'));
  await expect(message).toHaveText('Your bank is waiting for you to confirm the payment.');
  await expect(form.getByLabel('Card number')).toHaveCount(0);
  await form.getByRole('button', { name: 'Continue with your bank' }).click();
  await sandboxPages.completeChallenge();
  await new Result(page).expectOutcome('success');
});
