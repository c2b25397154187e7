/**
 * The overview's money: what the period's payments came to per currency — paid (purchases
 * paid, auths captured), refunded and net — beside the counts, as the page's language writes
 * amounts. An auth not captured is not money; a partial refund counts as made.
 */
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { englishUah as english, paidOrder } from '../pages/back-office.js';


test('the overview says what the period’s payments came to: paid, refunded and net per currency', async ({ page, request, stack, backOffice }) => {
  const admin = { Authorization: `Bearer ${stack.token}` };
  const money = async () => (await (await request.get(`${stack.shop}/api/stats/money`, { headers: admin })).json()).money.find((entry: { currency: string }) => entry.currency === 'UAH');
  // The worker's ledger holds other tests' orders: what this test adds is read as a difference.
  const before = (await money()) ?? { paid: 0, refunded: 0, net: 0 };
  const purchase = await paidOrder(request, stack, 'purchase', { amount: 123_456 });
  expect((await request.post(`${stack.shop}/api/orders/${purchase}/refund`, { headers: admin, data: { amount: 23_456 } })).status()).toBe(200);
  const auth = await paidOrder(request, stack, 'auth', { amount: 50_000 });
  expect((await request.post(`${stack.shop}/api/orders/${auth}/capture`, { headers: admin, data: { amount: 40_000 } })).status()).toBe(200);
  // Reserved, never captured: not money.
  await paidOrder(request, stack, 'auth', { amount: 900_000 });
  const after = await money();
  expect(after).toEqual({ currency: 'UAH', paid: before.paid + 163_456, refunded: before.refunded + 23_456, net: before.net + 140_000 });

  await backOffice.open();
  const table = page.getByRole('region', { name: 'Payments' }).getByRole('table', { name: /^Money of the payments created in the period/ });
  await expect(table.getByRole('columnheader')).toHaveText(['Currency', 'Paid', 'Refunded', 'Net']);
  const uah = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'UAH', exact: true }) }).getByRole('cell');
  await expect(uah.nth(0)).toHaveText(english(after.paid));
  await expect(uah.nth(1)).toHaveText(english(after.refunded));
  await expect(uah.nth(2)).toHaveText(english(after.net));
  await expectNoAxeViolations(page, 'the back office overview with its money');

  // In Ukrainian, in its own words and money.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const ukrainian = page.getByRole('region', { name: 'Платежі' }).getByRole('table');
  await expect(ukrainian.getByRole('columnheader')).toHaveText(['Валюта', 'Оплачено', 'Повернуто', 'Разом']);
  await expect(ukrainian.getByRole('row').filter({ hasText: 'UAH' }).getByRole('cell').nth(2)).toHaveText(/^-?[\d\s]+,\d{2}\sгрн$/u);
});

test('a refund made in the back office is in the period’s money at once, not at the live feed’s next money read', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', { amount: 20_000 });
  await backOffice.open(orderId);
  const table = page.getByRole('region', { name: 'Payments' }).getByRole('table', { name: /^Money of the payments created in the period/ });
  const refunded = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'UAH', exact: true }) }).getByRole('cell').nth(1);
  const shown = (await refunded.textContent()) ?? '';
  await backOffice.performed('Refund', { amount: '50.00' });
  const { money } = await (await request.get(`${stack.shop}/api/stats/money`, { headers: { Authorization: `Bearer ${stack.token}` } })).json();
  const uah = money.find((entry: { currency: string }) => entry.currency === 'UAH');
  expect(english(uah.refunded)).not.toBe(shown);
  await expect(refunded).toHaveText(english(uah.refunded));
});
