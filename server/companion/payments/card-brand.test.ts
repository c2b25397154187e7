import { describe, expect, it } from 'vitest';
import { brandOfMask } from './card-brand.js';

describe('brandOfMask', () => {
  it.each([
    ['424242******4242', 'visa'],
    ['545454******5454', 'mastercard'],
    ['222100******0009', 'mastercard'],
    ['220012******0001', 'mir'],
    ['378282*****0005', 'amex'],
    ['601111******1117', 'discover'],
    ['305693****5904', 'diners'],
    ['309512******1234', 'diners'],
    ['353011******0000', 'jcb'],
    ['621234******1234', 'unionpay'],
    ['810012******1234', 'unionpay'],
    ['676770******1234', 'maestro'],
    ['980412******1234', 'prostir'],
  ])('reads %s as %s, as the widget tells the number', (mask, brand) => {
    expect(brandOfMask(mask)).toBe(brand);
  });

  it('names none when the mask shows no issuer prefix, or one no scheme issues', () => {
    expect(brandOfMask('************4242')).toBeUndefined();
    expect(brandOfMask('100000******0000')).toBeUndefined();
  });
});
