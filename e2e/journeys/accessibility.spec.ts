/**
 * Everyone can buy: the whole checkout with the keyboard alone, the names a screen reader
 * announces (ARIA snapshots), axe on every page the customer and the merchant see — under the
 * strict Content-Security-Policy, which no page violates.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures.js';
import { expectNoAxeViolations, watchCspViolations } from '../a11y.js';
import { ESPRESSO, FUTURE_EXPIRY } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

/** Presses Tab until `target` has focus (it must be reachable in a page's natural order). */
async function tabTo(page: Page, target: Locator, most = 60): Promise<void> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active === element;
    })) return;
  }
  throw new Error(`${String(target)} was not reached with Tab`);
}

test('keyboard-only checkout: shop, details, card form and result without a mouse', async ({ page, checkout }) => {
  await page.goto('/');
  await tabTo(page, page.getByRole('button', { name: `Add to cart: ${ESPRESSO.name}` }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Your cart' })).toContainText(ESPRESSO.name);
  await tabTo(page, page.getByRole('link', { name: 'Go to checkout' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/checkout$/);
  // A radio group is one Tab stop; the arrows choose within it.
  await tabTo(page, page.getByRole('radio', { name: /Charge now/ }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /Reserve now/ })).toBeChecked();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('radio', { name: /Charge now/ })).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Continue to payment' }));
  await page.keyboard.press('Enter');

  // Focus lands on the payment's heading; the next Tab is the card number.
  await expect(checkout.payment.getByRole('heading', { name: 'Payment', exact: true })).toBeFocused();
  // Once the card form has loaded its session (as the customer sees it appear), Tab reaches it.
  await expect(checkout.cardNumber).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(checkout.cardNumber).toBeFocused();
  // The first digits load the chunk that formats the number and moves focus on: once it has (the
  // number shows in fours), the rest. Typed at once, a first run on a busy machine could finish
  // the number before the chunk came, and nothing moved on.
  await page.keyboard.type('54545');
  await expect(checkout.cardNumber).toHaveValue('5454 5');
  await page.keyboard.type('45454545454');
  // A complete Mastercard number moves on by itself, and so does a valid expiry.
  await expect(checkout.card.getByLabel('Expiry date')).toBeFocused();
  await page.keyboard.type(FUTURE_EXPIRY.replace('/', ''));
  await expect(checkout.card.getByLabel('Security code')).toBeFocused();
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');

  await new Result(page).expectOutcome('success');
  await tabTo(page, page.getByRole('link', { name: 'Continue shopping' }));
});

test('a failed submit sends focus to the first field to fix, and the error is announced', async ({ page, checkout }) => {
  await checkout.open();
  await checkout.continueToPayment();
  await checkout.cardNumber.focus();
  await page.keyboard.type('4242');
  await page.keyboard.press('Enter');
  await expect(checkout.cardNumber).toBeFocused();
  await expect(checkout.cardNumber).toHaveAttribute('aria-invalid', 'true');
  await expect(checkout.message).toHaveText('Check the highlighted fields.');
});

test('screen-reader names: header, cart, checkout form and card form', async ({ page, shop, checkout }) => {
  await shop.open();
  await shop.add(ESPRESSO.name);
  await expect(page.getByRole('banner')).toMatchAriaSnapshot(`
    - link "Kavarnia payform demo"
    - navigation "Main":
      - link "Shop"
      - link "Back office"
    - combobox "Language"
    - button "Dark theme"
    - button "RTL"
    - link "Cart, 1 item"
  `);
  await expect(shop.cart).toMatchAriaSnapshot(`
    - region "Your cart":
      - heading "Your cart" [level=2]
      - list:
        - listitem:
          - text: House espresso blend
          - group "Quantity of House espresso blend":
            - button "Remove House espresso blend"
            - status: "1"
            - 'button "One more: House espresso blend"'
          - text: UAH 420.00
      - paragraph:
        - text: Total
        - strong: UAH 420.00
      - link "Go to checkout"
  `);

  await shop.goToCheckout();
  await expect(checkout.details).toMatchAriaSnapshot(`
    - heading "Your details" [level=2]
    - group "Contact":
      - textbox "First name"
      - textbox "Last name"
      - textbox "Email"
      - textbox "Phone"
    - group "How to pay":
      - radio /Charge now/ [checked]
      - radio /Reserve now, charge on dispatch/
      - checkbox /Split between the makers/
      - checkbox /Remember my card/
    - button "Continue to payment"
  `);

  await checkout.continueToPayment();
  await expect(checkout.card).toMatchAriaSnapshot(`
    - region "Pay by card":
      - heading "Pay by card" [level=3]
      - paragraph: "Test mode: no real money moves."
      - text: Card number
      - textbox "Card number"
      - text: Expiry date MM/YY
      - textbox "Expiry date"
      - text: Security code 3 digits on the back
      - textbox "Security code"
      - button "Pay UAH 420.00"
      - group: Test cards
  `);
  await expect(checkout.card.getByLabel('Security code')).toHaveAccessibleDescription('3 digits on the back');
});

test.describe('axe finds nothing, and no page breaks its Content-Security-Policy', () => {
  let violations: () => Promise<string[]>;
  const policies: string[] = [];

  test.beforeEach(async ({ page, stack }) => {
    violations = await watchCspViolations(page);
    policies.length = 0;
    page.on('response', (response) => {
      // Pages: not the companion's redirects on the way back from the gateway, nor the icon
      // Checkout.open stores the cart from (an image, under a policy that allows no script at all).
      const html = response.headers()['content-type']?.startsWith('text/html') ?? false;
      if (response.request().resourceType() === 'document' && response.status() === 200 && html && response.url().startsWith(stack.shop)) {
        policies.push(response.headers()['content-security-policy'] ?? 'none');
      }
    });
  });

  test.afterEach(async () => {
    expect(await violations()).toEqual([]);
    expect(policies.length).toBeGreaterThan(0);
    for (const policy of policies) {
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toContain('unsafe');
    }
  });

  test('the shop, light and dark', async ({ page }) => {
    await page.goto('/');
    await expectNoAxeViolations(page, 'the shop');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expectNoAxeViolations(page, 'the shop, dark');
    await page.getByRole('button', { name: `Add to cart: ${ESPRESSO.name}` }).click();
    await expectNoAxeViolations(page, 'the shop with a cart, dark');
  });

  test('the checkout: details, card form, a decline', async ({ page, checkout }) => {
    await checkout.open();
    await expectNoAxeViolations(page, 'the checkout details');
    await checkout.choose({ method: 'auth', remember: true });
    await checkout.continueToPayment();
    await expectNoAxeViolations(page, 'the checkout card form');
    await checkout.pay('4000 0000 0000 0002');
    await expect(checkout.message).toContainText('declined');
    await expectNoAxeViolations(page, 'the checkout after a decline');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expectNoAxeViolations(page, 'the checkout after a decline, dark');
  });

  test('3-D Secure and the result page', async ({ page, checkout, sandboxPages }) => {
    await checkout.open();
    await checkout.continueToPayment();
    await checkout.pay('4000 0000 0000 3220');
    await expect(page).toHaveURL(/\/3ds\//);
    await expectNoAxeViolations(page, 'the sandbox’s 3-D Secure page');
    await sandboxPages.failChallenge();
    const result = new Result(page);
    await result.expectOutcome('failure');
    await expectNoAxeViolations(page, 'the result page, failed');
    await page.getByRole('main').getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('main').getByLabel('Expiry date').fill(FUTURE_EXPIRY);
    await page.getByRole('main').getByLabel('Security code').fill('123');
    await page.getByRole('main').getByRole('button', { name: /^Pay / }).click();
    await result.expectOutcome('success');
    await expectNoAxeViolations(page, 'the result page, paid');
  });

  test('the back office: sign-in, orders, an order, a dialog', async ({ page, checkout, backOffice }) => {
    await checkout.open();
    await checkout.choose({ method: 'auth' });
    const orderId = await checkout.continueToPayment();
    await checkout.pay('4242 4242 4242 4242');
    await new Result(page).expectOutcome('success');

    await page.goto('/admin');
    await expectNoAxeViolations(page, 'the back office sign-in');
    await backOffice.open(orderId);
    await expectNoAxeViolations(page, 'the back office with an order');
    await backOffice.actionButton('Capture').click();
    await expect(backOffice.dialog).toBeVisible();
    await expectNoAxeViolations(page, 'the capture dialog');
    await backOffice.dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expectNoAxeViolations(page, 'the back office, dark');
  });
});
