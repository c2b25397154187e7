/**
 * A card saved without a purchase, then charged by the shop: the customer chooses "Save my card
 * only" at checkout, `<pay-form>` offers to save the card on the gateway's page (no "Pay …"
 * button; the demo tokenizes, and a verification takes no token), and the back
 * office, listing the verification apart from payments, charges the saved card from the
 * merchant's server.
 */
import { formatAmount } from '../../server/companion/back-office/web/money.js';
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('save a card in the shop, then charge it from the back office', async ({ page, checkout, backOffice, sandboxPages }) => {
  await checkout.open();
  await checkout.choose({ method: 'lookup' });
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  // The demo tokenizes cards, and the gateway takes no token in a verification: the card is
  // saved on the gateway's page, so it never reaches the shop's server here either.
  const save = checkout.card.getByRole('button', { name: 'Save card on the secure payment page' });
  await expect(save).toBeVisible();
  const verification = await checkout.orderId();
  await expect(checkout.card.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  await save.click();
  await sandboxPages.payOnHostedPage('5454 5454 5454 5454');
  const result = new Result(page);
  await expect(page).toHaveURL(/\/result\?/);
  await expect(result.heading).toHaveText('Your card is saved');

  await backOffice.open(verification);
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.detail).toContainText('Card verification');
  // Verifications are listed apart from payments.
  await page.getByRole('button', { name: 'Card verifications' }).click();
  await expect(backOffice.row(verification)).toBeVisible();
  await page.getByRole('button', { name: 'Payments', exact: true }).click();
  await expect(backOffice.row(verification)).toHaveCount(0);

  await backOffice.detail.getByRole('button', { name: 'Charge saved card' }).click();
  await expect(backOffice.dialog).toBeVisible();
  // An amount the currency cannot hold is said in its units, and nothing is charged.
  const amount = backOffice.dialog.getByLabel(/^Amount/);
  await amount.fill('12.345');
  await backOffice.dialog.getByRole('button', { name: 'Charge saved card' }).click();
  expect(await amount.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('Write the amount in the currency’s units, as in 1.00.');
  await expect(backOffice.dialog).toBeVisible();
  // A charge needs a description: said before anything is sent too.
  const description = backOffice.dialog.getByLabel('Description');
  const described = await description.inputValue();
  await amount.fill('149');
  await description.fill('');
  await backOffice.dialog.getByRole('button', { name: 'Charge UAH 149.00' }).click();
  expect(await description.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('Write what the charge is for.');
  await description.fill(described);

  // What the companion refuses of an amount forced past those checks is said at the amount, in the
  // page's words and the currency's units, not in the API's minor units; the notice repeats none of it.
  const refusals = [
    [1_000_000_000_000_000, `At most ${formatAmount(999_999_999_999_999, 'UAH', 'en')}.`],
    [14_900.5, 'Write the amount in the currency’s units, as in 1.00.'],
  ] as const;
  for (const [forced, words] of refusals) {
    await page.route('**/api/customers/*/cards/*/charges', (route) => route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), amount: forced }) }), { times: 1 });
    await backOffice.dialog.getByRole('button', { name: 'Charge UAH 149.00' }).click();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(amount).toHaveAccessibleDescription(words);
    await expect(amount).toBeFocused();
    await expect(backOffice.dialog).not.toContainText('minor units');
    await expect(backOffice.dialog.getByRole('alert')).toHaveCount(0);
  }

  // The button names what it will charge before anything is sent.
  await backOffice.dialog.getByRole('button', { name: 'Charge UAH 149.00' }).click();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.announcement).toContainText('Charged UAH 149.00 to the saved card');
  await expect(backOffice.detailHeading).not.toHaveText(verification);
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.detail).toContainText('•••• 5454');
  await expect(backOffice.detail).toContainText('UAH 149.00');
  await expect(backOffice.detail).toContainText('Purchase');
});
