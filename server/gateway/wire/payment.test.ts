import { describe, expect, it } from 'vitest';
import * as samples from '../test/samples.js';
import { parseWire } from './issues.js';
import type { FieldIssue } from './issues.js';
import { CancelResponse, CreatePaymentRequest, CreditRequest, PaymentResponse, SplitPurchaseRequest, sectorIssues } from './payment.js';
import type { CreatePaymentRequest as CreatePayment } from './payment.js';

function issues(schema: Parameters<typeof parseWire>[0], input: unknown): FieldIssue[] {
  const result = parseWire(schema, input);
  return result.success ? [] : result.issues;
}
const createIssues = (input: unknown) => issues(CreatePaymentRequest, input);
const without = <T extends object>(object: T, ...keys: string[]) =>
  Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));

describe('CreatePaymentRequest', () => {
  it('accepts each variant of the parameter table', () => {
    expect(createIssues(samples.directPurchase)).toEqual([]);
    expect(createIssues({ ...samples.directPurchase, method: 'auth' })).toEqual([]);
    expect(createIssues(samples.hostedPurchase)).toEqual([]);
    expect(createIssues(samples.directLookup)).toEqual([]);
    expect(createIssues({ ...samples.directLookup, ...samples.card })).toEqual([]);
    expect(createIssues(samples.hostedLookup)).toEqual([]);
  });

  it('accepts a cc_token instead of card data', () => {
    const tokenised = { ...without(samples.directPurchase, 'cc_number', 'exp_month', 'exp_year', 'card_cvv'), cc_token: 'rcr:abc' };
    expect(createIssues(tokenised)).toEqual([]);
  });

  it('wants the amount as a JSON number, as payform’s client sends it (the live service’s reading of a string is a tolerance)', () => {
    expect(createIssues({ ...samples.directPurchase, amount: '10.10' })).toEqual([{ field: 'amount', reason: 'must be a number' }]);
    // A string no number holds exactly, or written with three fraction digits, says what else is wrong with it.
    expect(createIssues({ ...samples.directPurchase, amount: '10.105' })).toEqual([{ field: 'amount', reason: 'must have at most 2 decimal digits' }]);
    expect(createIssues({ ...samples.directPurchase, amount: '10.100000000000000000001' })).toEqual([{ field: 'amount', reason: 'must have at most 2 decimal digits' }]);
    expect(createIssues({ ...samples.directPurchase, amount: '1e3' })).toEqual([{ field: 'amount', reason: 'must be a plain decimal number' }]);
  });

  it('wants card data xor cc_token in a direct purchase', () => {
    expect(createIssues({ ...samples.directPurchase, cc_token: 'tok' })).toEqual([
      { field: 'cc_token', reason: 'is not sent together with card data' },
    ]);
    const bare = without(samples.directPurchase, 'cc_number', 'exp_month', 'exp_year', 'card_cvv');
    expect(createIssues(bare)).toEqual([{ field: 'cc_number', reason: 'is required unless cc_token is sent' }]);
    expect(createIssues(without(samples.directPurchase, 'card_cvv'))).toEqual([
      { field: 'card_cvv', reason: 'is required with the other card fields' },
    ]);
  });

  it('wants all four card fields or none in a direct lookup', () => {
    expect(createIssues({ ...samples.directLookup, cc_number: samples.card.cc_number })).toEqual([
      { field: 'exp_month', reason: 'is required with the other card fields' },
      { field: 'exp_year', reason: 'is required with the other card fields' },
      { field: 'card_cvv', reason: 'is required with the other card fields' },
    ]);
    expect(createIssues({ ...samples.directLookup, cc_token: 'tok' })).toEqual([{ field: 'cc_token', reason: 'is not sent in a lookup' }]);
  });

  it('never lets card fields into hosted mode', () => {
    for (const request of [samples.hostedPurchase, samples.hostedLookup]) {
      expect(createIssues({ ...request, ...samples.card, cc_token: 't' })).toEqual([
        { field: 'cc_number', reason: 'is not sent in hosted mode' },
        { field: 'exp_month', reason: 'is not sent in hosted mode' },
        { field: 'exp_year', reason: 'is not sent in hosted mode' },
        { field: 'card_cvv', reason: 'is not sent in hosted mode' },
        { field: 'cc_token', reason: 'is not sent in hosted mode' },
      ]);
    }
  });

  it('applies the other "not sent" cells of the table', () => {
    expect(createIssues({ ...samples.hostedPurchase, customer_ip: '1.2.3.4', browser_fingerprint: samples.fingerprint })).toEqual([
      { field: 'customer_ip', reason: 'is not sent in hosted mode' },
      { field: 'browser_fingerprint', reason: 'is not sent in hosted mode' },
    ]);
    expect(createIssues({ ...samples.directPurchase, customer_lang: 'EN', order_timeout: 60 })).toEqual([
      { field: 'customer_lang', reason: 'is not sent in direct mode' },
      { field: 'order_timeout', reason: 'is not sent in direct mode' },
    ]);
    expect(createIssues({ ...samples.hostedLookup, customer_lang: 'EN' })).toEqual([{ field: 'customer_lang', reason: 'is not sent in a lookup' }]);
  });

  it('requires what the table marks R for each variant', () => {
    expect(createIssues(without(samples.directPurchase, 'customer_fname', 'customer_ip', 'browser_fingerprint'))).toEqual([
      { field: 'customer_fname', reason: 'is required' },
      { field: 'customer_ip', reason: 'is required' },
      { field: 'browser_fingerprint', reason: 'is required' },
    ]);
    expect(createIssues(without(samples.hostedPurchase, 'customer_email', 'customer_phone'))).toEqual([
      { field: 'customer_email', reason: 'is required' },
      { field: 'customer_phone', reason: 'is required' },
    ]);
    expect(createIssues(without(samples.directLookup, 'browser_fingerprint', 'order_3ds_bypass', 'description'))).toEqual([
      { field: 'description', reason: 'is required' },
      { field: 'order_3ds_bypass', reason: 'is required' },
      { field: 'browser_fingerprint', reason: 'is required' },
    ]);
  });

  it('wants the ten fingerprint fields as strings', () => {
    const { browserUserAgent: _, ...nine } = samples.fingerprint;
    expect(createIssues({ ...samples.directPurchase, browser_fingerprint: { ...nine, browserColorDepth: 24 } })).toEqual([
      { field: 'browser_fingerprint.browserColorDepth', reason: 'must be a string' },
      { field: 'browser_fingerprint.browserUserAgent', reason: 'is required' },
    ]);
  });

  it('calls a map of any keys an object, as JSON does: an empty PHP array is [] on the wire', () => {
    expect(createIssues({ ...samples.directPurchase, cryptogram: [] })).toEqual([
      { field: 'cryptogram', reason: "must be an object, not [] (PHP's json_encode writes an empty array so: send (object) [] for {})" },
    ]);
  });

  it('rejects bad amounts with a reason', () => {
    const reasonFor = (amount: unknown, currency = 'UAH') => createIssues({ ...samples.directPurchase, amount, currency });
    expect(reasonFor(10.123)).toEqual([{ field: 'amount', reason: 'must have at most 2 decimal digits' }]);
    expect(reasonFor(0)).toEqual([{ field: 'amount', reason: 'must be greater than 0' }]);
    expect(reasonFor(-5)).toEqual([{ field: 'amount', reason: 'must be greater than 0' }]);
    expect(reasonFor('ten')).toEqual([{ field: 'amount', reason: 'must be a plain decimal number' }]);
    expect(reasonFor(true)).toEqual([{ field: 'amount', reason: 'must be a decimal number' }]);
    expect(reasonFor(0.1 + 0.2)).toEqual([{ field: 'amount', reason: 'must have at most 2 decimal digits' }]);
    expect(reasonFor(100.5, 'JPY')).toEqual([{ field: 'amount', reason: 'must be a whole number in JPY' }]);
    expect(reasonFor(100, 'JPY')).toEqual([]);
  });

  it('rejects wrong types, formats, enums and lengths, naming the field', () => {
    const bad = {
      ...samples.directPurchase,
      pos_id: 'not-a-uuid',
      currency: 'uah',
      mode: 'direct',
      method: 'auth',
      description: 'x'.repeat(2049),
      order_3ds_bypass: 'sometimes',
      customer_email: 'nobody',
      customer_phone: '12',
      customer_ip: '999.1.1.1',
      customer_birthday: '1990-02-30',
      customer_country: 'Ukraine',
      merchant_mcc: 59999,
      payload: 'p'.repeat(4001),
      server_url: 'ftp://shop.example',
      cc_number: '4242424242424241',
      exp_month: 13,
      card_cvv: '12a',
    };
    expect(createIssues(bad)).toEqual([
      { field: 'pos_id', reason: 'must be a UUID' },
      { field: 'currency', reason: 'must be a three-letter upper-case ISO 4217 code' },
      { field: 'description', reason: 'must be at most 2048 characters' },
      { field: 'order_3ds_bypass', reason: 'must be one of supported, always, never' },
      { field: 'customer_country', reason: 'must be an ISO 3166-1 alpha-2 code' },
      { field: 'customer_birthday', reason: 'must be a date yyyy-MM-dd' },
      { field: 'server_url', reason: 'must be an http(s) URL' },
      { field: 'merchant_mcc', reason: 'must be a string' },
      { field: 'payload', reason: 'must be at most 4000 characters' },
      { field: 'cc_number', reason: 'fails the Luhn check' },
      { field: 'exp_month', reason: 'must be at most 12' },
      { field: 'card_cvv', reason: 'must be 3 or 4 digits' },
      { field: 'customer_email', reason: 'must be an email address' },
      { field: 'customer_phone', reason: 'must be 7 to 15 digits, optionally after a +' },
      { field: 'customer_ip', reason: 'must be an IPv4 or IPv6 address' },
    ]);
  });

  it('names an unknown mode or method and rejects unknown fields', () => {
    expect(createIssues({ ...samples.directPurchase, mode: 'widget' })).toEqual([{ field: 'mode', reason: 'must be one of direct, hosted' }]);
    expect(createIssues({ ...samples.directPurchase, method: 'capture' })).toEqual([
      { field: 'method', reason: 'must be one of auth, purchase, lookup' },
    ]);
    expect(createIssues({ ...samples.directPurchase, amout: 5 })).toEqual([{ field: 'amout', reason: 'is not allowed' }]);
  });

  it('says a number written as typed is not digits, and nothing of a check digit it never read', () => {
    for (const cc_number of ['4242 4242 4242 4242', '4242-4242-4242-4242', '4242']) {
      expect(createIssues({ ...samples.directPurchase, cc_number }), cc_number).toEqual([{ field: 'cc_number', reason: 'must be 12 to 19 digits' }]);
    }
  });

  it('exempts UnionPay numbers (62…, 81…) from the Luhn check, and no other scheme', () => {
    expect(createIssues({ ...samples.directPurchase, cc_number: '6200000000000006' })).toEqual([]);
    expect(createIssues({ ...samples.directPurchase, cc_number: '8100000000000006' })).toEqual([]);
    expect(createIssues({ ...samples.directPurchase, cc_number: '6011000000000006' })).toEqual([{ field: 'cc_number', reason: 'fails the Luhn check' }]);
  });

  it('never quotes a rejected card number or CVV', () => {
    const text = JSON.stringify(createIssues({ ...samples.directPurchase, cc_number: '4242424242424241', card_cvv: '98x' }));
    expect(text).not.toContain('4242424242424241');
    expect(text).not.toContain('98x');
  });
});

