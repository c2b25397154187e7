/**
 * The links in the back office's tables — an order's id in the list, a refund's receipt — are
 * targets of their own, not words in a sentence: on a tablet and a laptop each is at least 24 px
 * tall (WCAG 2.2, 2.5.8), and a click anywhere in that height reaches it. At 20 px (an id in
 * 0.88 rem type, a line high) a pointer on a tablet missed it onto the row.
 * On a phone the same links take 40 px (back-office-phone.spec.ts).
 */
import type { Locator } from '@playwright/test';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

/**
 * Each link in `links` shorter than 24 px, or whose box a click misses at its top or bottom edge:
 * 'a "1042-shop" 61×20', with what the click reaches instead. A link that wraps is measured line
 * by line, as it is hit; each is brought to the middle of the window first, as a pointer only
 * reaches what is on the screen (the worker's stack lists other tests' orders too, below the fold).
 */
const smallLinks = (links: Locator) =>
  links.evaluateAll((elements) =>
    elements.flatMap((link) => {
      link.scrollIntoView({ block: 'center', inline: 'nearest' });
      return [...link.getClientRects()].flatMap((box) => {
        const x = box.left + box.width / 2;
        const reached = [box.top + 1, box.bottom - 1].map((y) => document.elementFromPoint(x, y));
        if (box.height >= 24 && reached.every((element) => link.contains(element))) return [];
        const missed = reached.filter((element) => !link.contains(element)).map((element) => (element ? `${element.localName}.${element.className}` : 'nothing'));
        return [`a "${(link.textContent ?? '').trim()}" ${Math.round(box.width)}×${Math.round(box.height)}${missed.length ? ` (a click reaches ${missed.join(', ')})` : ''}`];
      });
    }),
  );

test('the links in the orders and operations tables are targets at least 24 px tall on a tablet and a laptop', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase');
  const other = await paidOrder(request, stack, 'purchase', { amount: 4200 });
  await backOffice.open(orderId);
  await backOffice.performed('Refund', { amount: '5.00' });
  const receipt = backOffice.operations.getByRole('link', { name: 'Refund receipt' });
  await expect(receipt).toBeVisible();
  // The list's ids (the worker's stack may list others' orders too).
  await expect(backOffice.row(other)).toBeVisible();
  const ids = backOffice.orders.locator('tbody').getByRole('link');

  const small: Record<string, string[]> = {};
  for (const viewport of [{ width: 820, height: 1180 }, { width: 1280, height: 900 }]) {
    await page.setViewportSize(viewport);
    small[`${viewport.width} px: the refund’s receipt`] = await smallLinks(receipt);
    small[`${viewport.width} px: the orders’ ids`] = await smallLinks(ids);
  }
  expect(small).toEqual(Object.fromEntries(Object.keys(small).map((where) => [where, []])));
});
