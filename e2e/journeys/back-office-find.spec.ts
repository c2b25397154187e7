/**
 * Find, as staff use it with a customer on the phone: an e-mail, the card's last four digits or
 * an amount as the page's language writes it lists that customer's orders; a card number read
 * out is refused in the page and never sent.
 */
import { randomUUID } from 'node:crypto';
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

test('finds a customer’s orders by e-mail, card last four and amount, in English and Ukrainian; never sends a card number', async ({ page, request, stack, backOffice }) => {
  // The worker's ledger holds other tests' orders: an e-mail and an amount of this test's own.
  const email = `find-${randomUUID().slice(0, 8)}@example.com`;
  const amount = 100_000 + Math.floor(Math.random() * 800_000);
  const customer = { fname: 'Mariia', lname: 'Shevchenko', email };
  const first = await paidOrder(request, stack, 'purchase', { amount, customer });
  const second = await paidOrder(request, stack, 'purchase', { amount: amount + 1, customer });
  const stranger = await paidOrder(request, stack, 'purchase', { amount, customer: { fname: 'Ivan', lname: 'Petrenko', email: `other-${email}` } });
  const sent: string[] = [];
  page.on('request', (request) => void sent.push(request.url()));
  await backOffice.open();
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
  const status = page.getByRole('status').filter({ hasText: 'match' });

  // The e-mail as the customer spells it: their two orders, each row telling them apart.
  await find.fill(email.toUpperCase());
  await find.press('Enter');
  await expect(backOffice.orders).toContainText(`Orders matching ${email.toUpperCase()}`);
  await expect(backOffice.orders.getByRole('row')).toHaveCount(3);
  await expect(backOffice.row(second)).toContainText(email);
  await expect(backOffice.row(first)).toContainText('•••• 4242');
  await expect(status).toHaveText(`Orders matching ${email.toUpperCase()}: 2.`);
  await expect(find).toBeFocused();

  // The amount as English writes it, with its decimals: this customer's and another's.
  const typed = `${Math.floor(amount / 100).toLocaleString('en-GB')}.${String(amount % 100).padStart(2, '0')}`;
  await find.fill(typed);
  await find.press('Enter');
  await expect(backOffice.row(stranger)).toBeVisible();
  await expect(backOffice.row(first)).toBeVisible();
  await expect(backOffice.row(second)).toHaveCount(0);
  expect(sent.some((url) => new URL(url).searchParams.get('amount') === String(amount))).toBe(true);

  // The last four digits: every order paid with a card ending so.
  await find.fill('4242');
  await find.press('Enter');
  await expect(backOffice.row(first)).toBeVisible();
  await expect(backOffice.orders.getByRole('row').filter({ hasNotText: '4242' })).toHaveCount(1); // the heading row

  // A card number read out is refused by name, taken out of the box, and sent nowhere.
  const before = sent.length;
  await find.fill('4242 4242 4242 4242');
  await find.press('Enter');
  const refusal = page.getByRole('search').getByRole('alert');
  await expect(refusal).toHaveText('That is a card number: it is never searched or sent. Type its last four digits.');
  await expect(find).toHaveValue('');
  await expect(find).toHaveAccessibleDescription(/card number/);
  expect(sent.slice(before).filter((url) => url.replace(/\D/g, '').includes('4242424242424242'))).toEqual([]);
  await expectNoAxeViolations(page, 'the back office listing a search, with a refused card number');

  // Back to every order from the keyboard; the focus returns to the box.
  await backOffice.orders.getByRole('button', { name: 'Show all orders' }).press('Enter');
  await expect(find).toBeFocused();
  await expect(backOffice.orders).not.toContainText('Orders matching');

  // In Ukrainian: the amount with a comma and a space between thousands, as the language writes it.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const ukFind = page.getByRole('search').getByRole('searchbox', { name: 'Знайти замовлення' });
  const ukTyped = `${Math.floor((amount + 1) / 100).toLocaleString('uk-UA')},${String((amount + 1) % 100).padStart(2, '0')}`;
  await ukFind.fill(ukTyped);
  await ukFind.press('Enter');
  const ukOrders = page.getByRole('region', { name: 'Замовлення', exact: true });
  const ukRow = (orderId: string) => ukOrders.getByRole('row').filter({ has: page.getByRole('link', { name: orderId, exact: true }) });
  await expect(ukRow(second)).toBeVisible();
  await expect(ukRow(first)).toHaveCount(0);
  await expect(ukOrders).toContainText(`Замовлення за запитом ${ukTyped}`);
  await ukFind.fill('4111111111111111');
  await ukFind.press('Enter');
  await expect(page.getByRole('search').getByRole('alert')).toHaveText('Це номер картки: його не шукають і не надсилають. Введіть останні чотири цифри.');
});

