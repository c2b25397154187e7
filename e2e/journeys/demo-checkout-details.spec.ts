/**
 * What a developer trying the demo shop notices in its first hour: the checkout leaves for the
 * result page once, a customer who asked the shop to remember their card finds it the next time,
 * and a 320 px phone shows which language the page is in.
 */
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('a card payment leaves the checkout for the result page once', async ({ page, checkout }) => {
  // <pay-form> and <pay-button> follow the same session, and both say it is paid.
  const resultLoads: string[] = [];
  page.on('request', (request) => void (request.isNavigationRequest() && new URL(request.url()).pathname === '/result' && resultLoads.push(request.url())));
  await checkout.open();
  await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
  expect(resultLoads).toHaveLength(1);
});

test('a remembered card is offered at the next checkout without asking again', async ({ page, checkout }) => {
  await checkout.open([{ product: ESPRESSO.product, quantity: 1 }]);
  await checkout.choose({ remember: true });
  await checkout.continueToPayment();
  await checkout.pay('5454 5454 5454 5454');
  await new Result(page).expectOutcome('success');

  await checkout.open([{ product: CUP.product, quantity: 1 }]);
  const remember = page.getByRole('checkbox', { name: /Remember my card/ });
  await expect(remember).toBeChecked();
  await checkout.continueToPayment();
  await expect(checkout.card.getByRole('radio', { name: /•••• 5454/ })).toBeChecked();

  // Unticked, it stays so: the next checkout asks again. The card kept before is still offered
  // (the customer is known); a new card paid unticked is not kept (shop-routes.test.ts).
  await checkout.open([{ product: ESPRESSO.product, quantity: 2 }]);
  await remember.uncheck();
  await checkout.continueToPayment();
  await expect(checkout.card.getByRole('radio', { name: /•••• 5454/ })).toBeChecked();
  await checkout.open([{ product: CUP.product, quantity: 2 }]);
  await expect(remember).not.toBeChecked();
});

for (const [lang, name] of [['en', 'English'], ['uk', 'Українська']] as const) {
  test(`on a 320 px phone the header shows the language chosen (${name})`, async ({ page, shop }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await shop.open();
    await shop.add('House espresso blend');
    const language = page.getByRole('combobox', { name: /^(Language|Мова)$/ });
    await language.selectOption(lang);
    await expect(language).toHaveValue(lang);
    // The room the select leaves its text, against what the text needs in the select's own font.
    const { room, needed } = await language.evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      return {
        room: select.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd),
        needed: context.measureText(select.selectedOptions[0]!.textContent!).width,
      };
    });
    expect(room).toBeGreaterThanOrEqual(needed);
    // The cart link, beside or below the switches, is still whole on the screen's width.
    const cart = await page.getByRole('link', { name: /^(Cart, 1 item|Кошик, товарів: 1)/ }).boundingBox();
    expect(cart!.x).toBeGreaterThanOrEqual(0);
    expect(cart!.x + cart!.width).toBeLessThanOrEqual(320);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
}
