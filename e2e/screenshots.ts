/**
 * Retakes the demo's screenshots in docs/ (`npx tsx e2e/screenshots.ts`): a stack on free ports,
 * a few orders made through the shop's and the companion's own APIs so the back office has
 * something to show, then Chromium through the shop, the checkout (light and dark), the sandbox's
 * 3-D Secure page and the back office.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.js';
import type { Browser, Page } from 'playwright';
import { buildWhatIsStale } from '../demo/builds.js';
import { startStack } from '../demo/stack.js';

const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));
const EXPIRY = { exp_month: 12, exp_year: new Date().getFullYear() + 3 };
const FINGERPRINT = {
  browserColorDepth: '24', browserScreenHeight: '1080', browserScreenWidth: '1920', browserJavaEnabled: 'false',
  browserLanguage: 'uk-UA', browserTimeZone: 'Europe/Kyiv', browserTimeZoneOffset: '-120',
};
const CONTACTS = [
  { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' },
  { fname: 'Taras', lname: 'Melnyk', email: 'taras@example.com', phone: '+380501112233' },
  { fname: 'Iryna', lname: 'Bondar', email: 'iryna@example.com', phone: '+380931234560' },
];

await buildWhatIsStale((line) => console.error(line));
const token = randomBytes(24).toString('base64url');
const stack = await startStack({
  env: { ...process.env, PORT: '0', SANDBOX_PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_PUBLIC_URL: '', PAYFORM_DATABASE_URL: ':memory:', PAYFORM_ADMIN_TOKEN: token, PAYFORM_LOG_LEVEL: 'error' },
});
const shop = stack.shopUrl.replace(/\/$/, '');
let browser: Browser | undefined;

try {
  const orders = await seedOrders();
  browser = await launchChromium(['--hide-scrollbars']);

  const light = await newPage(browser, 'light', { width: 1280, height: 1120 });
  await light.goto(`${shop}/`);
  for (const product of ['House espresso blend', 'Kosiv hand-painted cup', 'Kosiv hand-painted cup']) {
    await light.getByRole('button', { name: `Add to cart: ${product}` }).click();
  }
  await light.evaluate(() => scrollTo(0, 0));
  await light.getByRole('heading', { level: 1 }).click(); // nothing focused in the picture
  await light.screenshot({ path: `${DOCS}demo-shop.png` });
  const cart = await light.evaluate(() => localStorage.getItem('kavarnia:cart'));

  for (const theme of ['light', 'dark'] as const) {
    const page = theme === 'light' ? light : await newPage(browser, 'dark', { width: 1280, height: 1060 });
    if (theme === 'dark') await fillCart(page, cart);
    await page.goto(`${shop}/checkout`);
    await page.getByRole('checkbox', { name: /Split between the makers/ }).check();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    const card = page.getByRole('region', { name: 'Pay by card' });
    await card.getByLabel('Card number').fill('4242 4242 4242 4242');
    await card.getByLabel('Expiry date').fill(`12/${String(EXPIRY.exp_year).slice(2)}`);
    await card.getByLabel('Security code').fill('123');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).click(); // leave the field: no focus ring in the picture
    await page.screenshot({ path: `${DOCS}demo-checkout-${theme}.png` });
    if (theme === 'light') {
      await card.getByLabel('Card number').fill('4000 0000 0000 3220');
      await card.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/3ds\//);
      await page.setViewportSize({ width: 1280, height: 640 });
      await page.screenshot({ path: `${DOCS}demo-3ds.png` });
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await page.getByRole('heading', { name: /Thank you/ }).waitFor();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `${DOCS}demo-result.png` });
    }
  }

  const office = await newPage(browser, 'light', { width: 1440, height: 1500 });
  await office.goto(`${shop}/admin?order=${orders.showcase}#token=${token}`);
  await office.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  await office.getByRole('region', { name: 'Operations' }).getByRole('row').nth(2).waitFor();
  await office.getByRole('heading', { name: 'Back office', level: 1 }).click();
  await office.screenshot({ path: `${DOCS}demo-back-office.png` });
  console.log(`screenshots written to ${DOCS}`);
} finally {
  await browser?.close();
  await stack.close();
}

async function newPage(on: Browser, colorScheme: 'light' | 'dark', viewport: { width: number; height: number }): Promise<Page> {
  const context = await on.newContext({ colorScheme, viewport, locale: 'en-GB', timezoneId: 'Europe/Kyiv' });
  return context.newPage();
}

async function fillCart(page: Page, cart: string | null): Promise<void> {
  await page.goto(`${shop}/`);
  await page.evaluate((stored) => localStorage.setItem('kavarnia:cart', stored ?? '[]'), cart);
}

/** Orders of every kind through the shop's backend and the companion's pay API; answers the one to show in detail. */
async function seedOrders(): Promise<{ showcase: string }> {
  const buy = async (lines: { product: string; quantity: number }[], card: string, method: 'purchase' | 'auth' = 'purchase', i = 0) => {
    const opened = (await post(`${shop}/shop/api/checkout`, { lines, customer: CONTACTS[i % CONTACTS.length], method })) as { session: string; order_id: string };
    const paid = (await post(`${shop}/api/checkout/sessions/${opened.session}/pay`, { card: { number: card, cvv: '123', ...EXPIRY }, fingerprint: FINGERPRINT })) as { status: string };
    return { orderId: opened.order_id, status: paid.status };
  };
  const cards = ['4242424242424242', '5454545454545454', '4000000000000002', '4242424242424242', '4000000000009995', '5454545454545454'];
  for (const [i, card] of cards.entries()) await buy([{ product: ['house-espresso', 'kosiv-cup', 'paper-filters'][i % 3]!, quantity: 1 + (i % 2) }], card, 'purchase', i);
  const showcase = await buy([{ product: 'gooseneck-kettle', quantity: 1 }, { product: 'ethiopia-guji', quantity: 2 }], '4242424242424242', 'auth', 1);
  const admin = { Authorization: `Bearer ${token}` };
  await post(`${shop}/api/orders/${showcase.orderId}/capture`, { amount: 260_000, comment: 'Two bags in stock, kettle shipped' }, admin);
  await post(`${shop}/api/orders/${showcase.orderId}/refund`, { amount: 48_500, comment: 'One bag arrived damaged' }, admin);
  return { showcase: showcase.orderId };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}
