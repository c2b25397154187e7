/**
 * A card saved without a purchase, then charged by the shop: the customer chooses "Save my card
 * only" at checkout, `<pay-form>` offers to save the card on the gateway's page (no "Pay …"
 * button; the demo tokenizes, and a verification takes no token), and the back
 * office, listing the verification apart from payments, charges the saved card from the
 * merchant's server.
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

test('save a card in the shop, then charge it from the back office', async ({ page, request, stack, checkout, backOffice, sandboxPages }) => {
  // A card saved by a verification that gave none of the customer's details (a lookup needs none):
  // a charge needs them, and the companion refuses it naming the fields (customer_required).
  const anonymous = await request.post(`${stack.shop}/api/checkout/sessions`, {
    headers: { Authorization: `Bearer ${stack.token}` },
    data: { amount: 100, currency: 'UAH', description: 'Card check', method: 'lookup', customer_id: `anonymous-${Date.now().toString(36)}`, modes: ['hosted'] },
  });
  const unnamed = await anonymous.json();
  const hosted = await request.post(`${stack.shop}/api/checkout/sessions/${unnamed.id}/hosted`, { data: {} });
  await page.goto((await hosted.json()).redirect_url);
  await sandboxPages.payOnHostedPage('4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/checkout\/return\//);

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

  // The card nobody's details came with: the refusal names what is missing in the page's words,
  // and what to do, not the request's field paths (the dialog has no field for them).
  await backOffice.select(unnamed.order_id);
  await backOffice.detail.getByRole('button', { name: 'Charge saved card' }).click();
  await backOffice.dialog.getByLabel(/^Amount/).fill('149');
  await backOffice.dialog.getByRole('button', { name: 'Charge UAH 149.00' }).click();
  const refusal = backOffice.dialog.getByRole('alert');
  await expect(refusal).toBeFocused();
  await expect(refusal).toHaveText(
    'Not done: The gateway needs the customer’s first name, last name, e-mail address, and phone number to charge a card, and the last payment with this card did not give them. ' +
      'Charge it from the shop’s server, sending them with the charge, or ask the customer to pay with this card at checkout once.',
  );
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await expect(refusal).toContainText('шлюзу потрібні такі дані клієнта: ім’я, прізвище, адреса електронної пошти і номер телефону.');
  await expect(refusal).not.toContainText('customer.');
  await page.getByRole('combobox', { name: 'Мова' }).selectOption('en');
  await backOffice.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(backOffice.dialog).toBeHidden();
  await backOffice.select(verification);

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
  // The amount in them is isolated (U+2068…U+2069), and so are the words around it, to read as written in right-to-left text.
  const refusals = [
    [1_000_000_000_000_000, '\u2068At most \u2068UAH 9,999,999,999,999.99\u2069.\u2069'],
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
  // Started by the shop, not on the card form.
  await expect(backOffice.detail).toContainText('Saved card, charged by the shop');
  await expect(backOffice.detail).not.toContainText('Card form');
});
