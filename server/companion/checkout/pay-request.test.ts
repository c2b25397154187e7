// The pay body's card as the server reads it and as the OpenAPI document tells a generated client:
// the two agree on what is taken and what is refused.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../openapi/openapi-document.js';
import { cardNumber, EXPIRY, FINGERPRINT, TEST_CVV } from '../test/cards.js';
import { PayRequest } from './pay-request.js';

const FULL = { number: cardNumber('success'), ...EXPIRY, cvv: TEST_CVV };

function documentedBody() {
  const operation = (openApiDocument('http://127.0.0.1').paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: object }> } }>>)['/api/checkout/sessions/{id}/pay']!.post!;
  return new Ajv2020({ strict: false }).compile(operation.requestBody.content['application/json']!.schema);
}

/** Where the server refuses `card`, each field's reason; {} when it takes it. */
function serverReasons(card: object): Record<string, string> {
  const parsed = PayRequest.safeParse({ card, fingerprint: FINGERPRINT });
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the pay body’s card', () => {
  const documented = documentedBody();
  const cases: [string, object, boolean][] = [
    ['a token alone', { token: 'tok_1' }, true],
    ['the four card fields', FULL, true],
    ['a two-digit year', { ...FULL, exp_year: 40 }, true],
    ['a token and card fields', { token: 'tok_1', ...FULL }, false],
    ['a token and a card number', { token: 'tok_1', number: FULL.number }, false],
    ['neither', {}, false],
    ['card fields short of the cvv', { number: FULL.number, exp_month: 1, exp_year: 2040 }, false],
    ['a year past 2099', { ...FULL, exp_year: 9999 }, false],
    ['a three-digit year', { ...FULL, exp_year: 150 }, false],
  ];

  it.each(cases)('%s: taken or refused alike by the server and the document', (_, card, taken) => {
    expect(Object.keys(serverReasons(card)).length === 0).toBe(taken);
    expect(documented({ card, fingerprint: FINGERPRINT })).toBe(taken);
  });

  it.each([
    ['as Chromium gives them', {}, true],
    ['a region of digits and a variant', { browserLanguage: 'de-419-1901' }, true],
    ['a zone behind GMT', { browserTimeZone: 'Etc/GMT+12', browserTimeZoneOffset: '720' }, true],
    ['a zone given as an offset', { browserTimeZone: '+05:30', browserTimeZoneOffset: '-330' }, true],
    ['an 8-digit language subtag', { browserLanguage: 'en-42424242' }, false],
    ['three digits in a zone', { browserTimeZone: 'Etc/GMT+123' }, false],
    ['a colour depth of 30 bits', { browserColorDepth: '30' }, false],
    ['Java as yes', { browserJavaEnabled: 'yes' }, false],
    ['an offset in hours', { browserTimeZoneOffset: '+02:00' }, false],
  ])('the browser’s fields %s: taken or refused alike by the server and the document', (_, change, taken) => {
    const body = { card: FULL, fingerprint: { ...FINGERPRINT, ...change } };
    expect(PayRequest.safeParse(body).success).toBe(taken);
    expect(documented(body)).toBe(taken);
  });

  it('says what an empty card needs, either way a companion takes one', () => {
    expect(serverReasons({})).toEqual({ card: 'must hold a token, or number, exp_month, exp_year and cvv' });
    expect(serverReasons({ number: FULL.number })).toEqual({ 'card.exp_month': 'is required', 'card.exp_year': 'is required', 'card.cvv': 'is required' });
  });
});
