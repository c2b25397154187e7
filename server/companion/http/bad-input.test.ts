// Bad input against every route, on SQLite and on PostgreSQL: never a 5xx, nothing changed.
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { memoryBackend, postgresBackend, withTestDatabase } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { sendBadInputEverywhere } from '../test/bad-input.js';
import { ADMIN_TOKEN, stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();
const unlimited = { rateLimits: { perSession: 100_000, perClient: 100_000 } };

function describeBadInput(backend: LedgerBackend): void {
  describe(`bad input against every route (${backend.name})`, () => {
    it('never answers 5xx, always the envelope, and changes nothing stored', async () => {
      const stack = await open({ backend, companion: unlimited });
      expect(await sendBadInputEverywhere(stack)).toBeGreaterThan(700);
    }, 180_000);
  });
}

describeBadInput(memoryBackend);
withTestDatabase((url) => describeBadInput(postgresBackend(url)));

describe('text no field can store as sent', () => {
  const session = { amount: 100, currency: 'UAH', description: 'Tea' };
  const refused = async (body: string) => {
    const stack = await open();
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body, headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(400);
    return (await response.json()).error.fields as Record<string, string>;
  };

  it('names the field that holds a NUL character, or half of a surrogate pair', async () => {
    expect(await refused(JSON.stringify({ ...session, description: 'a\u0000b' }))).toEqual({ description: 'must not contain NUL characters' });
    expect(await refused(JSON.stringify({ ...session, customer: { fname: 'Olena', lname: 'x\ud800' } }))).toEqual({ 'customer.lname': 'must be well-formed text (half of a surrogate pair stands alone)' });
    // As a JSON escape too, which is how a client sends one.
    expect(await refused(`{"amount":100,"currency":"UAH","description":"\\udc00 tea"}`)).toEqual({ description: 'must be well-formed text (half of a surrogate pair stands alone)' });
  });

  it('takes a whole pair, escaped or not, and a backslash that only looks like an escape', async () => {
    const stack = await open();
    for (const body of [`{"amount":100,"currency":"UAH","description":"Tea \\ud83c\\udf75"}`, JSON.stringify({ ...session, description: 'Tea 🍵 \\u0000' })]) {
      const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status, body).toBe(201);
    }
  });

  it('names the field that held bytes that are not UTF-8, rather than store them as U+FFFD', async () => {
    const stack = await open();
    const bytes = Buffer.concat([Buffer.from('{"amount":100,"currency":"UAH","description":"Tea '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await stack.companion.request('/api/checkout/sessions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: bytes,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual({ description: 'must be UTF-8 text (bytes that are not were sent, or U+FFFD)' });
  });

  it('says null is no value an optional field takes: Ruby’s nil, Python’s None as their encoders write them', async () => {
    expect(await refused(JSON.stringify({ ...session, customer: null, order_id: null }))).toEqual({
      customer: 'must be an object, not null (an optional field is left out for none)',
      order_id: 'must be a string, not null (an optional field is left out for none)',
    });
  });

  it('names a key that may be a card number as every refusal does: never echoing it', async () => {
    expect(await refused(`{"amount":100,"currency":"UAH","description":"Tea","customer":{"4242424242424242":"a\\u0000"}}`)).toEqual({ 'customer.*': 'must not contain NUL characters' });
  });

  it('names a field called __proto__ like any other', async () => {
    const fields = await refused(`{"amount":100,"currency":"UAH","description":"Tea","__proto__":1}`);
    expect(Object.entries(fields)).toEqual([['__proto__', 'is not allowed']]);
  });
});

describe('a body the companion cannot read as sent', () => {
  it('refuses JSON in UTF-16 or UTF-32 with 415 naming the charset, rather than its bytes as NUL characters', async () => {
    const stack = await open();
    const text = JSON.stringify({ amount: 100, currency: 'UAH', description: 'Tea' });
    for (const [charset, body] of [['utf-16le', Buffer.from(text, 'utf16le')], ['"UTF-16"', Buffer.from(`\ufeff${text}`, 'utf16le')], ['UTF-32', Buffer.from(text, 'utf16le')]] as const) {
      const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body, headers: { 'Content-Type': `application/json; charset=${charset}` } });
      expect(response.status, charset).toBe(415);
      expect((await response.json()).error, charset).toMatchObject({ code: 'unsupported_charset', fields: { 'Content-Type': 'must name no charset but UTF-8' } });
    }
    // Any label of a charset ASCII reads the same in (RFC 8259: JSON has none): an older client's Latin-1.
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'us-ascii', 'ISO-8859-1', 'windows-1252']) {
      const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: text, headers: { 'Content-Type': `application/json; charset=${charset}` } });
      expect(response.status, charset).toBe(201);
    }
  });

  it('refuses an encoded body with 415 naming Content-Encoding, rather than what its bytes look like', async () => {
    const stack = await open();
    const body = gzipSync(JSON.stringify({ amount: 100, currency: 'UAH', description: 'Tea' }));
    for (const encoding of ['gzip', 'br']) {
      const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body, headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding } });
      expect(response.status, encoding).toBe(415);
      expect((await response.json()).error).toMatchObject({ code: 'unsupported_encoding', fields: { 'Content-Encoding': expect.stringContaining('send the body unencoded') } });
    }
    const plain = await stack.request('POST', '/api/checkout/sessions', {
      admin: true,
      body: JSON.stringify({ amount: 100, currency: 'UAH', description: 'Tea' }),
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'identity' },
    });
    expect(plain.status).toBe(201);
  });
});

