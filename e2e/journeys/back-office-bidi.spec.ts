/**
 * The right-to-left preview with what the page does not translate: the shop's description of an
 * order, the customer's name, a comment being typed. Each is written in its own language, not
 * the page's, and reads as written: "Order #12, 2 items." with its period at its end, not at its
 * start ("O'Neill Jr." read ".Mary-Jane O'Neill Jr" beside an isolated e-mail), the words of
 * the page's own direction taking it from a full stop.
 */
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

test('right to left, the shop’s description, the customer’s name and a comment typed read as written', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', {
    description: 'Order #12, 2 items.',
    customer: { fname: 'Mary-Jane', lname: 'O’Neill Jr.', email: 'mj@example.com' },
  });
  await backOffice.open(orderId);
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

  const facts = backOffice.detail.locator('.facts dd');
  const description = facts.filter({ hasText: 'Order #12' });
  await expect(description).toHaveText('Order #12, 2 items.');
  const name = facts.filter({ hasText: 'Mary-Jane' }).or(backOffice.row(orderId).locator('.orders__customer'));
  await expect(name).toHaveCount(2);
  expect(await backOffice.misread(description.or(name)), 'the description and the customer, right to left').toEqual([]);

  // A comment typed in English takes its own direction, its full stop where it was typed.
  await backOffice.actionButton('Refund').click();
  const comment = backOffice.dialog.getByLabel(/^Comment/);
  await comment.fill('Refund, as agreed.');
  await expect(comment).toHaveCSS('direction', 'ltr');
});
