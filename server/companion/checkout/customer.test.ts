// The customer's phone number, wherever it comes in: never a card number, always a real phone.
// In process against the real sandbox and SQLite.
import { describe, expect, it } from 'vitest';
import { CUSTOMER } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

const REASON = 'must be a phone number, not a card number';
const openStack = stacksPerTest();

/** Asks for a 400 naming `customer.phone` alone, and checks the answer holds none of `digits`. */
async function refusedPhone(response: Response, digits: string): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(400);
  expect(JSON.parse(text).error).toEqual({ code: 'invalid_request', message: `Invalid request: customer.phone ${REASON}`, fields: { 'customer.phone': REASON } });
  expect(text).not.toContain(digits);
  expect(text).not.toMatch(/\d{7,}/);
  expect([...response.headers.values()].join('\n')).not.toContain(digits);
}

async function orderCount(stack: Stack): Promise<number> {
  return (await stack.ledger.listOrders()).orders.length;
}

describe('a card number typed as the phone', () => {
  it.each([
    ['an Amex', '3782 822463 10005'],
    ['a Diners Club', '3056 930902 5904'],
  ])('%s is refused from the payer and the merchant, and is nowhere afterwards', async (_card, typed) => {
    const stack = await openStack();
    const digits = typed.replace(/\D/g, '');
    const session = await stack.openSession();
    const orders = await orderCount(stack);

    await refusedPhone(await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, phone: typed } })), digits);
    await refusedPhone(await stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { body: { customer: { email: CUSTOMER.email, phone: typed } } }), digits);
    const prefilled = { amount: 10, currency: 'UAH', description: 'Tea', customer: { email: CUSTOMER.email, phone: typed } };
    await refusedPhone(await stack.request('POST', '/api/checkout/sessions', { admin: true, body: prefilled }), digits);

    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    expect(await orderCount(stack)).toBe(orders);
    expect(stack.changes).toEqual([]);
    expect(stack.logs.join('\n')).not.toContain(digits);
    // The payer who corrects the field pays as usual.
    expect(await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody() })).toMatchObject({ status: 'success' });
  });
});

describe('a real phone number', () => {
  // Written as people write them. Those marked Luhn-valid pass the card check digit: a card
  // scheme's prefix, its length or the + tells them apart.
  const phones = [
    '+380 50 123 4567', // Luhn-valid, Diners' 38, but 12 digits
    '380501234567', // the same without +
    '+49 1512 3456789',
    '+49 1512 3456787', // Luhn-valid, Visa's 4 and 13 digits, but written with +
    '49 1512 3456787', // the same without its +: Visa no longer issues 13 digits
    '+49 89 1234 567894', // Luhn-valid, Visa's 4, but 14 digits
    '+39 312 345 6789',
    '+39 06 1234 5673', // Luhn-valid, Diners' 39, but 12 digits
    '+1 (415) 555-0132',
    '+44 7911 123456', // Luhn-valid, Visa's 4, but 12 digits
    '+43 676 12345677', // Luhn-valid, Visa's 4 and 13 digits, with +
    '5511987654325', // Luhn-valid, Mastercard's 55 (Brazil), but 13 digits
    '62 8123 4567 8901', // Luhn-valid, UnionPay's 62 (Indonesia) and one of its lengths: not taken for a card
    '573001234562', // Luhn-valid, Maestro's 57 (Colombia) and one of its lengths: not taken for a card
    '639171234565', // Luhn-valid, Maestro's 63 (the Philippines)
    '8613812345678', // Luhn-valid, no scheme's prefix
    '0049 151 23456787', // the international prefix written out
    '(050) 123-45-67',
  ];

  it('is kept from the payer and from the merchant', async () => {
    const stack = await openStack();
    for (const phone of phones) {
      const digits = phone.replace(/[\s().-]/g, '');
      const paid = await stack.openSession();
      expect(await stack.json('POST', `/api/checkout/sessions/${paid.id}/pay`, 200, { body: payBody({ customer: { ...CUSTOMER, phone } }) })).toMatchObject({ status: 'success' });
      expect((await stack.ledger.getPayment(paid.order_id))?.customer?.phone, phone).toBe(digits);
      const prefilled = await stack.openSession({ customer: { phone } });
      expect((await stack.ledger.getSession(prefilled.id))?.customer?.phone, phone).toBe(digits);
    }
  });
});

