// The gateway's field names as the pay request names them.
import { describe, expect, it } from 'vitest';
import { requestField } from './request-fields.js';

describe('requestField', () => {
  it('names card, customer and fingerprint fields as the widget sent them, others as they are', () => {
    expect(requestField('cc_number')).toBe('card.number');
    expect(requestField('card_cvv')).toBe('card.cvv');
    expect(requestField('cc_token')).toBe('card.token');
    expect(requestField('customer_email')).toBe('customer.email');
    expect(requestField('browser_fingerprint.browserLanguage')).toBe('fingerprint.browserLanguage');
    expect(requestField('amount')).toBe('amount');
    expect(requestField('toString')).toBe('toString');
  });
});
