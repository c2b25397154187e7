/**
 * A card saved without a purchase, then charged by the shop: the customer chooses "Save my card
 * only" at checkout, `<pay-form>` offers to save the card (no "Pay …" button), and the back
 * office, listing the verification apart from payments, charges the saved card from the
 * merchant's server.
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('save a card in the shop, then charge it from the back office', async ({ page, checkout, backOffice }) => {
  await checkout.open();
  await checkout.choose({ method: 'lookup' });
  const verification = await checkout.continueToPayment();
  const save = checkout.card.getByRole('button', { name: 'Save card', exact: true });
  await expect(save).toBeVisible();
  await expect(checkout.card.getByRole('button', { name: /^Pay / })).toHaveCount(0);
  await expect(checkout.card).toContainText('Nothing is charged');
  await checkout.fillCard('5454 5454 5454 5454');
  await save.click();
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
  await backOffice.dialog.getByLabel(/^Amount/).fill('149');
  await backOffice.dialog.getByRole('button', { name: 'Charge saved card' }).click();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.announcement).toContainText('Charged UAH 149.00 to the saved card');
  await expect(backOffice.detailHeading).not.toHaveText(verification);
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.detail).toContainText('•••• 5454');
  await expect(backOffice.detail).toContainText('UAH 149.00');
  await expect(backOffice.detail).toContainText('Purchase');
});