describe('SplitPurchaseRequest', () => {
  const directSplit = { ...samples.directPurchase, amount: 100, split: samples.split };
  const hostedSplit = { ...samples.hostedPurchase, amount: 100, split: samples.split };

  it('accepts direct and hosted split purchases; hosted may carry customer_ip', () => {
    expect(issues(SplitPurchaseRequest, directSplit)).toEqual([]);
    expect(issues(SplitPurchaseRequest, { ...hostedSplit, customer_ip: '203.0.113.7', products: [] })).toEqual([]);
  });

  it('takes method purchase only, and requires split', () => {
    expect(issues(SplitPurchaseRequest, { ...directSplit, method: 'auth' })).toEqual([{ field: 'method', reason: 'must be one of purchase' }]);
    expect(issues(SplitPurchaseRequest, without(hostedSplit, 'split'))).toEqual([{ field: 'split', reason: 'is required' }]);
    expect(issues(SplitPurchaseRequest, { ...hostedSplit, split: [] })).toEqual([{ field: 'split', reason: 'must have at least 1 item' }]);
  });

  it('checks each share and that the shares add up to amount', () => {
    expect(
      issues(SplitPurchaseRequest, { ...hostedSplit, split: [{ amount: 70.001, sub_merchant_id: 'x' }, { amount: 30 }] }),
    ).toEqual([
      { field: 'split[0].amount', reason: 'must have at most 2 decimal digits' },
      { field: 'split[0].sub_merchant_id', reason: 'must be a UUID' },
      { field: 'split[1].sub_merchant_id', reason: 'is required' },
    ]);
    expect(issues(SplitPurchaseRequest, { ...hostedSplit, amount: 100.01 })).toEqual([
      { field: 'split', reason: 'amounts must add up to amount' },
    ]);
    expect(issues(SplitPurchaseRequest, { ...hostedSplit, amount: 0.3, split: [{ ...samples.split[0], amount: 0.1 }, { ...samples.split[1], amount: 0.2 }] })).toEqual([]);
  });
});

