/**
 * A customer asks to be forgotten: support finds one of their orders in the back office and
 * erases the customer's details from there. Every order of theirs keeps its money and loses the
 * person; another customer's order is left as it was.
 */
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

test('erasing a customer’s details from an order empties every order of theirs, after a confirmation that says what goes and what stays', async ({ page, request, stack, backOffice }) => {
  // An address of this test's own: the stack's other journeys pay as other customers.
  const email = `forget-me-${Date.now()}@example.com`;
  const customer = { fname: 'Mariia', lname: 'Shevchuk', email };
  const first = await paidOrder(request, stack, 'purchase', { amount: 1500, customer });
  const second = await paidOrder(request, stack, 'purchase', { amount: 2500, customer });
  const other = await paidOrder(request, stack, 'purchase', { amount: 900, customer: { fname: 'Taras', lname: 'Bondar', email: `keep-${Date.now()}@example.com` } });

  await backOffice.open(first);
  const facts = backOffice.detail.locator('.facts');
  await expect(facts).toContainText('Mariia Shevchuk');
  await backOffice.detail.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Erase customer’s details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase the customer’s details' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(email);
  await expect(dialog).toHaveAccessibleDescription(/every order of theirs.*The orders stay, with their money\. This cannot be undone\./u);
  await expectNoAxeViolations(page, 'the erasure dialog');

  // Closed, nothing is erased.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(facts).toContainText('Mariia Shevchuk');

  await backOffice.detail.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Erase customer’s details' }).click();
  await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(backOffice.announcement).toHaveText('The customer’s details were erased from their orders: 2.');
  await expect(backOffice.detail.locator('.notice')).toHaveText('The customer’s details were erased from their orders: 2.');
  await expect(facts).not.toContainText('Mariia');
  await expect(facts).not.toContainText(email);
  // Nothing left of them to erase: the action is gone; the order keeps its money.
  await expect(backOffice.detail.getByRole('button', { name: 'Erase customer’s details' })).toHaveCount(0);
  await expect(backOffice.detail.locator('.order-detail__amount strong')).toHaveText(/UAH\s15\.00/u);

  await backOffice.select(second);
  await expect(facts).not.toContainText(email);
  await backOffice.select(other);
  await expect(facts).toContainText('Taras Bondar');
});
