// Card numbers however they are written, and ordinary data that only looks like them, through
// every door free text comes in by: the public pay route's customer names, a session's
// description, a refund's comment and a signed webhook's text. The real sandbox over HTTP, a
// SQLite file; what is checked is what the companion answers, stores and logs.
import { describe, expect, it } from 'vitest';
import { testProjectCredentials } from '../../gateway/test-project.js';
import { webhookForm } from '../../gateway/webhook.js';
import { fileBackend } from '../../ledger/testing/databases.js';
import { CUSTOMER, card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const { apiSecret } = testProjectCredentials({});
const openStack = stacksPerTest();

// The spellings the second security probe stored in clear: separators outside the first set,
// decorations on each digit, digits split by mark-up.
const PAN = '4242424242424242';
const fours = (separator: string) => PAN.match(/.{4}/g)!.join(separator);
const SPELLINGS = [
  fours('|'), fours('+'), fours(':'), fours('*'), `(${fours(')(')})`, fours('      '),
  [...PAN].map((digit) => `${digit}\u0332`).join(''), [...PAN].map((digit) => `${digit}\ufe0f\u20e3`).join(''),
  '4242<b>4242</b>4242<i>4242</i>', fours('.'), fours('  '), fours('/'), PAN.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit))),
  // Its first six apart, as a BIN lookup writes it.
  `${PAN.slice(0, 6)}|${PAN.slice(6)}`, `${PAN.slice(0, 6)}-${PAN.slice(6)}`,
  // In two halves, or its first four apart.
  `${PAN.slice(0, 8)} ${PAN.slice(8)}`, `${PAN.slice(0, 8)}-${PAN.slice(8)}`, `${PAN.slice(0, 4)} ${PAN.slice(4)}`,
  // In the rarer two-part forms, with what says it is a card's (two numbers are so written as
  // often): its first six apart by a space, halves in fours with another mark between.
  ...[`${PAN.slice(0, 6)} ${PAN.slice(6)}`, '4242-4242 4242-4242', '4242 4242-4242 4242'].map((parts) => `card ${parts}`),
];

/** A spelling masked: the brackets around the digits are not the card number's, nor the word before it. */
const masked = (spelling: string) => (spelling.startsWith('(') ? '([card number])' : spelling.startsWith('card ') ? 'card [card number]' : '[card number]');

// What merchants and customers write that must stay as written.
// The barcode and the mobile without its + pass a 13-digit Visa's check digit: no longer issued.
const ORDINARY =
  'order e4-1795384870676, call +380501234567 or +38 (050) 123-45-67 or 4915123456704, at 2026-11-23 07:21:16.123, ' +
  'ref 6f1c2a3b-4d5e-4f60-8123-456789012345, EAN 4820024700061, parcels 42424242 42424242 42424242';

async function open(): Promise<Stack> {
  const stack = await openStack({ backend: fileBackend, served: true });
  return stack;
}

async function refund(stack: Stack, orderId: string, comment: string): Promise<Json> {
  return stack.json('POST', `/api/orders/${orderId}/refund`, 200, { admin: true, body: { amount: 1, comment } });
}

