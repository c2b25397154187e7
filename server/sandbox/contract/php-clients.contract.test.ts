/**
 * Contract: what the PHP clients of the live gateway send (issue 18), over real HTTP — a Laravel
 * package and a strictly typed SDK, written out here by hand with no code of server/gateway.
 * Bodies are JSON as PHP's json_encode writes them: every unset field `null`, numbers as strings,
 * contact data as the shopper typed it. Queries are what http_build_query writes: `true` as `1`.
 *
 * A tolerant project (the default) takes each of these as the live gateway does, and its request
 * inspector names what it dropped, read otherwise or did not hold; a strict project refuses each,
 * naming the rule. Payouts (`method: credit`) are the interface, not a leniency: both take them.
 */
import { describe, expect, it } from 'vitest';
import { useServedSandbox } from '../testing/served.js';

type Json = Record<string, unknown>;
type Note = { kind: string; field: string; what?: string; rule?: string; reason?: string };

const STRICT = { posId: 'e3b1c6d2-7a4f-4c85-9b0e-2f6d8a1c5e47', apiKey: 'strict-api-key' };
const sandbox = useServedSandbox({ projects: [{ strict: false }, { ...STRICT, strict: true }], frozenClock: false });

type Mode = 'tolerant' | 'strict';
const posOf = (mode: Mode) => (mode === 'strict' ? STRICT.posId : sandbox.project.posId);