describe('a card number typed into the e-mail address', () => {
  it('is refused with the field named, not echoed, and nothing is kept', async () => {
    const stack = await openStack();
    const session = await stack.openSession();
    const response = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, email: '4242424242424242@example.com' } }));
    const text = await response.text();
    expect(response.status, text).toBe(400);
    expect(JSON.parse(text).error.fields).toEqual({ 'customer.email': 'must not contain a card number' });
    expect(text).not.toContain('4242424242424242');
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
  });
});

describe('a name that would show as another', () => {
  it('is refused when it holds a text-direction override, from the payer and the merchant, and nothing is kept', async () => {
    const stack = await openStack();
    const session = await stack.openSession();
    const orders = await orderCount(stack);
    const REASON = 'must not hold text-direction overrides (U+202A–202E): they change how the name shows';
    for (const [field, value] of [['lname', '\u202EDEDNUFER YLLUF - '], ['fname', 'Ivan \u202BOlena\u202C'], ['lname', 'K\u202Dx']] as const) {
      const paid = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, [field]: value } }));
      expect(paid.status).toBe(400);
      expect((await paid.json()).error.fields).toEqual({ [`customer.${field}`]: REASON });
      const prefilled = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', customer: { [field]: value } } });
      expect(prefilled.status).toBe(400);
    }
    // Right-to-left names themselves, the marks that only steer neutral characters, and the
    // isolates a messaging app wraps a pasted name in, are names.
    expect((await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, fname: '\u2068أولينا\u2069', lname: 'כהן\u200F' } }))).status).toBe(200);
    expect(await orderCount(stack)).toBe(orders + 1);
  });
});

