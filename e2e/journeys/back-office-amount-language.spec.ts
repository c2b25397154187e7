/**
 * The operation dialog's amount in the page's language: prefilled as the page writes amounts,
 * taken back as the operator writes them — thousands apart in well-formed groups, or copied from
 * the page with the currency, or pasted with the invisible marks a right-to-left page copies —
 * and never a thousands separator read as the decimal one.
 */
import { expect, test } from '../fixtures.js';
import type { Page } from '@playwright/test';
import { paidOrder } from '../pages/back-office.js';

/** The bodies of the refunds the page sends. */
function refundsSent(page: Page): unknown[] {
  const sent: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/refund')) sent.push(request.postDataJSON());
  });
  return sent;
}

test('in Ukrainian a refund is prefilled “1234,56” and takes “1 000,00”, refusing “1.000”', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', { amount: 123_456 });
  await backOffice.open(orderId);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const refunds = refundsSent(page);
  const refund = backOffice.detail.getByRole('group', { name: 'Дії' }).getByRole('button', { name: 'Повернути', exact: true });
  await refund.click();
  const amount = backOffice.dialog.getByLabel('Сума (UAH)');
  const submit = backOffice.dialog.getByRole('button', { name: 'Повернути', exact: true });
  // As every amount on the page reads, and taken back unchanged.
  await expect(amount).toHaveValue('1234,56');
  expect(await amount.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(false);

  // A thousand in some languages, a fraction in others: refused, naming the form to type; nothing sent.
  await amount.fill('1.000');
  await submit.click();
  await expect(amount).toHaveJSProperty('validationMessage', 'Напишіть суму в одиницях валюти, як-от 1234,56.');
  expect(await amount.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
  expect(refunds).toEqual([]);

  // A thousand as Ukrainian writes it, with the no-break space the page writes.
  await amount.fill('1\u00a0000,00');
  await submit.click();
  await expect(backOffice.dialog).toBeHidden();
  expect(refunds).toEqual([{ amount: 100_000 }]);

  // What is left, copied as the dialog's hint shows it, currency sign and all: once the order read
  // again after the refund says it, as the operator sees it before pressing again.
  await expect(backOffice.detail.getByText('Повернення на 1 000,00 грн: виконано.')).toBeVisible();
  await expect(page.locator('dd', { hasText: /^234,56\s\S+$/u })).toBeVisible();
  await refund.click();
  await expect(amount).toHaveValue('234,56');
  const shown = (await backOffice.dialog.locator('#operation-amount-hint bdi bdi').textContent()) ?? '';
  expect(shown).toMatch(/^234,56\s\S+$/u);
  await amount.fill(shown);
  await submit.click();
  await expect(backOffice.dialog).toBeHidden();
  expect(refunds).toEqual([{ amount: 100_000 }, { amount: 23_456 }]);
});

test('in English a refund takes “1,000.00” and the amount as the page shows it', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', { amount: 123_456 });
  await backOffice.open(orderId);
  const refunds = refundsSent(page);
  await backOffice.actionButton('Refund').click();
  const amount = backOffice.dialog.getByLabel('Amount (UAH)');
  await expect(amount).toHaveValue('1234.56');
  await amount.fill('1,000.00');
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(backOffice.dialog).toBeHidden();
  await backOffice.actionButton('Refund').click();
  await amount.fill('UAH\u00a0234.56');
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(backOffice.dialog).toBeHidden();
  expect(refunds).toEqual([{ amount: 100_000 }, { amount: 23_456 }]);
});

test('an amount pasted with the marks a right-to-left or French page copies is valid in the field, and sent', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase', { amount: 123_456 });
  await backOffice.open(orderId);
  const refunds = refundsSent(page);
  await backOffice.actionButton('Refund').click();
  const amount = backOffice.dialog.getByLabel('Amount (UAH)');
  // As a Hebrew page writes it (a right-to-left mark before the figure and the code), no-break
  // spaces between, and a space the selection took along: none of it seen, none of it refused.
  await amount.fill('\u200f1\u00a0000.00\u00a0\u200fUAH ');
  expect(await amount.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(false);
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(backOffice.dialog).toBeHidden();
  expect(refunds).toEqual([{ amount: 100_000 }]);
});
