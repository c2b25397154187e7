import { describe, expect, it } from 'vitest';
import { detectBrand } from './brands.js';
import { checkCvv, cvvLength } from './cvv.js';

const visa = detectBrand('4242');
const amex = detectBrand('37');

describe('checkCvv', () => {
  it.each([
    // value, brand, valid, potentiallyValid, code
    ['', visa, false, true, 'empty'],
    ['1', visa, false, true, 'incomplete'],
    ['12', visa, false, true, 'incomplete'],
    ['123', visa, true, true, undefined],
    ['1234', visa, false, false, 'invalid'],
    ['123', amex, false, true, 'incomplete'],
    ['1234', amex, true, true, undefined],
    ['12345', amex, false, false, 'invalid'],
    ['000', visa, true, true, undefined],
    ['12a', visa, false, false, 'invalid'],
    ['12 3', visa, false, false, 'invalid'],
    ['123', undefined, true, true, undefined], // brand not known yet: 3 or 4 digits
    ['1234', undefined, true, true, undefined],
    ['12345', undefined, false, false, 'invalid'],
  ])('%j for %s', (value, brand, valid, potentiallyValid, code) => {
    expect(checkCvv(value, brand)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it('takes as many digits as the brand prints', () => {
    expect([cvvLength(visa), cvvLength(amex), cvvLength(undefined)]).toEqual([3, 4, 4]);
  });
});
