// The logger never writes a card number, CVV or secret, whatever it is handed.
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, NetworkError, OutcomeUnknownError } from '@payform/gateway';
import { createLogger, memorySink } from './logger.js';
import { REDACTED, redact, redactForStorage } from './redact.js';

const PAN = '4242424242424242';
const CVV = '737';

function logged(write: (logger: ReturnType<typeof createLogger>) => void): string[] {
  const memory = memorySink();
  write(createLogger({ sink: memory.sink, level: 'debug', clock: () => Date.UTC(2030, 0, 1) }));
  return memory.lines;
}

describe('redact', () => {
  it('replaces values under card and secret keys, at any depth and in any spelling', () => {
    const value = redact({
      card: { number: PAN, cvv: CVV, exp_month: 12, expYear: 2030 },
      cc_number: PAN,
      card_cvv: CVV,
      'Card-CVV': CVV,
      headers: { authorization: 'Bearer secret-admin-token', 'x-api-auth': 'CPAY key:secret' },
      apiSecret: 'shh',
      cc_token: 'tok_123',
      signature: 'abc=',
      list: [{ cvc: '123' }],
      // Named in the widget's other languages.
      form: { codigo_de_seguridad: CVV, kodBezpieczenstwa: CVV, 'код_безпеки': CVV, Kartenpruefnummer: CVV, cryptogramme: CVV, kod_pocztowy: '00-950' },
      gateway_echo: { cv2: CVV, cvn: CVV, card_code: CVV, CardCv2: CVV, cardCode: CVV, cid: 'c-42', bytes_rcvd: 1234, svc_v2: 'payments', discard_code: 'D1' },
      amount: 1010,
      order_id: 'order-1',
    });
    expect(value).toEqual({
      card: { number: REDACTED, cvv: REDACTED, exp_month: REDACTED, expYear: REDACTED },
      cc_number: REDACTED,
      card_cvv: REDACTED,
      'Card-CVV': REDACTED,
      headers: { authorization: REDACTED, 'x-api-auth': REDACTED },
      apiSecret: REDACTED,
      cc_token: REDACTED,
      signature: REDACTED,
      list: [{ cvc: REDACTED }],
      form: { codigo_de_seguridad: REDACTED, kodBezpieczenstwa: REDACTED, 'код_безпеки': REDACTED, Kartenpruefnummer: REDACTED, cryptogramme: REDACTED, kod_pocztowy: '00-950' },
      // A bare `cid` is as often a customer's id: not taken for Amex's code; nor are words that only hold the letters.
      gateway_echo: { cv2: REDACTED, cvn: REDACTED, card_code: REDACTED, CardCv2: REDACTED, cardCode: REDACTED, cid: 'c-42', bytes_rcvd: 1234, svc_v2: 'payments', discard_code: 'D1' },
      amount: 1010,
      order_id: 'order-1',
    });
  });

  it('keeps the ids the ledger and the gateway make whole, though a run of digits in them looks like a card number', () => {
    const ids = {
      order_id: 'ab412345678901234cd0',
      retry: { order_id: 'ab412345678901234cd0:2' },
      paymentId: '6f1c2a3b-4d5e-4f60-8123-456789012345',
      event_id: `${'4'.repeat(16)}${'e'.repeat(48)}`,
    };
    expect(redact(ids)).toEqual(ids);
  });

  it('masks card numbers in ids of any other shape', () => {
    expect(redact({ order_id: PAN, 'Order-Id': 'o-4111111111111111', id: `card ${PAN} exp`, transaction_id: '42424242424242420000' })).toEqual({
      order_id: '[card number]',
      'Order-Id': 'o-[card number]',
      id: 'card [card number] exp',
      transaction_id: '[card number]',
    });
    // Twenty hexadecimal characters, but a card number and a few letters: not a made id.
    expect(redact({ order_id: '4242424242424242abce', payment_id: 'abce4242424242424242:2' })).toEqual({ order_id: '[card number]abce', payment_id: 'abce[card number]:2' });
  });

  it('keeps a client address or network whole, though its digit groups read as a card number', () => {
    // Written out in full, about one all-digit IPv6 address in four holds a run the mask would take.
    const address = '2607:5300:0203:1234::1';
    expect(redact(`from ${address}`)).toBe('from [card number]::1');
    expect(redact({ client: address, network: '2601:0644:8100:1230::/64', request: { client: { ip: '2601:0644:8100:1230:0000:0000:0000:0001' } } })).toEqual({
      client: address,
      network: '2601:0644:8100:1230::/64',
      request: { client: { ip: '2601:0644:8100:1230:0000:0000:0000:0001' } },
    });
    // As the gateway's requests name it (the sandbox's inspector shows them): the customer's, and the browser's.
    const wire = { customer_ip: address, browser_fingerprint: { browserIpAddress: address } };
    expect(redact(wire)).toEqual(wire);
    // Only an address is kept there: anything else under those keys is masked as any text is.
    expect(redact({ client: `card ${PAN}`, ip: PAN, network: `${address}/129`, remote_address: '4242:4242:4242:4242' })).toEqual({
      client: 'card [card number]',
      ip: '[card number]',
      // Read as a card number and its code after it, as a card dump is.
      network: '[card number]::1/[cvv]',
      remote_address: '[card number]',
    });
  });

  it('masks card-like digit runs in free text, spaced or dashed', () => {
    expect(redact(`card ${PAN} and 4242 4242 4242 4242 and 4242-4242-4242-4242 failed`)).toBe(
      'card [card number] and [card number] and [card number] failed',
    );
    expect(redact({ note: `number=${PAN}` })).toEqual({ note: 'number=[card number]' });
    // Digits typed one by one with spaces between them are a card number too.
    expect(redact(`pan ${PAN.split('').join(' ')} end`)).toBe('pan [card number] end');
    // Short numbers (amounts, years, codes) stay readable.
    expect(redact('amount 1010 in 2030, code 4153')).toBe('amount 1010 in 2030, code 4153');
    // A CVV mentioned in text is masked, however few digits are around it, and however written.
    expect(redact(`cvv ${CVV}`)).toBe('cvv [cvv]');
    expect(redact({ note: 'cvv %37%33%37', uk: 'код безпеки 737' })).toEqual({ note: 'cvv [cvv]', uk: 'код безпеки [cvv]' });
    // A card number written in two parts, in text that speaks of a card; two ids so written are kept.
    expect(redact('card 4242-4242 4242-4242 and BIN 424242 4242424242, cvv 737')).toBe('card [card number] and BIN [card number], cvv [cvv]');
    expect(redact('parcels 402950 5606806047 shipped')).toBe('parcels 402950 5606806047 shipped');
  });

  it('masks a card number sent as a JSON number, under a key it does not know', () => {
    expect(redact(JSON.parse(`{"card_num": ${PAN}, "amount": 1010}`))).toEqual({ card_num: '[card number]', amount: 1010 });
    expect(redact(Number(PAN))).toBe('[card number]');
    // Past 19 digits, what is left of the number is judged: a card number with digits run after it.
    expect(redact(JSON.parse(`{"extra": ${PAN}5000}`))).toEqual({ extra: '[card number]' });
    // A fraction's whole part is judged too; an amount with a fraction is kept.
    expect(redact(JSON.parse(`{"extra_amount": ${PAN}.5, "share": 0.${PAN}, "rate": 1234567890123.25, "fee": 10.1}`))).toEqual({ extra_amount: '[card number]', share: '[card number]', rate: 1234567890123.25, fee: 10.1 });
  });

  it('masks a card number of 14 digits sent as a JSON number, and keeps shorter whole numbers', () => {
    // Diners Club's test number: the shortest card numbers issued.
    expect(redact(JSON.parse('{"ref": 30569309025904, "amount": 1010, "at": 1767225600000}'))).toEqual({ ref: '[card number]', amount: 1010, at: 1767225600000 });
  });

  it('masks a card number sent as a key', () => {
    expect(redact(JSON.parse(`{"${PAN}": "${CVV}", "note": {"4242 4242 4242 4242": true}}`))).toEqual({
      '[card number]': CVV,
      note: { '[card number]': true },
    });
  });

  it('masks card numbers whatever separates their digits, in keys and numbers too', () => {
    const wide = PAN.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    expect(
      redact({ note: `card 4242.4242.4242.4242 or 4242\u00a04242\u00a04242\u00a04242 and ${wide}`, '4242_4242_4242_4242': 'typed', ref: Number(PAN) }),
    ).toEqual({ note: 'card [card number] or [card number] and [card number]', '[card number]': 'typed', ref: '[card number]' });
    // Ordinary data is kept as written: a log line can be searched for its order, phone or time.
    for (const kept of ['order 123456789012', 'Order e4-1795384870676 already exists', 'call +380501234567', 'at 2026-11-23 07:21:16.123']) {
      expect(redact(kept)).toBe(kept);
    }
  });

  it('keeps a `__proto__` key as a key, its value redacted, and the copy a plain object', () => {
    const copy = redact(JSON.parse(`{"__proto__": {"card_cvv": "${CVV}", "note": "${PAN}"}, "status": "success"}`)) as object;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(`{"__proto__":{"card_cvv":"${REDACTED}","note":"[card number]"},"status":"success"}`);
  });

  it('keeps errors readable: name, masked message and stack, status, fields, cause', () => {
    const cause = new InvalidRequestError(`bad card ${PAN}`, { status: 400, fields: [{ field: 'cc_number', reason: 'fails the Luhn check' }] });
    const error = new OutcomeUnknownError('create payment', 'order-1', cause);
    const value = redact(error) as { name: string; cause: unknown };
    expect(value.name).toBe('OutcomeUnknownError');
    expect(JSON.stringify(value)).not.toContain(PAN);
    expect(value.cause).toMatchObject({ name: 'InvalidRequestError', status: 400, fields: [{ field: 'cc_number', reason: 'fails the Luhn check' }] });
  });

  it('writes a stack for a fault, none for the gateway’s outcomes nor what caused them', () => {
    const fault = redact(new TypeError(`cannot read ${PAN}`)) as { stack?: string };
    expect(fault.stack).toMatch(/^TypeError: cannot read \[card number\]\n\s+at /);
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const unknown = redact(new OutcomeUnknownError('create payment', 'order-1', new NetworkError('no answer', { connectFailed: false, cause: reset })));
    expect(unknown).toEqual({
      name: 'OutcomeUnknownError',
      message: expect.stringContaining('order order-1 is unknown'),
      cause: { name: 'NetworkError', message: 'no answer', cause: { name: 'Error', message: 'socket hang up', code: 'ECONNRESET' } },
    });
    // A fault that a gateway error wraps is the gateway error's business too, and one it wraps keeps its own.
    expect(redact({ err: new TypeError('x', { cause: new NetworkError('y', { connectFailed: true }) }) })).toMatchObject({ err: { stack: expect.any(String), cause: { name: 'NetworkError' } } });
    expect(JSON.stringify(redact({ err: new TypeError('x', { cause: new NetworkError('y', { connectFailed: true }) }) }))).not.toMatch(/"cause":\{[^}]*"stack"/);
  });

  it('survives cycles, deep nesting, bytes and functions', () => {
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { pan: PAN };
    for (let i = 0; i < 20; i += 1) deep = { deep };
    expect(redact({ cyclic, deep, bytes: new Uint8Array(3), fn: () => PAN })).toEqual({
      cyclic: { name: 'a', self: '[circular]' },
      deep: expect.anything(),
      bytes: '[3 bytes]',
      fn: undefined,
    });
    expect(JSON.stringify(redact(deep))).not.toContain(PAN);
  });
});

