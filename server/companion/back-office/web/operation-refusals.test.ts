// Where the back office's dialogs say each reason of a refusal, and in what words: the companion's
// envelope names the request's fields (`split[0].amount`) and counts in minor units. An amount (a
// reason as received) in those words is isolated, and so are the words around it (U+2068…U+2069,
// bidi-isolation.ts): each reads as written in right-to-left text.
import { describe, expect, it } from 'vitest';
import { ApiError } from './admin-api.js';
import { chargeRefusals, operationRefusals } from './operation-refusals.js';
import { stubbedPage } from './testing/page.js';

const roastery = '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60';
const pottery = '2c7d9e14-3f5a-4b68-9c01-d2e3f4a5b6c7';
const sellers = [{ id: roastery }, { id: pottery }];
const refusal = (fields: Record<string, string>, code = 'invalid_request', status = 400) => new ApiError(status, code, 'Invalid request', fields);
/** A split dialog's refusals, with the money written as the tests write it (no no-break spaces). */
const split = (error: ApiError, sent: { sub_merchant_id: string; amount: number | string }[]) => {
  const placed = operationRefusals(error, { currency: 'UAH', example: 107000, sellers, sent });
  return { ...placed, shares: placed.shares.map((words) => words?.replace(/\s/g, ' ')), split: placed.split?.replace(/\s/g, ' ') };
};

const page = stubbedPage();

describe('a refused split, share by share', () => {
  it('says a share’s reason at its seller’s row, though the empty shares before it were not sent', () => {
    const placed = split(refusal({ 'split[0].amount': 'must be an integer number of minor units (24950 = 249.50 UAH)' }), [{ sub_merchant_id: pottery, amount: '1O0' }]);
    expect(placed.shares).toEqual([undefined, 'Write the amount in the currency’s units, as in 1070.00.']);
    expect(placed.split).toBeUndefined();
    expect(placed.placed).toEqual(['split[0].amount']);
  });

  it('says what is left of a seller’s share in the currency, not in minor units', () => {
    const sent = [{ sub_merchant_id: roastery, amount: 100 }, { sub_merchant_id: pottery.toUpperCase(), amount: 40000 }];
    const placed = split(refusal({ 'split[1].amount': 'must be at most 32000 (320.00 UAH)' }, 'exceeds_sub_merchant_share', 422), sent);
    expect(placed.shares).toEqual([undefined, '\u2068At most \u2068UAH 320.00\u2069.\u2069']);
  });

  it('says a seller with no share in the payment has none, and a seller id not accepted', () => {
    const sent = [{ sub_merchant_id: roastery, amount: 100 }];
    expect(split(refusal({ 'split[0].sub_merchant_id': 'has no share in this order' }, 'unknown_sub_merchant', 422), sent).shares[0]).toBe(
      'This seller has no share in this payment: leave it empty.',
    );
    expect(split(refusal({ 'split[0].sub_merchant_id': 'must be a valid uuid' }), sent).shares[0]).toMatch(/^This seller’s id was not accepted: /);
  });

  it('says a refusal of the shares as a whole at the shares, the total too', () => {
    expect(split(refusal({ split: 'must have at least 1 item' }), [])).toMatchObject({ shares: [undefined, undefined], split: 'Type the share of at least one seller.', placed: ['split'] });
    expect(split(refusal({ split: 'must name each sub-merchant once' }), []).split).toBe('Each seller can have only one share.');
    const sent = [{ sub_merchant_id: roastery, amount: 20000 }, { sub_merchant_id: pottery, amount: 30000 }];
    expect(split(refusal({ amount: 'must be at most 40000 (400.00 UAH)' }, 'exceeds_refundable', 422), sent)).toMatchObject({
      split: '\u2068The shares add up to \u2068UAH 500.00\u2069, more than \u2068UAH 400.00\u2069.\u2069',
      placed: ['amount'],
    });
  });

  it('speaks the page’s language', () => {
    page.lang = 'uk';
    expect(split(refusal({ split: 'must have at least 1 item' }), []).split).toBe('Введіть частку хоча б одного продавця.');
    expect(split(refusal({ 'split[0].amount': 'must be at most 32000 (320.00 UAH)' }, 'exceeds_sub_merchant_share', 422), [{ sub_merchant_id: roastery, amount: 40000 }]).shares[0]).toMatch(
      // (Node's ICU writes the hryvnia ₴, Chromium's грн.)
      /^\u2068Щонайбільше \u2068320,00 (₴|грн)\u2069\.\u2069$/u,
    );
  });
});

