/**
 * The shop as a keyboard user meets it on a laptop, a tablet and a phone: wherever Tab,
 * Shift+Tab or a refused field sends the focus, the focused element is never under the shop's
 * sticky header (WCAG 2.2 SC 2.4.11) — the products and the cart, the checkout's details form,
 * order summary and test cards, the card form inside `<pay-form>`'s shadow root, and the result
 * page. (The back office's own header: back-office-screen.spec.ts.)
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures.js';
import { CUP, ESPRESSO, FUTURE_EXPIRY, KETTLE } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

/**
 * Where the focus is (through open shadow roots): the element's name, and how many pixels of it
 * the sticky header covers — 0 when it is clear of the header, is in the header, or the header
 * does not stick at this width.
 */
const focusStop = (page: Page) =>
  page.evaluate(() => {
    let focused = document.activeElement ?? document.body;
    while (focused.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
    const header = document.querySelector('header.site-header')!;
    const label = (focused as HTMLInputElement).labels?.[0]?.textContent ?? focused.getAttribute('aria-label') ?? focused.textContent ?? '';
    const name = `${focused.localName} "${label.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const sticks = getComputedStyle(header).position === 'sticky' && focused !== document.body && !header.contains(focused);
    const covered = sticks ? Math.max(0, Math.ceil(header.getBoundingClientRect().bottom - focused.getBoundingClientRect().top)) : 0;
    return { name, covered, skipLink: focused.classList.contains('skip-link') };
  });

/** The focused element when the header covers it, named with how much is covered. */
const covering = ({ name, covered }: { name: string; covered: number }) => (covered > 0 ? `${name} (${covered} px)` : undefined);
const coveredFocus = async (page: Page) => covering(await focusStop(page));

/**
 * From the skip link, Tabs through the whole page and round to the skip link again, then
 * Shift+Tabs all the way round back: every stop's name, and those the header covered.
 */
async function walkRound(page: Page): Promise<{ stops: string[]; covered: string[] }> {
  const walk = { stops: [] as string[], covered: [] as string[] };
  await page.locator('.skip-link').focus();
  for (const key of ['Tab', 'Shift+Tab']) {
    let stop;
    for (let presses = 0; presses < 80 && !stop?.skipLink; presses += 1) {
      await page.keyboard.press(key);
      stop = await focusStop(page);
      walk.stops.push(`${key}: ${stop.name}`);
      const covered = covering(stop);
      if (covered) walk.covered.push(`${key}: ${covered}`);
    }
    expect(stop?.skipLink, `${key} went round the page`).toBe(true);
  }
  return walk;
}

/**
 * Presses Enter in `field` once the page is scrolled until `refused`, the field above it the form
 * will send the focus back to, is partly under the header: scrolled there by hand, or by Tab.
 */
async function sendScrolledBy(field: Locator, refused: Locator): Promise<void> {
  await field.focus();
  await refused.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 20));
  await field.press('Enter');
}

/** Three lines: a cart, a summary and pages long enough to scroll. */
const LINES = [{ product: ESPRESSO.product, quantity: 1 }, { product: CUP.product, quantity: 2 }, { product: KETTLE.product, quantity: 1 }];

// A returning customer's browser: the cart is in the shop's storage before the first page loads
// (as Checkout.open leaves it, without its two page loads: the shop's, then the checkout's).
test.use({
  storageState: async ({ stack }, use) =>
    use({ cookies: [], origins: [{ origin: stack.shop, localStorage: [{ name: 'kavarnia:cart', value: JSON.stringify(LINES) }] }] }),
});

for (const [device, viewport] of [
  ['a short laptop screen', { width: 1280, height: 560 }],
  ['a tablet', { width: 800, height: 600 }],
  ['a phone 375 px wide', { width: 375, height: 667 }],
  ['a phone 320 px wide', { width: 320, height: 568 }],
] as const) {
  test(`on ${device}, the shop and its checkout never leave the focus under the header`, async ({ page, checkout }) => {
    await page.setViewportSize(viewport);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Cart, 4 items' })).toBeVisible();
    const front = await walkRound(page);
    expect(front.stops).toContain('Shift+Tab: a "Go to checkout"');
    expect.soft(front.covered, 'the products and the cart').toEqual([]);

    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
    const details = await walkRound(page);
    expect(details.stops).toContain('Shift+Tab: input "First name"');
    expect.soft(details.covered, 'the details form').toEqual([]);

    // A first name left empty, the form sent with Enter from the phone: the focus goes back up to it.
    const firstName = page.getByLabel('First name');
    await firstName.fill('');
    await sendScrolledBy(page.getByLabel('Phone'), firstName);
    await expect(firstName).toBeFocused();
    await expect(firstName).toHaveAttribute('aria-invalid', 'true');
    expect.soft(await coveredFocus(page), 'the first name, refused').toBeUndefined();
    await page.keyboard.type('Olena');

    await checkout.continueToPayment();
    const payment = await walkRound(page);
    // Into the card form's shadow root and out again, both ways.
    for (const key of ['Tab', 'Shift+Tab']) expect(payment.stops).toEqual(expect.arrayContaining([`${key}: input "Card number"`, `${key}: input "Security code"`, `${key}: button "Change"`]));
    expect.soft(payment.covered, 'the payment step').toEqual([]);

    // A short card number, the card sent with Enter from the security code: the focus goes back up to the number.
    await checkout.fillCard('4242', FUTURE_EXPIRY, '123');
    await sendScrolledBy(checkout.card.getByLabel('Security code'), checkout.cardNumber);
    await expect(checkout.cardNumber).toBeFocused();
    await expect(checkout.cardNumber).toHaveAttribute('aria-invalid', 'true');
    expect.soft(await coveredFocus(page), 'the card number, refused').toBeUndefined();

    await checkout.pay('4242424242424242');
    await new Result(page).expectOutcome('success');
    const result = await walkRound(page);
    expect(result.stops).toContain('Shift+Tab: a "Continue shopping"');
    expect.soft(result.covered, 'the result page').toEqual([]);
  });
}