describe('redactForStorage', () => {
  // A card number's digits however written, and the places they hide in a stored gateway body.
  const wide = PAN.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));

  it('masks card numbers in values, keys and numbers, whatever separates their digits', () => {
    const body = JSON.parse(`{"big": 4111111111111111003, "ref": ${PAN}}`) as Record<string, unknown>;
    expect(
      redactForStorage({
        status_description: 'Declined: card 4242\u2009 4242\u2009 4242\u2009 4242, cvv2 737',
        note: `pan 4242_4242_4242_4242 or 4242 - 4242 - 4242 - 4242 or ${wide} or 4242\t4242\t4242\t4242`,
        echo: { '4242,4242,4242,4242': 'typed as a key', [PAN]: PAN, ...body },
        list: [Number(PAN), `x${PAN}y`],
      }),
    ).toEqual({
      status_description: 'Declined: card [card number], cvv2 [cvv]',
      note: 'pan [card number] or [card number] or [card number] or [card number]',
      echo: { '[card number]': '[card number]', big: '[card number]', ref: '[card number]' },
      list: ['[card number]', 'x[card number]y'],
    });
  });

  it('replaces secrets under their keys, as the log does', () => {
    expect(redactForStorage({ cc_token: 'a'.repeat(40), card: { number: '4242', cvv: CVV }, signature: 'abc=' })).toEqual({
      cc_token: REDACTED,
      card: { number: REDACTED, cvv: REDACTED },
      signature: REDACTED,
    });
  });

  it('keeps gateway ids, phones, dates and amounts whole: they are the audit trail', () => {
    const body = {
      payment_id: '6f1c2a3b-4d5e-4f60-8123-456789012345',
      order_id: 'ab412345678901234cd0',
      gateway_order_id: '123456789012',
      billing_order_id: '9876543210',
      rrn: '987654321098',
      approval_code: 123456,
      customer_phone: '+380501234567',
      phone: '+49 1512 3456704', // passes the Luhn check, 13 digits: written with + it is a phone
      status_code: '4153',
      status_description: 'Declined by issuer 123456789012 on 2026-11-22 10:00:00, call +380 44 123 4567',
      amount: 1010.5,
      fee: { amount: 20.2, currency: 'UAH' },
      created_at: '2026-11-22T10:00:00.123',
      receipt_url: 'http://127.0.0.1:3001/receipts/8d6a0c7e9b1f2a3c4d5e6f7a8b9c0d1e',
      gateway_ids: [123456789012, 9007199254740991],
    };
    expect(redactForStorage(body)).toEqual(body);
  });
});