describe('sectorIssues', () => {
  const hosted = CreatePaymentRequest.parse(samples.hostedPurchase) as CreatePayment;
  const direct = CreatePaymentRequest.parse(samples.directPurchase) as CreatePayment;

  it('adds nothing without a sector or for a lookup', () => {
    expect(sectorIssues(hosted, undefined)).toEqual([]);
    expect(sectorIssues(CreatePaymentRequest.parse(samples.hostedLookup), 'microfinance')).toEqual([]);
  });

  it('wants names on hosted payments of microfinance and iGaming merchants', () => {
    expect(sectorIssues(hosted, 'igaming')).toEqual([
      { field: 'customer_fname', reason: 'is required for igaming merchants' },
      { field: 'customer_lname', reason: 'is required for igaming merchants' },
    ]);
    expect(sectorIssues({ ...hosted, customer_fname: 'A', customer_lname: 'B' } as CreatePayment, 'igaming')).toEqual([]);
  });

  it('wants birthday or tax id from microfinance, and the tax id above 30 000 UAH', () => {
    expect(sectorIssues(direct, 'microfinance')).toEqual([
      { field: 'customer_birthday', reason: 'or customer_tax_id is required for microfinance merchants' },
    ]);
    const withBirthday = { ...direct, customer_birthday: '1990-01-01' } as CreatePayment;
    expect(sectorIssues(withBirthday, 'microfinance')).toEqual([]);
    expect(sectorIssues({ ...withBirthday, amount: 30000 } as CreatePayment, 'microfinance')).toEqual([]);
    expect(sectorIssues({ ...withBirthday, amount: 30000.01 } as CreatePayment, 'microfinance')).toEqual([
      { field: 'customer_tax_id', reason: 'is required for microfinance payments above 30000.00 UAH' },
    ]);
    expect(sectorIssues({ ...withBirthday, amount: 50000, currency: 'EUR' } as CreatePayment, 'microfinance')).toEqual([]);
    expect(sectorIssues({ ...direct, amount: 50000, customer_tax_id: '1234567890' } as CreatePayment, 'microfinance')).toEqual([]);
  });
});