describe('a card number in free text, however it is written', () => {
  it.each(SPELLINGS)('is refused in a customer name on the public pay route: %s', async (spelling) => {
    const stack = await open();
    const session = await stack.openSession();
    const response = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, fname: `Olena ${spelling}` } }));
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.fields).toEqual({ 'customer.fname': 'must not contain a card number' });
    expect((await stack.ledger.getOrder(session.order_id))?.payment ?? null).toBeNull();
  });

  it('is masked in a description, a refund comment and a signed webhook text, and nothing ordinary is', async () => {
    const stack = await open();
    const session = await stack.openSession({ amount: 100, description: `Tea; ${SPELLINGS.join(' ; ')}; ${ORDINARY}` });
    const description = `Tea; ${SPELLINGS.map(masked).join(' ; ')}; ${ORDINARY}`;
    expect(session.description).toBe(description);
    expect((await stack.ledger.getSession(session.id))?.description).toBe(description);

    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    for (const spelling of SPELLINGS) {
      const answer = await refund(stack, session.order_id, `read out ${spelling}; ${ORDINARY}`);
      expect(answer.operation.comment).toBe(`read out ${masked(spelling)}; ${ORDINARY}`);
    }
    const stored = (await stack.ledger.getOrder(session.order_id))!.operations.map((operation) => operation.comment);
    expect(stored.sort()).toEqual(SPELLINGS.map((spelling) => `read out ${masked(spelling)}; ${ORDINARY}`).sort());
  });

  it('is masked in a description shown as HTML, mark-up between or around its digits; ordinary data in mark-up is not', async () => {
    const stack = await open();
    // A line's break or a table's cells between its fours, a comment, digits each in a tag, one in an attribute.
    const markup = ['4242<br>4242<br>4242<br>4242', '<td>4242</td><td>4242</td><td>4242</td><td>4242</td>', `4242<!-- ${'x'.repeat(9)} -->4242<!-- -->4242<!---->4242`, [...PAN].map((digit) => `<span>${digit}</span>`).join(''), `<input value="${PAN}">`];
    const ordinary = '<td>+380501234567</td><td>2026-11-23 07:21:16</td><td>1 249.50</td><b>4820024700061</b>';
    const session = await stack.openSession({ amount: 100, description: `Tea; ${markup.join(' ; ')}; ${ordinary}` });
    const description = `Tea; [card number] ; <td>[card number]</td> ; [card number] ; <span>[card number] ; <input value="[card number]">; ${ordinary}`;
    expect(session.description).toBe(description);
    expect((await stack.ledger.getSession(session.id))?.description).toBe(description);
  });

  it('is masked in the text of a signed event, which is stored and answered 200', async () => {
    const stack = await open();
    await stack.control('PUT', '/_sandbox/faults', { webhook_delay_ms: 3_600_000 });
    const session = await stack.openSession();
    const answer = await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json();
    expect(answer.status).toBe('redirect');
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`);
    const event = JSON.parse(Buffer.from(new URLSearchParams(deliveries.at(-1).body).get('data')!, 'base64url').toString('utf8'));
    const text = `Declined: ${SPELLINGS.slice(0, 9).join(' / ')}; ${ORDINARY}`;
    const response = await stack.request('POST', '/webhooks/gateway', {
      body: new URLSearchParams({ ...webhookForm({ ...event, status: 'failure', status_code: '4153', status_description: text }, apiSecret) }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    const detail = await stack.json('GET', `/api/orders/${session.order_id}`, 200, { admin: true });
    expect(detail.order.status_description).toBe(`Declined: ${SPELLINGS.slice(0, 9).map(masked).join(' / ')}; ${ORDINARY}`);
  });
});

describe('a security code in free text', () => {
  it('is masked in a description and a refund comment that name one, wherever it stands; their dates and times are kept', async () => {
    const stack = await open();
    const session = await stack.openSession({ amount: 100, description: 'Courier: CSC Logistics, order of 2026-11-29 at 07:21, room 1402; 737 is the security code' });
    const kept = 'Courier: CSC Logistics, order of 2026-11-29 at 07:21, room [cvv]; [cvv] is the security code';
    expect(session.description).toBe(kept);
    expect((await stack.ledger.getSession(session.id))?.description).toBe(kept);
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const answer = await refund(stack, session.order_id, 'Refund of 29.11.2026 for CVC Capital; customer read out the CVV:\n737');
    expect(answer.operation.comment).toBe('Refund of 29.11.2026 for CVC Capital; customer read out the CVV:\n[cvv]');
    // Spelt a digit at a time, with points or tabs between.
    const spelt = await refund(stack, session.order_id, 'CVV 7.3.7, or as pasted: cvv\t7\t3\t7');
    expect(spelt.operation.comment).toBe('CVV [cvv], or as pasted: cvv\t[cvv]');
    // Its digits escaped as in a URL; named in Ukrainian or Polish.
    for (const [comment, kept] of [['return?cvv=%37%33%37', 'return?cvv=[cvv]'], ['код безпеки 737', 'код безпеки [cvv]'], ['kod bezpieczeństwa: 737', 'kod bezpieczeństwa: [cvv]']]) {
      expect((await refund(stack, session.order_id, comment!)).operation.comment).toBe(kept);
    }
    expect((await stack.ledger.getOrder(session.order_id))!.operations.map((operation) => operation.comment)).toEqual(
      expect.arrayContaining(['CVV [cvv], or as pasted: cvv\t[cvv]', 'return?cvv=[cvv]', 'код безпеки [cvv]', 'kod bezpieczeństwa: [cvv]']),
    );
    expect(stack.logs.join('\n')).not.toMatch(/%37%33%37|безпеки 737|bezpieczeństwa: 737/);
  });

  it('is refused in a customer name the public pay route stores, the field named, never echoed', async () => {
    const stack = await open();
    for (const lname of ['Koval cvv %37%33%37', 'Koval код безпеки 737']) {
      const session = await stack.openSession();
      const response = await stack.pay(session.id, payBody({ customer: { ...CUSTOMER, lname } }));
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text).error.fields).toEqual({ 'customer.lname': 'must not contain a card’s security code (CVV)' });
      expect(text).not.toMatch(/%37%33%37|737/);
      expect((await stack.ledger.getOrder(session.order_id))?.payment ?? null).toBeNull();
    }
  });
});

describe('free text its masks would make longer than the gateway takes', () => {
  // Each security code becomes [cvv]: 2048 characters as sent, more once masked.
  const codes = `cvv ${'123 '.repeat(600)}`.slice(0, 2048);
  const tooLong = (field: string) => ({
    [field]: `must be at most 2048 characters once its security codes are masked as [cvv] and card numbers as [card number]: it would be ${codes.length + 2 * 511}`,
  });

  it('is refused for that, naming the field, in a description and a refund comment; as long without codes, it is kept', async () => {
    const stack = await open();
    const opened = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 100, currency: 'UAH', description: codes } });
    expect(opened.status).toBe(400);
    expect((await opened.json()).error.fields).toEqual(tooLong('description'));
    const session = await stack.openSession({ amount: 100, description: 'x'.repeat(2048) });
    expect((await stack.ledger.getSession(session.id))?.description).toHaveLength(2048);
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    const refund = await stack.request('POST', `/api/orders/${session.order_id}/refund`, { admin: true, body: { amount: 1, comment: codes } });
    expect(refund.status).toBe(400);
    expect((await refund.json()).error.fields).toEqual(tooLong('comment'));
    expect((await stack.ledger.getOrder(session.order_id))?.operations).toEqual([]);
  });
});

describe('ordinary data that looks like a card number', () => {
  it('is stored and answered as written: two numbers side by side in the rarer two-part forms, in a text of no card', async () => {
    const stack = await open();
    // Each pair has a scheme's prefix and the check digit, as one random pair in thirty does.
    const description = 'Parcels 402950 5606806047 and 402950 - 5606806047, phones 4029-5056 0680-6047';
    const session = await stack.openSession({ amount: 100, description });
    expect(session.description).toBe(description);
    expect((await stack.ledger.getSession(session.id))?.description).toBe(description);
  });

  it('is answered as written: an order id the merchant chose, in the refusal of its duplicate', async () => {
    const stack = await open();
    const orderId = 'e4-1795384870676';
    await stack.openSession({ order_id: orderId });
    const response = await stack.request('POST', '/api/checkout/sessions', { admin: true, body: { amount: 1010, currency: 'UAH', description: 'Tea', order_id: orderId } });
    expect(response.status).toBe(409);
    const text = await response.text();
    expect(text).toContain(orderId);
    expect(text).not.toContain('[card number]');
  });
});
