/**
 * The back office on a busy day. A page that did not hear of a change (another tab's refund with
 * the live feed down, the shop's server calling the API) learns it from the companion's refusal:
 * the order and the open dialog are read again, and neither goes on showing what is gone. And what
 * a customer reads out on the phone that is no order id is said in the page's language.
 */
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

test('a refund refused because the order was refunded elsewhere reads the order again: the dialog and the totals say what is left', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', { amount: 1500 });
  // The feed never answers: nothing tells this page of the refund made elsewhere.
  await page.route('**/api/changes/stream', () => undefined);
  await page.goto(`/admin?${new URLSearchParams({ order: orderId })}#token=${stack.token}`);
  await expect(backOffice.detailHeading).toHaveText(orderId);
  await expect(backOffice.detail.locator('.totals')).toContainText('UAH 15.00');

  const elsewhere = await request.post(`${stack.shop}/api/orders/${orderId}/refund`, {
    headers: { Authorization: `Bearer ${stack.token}` },
    data: { amount: 1000 },
  });
  expect(elsewhere.status()).toBe(200);

  await backOffice.perform('Refund', { amount: '10' });
  await expect(backOffice.dialog.getByLabel(/^Amount/)).toHaveAccessibleDescription(/left: UAH\s5\.00\.\W*At most\W*UAH\s5\.00/u);
  // Read again: the dialog's limit (its hint above too) and the order's figures are the companion's, not the page's old ones.
  await expect(backOffice.dialog).toContainText('Up to UAH 5.00');
  await expect(backOffice.dialog).not.toContainText('UAH 15.00');
  await expect(backOffice.operations).toHaveCount(1);
  await expect(backOffice.detail.locator('.totals')).toContainText('UAH 10.00');
});

test('an id that is no order is said in the page’s language, with what the search takes', async ({ page, request, stack, backOffice }) => {
  await paidOrder(request, stack, 'purchase', { customer: { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com' } });
  await backOffice.open();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Знайти замовлення' });
  await find.fill('order-misheard-42');
  await find.press('Enter');
  await expect(backOffice.detail.getByRole('alert')).toHaveText(/^\W*Замовлення \W*order-misheard-42\W* немає\. Пошук відкриває замовлення за його номером .* e-mail клієнта/u);
});

test('a webhook is sent again by its kind and one transaction of it; an id the gateway lacks is said in the dialog', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', { amount: 1500 });
  const admin = { Authorization: `Bearer ${stack.token}` };
  expect((await request.post(`${stack.shop}/api/orders/${orderId}/refund`, { headers: admin, data: { amount: 500 } })).status()).toBe(200);
  const { operations } = await (await request.get(`${stack.shop}/api/orders/${orderId}`, { headers: admin })).json();
  const transactionId = (operations as { transaction_id: string }[])[0]!.transaction_id;
  expect(transactionId).toMatch(/^[\da-f-]{36}$/);
  const sent: unknown[] = [];
  page.on('request', (asked) => {
    if (asked.method() === 'POST' && asked.url().endsWith('/resend-webhook')) sent.push(asked.postDataJSON());
  });
  await backOffice.open(orderId);
  await backOffice.actionButton('Re-send webhook').click();
  const kind = backOffice.dialog.getByLabel('Webhook of');
  await expect(kind.getByRole('option')).toHaveText(['Purchase', 'Refund']);
  await kind.selectOption({ label: 'Refund' });
  const transaction = backOffice.dialog.getByLabel('Transaction id (optional)');
  const resend = backOffice.dialog.getByRole('button', { name: 'Re-send', exact: true });

  // Not a UUID: said in the page, nothing sent.
  await transaction.fill('refund-2');
  await resend.click();
  expect(await transaction.evaluate((input: HTMLInputElement) => input.validationMessage)).toContain('the gateway’s UUID');
  await expect(transaction).toHaveAttribute('aria-invalid', 'true');
  expect(sent).toEqual([]);

  // A transaction the gateway does not have for this order: refused, the dialog stays to mend it.
  await transaction.fill('00000000-0000-4000-8000-000000000000');
  await resend.click();
  await expect(backOffice.dialog.getByRole('alert')).toContainText('the gateway has no refund of this order with this transaction_id');
  await expect(transaction).toBeFocused();
  await expect(transaction).toHaveAccessibleDescription(/is no transaction of this order at the gateway/);
  await expectNoAxeViolations(page, 'the re-send dialog with a refusal');

  await transaction.fill(transactionId);
  await resend.click();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.detail.locator('p.notice')).toHaveText(`Order ${orderId}: the gateway will send its webhook again.`);
  await expect(backOffice.actionButton('Re-send webhook')).toBeFocused();
  expect(sent.at(-1)).toEqual({ operation: 'refund', transaction_id: transactionId });
});