describe('PaymentResponse', () => {
  it('reads the sample and keeps unknown fields', () => {
    const parsed = PaymentResponse.parse({ ...samples.paymentResponse, brand_new_field: { x: 1 } });
    expect(parsed.brand_new_field).toEqual({ x: 1 });
    expect(parsed.amount).toBe(10.1);
  });

  it('takes the documented nullables and both spellings of the update time', () => {
    const quirky = {
      ...samples.paymentResponse,
      pos_id: null,
      transaction_id: null,
      status_code: 2122,
      processed_at: undefined,
      processing_time: null,
      fee: null,
      user_action_url: null,
      amount: '10.10',
    };
    expect(PaymentResponse.safeParse(quirky).success).toBe(true);
    expect(PaymentResponse.safeParse({ ...samples.paymentResponse, processing_time: '2025-03-01T10:00:01Z' }).success).toBe(true);
  });

  it('rejects a missing identity or a status outside the four', () => {
    expect(issues(PaymentResponse, without(samples.paymentResponse, 'payment_id'))).toEqual([{ field: 'payment_id', reason: 'is required' }]);
    expect(issues(PaymentResponse, { ...samples.paymentResponse, status: 'done' })).toEqual([
      { field: 'status', reason: 'must be one of init, pending, success, failure' },
    ]);
  });

  it('reads a cancel answer as an array of payments', () => {
    const cancelled = { ...samples.paymentResponse, mode: 'hosted', status: 'failure', status_code: '6007', customer_city: 'Kyiv' };
    expect(CancelResponse.parse([cancelled])[0]?.customer_city).toBe('Kyiv');
  });
});

describe('CreditRequest (a payout: method credit on the create-payment endpoint)', () => {
  const credit = {
    pos_id: samples.directPurchase.pos_id, mode: 'direct', method: 'credit', amount: 500, currency: 'UAH', description: 'Payout',
    order_id: 'payout-1', order_3ds_bypass: 'supported', customer_ip: '203.0.113.7', cc_number: '4242424242424242',
  };
  const creditIssues = (input: unknown) => issues(CreditRequest, input);

  it('pays out to a card number or a token, with the recipient’s details', () => {
    expect(creditIssues(credit)).toEqual([]);
    expect(creditIssues({ ...without(credit, 'cc_number'), cc_token: 'a'.repeat(40), recipient_first_name: 'Olena', customer_city: 'Kyiv' })).toEqual([]);
  });

  it('is direct only, wants a card number xor a token, and takes no expiry or security code', () => {
    expect(creditIssues({ ...credit, mode: 'hosted' })).toEqual([{ field: 'mode', reason: 'must be direct: a credit has no hosted mode' }]);
    expect(creditIssues(without(credit, 'cc_number'))).toEqual([{ field: 'cc_number', reason: 'is required unless cc_token is sent' }]);
    expect(creditIssues({ ...credit, cc_token: 'tok' })).toEqual([{ field: 'cc_token', reason: 'is not sent together with cc_number' }]);
    expect(creditIssues({ ...credit, card_cvv: '123' })).toEqual([{ field: 'card_cvv', reason: 'is not allowed' }]);
    expect(creditIssues(without(credit, 'customer_ip'))).toEqual([{ field: 'customer_ip', reason: 'is required' }]);
  });
});