describe('a card number written into a name or the e-mail address, whatever separates its digits', () => {
  const REFUSED = 'must not contain a card number';
  const VISA = '4111111111111111';
  const grouped = (separator: string) => VISA.match(/.{4}/g)!.join(separator);
  const fullWidth = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
  const names = [
    grouped('  '), grouped('\u00a0'), grouped('\u2009'), grouped('\t'), grouped('.'), grouped('/'),
    grouped('_'), grouped(','), grouped(' - '), fullWidth(VISA), grouped(' ').replace(/\d/g, fullWidth),
    // Enclosed digits a reader takes for 4 1 1 1 …: double circled, parenthesized.
    grouped(' ').replace(/\d/g, (digit) => String.fromCharCode(0x24f4 + Number(digit))), grouped(' ').replace(/\d/g, (digit) => String.fromCharCode(0x2473 + Number(digit))),
  ];
  const emails = [
    `${grouped('.')}@example.com`, `olena_${grouped('_')}@example.com`, `${grouped('--')}@example.com`,
    `${VISA.replace(/\d/g, (digit) => String.fromCharCode(0x2487 + Number(digit)))}@example.com`,
  ];

  async function refused(response: Response, field: string, written: string): Promise<void> {
    const text = await response.text();
    expect(response.status, `${field} ${JSON.stringify(written)}: ${text}`).toBe(400);
    expect(JSON.parse(text).error.fields, JSON.stringify(written)).toEqual({ [`customer.${field}`]: REFUSED });
    expect(text).not.toContain(written);
  }

  it('is refused from the payer and the merchant, the field named, and nothing is kept', async () => {
    const stack = await openStack();
    const session = await stack.openSession();
    const orders = await orderCount(stack);
    const cases = [
      ...names.map((written, index) => ({ field: index % 2 ? 'lname' : 'fname', value: `Olena ${written}`, written })),
      ...emails.map((written) => ({ field: 'email', value: written, written })),
    ];
    for (const { field, value, written } of cases) {
      await refused(await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, [field]: value } })), field, written);
      const prefilled = { amount: 10, currency: 'UAH', description: 'Tea', customer: { [field]: value } };
      await refused(await stack.request('POST', '/api/checkout/sessions', { admin: true, body: prefilled }), field, written);
    }
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    expect(await orderCount(stack)).toBe(orders);
    expect(stack.changes).toEqual([]);
  });

  it('is refused in the patronym and city a merchant prefills, the field named, and nothing is kept', async () => {
    const stack = await openStack();
    for (const field of ['patronym', 'city']) {
      for (const written of [VISA, grouped(' '), grouped('.')]) {
        const prefilled = { amount: 10, currency: 'UAH', description: 'Tea', customer: { [field]: `Kyiv ${written}` } };
        await refused(await stack.request('POST', '/api/checkout/sessions', { admin: true, body: prefilled }), field, written);
      }
    }
    expect(await orderCount(stack)).toBe(0);
    expect(stack.changes).toEqual([]);
  });

  it('refuses a security code named with its digits in a name, the patronym or the city, the field named, never echoed', async () => {
    const stack = await openStack();
    const session = await stack.openSession();
    for (const [field, value] of [['fname', 'Olena CVV 737'], ['lname', 'security code: 7373'], ['city', 'cvv 737'], ['patronym', 'CVC2=737']] as const) {
      const body = { amount: 10, currency: 'UAH', description: 'Tea', customer: { [field]: value } };
      const answer = await stack.request('POST', '/api/checkout/sessions', { admin: true, body });
      const text = await answer.text();
      expect(answer.status, `${field}: ${text}`).toBe(400);
      expect(JSON.parse(text).error.fields).toEqual({ [`customer.${field}`]: 'must not contain a card’s security code (CVV)' });
      expect(text).not.toContain('737');
    }
    expect((await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, fname: 'Olena CVV 737' } }))).status).toBe(400);
    expect(await orderCount(stack)).toBe(0);
  });

  it('leaves the numbers of ordinary names and addresses alone', async () => {
    const stack = await openStack();
    const kept = [
      { fname: 'Olena (Apt 12)', lname: 'Koval 2026-11-22' },
      { fname: 'Olena +380 44 123 4567', lname: 'Koval' },
      { fname: 'Olena', lname: 'Koval 123456789012', email: 'olena.2026.11.22@example.com' },
    ];
    for (const customer of kept) {
      const session = await stack.openSession();
      expect(await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ customer: { ...CUSTOMER, ...customer } }) })).toMatchObject({ status: 'success' });
      expect((await stack.ledger.getPayment(session.order_id))?.customer).toMatchObject(customer);
    }
  });
});

describe('a card number split between the first and the last name', () => {
  // Each name holds half of it, and the back office and the export show them one after the other.
  const split = [
    { fname: '4111 1111', lname: '1111 1111' },
    { fname: 'Olena 4111 1111 1111', lname: '1111 Koval' },
    // Eight and eight, as no card number is written, and in other scripts' digits.
    { fname: '41111111', lname: '11111111' },
    { fname: '４１１１１１１１', lname: '١١١١١١١١' },
  ];
  const REFUSED = {
    'customer.fname': 'must not contain a card number: with the last name after it, it holds one',
    'customer.lname': 'must not contain a card number: with the first name before it, it holds one',
  };

  it('is refused from the payer and from the merchant, both names named, and nothing is kept', async () => {
    const stack = await openStack();
    for (const names of split) {
      const session = await stack.openSession();
      const paid = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, ...names } }));
      const text = await paid.text();
      expect(paid.status, text).toBe(400);
      expect(JSON.parse(text).error.fields).toEqual(REFUSED);
      expect(text).not.toContain(names.lname);
      expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
      const prefilled = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', customer: names } });
      expect(prefilled.status).toBe(400);
      expect((await prefilled.json()).error.fields).toEqual(REFUSED);
    }
    expect(stack.logs.join('\n')).not.toMatch(/4111 1111/);
  });

  it('is refused where the merchant prefilled one name and the payer typed the other, both named', async () => {
    const stack = await openStack();
    const session = await stack.openSession({ customer: { fname: 'Olena 4111 1111' } });
    const paid = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, fname: undefined, lname: '1111 1111 Koval' } }));
    const text = await paid.text();
    expect(paid.status, text).toBe(400);
    expect(JSON.parse(text).error.fields).toEqual(REFUSED);
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
    const hosted = await stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { body: { customer: { email: CUSTOMER.email, phone: CUSTOMER.phone, lname: '1111 1111 Koval' } } });
    expect(hosted.status).toBe(400);
    expect((await hosted.json()).error.fields).toEqual(REFUSED);
  });

  it('keeps names whose digits make no card number together', async () => {
    const stack = await openStack();
    const session = await stack.openSession();
    const names = { fname: 'Olena 2026', lname: 'Koval 4111 1111' };
    expect(await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ customer: { ...CUSTOMER, ...names } }) })).toMatchObject({ status: 'success' });
    expect((await stack.ledger.getPayment(session.order_id))?.customer).toMatchObject(names);
  });
});