/** One request as the PHP clients send it: CPAY credentials, the endpoints key, JSON, no redirects followed. */
function send(mode: Mode, method: 'GET' | 'POST', path: string, body?: Json): Promise<Response> {
  const { apiSecret, endpointsKey } = sandbox.project;
  const apiKey = mode === 'strict' ? STRICT.apiKey : sandbox.project.apiKey;
  return fetch(`${sandbox.url}/api/v1/${path}`, {
    method,
    redirect: 'manual',
    headers: {
      'X-API-Auth': `CPAY ${apiKey}:${apiSecret}`,
      'X-API-Key': endpointsKey,
      Accept: 'application/json',
      'User-Agent': 'GuzzleHttp/7',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** PHP's http_build_query: `true` is `1`, `false` is `0`, a `null` is left out. */
function phpQuery(params: Record<string, string | number | boolean | null>): string {
  const pairs = Object.entries(params).flatMap(([name, value]): [string, string][] =>
    value === null ? [] : [[name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value)]],
  );
  return new URLSearchParams(pairs).toString();
}

async function json(response: Response, status = 200): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text === '' ? {} : (JSON.parse(text) as Json);
}

const violations = async (response: Response) => ((await json(response, 400)).args as { field_name: string; violation: string }[]);

/** The inspector's notes of the latest recorded request to `path`. */
async function notesOf(path: string): Promise<Note[]> {
  const { requests } = await sandbox.control<{ requests: { path: string; notes: Note[] }[] }>('GET', '/_sandbox/requests');
  const recorded = requests.find((request) => request.path === path);
  if (!recorded) throw new Error(`no request to ${path} was recorded`);
  return recorded.notes;
}

let orders = 0;
const orderId = (prefix: string) => `${prefix}-${Date.now()}-${(orders += 1)}`;

const fingerprint = {
  browserColorDepth: '24', browserScreenHeight: '1080', browserScreenWidth: '1920', browserJavaEnabled: 'false',
  browserLanguage: 'uk-UA', browserTimeZone: 'Europe/Kyiv', browserTimeZoneOffset: '-120',
  browserAcceptHeader: 'text/html', browserIpAddress: '203.0.113.7', browserUserAgent: 'Mozilla/5.0',
};

/**
 * The amount as the PHP clients send it, a decimal string, to a tolerant project; a strict one,
 * which refuses it (see "an amount as a decimal string"), is sent the number, so that each
 * strict test below meets only the rule it is about.
 */
const amountFor = (mode: Mode, amount: string): string | number => (mode === 'strict' ? Number(amount) : amount);

/** What the inspector says of a tolerant project's reading of such an amount. */
const amountRead = { kind: 'coerced', field: 'amount', from: 'string', to: 'number', what: 'numeric string read as a number', rule: expect.stringContaining('Number') };

/** The Laravel package's direct purchase, the amount as a string. */
const directPurchase = (mode: Mode, extra: Json = {}): Json => ({
  pos_id: posOf(mode),
  mode: 'direct',
  method: 'purchase',
  amount: amountFor(mode, '120.00'),
  currency: 'UAH',
  description: 'Order #1001',
  order_id: orderId('laravel'),
  order_3ds_bypass: 'supported',
  cc_number: '4242424242424242',
  exp_month: 12,
  exp_year: 2030,
  card_cvv: '123',
  customer_fname: 'Olena',
  customer_lname: 'Koval',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
  customer_ip: '203.0.113.7',
  browser_fingerprint: fingerprint,
  server_url: sandbox.receiver.url('/gateway/webhook'),
  ...extra,
});

/** The SDK's hosted purchase: what the interface asks of a hosted payment. */
const hostedPurchase = (mode: Mode, extra: Json = {}): Json => ({
  pos_id: posOf(mode),
  mode: 'hosted',
  method: 'purchase',
  amount: amountFor(mode, '250.00'),
  currency: 'UAH',
  description: 'Order #2002',
  order_id: orderId('sdk'),
  order_3ds_bypass: 'supported',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
  server_url: sandbox.receiver.url('/gateway/webhook'),
  result_url: 'https://shop.example/return',
  ...extra,
});

describe('null in an optional field (an SDK sends every unset field as null)', () => {
  const nulls = { customer_id: null, customer_patronym: null, payload: null, products: null, merchant_mcc: null, validation_url: null, cc_token: null };

  it('is dropped by a tolerant project, and the inspector says so', async () => {
    const paid = await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', nulls)));
    expect(paid).toMatchObject({ status: 'success', status_code: '1000', customer_id: null, payload: null });
    const notes = await notesOf('/api/v1/payment');
    expect(notes.map(({ kind, field, what }) => ({ kind, field, what }))).toEqual(
      expect.arrayContaining(Object.keys(nulls).map((field) => ({ kind: 'ignored', field, what: 'null dropped' }))),
    );
    expect(notes).toContainEqual(amountRead);
    expect(notes).toHaveLength(Object.keys(nulls).length + 1);
  });

  it('is refused by a strict project, naming each field and the strict rule', async () => {
    expect(await violations(await send('strict', 'POST', 'payment', directPurchase('strict', nulls)))).toEqual(
      expect.arrayContaining(['customer_id', 'payload'].map((field_name) => ({ field_name, violation: 'must be a string, not null (an optional field is left out for none)' }))),
    );
    const notes = await notesOf('/api/v1/payment');
    expect(notes.find((note) => note.field === 'customer_id')).toMatchObject({ kind: 'refused', rule: expect.stringContaining('strict') });
  });
});

describe('an amount as a decimal string (json_encode of the PHP string the package keeps it in)', () => {
  it('is read as its number by a tolerant project, and the inspector says so', async () => {
    const body: Json = { ...directPurchase('tolerant'), amount: '120.00' };
    expect(await json(await send('tolerant', 'POST', 'payment', body))).toMatchObject({ status: 'success', amount: 120 });
    expect(await notesOf('/api/v1/payment')).toEqual([amountRead]);
    const refund = await json(await send('tolerant', 'POST', 'refund', { pos_id: posOf('tolerant'), order_id: body.order_id, order_currency: 'UAH', refund_amount: '20.50' }));
    expect(refund).toMatchObject({ method: 'refund', status: 'success', amount: 20.5 });
    expect(await notesOf('/api/v1/refund')).toEqual([{ ...amountRead, field: 'refund_amount' }]);
  });

  it('is refused by a strict project, which reads amounts as payform’s client sends them: JSON numbers', async () => {
    const body: Json = { ...directPurchase('strict'), amount: '120.00' };
    expect(await violations(await send('strict', 'POST', 'payment', body))).toEqual([{ field_name: 'amount', violation: 'must be a number' }]);
    expect(await notesOf('/api/v1/payment')).toEqual([{ kind: 'refused', field: 'amount', reason: 'must be a number', rule: expect.stringContaining('strict') }]);
    const paid = await json(await send('strict', 'POST', 'payment', directPurchase('strict')));
    const refund = { pos_id: posOf('strict'), order_id: paid.order_id, order_currency: 'UAH', refund_amount: '20.50' };
    expect(await violations(await send('strict', 'POST', 'refund', refund))).toEqual([{ field_name: 'refund_amount', violation: 'must be a number' }]);
  });
});

describe('a partial refund whose amount went out as null (json_encode of an unset amount)', () => {
  it('is refused by every project, rather than dropped into a full refund', async () => {
    for (const mode of ['tolerant', 'strict'] as const) {
      const paid = await json(await send(mode, 'POST', 'payment', directPurchase(mode)));
      const refund = { pos_id: posOf(mode), order_id: paid.order_id, order_currency: 'UAH', refund_amount: null };
      expect(await violations(await send(mode, 'POST', 'refund', refund))).toEqual([
        { field_name: 'refund_amount', violation: 'must be the amount, not null: without refund_amount all that is left would be refunded (leave refund_amount out for a full refund)' },
      ]);
      expect((await notesOf('/api/v1/refund'))[0]).toMatchObject({ kind: 'refused', field: 'refund_amount', rule: expect.stringContaining('refused in every mode') });
      const { refund_amount: _null, ...full } = refund;
      expect(await json(await send(mode, 'POST', 'refund', full))).toMatchObject({ method: 'refund', status: 'success', amount: 120 });
    }
  });
});

describe('callback=1 on the webhook re-send (http_build_query writes true as 1)', () => {
  it('is true for a tolerant project, spelt 1, true or True: the webhook goes again, and the inspector names the reading', async () => {
    const paid = await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant')));
    const order = String(paid.order_id);
    await sandbox.receiver.waitFor(order, 1);
    const path = `pos/${sandbox.project.posId}/orders/${order}/purchase`;
    const spellings = [
      [true, [{ kind: 'coerced', field: 'callback', from: '1', to: 'true', what: '`1` read as true', rule: expect.stringContaining('Boolean') }]],
      ['true', []],
      ['True', [{ kind: 'coerced', field: 'callback', from: 'True', to: 'true', what: '`True` read as true', rule: expect.stringContaining('Boolean') }]],
    ] as const;
    let sent = 1;
    for (const [spelling, notes] of spellings) {
      const resent = await json(await send('tolerant', 'GET', `${path}?${phpQuery({ callback: spelling, transactionId: null })}`));
      expect(resent).toMatchObject({ method: 'purchase', status: 'success' });
      sent += 1;
      expect(await sandbox.receiver.waitFor(order, sent)).toHaveLength(sent);
      expect(await notesOf(`/api/v1/${path}`)).toEqual(notes);
    }
  });

  it('is refused by a strict project', async () => {
    const paid = await json(await send('strict', 'POST', 'payment', directPurchase('strict')));
    const path = `pos/${STRICT.posId}/orders/${String(paid.order_id)}/purchase`;
    expect(await violations(await send('strict', 'GET', `${path}?${phpQuery({ callback: true })}`))).toEqual([
      { field_name: 'callback', violation: 'must be one of true' },
    ]);
    expect((await notesOf(`/api/v1/${path}`))[0]).toMatchObject({ kind: 'refused', field: 'callback', rule: expect.stringContaining('strict') });
  });
});

describe('a hosted payment without customer_phone or customer_email (the gateway’s own plugins send no phone)', () => {
  const withoutContact = (mode: Mode) => {
    const { customer_phone: _phone, customer_email: _email, ...rest } = hostedPurchase(mode);
    return rest;
  };

  it('is created by a tolerant project, and the inspector names the rule it did not hold', async () => {
    const created = await send('tolerant', 'POST', 'payment', withoutContact('tolerant'));
    expect(created.status, await created.clone().text()).toBe(303);
    expect(created.headers.get('location')).toMatch(/\/api\/v1\/checkout\/[^/]+\/form$/);
    expect(await notesOf('/api/v1/payment')).toEqual([
      amountRead,
      { kind: 'waived', field: 'customer_email', what: 'absent: taken without it', rule: expect.stringContaining('hosted') },
      { kind: 'waived', field: 'customer_phone', what: 'absent: taken without it', rule: expect.stringContaining('hosted') },
    ]);
  });

  it('is refused by a strict project', async () => {
    expect(await violations(await send('strict', 'POST', 'payment', withoutContact('strict')))).toEqual([
      { field_name: 'customer_email', violation: 'is required' },
      { field_name: 'customer_phone', violation: 'is required' },
    ]);
    expect((await notesOf('/api/v1/payment')).map((note) => note.rule)).toEqual([expect.stringContaining('strict'), expect.stringContaining('strict')]);
  });

  it('still needs them in direct mode, where the interface and the live gateway both ask for them', async () => {
    const { customer_phone: _phone, ...direct } = directPurchase('tolerant');
    expect(await violations(await send('tolerant', 'POST', 'payment', direct))).toEqual([{ field_name: 'customer_phone', violation: 'is required' }]);
  });
});

describe('customer_email that is not an address (the gateway’s plugins send `unregistered` for guests)', () => {
  it('is taken as the string it is by a tolerant project, in both modes, and echoed as sent', async () => {
    const paid = await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', { customer_email: 'unregistered' })));
    expect(paid).toMatchObject({ status: 'success', customer_email: 'unregistered' });
    expect(await notesOf('/api/v1/payment')).toEqual([
      amountRead,
      { kind: 'waived', field: 'customer_email', what: 'not an address: taken as a string', rule: expect.stringContaining('String') },
    ]);
    expect((await send('tolerant', 'POST', 'payment', hostedPurchase('tolerant', { customer_email: 'unregistered' }))).status).toBe(303);
  });

  it('is refused by a strict project; anything longer than a String(≤256) by every project', async () => {
    expect(await violations(await send('strict', 'POST', 'payment', directPurchase('strict', { customer_email: 'unregistered' })))).toEqual([
      { field_name: 'customer_email', violation: 'must be an email address' },
    ]);
    const tooLong = await violations(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', { customer_email: 'x'.repeat(300) })));
    expect(tooLong.map((violation) => violation.field_name)).toEqual(['customer_email', 'customer_email']);
  });
});

describe('customer_phone as the shopper typed it', () => {
  it('is read as its digits by a tolerant project', async () => {
    const paid = await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', { customer_phone: '+38 (050) 123-45-67' })));
    expect(paid).toMatchObject({ status: 'success', customer_phone: '+380501234567' });
    expect(await notesOf('/api/v1/payment')).toEqual([
      amountRead,
      { kind: 'coerced', field: 'customer_phone', from: 'phone as typed', to: 'digits', what: 'spaces, brackets and dashes left out', rule: expect.stringContaining('phone') },
    ]);
    // The inspector shows the phone as it was sent: a phone number is not a card number.
    const { requests } = await sandbox.control<{ requests: { body: Json }[] }>('GET', '/_sandbox/requests');
    expect(requests[0]?.body).toMatchObject({ customer_phone: '+38 (050) 123-45-67', cc_number: '[redacted]' });
  });

  it('is refused by a strict project; what holds too few digits or letters by every project', async () => {
    expect(await violations(await send('strict', 'POST', 'payment', directPurchase('strict', { customer_phone: '+38 (050) 123-45-67' })))).toEqual([
      { field_name: 'customer_phone', violation: 'must be 7 to 15 digits, optionally after a +' },
    ]);
    for (const phone of ['(050) 12', 'call me', '+38 050 123 45 67 ext 2']) {
      expect(await violations(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', { customer_phone: phone })))).toEqual([
        { field_name: 'customer_phone', violation: 'must be 7 to 15 digits, optionally after a +' },
      ]);
    }
  });
});

describe('a two-digit exp_year, as the gateway’s published example sends', () => {
  it('is widened to 20yy by a tolerant project, as a number or a numeric string, and then held to the card’s expiry', async () => {
    for (const year of [30, '30']) {
      const paid = await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', { exp_month: '12', exp_year: year })));
      expect(paid).toMatchObject({ status: 'success', status_code: '1000' });
    }
    const notes = await notesOf('/api/v1/payment');
    expect(notes.map(({ kind, field, what }) => ({ kind, field, what }))).toEqual([
      { kind: 'coerced', field: 'amount', what: 'numeric string read as a number' },
      { kind: 'coerced', field: 'exp_month', what: 'numeric string read as a number' },
      { kind: 'coerced', field: 'exp_year', what: 'numeric string read as a number' },
      { kind: 'coerced', field: 'exp_year', what: 'two-digit year widened' },
    ]);
    // 25 is 2025: past, so the card has expired — read as a year, not refused.
    expect(await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant', { exp_year: 25 })))).toMatchObject({
      status: 'failure', status_code: '4001',
    });
  });

  it('is refused by a strict project', async () => {
    expect(await violations(await send('strict', 'POST', 'payment', directPurchase('strict', { exp_year: 30 })))).toEqual([
      { field_name: 'exp_year', violation: 'must be at least 2000' },
    ]);
    expect((await notesOf('/api/v1/payment'))[0]).toMatchObject({ field: 'exp_year', rule: expect.stringContaining('strict') });
  });
});

describe('fields the interface marks "not sent" in hosted mode', () => {
  const notSent = { customer_ip: '203.0.113.7', customer_referrer: 'https://shop.example/cart', browser_fingerprint: fingerprint, cryptogram: { type: 'none' } };

  it('are ignored by a tolerant project like any unknown field', async () => {
    const created = await send('tolerant', 'POST', 'payment', hostedPurchase('tolerant', notSent));
    expect(created.status, await created.clone().text()).toBe(303);
    expect((await notesOf('/api/v1/payment')).map(({ kind, field, what }) => ({ kind, field, what }))).toEqual([
      ...Object.keys(notSent).map((field) => ({ kind: 'ignored', field, what: 'not sent in this mode: ignored' })),
      { kind: 'coerced', field: 'amount', what: 'numeric string read as a number' },
    ]);
  });

  it('are refused by a strict project; card data in hosted mode by every project', async () => {
    expect(await violations(await send('strict', 'POST', 'payment', hostedPurchase('strict', notSent)))).toEqual(
      Object.keys(notSent).map((field) => ({ field_name: field, violation: 'is not sent in hosted mode' })),
    );
    expect(await violations(await send('tolerant', 'POST', 'payment', hostedPurchase('tolerant', { cc_number: '4242424242424242' })))).toEqual([
      { field_name: 'cc_number', violation: 'is not sent in hosted mode' },
    ]);
  });

  it('the SDK’s hosted payment, every unset field null, card fields included, is created by a tolerant project', async () => {
    const everyField = {
      cc_number: null, exp_month: null, exp_year: null, card_cvv: null, cc_token: null, customer_id: null, customer_fname: null,
      customer_lname: null, customer_ip: null, customer_lang: 'UK', customer_referrer: null, browser_fingerprint: null,
      cryptogram: null, order_timeout: '900', payload: null, products: [],
    };
    const created = await send('tolerant', 'POST', 'payment', hostedPurchase('tolerant', everyField));
    expect(created.status, await created.clone().text()).toBe(303);
  });
});

describe('payouts: method credit on POST /api/v1/payment (the Laravel package’s payouts)', () => {
  /** A payout as the live documentation describes it: direct mode, the recipient's card number or a token. */
  const payout = (mode: Mode, recipient: Json, extra: Json = {}): Json => ({
    pos_id: posOf(mode),
    mode: 'direct',
    method: 'credit',
    amount: amountFor(mode, '500.00'),
    currency: 'UAH',
    description: 'Winnings #77',
    order_id: orderId('payout'),
    order_3ds_bypass: 'supported',
    customer_ip: '203.0.113.7',
    // The package sends an unset customer_id as null; a strict project refuses the null.
    customer_id: mode === 'strict' ? 'client-77' : null,
    customer_fname: 'Olena',
    customer_lname: 'Koval',
    recipient_first_name: 'Olena',
    recipient_last_name: 'Koval',
    server_url: sandbox.receiver.url('/gateway/webhook'),
    ...recipient,
    ...extra,
  });

  it('pays out to a card: success, a credit webhook, a receipt and a credit reference', async () => {
    for (const mode of ['tolerant', 'strict'] as const) {
      const body = payout(mode, { cc_number: '4242424242424242' });
      const credit = await json(await send(mode, 'POST', 'payment', body));
      expect(credit).toMatchObject({
        method: 'credit', mode: 'direct', status: 'success', status_code: '1000', amount: 500, currency: 'UAH',
        cc_mask: '424242******4242', user_action_required: false,
      });
      expect(credit.fee).toEqual({ amount: 7.55, currency: 'UAH' });
      expect(JSON.stringify(credit)).not.toContain('4242424242424242');
      if (mode === 'strict') continue;

      const [event] = await sandbox.receiver.waitFor(String(body.order_id), 1);
      expect(event).toMatchObject({ method: 'credit', order_id: body.order_id, payment_id: credit.payment_id, status: 'success', amount: 500 });
      const base = `pos/${sandbox.project.posId}/orders/${String(body.order_id)}/report/receipt`;
      // The interface requires transactionId for a credit's receipt: a payout has no incoming transaction.
      expect(await violations(await send(mode, 'GET', `${base}?format=html`))).toEqual([
        { field_name: 'transactionId', violation: 'is required for the receipt of a credit (a payout): send the credit’s transaction_id' },
      ]);
      const receipt = await send(mode, 'GET', `${base}?${phpQuery({ format: 'html', transactionId: String(credit.transaction_id) })}`);
      expect(receipt.status).toBe(200);
      expect(await receipt.text()).toContain('424242******4242');
      const reference = await send(mode, 'GET', `${base}?${phpQuery({ format: 'signed_pdf', creditReference: true, transactionId: String(credit.transaction_id) })}`);
      expect(reference.status).toBe(200);
      expect(reference.headers.get('content-type')).toBe('application/pdf');
    }
  });

  it('pays out with the token of an earlier purchase, and follows the test cards', async () => {
    const purchase = await json(await send('tolerant', 'POST', 'payment', directPurchase('tolerant')));
    const byToken = await json(await send('tolerant', 'POST', 'payment', payout('tolerant', { cc_token: purchase.cc_token })));
    expect(byToken).toMatchObject({ method: 'credit', status: 'success', cc_mask: purchase.cc_mask, cc_token: purchase.cc_token });

    const outcomes: [string, Json][] = [
      ['4000000000003220', { status: 'success', status_code: '1000', user_action_required: false }], // no 3-D Secure for a recipient
      ['4000000000000002', { status: 'failure', status_code: '4153' }],
      ['4000000000000069', { status: 'failure', status_code: '4001' }],
      ['4000000000000119', { status: 'pending', status_code: '2119' }],
    ];
    for (const [card, outcome] of outcomes) {
      expect(await json(await send('tolerant', 'POST', 'payment', payout('tolerant', { cc_number: card }))), card).toMatchObject(outcome);
    }
    expect(await json(await send('tolerant', 'POST', 'payment', payout('tolerant', { cc_token: 'f'.repeat(40) })))).toMatchObject({
      status: 'failure', status_code: '4144',
    });
  });

  it('refuses what the documentation does not allow: hosted mode, no recipient, both, no customer_ip, a used order_id', async () => {
    const refused = async (body: Json) => violations(await send('strict', 'POST', 'payment', body));
    expect(await refused(payout('strict', { cc_number: '4242424242424242', mode: 'hosted' }))).toEqual([{ field_name: 'mode', violation: 'must be direct: a credit has no hosted mode' }]);
    expect(await refused(payout('strict', {}))).toEqual([{ field_name: 'cc_number', violation: 'is required unless cc_token is sent' }]);
    expect(await refused(payout('strict', { cc_number: '4242424242424242', cc_token: 'f'.repeat(40) }))).toEqual([
      { field_name: 'cc_token', violation: 'is not sent together with cc_number' },
    ]);
    expect(await refused(payout('strict', { cc_number: '4242424242424241', customer_ip: undefined }))).toEqual([
      { field_name: 'cc_number', violation: 'fails the Luhn check' },
      { field_name: 'customer_ip', violation: 'is required' },
    ]);
    const body = payout('tolerant', { cc_number: '4242424242424242' });
    await json(await send('tolerant', 'POST', 'payment', body));
    expect(await json(await send('tolerant', 'POST', 'payment', body), 409)).toMatchObject({ args: { code: 'P-409' } });
  });
});