test('opens a shop’s four-digit order id from Find beside the card’s last four, and says which order has no payment yet', async ({ page, request, stack, backOffice }) => {
  // Merchants choose their order ids; short numeric ones read like a card's last four.
  const orderId = String(1000 + Math.floor(Math.random() * 9000));
  await paidOrder(request, stack, 'purchase', { orderId });
  const unpaid = await (
    await request.post(`${stack.shop}/api/checkout/sessions`, {
      headers: { Authorization: `Bearer ${stack.token}` },
      data: { amount: 700, currency: 'UAH', description: 'Tea', order_id: `unpaid-${randomUUID().slice(0, 8)}` },
    })
  ).json();
  await backOffice.open();
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
  const also = backOffice.orders.locator('.orders__also');

  // The digits list the cards ending so, and offer the order of that id beside them: heard too.
  await find.fill(orderId);
  await find.press('Enter');
  await expect(backOffice.orders).toContainText(`Orders matching •••• ${orderId}`);
  await expect(also).toHaveText(`These digits are an order’s id too: ${orderId}`);
  await expect(page.getByRole('status').filter({ hasText: 'order’s id too' })).toContainText(orderId);
  await also.getByRole('link', { name: orderId, exact: true }).click();
  await expect(backOffice.detailHeading).toHaveText(orderId);

  // Four digits no order has for its id: the list alone, as before.
  await find.fill('4242');
  await find.press('Enter');
  await expect(backOffice.orders).toContainText('Orders matching •••• 4242');
  const heard = page.getByRole('status').filter({ hasText: 'matching' });
  await expect(heard).toContainText('matching •••• 4242');
  await expect(heard).not.toContainText('id too');
  await expect(also).toHaveCount(0);

  // An id handed out with a checkout session nobody paid yet: said so, in the page's words.
  await find.fill(unpaid.order_id);
  await find.press('Enter');
  await expect(backOffice.detail.getByRole('alert')).toHaveText(
    new RegExp(`^\\W*Order \\W*${unpaid.order_id}\\W* has no payment yet: its checkout session \\W*${unpaid.id}\\W* is open, and the customer may still pay\\.\\W*$`, 'u'),
  );
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await expect(backOffice.detail.getByRole('alert')).toContainText('ще не оплачене');
});

test('a search that finds nothing in the period chosen says so, naming the period, not a filter no one sees', async ({ page, request, stack, backOffice }) => {
  const email = `period-${randomUUID().slice(0, 8)}@example.com`;
  await paidOrder(request, stack, 'purchase', { customer: { fname: 'Taras', lname: 'Shevchenko', email } });
  await backOffice.open();
  // Left on Last month from the accountant's file; the customer paid today.
  await backOffice.orders.getByRole('button', { name: 'Last month', exact: true }).click();
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
  await find.fill(email);
  await find.press('Enter');
  const said = backOffice.orders.getByText(/^No order created .+ matches:/u);
  await expect(said).toContainText('the state and the period pressed above (All and Any time show every one)');
  await expect(backOffice.orders).not.toContainText('Show filter');
  await backOffice.orders.getByRole('button', { name: 'Any time', exact: true }).click();
  await expect(backOffice.row(await backOffice.orders.getByRole('link').first().innerText())).toContainText(email);
});