describe('the e-mail address', () => {
  it('takes every address the widget takes, a one-letter top-level domain and an internationalised one included', async () => {
    const stack = await openStack();
    for (const email of ['a@b.c', 'олена@приклад.укр']) {
      const session = await stack.openSession();
      expect(await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ customer: { ...CUSTOMER, email } }) })).toMatchObject({ status: 'success' });
      expect((await stack.ledger.getPayment(session.order_id))?.customer).toMatchObject({ email });
    }
  });

  // Control characters and bidi overrides would show another address than the one kept (U+202E
  // reverses what follows in the back office and a receipt).
  it.each(['unregistered', 'a@@b.c', 'olena koval@example.com', 'a\u001b[31m@b.c', 'moc.evil\u202e@b.c', 'a@b\u2066.c', 'a\u0085b@c.d', 'ol\u200bena@b.c', 'olena@exam\u00adple.com'])('refuses %j, naming the field', async (email) => {
    const stack = await openStack();
    const session = await stack.openSession();
    const response = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, email } }));
    const text = await response.text();
    expect(response.status, text).toBe(400);
    expect(JSON.parse(text).error.fields).toEqual({ 'customer.email': 'must be an e-mail address' });
    expect((await stack.ledger.getSession(session.id))?.payment).toBeNull();
  });
});