describe('a refused plain capture or refund', () => {
  it('says the amount’s reason at its field, and leaves what it has no field for to the notice', () => {
    const placed = operationRefusals(refusal({ amount: 'must be a multiple of 10 minor units', split: 'is required to refund part of a split payment' }), {
      currency: 'KWD',
      example: 6050,
      sellers: [],
    });
    expect(placed).toEqual({ amount: 'The gateway takes KWD in steps of 0.010.', shares: [], split: undefined, placed: ['amount'] });
  });
});

describe('a refused plain refund of part of a split payment', () => {
  it('says at the amount that a part is refunded seller by seller, and leaves the notice nothing to repeat', () => {
    const error = new ApiError(422, 'split_refund_required', 'Part of a split payment is refunded per sub-merchant (split-refund); a plain refund must be the whole 1070.00 UAH', {
      split: 'is required to refund part of a split payment',
    });
    expect(operationRefusals(error, { currency: 'UAH', example: 107000, sellers: [] })).toEqual({
      amount: 'Part of a payment shared between sellers is refunded seller by seller, with Split refund; here, only all that is left.',
      shares: [],
      split: undefined,
      placed: ['split'],
    });
  });
});

describe('a refused charge of a saved card', () => {
  /** The charge dialog's words, with the money written as the tests write it (no no-break spaces). */
  const charge = (fields: Record<string, string>, currency = 'UAH', example = 100) => {
    const placed = chargeRefusals(refusal(fields), { currency, example });
    return { ...placed, amount: placed.amount?.replace(/\s/g, ' ') };
  };

  it('says an amount past what the gateway carries in the currency, not in minor units', () => {
    expect(charge({ amount: 'must be at most 999999999999999 (9999999999999.99 UAH)' })).toEqual({
      amount: '\u2068At most \u2068UAH 9,999,999,999,999.99\u2069.\u2069',
      description: undefined,
      placed: ['amount'],
    });
  });

  it('says an amount finer than the currency has, or than the gateway carries, in the currency’s units', () => {
    expect(charge({ amount: 'must be an integer number of minor units (24950 = 249.50 UAH)' }).amount).toBe('Write the amount in the currency’s units, as in 1.00.');
    expect(charge({ amount: 'must be a multiple of 10 minor units' }, 'KWD', 6050).amount).toBe('The gateway takes KWD in steps of 0.010.');
  });

  it('says the description’s reason in the page’s words, and leaves what has no field to the notice', () => {
    expect(charge({ description: 'must not be empty', 'customer.email': 'is required' })).toEqual({
      amount: undefined,
      description: 'Write what the charge is for.',
      placed: ['description'],
    });
    expect(charge({ description: 'must be at most 2048 characters' }).description).toBe('At most 2048 characters.');
    // A reason it has no words for is the companion's, as received: kept in its own direction.
    expect(charge({ description: 'must be a string' }).description).toBe('\u2068Not accepted: \u2068must be a string\u2069\u2069');
  });

  it('speaks the page’s language', () => {
    page.lang = 'uk';
    expect(charge({ amount: 'must be at most 999999999999999 (9999999999999.99 UAH)' }).amount).toMatch(
      // (Node's ICU writes the hryvnia ₴, Chromium's грн.)
      /^\u2068Щонайбільше \u20689 999 999 999 999,99 (₴|грн)\u2069\.\u2069$/u,
    );
    expect(charge({ description: 'must not be empty' }).description).toBe('Напишіть, за що це списання.');
  });

  it('names the customer’s details a charge needs and the dialog has no field for, in the page’s words, and what to do', () => {
    // The companion's answer when the card's last payment gave none (session-access.ts, requireCustomer).
    const needs = (fields: Record<string, string>) => chargeRefusals(refusal(fields, 'customer_required', 422), { currency: 'UAH', example: 100 });
    const placed = needs({ 'customer.email': 'is required', 'customer.phone': 'is required' });
    expect(placed).toMatchObject({ amount: undefined, description: undefined, placed: ['customer.email', 'customer.phone'] });
    expect(placed.customer).toMatch(/^The gateway needs the customer’s e-mail address and phone number to charge a card, .+ Charge it from the shop’s server/);
    expect(needs({ 'customer.fname': 'is required', 'customer.lname': 'is required', 'customer.email': 'is required', 'customer.phone': 'is required' }).customer).toContain(
      'customer’s first name, last name, e-mail address, and phone number',
    );
    page.lang = 'uk';
    expect(needs({ 'customer.email': 'is required', 'customer.phone': 'is required' }).customer).toMatch(/^Щоб списати кошти з картки, шлюзу потрібні такі дані клієнта: адреса електронної пошти (і|та) номер телефону\./);
  });

  it('places nothing when nothing was refused field by field', () => {
    expect(chargeRefusals(undefined, { currency: 'UAH', example: 100 })).toEqual({ amount: undefined, description: undefined, placed: [] });
  });
});
