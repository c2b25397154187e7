// A JSON body that gives a key twice: JSON.parse keeps the last, another reader of the same text
// may keep the first. Refused as a 400 naming the field, never paid or opened with either.
import { describe, expect, it } from 'vitest';
import { payBody, stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();
const JSON_TYPE = { 'Content-Type': 'application/json' };

/** `body`'s JSON with `extra` (raw JSON members) written in just before its closing brace. */
const withMembers = (body: Record<string, unknown>, extra: string) => `${JSON.stringify(body).slice(0, -1)},${extra}}`;
/** What the widget sends, less `field`. */
const payBodyWithout = (field: string) => Object.fromEntries(Object.entries(payBody()).filter(([name]) => name !== field));

describe('a key given twice in a JSON body', () => {
  it('is refused on the pay call, naming the field, and nothing is charged', async () => {
    const stack = await open();
    const session = await stack.openSession();
    const declined = JSON.stringify({ number: '4000 0000 0000 0002', exp_month: 12, exp_year: 2030, cvv: '123' });
    const response = await stack.request('POST', `/api/checkout/sessions/${session.id}/pay`, { body: withMembers(payBody(), `"card":${declined}`), headers: JSON_TYPE });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual({ card: 'must be given once' });
    expect((await stack.json('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('open');
  });

  it('is named by its path when nested, and by its parent when the key may be a card number', async () => {
    const stack = await open();
    const session = await stack.openSession();
    const pay = async (body: string) => {
      const response = await stack.request('POST', `/api/checkout/sessions/${session.id}/pay`, { body, headers: JSON_TYPE });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toContain('4242');
      return JSON.parse(text).error.fields as Record<string, string>;
    };
    expect(await pay(withMembers(payBodyWithout('customer'), '"customer":{"fname":"A","fname":"B"}'))).toEqual({ 'customer.fname': 'must be given once' });
    // An escape names the same key.
    expect(await pay(withMembers(payBody(), '"page_url":"https://a.example","page\\u005furl":"https://b.example"'))).toEqual({ page_url: 'must be given once' });
    expect(await pay(withMembers(payBodyWithout('fingerprint'), '"fingerprint":{"4242424242424242":"1","4242424242424242":"2"}'))).toEqual({ fingerprint: 'has a field that is given more than once' });
  });

  it('is refused on the merchant API too, while the same key in other objects or inside strings is not one', async () => {
    const stack = await open();
    const refused = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: '{"amount":100,"currency":"UAH","description":"Tea","amount":200}', headers: JSON_TYPE });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual({ amount: 'must be given once' });
    const taken = await stack.request('POST', '/api/checkout/sessions', {
      admin: true,
      body: '{"amount":100,"currency":"UAH","description":"Tea \\"amount\\": \\"amount\\"","customer":{"fname":"A","lname":"B"}}',
      headers: JSON_TYPE,
    });
    expect(taken.status).toBe(201);
  });
});
