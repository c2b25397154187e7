/**
 * The demo's checkout, with `<pay-form>` and `<pay-button>` for one session, reloaded while its
 * payment is pending: one element reads the outcome for both and, once polling gives up, the
 * page offers "Check again" once and says the payment is still being confirmed once.
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('reloaded on a pending payment, the checkout offers "Check again" once', async ({ page, checkout, request, stack }) => {
  await checkout.open();
  await checkout.continueToPayment();
  // The page keeps the customer for the challenge (a popup of its own): the payment stays pending.
  await page.evaluate(() => document.addEventListener('pay-redirect', (event) => event.preventDefault()));
  const answer = page.waitForResponse((response) => response.url().endsWith('/pay'));
  await checkout.pay('4000 0000 0000 3220');
  const { payment_id: paymentId } = (await (await answer).json()) as { payment_id: string };
  await expect(checkout.message).toHaveText('Confirming your payment…');

  // Polling gives up within a second and a half rather than a minute: the elements are made so.
  await page.addInitScript(() => {
    const define = customElements.define.bind(customElements);
    customElements.define = (name, kind, options) =>
      define(
        name,
        name.startsWith('pay-')
          ? class extends (kind as unknown as { new (): HTMLElement }) {
              constructor() {
                super();
                Object.assign(this, { pollInterval: 200, pollTimeout: 1500 });
              }
            }
          : kind,
        options,
      );
  });
  await page.reload();
  const again = page.getByRole('button', { name: 'Check again' });
  await expect(again.first()).toBeVisible();
  await expect(checkout.card.getByRole('button', { name: 'Check again' })).toBeVisible();
  await expect(again).toHaveCount(1);
  await expect(page.getByText(/still being confirmed/)).toHaveCount(1);

  expect((await request.post(`${stack.sandbox}/_sandbox/3ds/${paymentId}`, { data: { result: 'success' } })).ok()).toBe(true);
  const session = await page.locator('pay-form').getAttribute('session');
  await expect.poll(async () => ((await (await request.get(`${stack.shop}/api/checkout/sessions/${session}`)).json()) as { status: string }).status).toBe('success');
  await again.click();
  await new Result(page).expectOutcome('success');
});
