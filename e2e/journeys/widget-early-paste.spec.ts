/**
 * A customer who pastes their card before the widget's pay-time chunk has come (a slow network):
 * the paste is judged and formatted once it comes, as a paste, the expiry copied after the number
 * kept out of it — as it is when the chunk was already there.
 */
import { expect, test } from '../fixtures.js';

const PASTED = '4242 4242 4242 4242 12/30';

test('a card number pasted with its expiry before the paying chunk came is the number alone once it has', async ({ page, context, stack, checkout }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.shop });
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/widget/chunks/paying.js', async (route) => (await released, route.fallback()));
  await checkout.open();
  await checkout.continueToPayment();
  await page.evaluate((text) => navigator.clipboard.writeText(text), PASTED);
  await checkout.cardNumber.focus();
  await page.keyboard.press('ControlOrMeta+V');
  // Not judged yet: no brand, no error.
  await expect(checkout.cardNumber).toHaveValue(PASTED);
  await expect(checkout.card.getByRole('img', { name: 'Visa' })).toHaveCount(0);
  release();
  await expect(checkout.cardNumber).toHaveValue('4242 4242 4242 4242');
  await expect(checkout.card.getByRole('img', { name: 'Visa' })).toBeVisible();
  await expect(checkout.card.getByText('The card number is invalid.')).toHaveCount(0);
});
