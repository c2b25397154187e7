// What the order panel says of an id that opens no order: by the companion's `error.session`,
// never by its English message.
import { describe, expect, it } from 'vitest';
import { orderNotFound } from './order-not-found.js';
import { stubbedPage } from './testing/page.js';

const page = stubbedPage();
const plain = (text: string) => text.replace(/[\u2068\u2069]/gu, '');

describe('an order id that opens no order', () => {
  it('says what Find takes when the companion knows nothing of it', () => {
    expect(plain(orderNotFound('1234', undefined))).toMatch(/^No order 1234\. Find opens an order by its id/u);
  });

  it('names its checkout session and whether the customer may still pay, in the page’s language', () => {
    expect(plain(orderNotFound('1234', { id: 'cs_1', status: 'open' }))).toBe('Order 1234 has no payment yet: its checkout session cs_1 is open, and the customer may still pay.');
    expect(plain(orderNotFound('1234', { id: 'cs_1', status: 'expired' }))).toBe('Order 1234 was never paid: its checkout session cs_1 ended without a payment.');
    page.lang = 'uk';
    expect(plain(orderNotFound('1234', { id: 'cs_1', status: 'open' }))).toMatch(/^Замовлення 1234 ще не оплачене: його сесія оплати cs_1 відкрита/u);
  });

  it('keeps the id and the session apart from the sentence’s direction', () => {
    expect(orderNotFound('1234', { id: 'cs_1', status: 'open' })).toContain('\u2068cs_1\u2069');
    expect(orderNotFound('1234', undefined)).toContain('\u20681234\u2069');
  });
});
