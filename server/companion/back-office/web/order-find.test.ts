// What Find makes of what staff type with a customer on the phone, and what it never sends.
import { describe, expect, it } from 'vitest';
import { formatAmount } from './money.js';
import { readFind } from './order-find.js';

describe('Find in the back office', () => {
  it('reads an e-mail, the last four digits and an amount as the page’s language writes it', () => {
    expect(readFind(' Olena@Example.com ', ['UAH'])).toEqual({ kind: 'search', query: { email: 'Olena@Example.com' }, shown: 'Olena@Example.com' });
    expect(readFind('4242', ['UAH'])).toMatchObject({ kind: 'search', query: { card_last4: '4242' }, shown: '•••• 4242' });
    for (const typed of ['249.50', '249,50', '249,5']) expect(readFind(typed, ['UAH'])).toMatchObject({ query: { amount: '24950' } });
    for (const typed of ['1 249,50', '1\u202f249,50', '1,249.50', '1.249,50']) expect(readFind(typed, ['UAH'])).toMatchObject({ query: { amount: '124950' } });
    expect(readFind('250 UAH', ['EUR'])).toMatchObject({ query: { amount: '25000', currency: 'UAH' } });
    expect(readFind('JPY 500', ['UAH'])).toMatchObject({ query: { amount: '500', currency: 'JPY' } });
  });

  it('opens an order by its id as before: whole numbers and ids with a dot stay ids', () => {
    for (const id of ['250', 'ord_2030', 'INV2024.1', '202611270001', '12.345']) expect(readFind(id, ['UAH'])).toEqual({ kind: 'order', orderId: id });
    // Three letters that name no currency are an id's prefix, not money.
    for (const id of ['INV 2024', 'ord 1234.5', 'INV', 'ord']) expect(readFind(id, ['UAH'])).toEqual({ kind: 'order', orderId: id });
    expect(readFind('   ', ['UAH'])).toEqual({ kind: 'nothing' });
  });

  it('reads four digits as a card’s last four and a short order id both: the order is looked up beside the list', () => {
    expect(readFind(' 0042 ', ['UAH'])).toEqual({ kind: 'search', query: { card_last4: '0042' }, shown: '•••• 0042', orderId: '0042' });
    // A currency's code alone: its orders, and an order of that id if there is one.
    for (const typed of ['EUR', ' eur ']) expect(readFind(typed, ['UAH'])).toEqual({ kind: 'search', query: { currency: 'EUR' }, shown: 'EUR', orderId: typed.trim() });
    // What no order id is written as offers none.
    for (const typed of ['olena@example.com', '249.50', '250 UAH']) expect(readFind(typed, ['UAH'])).not.toHaveProperty('orderId');
  });

  it('reads an amount written as the page writes it, with the currency’s sign', () => {
    // Whatever this runtime's ICU writes (₴ or грн, € before or after): the page writes it so too.
    for (const [minor, currency, locale] of [[7000, 'EUR', 'en-GB'], [8800, 'UAH', 'uk'], [123456, 'UAH', 'uk'], [1250, 'USD', 'en-US'], [5000, 'PLN', 'pl']] as const) {
      const written = formatAmount(minor, currency, locale);
      expect(readFind(written, ['UAH'], locale), `${written} (${locale})`).toEqual({ kind: 'search', query: { amount: String(minor), currency }, shown: written });
    }
    expect(readFind('€70.00', ['UAH'], 'en-GB')).toMatchObject({ query: { amount: '7000', currency: 'EUR' } });
    expect(readFind('70 €', ['UAH'], 'de')).toMatchObject({ query: { amount: '7000', currency: 'EUR' } });
    // A Ukrainian page writes euros as EUR; staff copy a customer's € all the same.
    for (const written of ['70,00 €', '€70,00']) expect(readFind(written, ['UAH'], 'uk'), written).toMatchObject({ query: { amount: '7000', currency: 'EUR' } });
    // Narrow, $ is every dollar's; the page writes it for USD alone, and that stands.
    expect(readFind('$70.00', ['UAH'], 'en-US')).toMatchObject({ query: { amount: '7000', currency: 'USD' } });
    // Ids stay ids.
    for (const id of ['INV2024.1', 'shop-1001']) expect(readFind(id, ['UAH'], 'en-GB')).toEqual({ kind: 'order', orderId: id });
  });

  it('reads a mark before three digits as the page’s language does: thousands where it groups with it', () => {
    for (const [written, locale, minor, currency] of [
      ['KWD 1,000', 'en', 1_000_000, 'KWD'],
      ['¥12,345', 'en', 12_345, 'JPY'],
      ['JPY 1,000', 'en-GB', 1_000, 'JPY'],
      ['UAH 1,000', 'en', 100_000, 'UAH'],
      ['1.000 EUR', 'de', 100_000, 'EUR'],
      ['KWD 10,000,017.490', 'en', 10_000_017_490, 'KWD'],
      ['1,000,000 JPY', 'en', 1_000_000, 'JPY'],
      // Where it is the decimal mark: three decimals.
      ['KWD 1,000', 'uk', 1_000, 'KWD'],
      ['KWD 1.000', 'en', 1_000, 'KWD'],
      // After a lone 0 a mark is the decimal one however the language groups.
      ['KWD 0,500', 'en', 500, 'KWD'],
      ['0.500 KWD', 'de', 500, 'KWD'],
    ] as const) {
      expect(readFind(written, ['UAH'], locale), `${written} (${locale})`).toEqual({ kind: 'search', query: { amount: String(minor), currency }, shown: written });
    }
    expect(readFind('1,000', ['UAH'], 'en')).toEqual({ kind: 'search', query: { amount: '100000' }, shown: '1,000' });
    expect(readFind('249,50', ['UAH'], 'en')).toMatchObject({ query: { amount: '24950' } });
  });

  it('reads an amount without a currency in the decimals of the shop’s currencies, and asks which when they differ', () => {
    // UAH, USD and EUR share two decimals: 5.00 is 500 in each, matched in all.
    expect(readFind('5.00', ['UAH', 'USD', 'EUR'])).toEqual({ kind: 'search', query: { amount: '500' }, shown: '5.00' });
    // A shop in dinars alone: 12.345 is 12345 fils (in hryvnias it is no amount, but an order id).
    expect(readFind('12.345', ['KWD'])).toEqual({ kind: 'search', query: { amount: '12345' }, shown: '12.345' });
    // Of currencies with other decimals, the one alone that holds it is meant: no yen has decimals,
    // no euro three.
    expect(readFind('5.00', ['UAH', 'JPY'])).toEqual({ kind: 'search', query: { amount: '500', currency: 'UAH' }, shown: '5.00' });
    expect(readFind('5.670', ['EUR', 'JPY', 'KWD', 'UAH'])).toEqual({ kind: 'search', query: { amount: '5670', currency: 'KWD' }, shown: '5.670' });
    // Two decimals are hryvnias' and dinars' (12.340): no one sum, so Find asks which of them.
    expect(readFind('12.34', ['KWD', 'EUR'])).toEqual({ kind: 'whichCurrency', shown: '12.34', currencies: ['KWD', 'EUR'] });
    expect(readFind('249.50', ['EUR', 'JPY', 'UAH'])).toEqual({ kind: 'whichCurrency', shown: '249.50', currencies: ['EUR', 'UAH'] });
    // With its currency it is one sum again.
    expect(readFind('JPY 500', ['UAH', 'JPY'])).toMatchObject({ query: { amount: '500', currency: 'JPY' } });
    expect(readFind('5.00 UAH', ['UAH', 'JPY'])).toMatchObject({ query: { amount: '500', currency: 'UAH' } });
  });

  it('refuses a card number, grouped or passing the card check, and sends nothing of it', () => {
    for (const typed of ['4242 4242 4242 4242', '4111-1111-1111-1111', '4111111111111111', '5555 5555 5555 4444 123']) {
      expect(readFind(typed, ['UAH'])).toEqual({ kind: 'cardNumber' });
    }
  });
});