describe('a body of another media type', () => {
  it('is refused with 415 saying how it came and the header to send, quoting only a media type', async () => {
    const stack = await open();
    const said = async (headers: Record<string, string>) => {
      const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: 'amount=100&currency=UAH', headers });
      expect(response.status).toBe(415);
      return (await response.json()).error.message as string;
    };
    // What urllib, PHP's curl with an array, or an HTML form send.
    expect(await said({ 'Content-Type': 'application/x-www-form-urlencoded' })).toBe(
      'The body must be application/json (it came as application/x-www-form-urlencoded): send it with Content-Type: application/json',
    );
    expect(await said({ 'Content-Type': 'Text/Plain; charset=utf-8' })).toContain('(it came as text/plain)');
    expect(await said({ 'Content-Type': 'json <script>' })).toContain('(its Content-Type is no media type)');
    expect(await said({ 'Content-Type': 'application/4111-1111-1111-1111' })).toContain('(it came as application/[card number])');
  });
});

describe('a query where a route reads none', () => {
  it('is refused naming it, as where a route reads its query', async () => {
    const stack = await open();
    for (const path of ['/api/balances/accounts?limit=abc', '/api/balances/terminals?limit=abc', '/api/customers/olena/cards?limit=abc']) {
      const response = await stack.request('GET', path, { admin: true });
      expect(response.status, path).toBe(400);
      expect((await response.json()).error.fields, path).toEqual({ limit: 'is not allowed' });
    }
    expect((await stack.request('GET', '/api/customers/olena/cards', { admin: true })).status).toBe(200);
  });
});

describe('a body sent with a GET', () => {
  it('is refused naming it, never answered as though no filter were asked for', async () => {
    const stack = await open({ served: true });
    await stack.openSession();
    // What Python's requests.get(url, json=filters) sends: Node's listener drops the body unread.
    const get = (path: string, body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const sent = request(`${stack.companionUrl}${path}`, { method: 'GET', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (answer) => {
          let text = '';
          answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: text }));
        });
        sent.on('error', reject);
        sent.end(body);
      });
    for (const path of ['/api/orders', '/api/stats', '/api/balances/accounts']) {
      const answer = await get(path, '{"status":"failure","limit":1}');
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body).error.fields, path).toEqual({ body: 'a GET takes none: send its parameters in the query string' });
    }
    expect((await get('/api/orders', '')).status).toBe(200);
  });
});

describe('a NUL character in the address', () => {
  it('is refused naming where it is: the query parameter, or the path', async () => {
    const stack = await open();
    const session = await stack.openSession();
    const fieldsOf = async (path: string, admin = true) => {
      const response = await stack.request('GET', path, { admin });
      expect(response.status, path).toBe(400);
      const { error } = await response.json();
      expect(error.code, path).toBe('invalid_request');
      return error as { message: string; fields: Record<string, string> };
    };
    const cursor = await fieldsOf('/api/orders?cursor=%00');
    expect(cursor).toEqual({ code: 'invalid_request', message: 'Invalid request: cursor must not contain NUL characters', fields: { cursor: 'must not contain NUL characters' } });
    expect((await fieldsOf('/api/orders?limit=5&session_id=a%00b')).fields).toEqual({ session_id: 'must not contain NUL characters' });
    expect((await fieldsOf('/api/orders/1%002')).fields).toEqual({ path: 'must not contain NUL characters' });
    expect((await fieldsOf(`/api/checkout/sessions/${session.id}%00`, false)).fields).toEqual({ path: 'must not contain NUL characters' });
    expect((await fieldsOf('/api/orders/1%002?cursor=%00')).fields).toEqual({ path: 'must not contain NUL characters', cursor: 'must not contain NUL characters' });
    // In a parameter's name it is the query's; a name that may be a card number is not repeated.
    expect((await fieldsOf('/api/orders?a%00=1')).fields).toEqual({ query: 'must not contain NUL characters' });
    expect((await fieldsOf('/api/orders?4242424242424242=%00')).fields).toEqual({ '*': 'must not contain NUL characters' });
  });
});

describe('text no field can store, nested deeper than any request', () => {
  it('is refused with a 400, never a 500 from the search for its field', async () => {
    const stack = await open();
    const session = await stack.openSession();
    for (const inner of ['"\\ud800"', '"a\\u0000"']) {
      const body = `{"x":${'['.repeat(7000)}${inner}${']'.repeat(7000)}}`;
      const response = await stack.request('POST', `/api/checkout/sessions/${session.id}/pay`, { body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status, inner).toBe(400);
      expect(JSON.stringify(await response.json()).length, 'no field path as long as the body').toBeLessThan(1000);
    }
  });
});
