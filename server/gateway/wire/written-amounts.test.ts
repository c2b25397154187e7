import { describe, expect, it } from 'vitest';
import { amountsAsWritten, amountsWrittenAsDecimals } from './written-amounts.js';

const fields = (json: string) => amountsAsWritten(json).overPrecise.map((issue) => issue.field);

describe('amountsAsWritten', () => {
  it('finds an amount a float wrote with all its digits, though JSON.parse reads it as 10.1', () => {
    const json = '{"pos_id":"x","amount":10.099999999999999,"currency":"UAH"}';
    expect(JSON.parse(json).amount).toBe(10.1);
    expect(amountsAsWritten(json).overPrecise).toEqual([
      { field: 'amount', reason: expect.stringMatching(/^must have at most 2 decimal digits as written/) },
    ]);
  });

  it('names each over-precise amount by its path, split shares included', () => {
    const json = `{"charge_amount": 20.000000000000004, "split": [
      {"amount": 10.00, "sub_merchant_id": "a"},
      {"amount": 10.000000000000002, "sub_merchant_id": "b"}]}`;
    expect(fields(json)).toEqual(['charge_amount', 'split[1].amount']);
    expect(fields('{"refund_amount":1.005e1}')).toEqual([]);
    expect(fields('{"refund_amount":1e-3}')).toEqual(['refund_amount']);
    expect(fields('{"refund_amount":10.100}')).toEqual(['refund_amount']);
  });

  it('leaves amounts of two decimals or fewer, other numbers and strings alone', () => {
    expect(fields('{"amount":10.1,"charge_amount":0.01,"refund_amount":1e2,"amount2":0.123}')).toEqual([]);
    expect(fields('{"order_amount":1.234,"exp_month":1.5e0,"latitude":50.4501}')).toEqual([]);
    expect(fields('{"description":"{\\"amount\\": 10.123}","amount":"10.123"}')).toEqual([]);
    expect(fields('{"a\\"mount":1.234,"items":[1.234,{"amount":[1.234]}]}')).toEqual([]);
  });

  it('leaves an `amount` that is none of the interface\'s: a product\'s, a cryptogram\'s, an unknown field\'s', () => {
    expect(fields('{"products":[{"amount":0.125}],"cryptogram":{"amount":1.000},"meta":{"amount":1.234},"split":{"amount":1.234}}')).toEqual([]);
    expect(amountsWrittenAsDecimals('{"products":[{"amount":1.0000000000000001}],"split":[{"share":{"amount":1.00}}]}')).toEqual([]);
  });

  it('names the amounts written with an exponent that are not over-precise, apart', () => {
    expect(amountsAsWritten('{"amount":1E+2,"charge_amount":1.0E7,"refund_amount":1e-3,"split":[{"amount":5e1}],"exp_month":1e0}')).toEqual({
      overPrecise: [{ field: 'refund_amount', reason: expect.any(String) }],
      withExponent: ['amount', 'charge_amount', 'split[0].amount'],
    });
    expect(amountsAsWritten('{"amount":100,"payment_id":"1e2b"}')).toEqual({ overPrecise: [], withExponent: [] });
  });

  it('reads a key written with escapes as the key it is', () => {
    expect(fields('{"\\u0061mount":10.123}')).toEqual(['amount']);
  });
});

describe('amountsWrittenAsDecimals', () => {
  it('names amounts written with a point or an exponent though whole, and no other', () => {
    const issues = amountsWrittenAsDecimals('{"amount":24950.000000000001,"split":[{"amount":10.00},{"amount":249.5},{"amount":1e3}],"exp_month":12.0000000000000001}');
    expect(issues).toEqual([
      { field: 'amount', reason: expect.stringContaining('rounds away') },
      { field: 'split[0].amount', reason: expect.stringContaining('without a decimal point or exponent') },
      { field: 'split[2].amount', reason: expect.stringContaining('without a decimal point or exponent') },
    ]);
  });

  it('takes whole numbers written as such, and leaves fractions to the schema', () => {
    expect(amountsWrittenAsDecimals('{"amount":24950,"a":[{"amount":-3},{"amount":0}],"split":[{"amount":249.5}],"note":"1.00"}')).toEqual([]);
  });

  it('finds none in text that is no JSON, at once', () => {
    expect(amountsWrittenAsDecimals('{"amount":1.0000000000000001,"note":"unterminated')).toEqual([]);
    expect(amountsWrittenAsDecimals('{"amount":-')).toEqual([]);
  });
});
