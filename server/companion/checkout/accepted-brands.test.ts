// The card schemes a shop takes, for a card known by its number or by its mask.
import { describe, expect, it } from 'vitest';
import { brandRefusal, maskBrandRefusal } from './accepted-brands.js';

describe('a card held to acceptedBrands', () => {
  it('by its number: another scheme or none the widget knows is refused, named, never its digits', () => {
    expect(brandRefusal('4242424242424242', ['visa'])).toBeUndefined();
    expect(brandRefusal('5454545454545454', ['visa'])).toBe('is a Mastercard card; this shop takes Visa');
    expect(brandRefusal('9999999999999995', ['visa', 'amex'])).toBe('is of a card scheme the widget does not know; this shop takes Visa, American Express');
    expect(brandRefusal('5454545454545454', undefined)).toBeUndefined();
  });

  it('by its mask, as its number by the six digits it shows; one showing fewer says nothing, and is taken', () => {
    expect(maskBrandRefusal('424242******4242', ['visa'])).toBeUndefined();
    expect(maskBrandRefusal('545454******5454', ['visa'])).toBe('is a Mastercard card; this shop takes Visa');
    expect(maskBrandRefusal('999999******9999', ['visa'])).toBe('is of a card scheme the widget does not know; this shop takes Visa');
    expect(maskBrandRefusal('************4242', ['visa'])).toBeUndefined();
  });
});
