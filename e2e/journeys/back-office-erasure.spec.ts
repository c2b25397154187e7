/**
 * A customer asks to be forgotten: support finds one of their orders in the back office and
 * erases the customer's details from there. Every order of theirs keeps its money and loses the
 * person; another customer's order is left as it was.
 */
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { challengedOrder, paidOrder } from '../pages/back-office.js';

test('erasing a customer’s details from an order empties every order of theirs, after a confirmation that says what goes and what stays, and once none waits for the gateway', async ({ page, request, stack, backOffice }) => {
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

  // A payment of theirs still waiting for its 3-D Secure challenge holds the erasure back, named.
  const waiting = await challengedOrder(request, stack, { amount: 700, customer });
  await backOffice.detail.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Erase customer’s details' }).click();
  await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(`not decided yet (a payment waiting for the gateway, an operation under way, or an order held for review): ${waiting.orderId}. Erase once they are.`);
  await expect(facts).toContainText('Mariia Shevchuk');
  // The customer fails the challenge: once its webhook is in, the order is decided and the same dialog erases.
  expect((await request.post(`${stack.sandbox}/_sandbox/3ds/${waiting.paymentId}`, { data: { result: 'failure' } })).ok()).toBe(true);
  const statusOf = async (orderId: string) => (await (await request.get(`${stack.shop}/api/orders/${orderId}`, { headers: { Authorization: `Bearer ${stack.token}` } })).json()).order.status;
  await expect.poll(() => statusOf(waiting.orderId)).toBe('failure');
  await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(backOffice.announcement).toHaveText('The customer’s details were erased from their orders: 3.');
  await expect(backOffice.detail.locator('.notice')).toHaveText('The customer’s details were erased from their orders: 3.');
  await expect(facts).not.toContainText('Mariia');
  await expect(facts).not.toContainText(email);
  // Said as such, not a customer who typed nothing.
  await expect(facts).toContainText(/Details erased \S/u);
  // Nothing left of them to erase: the action is gone; the order keeps its money.
  await expect(backOffice.detail.getByRole('button', { name: 'Erase customer’s details' })).toHaveCount(0);
  await expect(backOffice.detail.locator('.order-detail__amount strong')).toHaveText(/UAH\s15\.00/u);

  await backOffice.select(second);
  await expect(facts).not.toContainText(email);
  await backOffice.select(other);
  await expect(facts).toContainText('Taras Bondar');
  await expect(facts).not.toContainText('Details erased');
});
