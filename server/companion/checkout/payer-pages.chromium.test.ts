// The companion's own pages as a customer meets them: on a 320 px phone with scripts off and a
// Ukrainian browser, a challenge link and a 3-D Secure return that arrives before the payment
// is settled. Each page speaks the customer's language, fits the screen, reads as a page to a
// screen reader (title, landmark, heading) and, while the payment is being decided, reloads
// itself until the outcome is known.
import type { Browser, BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../e2e/chromium.js';
import { card, CUSTOMER } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();
let browser: Browser;
let phone: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  phone = await browser.newContext({ viewport: { width: 320, height: 640 }, javaScriptEnabled: false, extraHTTPHeaders: { 'accept-language': 'uk-UA,uk;q=0.9,en;q=0.5' } });
});

afterAll(async () => {
  await browser?.close();
});

describe('the customer pages in Chromium, on a phone, scripts off', () => {
  it('shows the challenge link in Ukrainian within 320 px, a long description wrapped', async () => {
    const stack = await open({ served: true });
    const session = await stack.openSession({ customer: CUSTOMER, description: `Subscription-${'x'.repeat(70)}` });
    expect(await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json()).toMatchObject({ status: 'redirect' });
    const page = await phone.newPage();
    await page.goto(`${stack.companionUrl}/checkout/challenge/${session.id}`);
    expect(await page.evaluate(() => [document.documentElement.lang, document.title, document.documentElement.scrollWidth])).toEqual(['uk', 'Підтвердьте оплату', 320]);
    expect(await page.locator('body').ariaSnapshot()).toContain('- main:\n  - heading "Підтвердьте оплату" [level=1]');
    await expect.poll(() => page.getByRole('link', { name: 'Перейти до банку' }).getAttribute('href')).toMatch(new RegExp(`^${stack.sandboxUrl}/`));
    await page.close();
  });

  it('gives a customer with nowhere to be sent the way back to the shop, reached by keyboard, and says nothing was taken', async () => {
    const stack = await open({ served: true });
    const session = await stack.openSession({ customer: CUSTOMER });
    await stack.pay(session.id, payBody({ card: card('rejected') }));
    const page = await phone.newPage();
    await page.goto(`${stack.companionUrl}/checkout/return/${session.id}`);
    expect(await page.locator('main').ariaSnapshot()).toBe(
      '- main:\n  - heading "Оплату не завершено" [level=1]\n  - paragraph: Оплату не завершено. Спробуйте ще раз або скористайтеся іншою карткою. Кошти не списано.\n' +
        '  - paragraph:\n    - link "Повернутися до магазину":\n      - /url: https://shop.example/',
    );
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('https://shop.example/');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    await page.close();
  });

  it('grows its text with the browser’s own text size (WCAG 1.4.4), still within 320 px', async () => {
    const stack = await open({ served: true });
    const session = await stack.openSession({ customer: CUSTOMER, description: `Subscription-${'x'.repeat(70)}` });
    await stack.pay(session.id, payBody({ card: card('rejected') }));
    const page = await phone.newPage();
    // Chrome's "Font size" setting, which a reader with low vision sets once for every site.
    await (await phone.newCDPSession(page)).send('Page.setFontSizes', { fontSizes: { standard: 32 } });
    await page.goto(`${stack.companionUrl}/checkout/return/${session.id}`);
    expect(await page.evaluate(() => [getComputedStyle(document.querySelector('p')!).fontSize, document.documentElement.scrollWidth])).toEqual(['32px', 320]);
    await page.close();
  });

  it('shows a return that came before the outcome as being processed, and the outcome once it is known', async () => {
    const stack = await open({ served: true });
    stack.dropWebhooks = true; // only the return's own read of the order state can settle it
    const session = await stack.openSession({ customer: CUSTOMER });
    const paying = (await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json()) as { payment_id: string };
    const page = await phone.newPage();
    await page.goto(`${stack.companionUrl}/checkout/return/${session.id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Оплата обробляється');
    await stack.control('POST', `/_sandbox/3ds/${paying.payment_id}`, { result: 'success' });
    // No script, no click: the page loads itself again until the payment is decided.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent().catch(() => null), { timeout: 20_000 }).toBe('Оплату отримано');
    await page.close();
  }, 30_000);
});