describe('a card number written into the tax id or the customer id a merchant sends', () => {
  const REFUSED = 'must not contain a card number';
  const written = [
    '4242 4242 4242 4242', '4242-4242-4242-4242', '4111111111111111', 'cus_4111111111111111', 'tax 5555.5555.5555.4444',
    // A card number and more, written in groups: not one long id.
    '4242 4242 4242 4242 4242', '4242-4242-4242-4242-4242',
    // A card number with its security code run in, failing the check digit as a whole.
    '4111111111111111123',
    // Separated by what a reader does not see: URL escapes, character entities.
    'cust 4111%201111%201111%201111', '4111&#45;1111&#45;1111&#45;1111', '4111%2520 1111%25201111%25201111',
  ];

  async function refused(response: Response, field: string, value: string): Promise<void> {
    const text = await response.text();
    expect(response.status, `${field} ${JSON.stringify(value)}: ${text}`).toBe(400);
    expect(JSON.parse(text).error.fields, JSON.stringify(value)).toEqual({ [field]: REFUSED });
    expect(text).not.toContain(value);
    expect(text).not.toMatch(/\d{4}\D?\d{4}\D?\d{4}/);
  }

  it('is refused with the field named, not echoed, and nothing is kept', async () => {
    const stack = await openStack();
    for (const value of written) {
      await refused(await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', customer: { tax_id: value } } }), 'customer.tax_id', value);
      for (const method of ['purchase', 'lookup']) {
        await refused(await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', method, customer_id: value } }), 'customer_id', value);
      }
    }
    expect(await orderCount(stack)).toBe(0);
    expect(stack.changes).toEqual([]);
    expect(stack.logs.join('\n')).not.toContain('4111111111111111');
  });

  it('keeps ordinary ids: short runs of digits, UUIDs, phone numbers, timestamps, a 10-digit tax id', async () => {
    const stack = await openStack();
    const taxIds = ['3012345678', '1234567890', '12345678', 'UA-3012345678', '+380 50 123 4567', '380501234567', '1767225600000'];
    const customerIds = [
      ...taxIds,
      '42',
      '123456789012',
      '3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a3b',
      'cus_1767225600123',
      '2026-11-22T07:21:16.585Z',
      '5f0c6d2e9a1b4c3d8e7f6a5b',
      // Longer than any card number: a date-time and a sequence, even one a card number's
      // stretch of which passes (the logs mask it).
      '20261122143015123456',
      'cus_202611221430151234567890',
      '20261122424242424242',
      // 16 digits starting as UnionPay's do, failing the check digit: the log masks take it, the ids are the shop's.
      '6212345678901234',
    ];
    for (const taxId of taxIds) {
      const session = await stack.openSession({ customer: { tax_id: taxId } });
      expect((await stack.ledger.getSession(session.id))?.customer?.taxId, taxId).toBe(taxId);
    }
    for (const customerId of customerIds) {
      const session = await stack.openSession({ method: 'lookup', customer_id: customerId });
      expect(session.customer_id, customerId).toBe(customerId);
      expect((await stack.ledger.getSession(session.id))?.customerId, customerId).toBe(customerId);
    }
  });

  it('leaves the order id alone: a merchant numbers its orders as it likes, long runs of digits included', async () => {
    // The recogniser takes one in eight date-time ids of 20 digits, and one in thirty 16-digit
    // numbers, for a card number: refusing those would fail a shop's checkouts at random. The logs mask them.
    const stack = await openStack();
    for (const orderId of ['20261122143015123456', 'ORD20261122143015123456', '1767225600000', 'ORD-2026-11-22-0001']) {
      expect((await stack.openSession({ order_id: orderId })).order_id, orderId).toBe(orderId);
    }
  });
});

describe('a card number percent-escaped as the UTF-8 of other digits', () => {
  // What a browser puts in an address for "４１１１…" (full-width digits): the card check reads
  // those digits as a card number's once they are written out, so their escapes must be too.
  const fullWidth = (digits: string) => encodeURIComponent([...digits].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join(''));
  const escaped = fullWidth('4111111111111111');

  it('is refused in a return_url and a customer id, not echoed, and nothing is kept', async () => {
    const stack = await openStack();
    const open = (fields: Record<string, unknown>) => stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 10, currency: 'UAH', description: 'Tea', ...fields } });
    for (const [fields, field] of [
      [{ return_url: `https://shop.example/thanks?c=${escaped}` }, 'return_url'],
      // Escaped again, as a page that escapes a whole address puts it in its query.
      [{ return_url: `https://shop.example/thanks?c=${escaped.replace(/%/g, '%25')}` }, 'return_url'],
      // A Diners Club number's 14 digits: the escapes of 16 are longer than a customer id may be.
      [{ customer_id: fullWidth('30569309025904') }, 'customer_id'],
    ] as const) {
      const response = await open(fields);
      const text = await response.text();
      expect(response.status, text).toBe(400);
      expect(JSON.parse(text).error.fields).toEqual({ [field]: 'must not contain a card number' });
      expect(text).not.toContain('%EF%BC%');
    }
    expect(await orderCount(stack)).toBe(0);
  });

  it('leaves malformed escapes as they are written: the address is taken, nothing thrown', async () => {
    const stack = await openStack();
    // A lead byte cut short, a lone continuation byte, an overlong form, a byte UTF-8 never uses.
    const return_url = 'https://shop.example/thanks?a=%EF%BC&b=%94%94&c=%C0%80&d=%FF%FE&e=%E4%BD%A0';
    expect((await stack.openSession({ return_url })).return_url).toBe(return_url);
    // Full-width digits that make no card number are kept too.
    const order = `https://shop.example/thanks?order=${fullWidth('20261122')}`;
    expect((await stack.openSession({ return_url: order })).return_url).toBe(order);
  });
});
