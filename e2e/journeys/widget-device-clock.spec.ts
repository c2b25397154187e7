/**
 * A customer whose device clock runs a year fast: the card's expiry is judged by the companion's
 * clock (its answers' Date), as the companion judges it on payment, so a card still valid is
 * taken, and one expired by the companion's clock is still refused as the customer types.
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

const YEAR_MS = 365 * 86_400_000;
/** MM/YY of the month `months` from now, by this (the companion's) clock. */
const expiryIn = (months: number): string => {
  const at = new Date();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() + months);
  return `${String(at.getUTCMonth() + 1).padStart(2, '0')}/${String(at.getUTCFullYear()).slice(2)}`;
};

test('a device clock a year fast neither refuses a card still valid nor takes one expired', async ({ page, checkout }) => {
  await page.clock.install({ time: new Date(Date.now() + YEAR_MS) });
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  // Expired last month by the companion's clock: refused as typed.
  await checkout.fillCard('4242 4242 4242 4242', expiryIn(-1));
  await checkout.card.getByLabel('Security code').focus();
  await expect(checkout.card.getByText('This card has expired.')).toBeVisible();
  // Valid two months more, though the device's calendar is past it: paid.
  await checkout.pay('4242 4242 4242 4242', expiryIn(2));
  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(orderId);
});