describe('createLogger', () => {
  it('writes one JSON line per call with level, time and redacted fields', () => {
    const lines = logged((log) => log.info(`paying with ${PAN}`, { card: { number: PAN, cvv: CVV }, order_id: 'o-1' }));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      time: '2030-01-01T00:00:00.000Z',
      level: 'info',
      msg: 'paying with [card number]',
      card: { number: REDACTED, cvv: REDACTED },
      order_id: 'o-1',
    });
    expect(lines[0]).not.toContain(PAN);
    expect(lines[0]).not.toContain(`"${CVV}"`);
  });

  it('drops lines below its level and carries a child’s bindings, redacted too', () => {
    const memory = memorySink();
    const logger = createLogger({ sink: memory.sink, level: 'warn' });
    logger.info('not written');
    logger.child({ request: 'r-1', token: 'secret-token' }).warn('written', { err: new Error(`declined ${PAN}`) });
    expect(memory.lines).toHaveLength(1);
    const line = JSON.parse(memory.lines[0]!);
    expect(line).toMatchObject({ level: 'warn', request: 'r-1', token: REDACTED, err: { name: 'Error', message: 'declined [card number]' } });
  });

  it('never throws on what it cannot serialise', () => {
    const lines = logged((log) => log.error('odd', { big: 10n, sym: Symbol('x') as unknown }));
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'odd', big: '10' });
  });
});
