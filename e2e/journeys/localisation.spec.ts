/**
 * The shop in Ukrainian — its own words, prices as Ukrainians write them, and the widget's
 * catalog — paid end to end; and the right-to-left layout, mirrored while card digits stay
 * left-to-right.
 */
import { expect, test } from '../fixtures.js';
import { expectNoAxeViolations } from '../a11y.js';
import { ESPRESSO, FUTURE_EXPIRY } from '../pages/checkout.js';

test('Ukrainian: the shop, the card form and the result speak Ukrainian', async ({ page, shop }) => {
  await shop.open();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Кава для неквапливих ранків');
  await expect(page).toHaveTitle(/кава, кераміка/);
  await page.getByRole('button', { name: 'До кошика: Домашній еспресо-бленд' }).click();
  const cart = page.getByRole('region', { name: 'Ваш кошик' });
  await expect(cart).toContainText('420,00');
  await expect(cart).toContainText('грн');
  await cart.getByRole('link', { name: 'Оформити замовлення' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Оформлення замовлення');
  await page.getByRole('button', { name: 'Перейти до оплати' }).click();
  const card = page.getByRole('region', { name: 'Оплата карткою' });
  await card.getByLabel('Номер картки').fill('4242 4242 4242 4242');
  await card.getByLabel('Термін дії').fill(FUTURE_EXPIRY);
  await card.getByLabel('Код безпеки').fill('123');
  const pay = card.getByRole('button', { name: /^Сплатити/ });
  await expect(pay).toHaveText(/^Сплатити 420,00\sгрн$/);
  await expectNoAxeViolations(page, 'the checkout in Ukrainian');
  await pay.click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Дякуємо — оплата пройшла');
  await expect(page.getByRole('main')).toContainText(/Сума\s*420,00\sгрн/);
  // The choice stays for the next page.
  await page.getByRole('link', { name: 'Продовжити покупки' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Кава для неквапливих ранків');
});

test('right-to-left: the layout mirrors, card digits stay left-to-right, and paying works', async ({ page, checkout }) => {
  await checkout.open([{ product: ESPRESSO.product, quantity: 1 }]);
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('button', { name: 'RTL' })).toHaveAttribute('aria-pressed', 'true');

  // Mirrored: the brand at the right edge, the order summary to the left of the form.
  const viewport = page.viewportSize()!;
  const brand = (await page.getByRole('link', { name: /Kavarnia/ }).boundingBox())!;
  expect(brand.x).toBeGreaterThan(viewport.width / 2);
  await checkout.continueToPayment();
  const summary = (await page.getByRole('region', { name: 'Order summary' }).boundingBox())!;
  const payment = (await checkout.payment.boundingBox())!;
  expect(summary.x + summary.width).toBeLessThanOrEqual(payment.x + 1);

  // The form reads right to left; the card number inside it left to right.
  await expect(checkout.card.getByText('Card number', { exact: true })).toHaveCSS('direction', 'rtl');
  await expect(checkout.cardNumber).toHaveCSS('direction', 'ltr');
  await expectNoAxeViolations(page, 'the checkout right to left');
  await checkout.pay('4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you — your payment went through');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});
