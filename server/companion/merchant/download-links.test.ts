// Signed download links, over HTTP through the companion and the sandbox: the back office asks
// for one with the admin token, the browser follows it with none (download-links.ts).
import { request as httpRequest } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

const open = stacksPerTest();

interface Link {
  readonly url: string;
  readonly path: string;
  readonly expires_at: string;
  readonly empty?: boolean;
}

async function paidOrder(stack: Stack, body?: Record<string, unknown>): Promise<string> {
  const session = await stack.openSession(body);
  expect((await (await stack.pay(session.id)).json()).status).toBe('success');
  return session.order_id;
}

const linkTo = (stack: Stack, route: string, prefix = '') => stack.json('GET', `${prefix}${route}`, 200, { admin: true }) as Promise<Link>;

/** Follows a link as a browser does: no token, the address as given. */
const follow = (url: string) => fetch(url);

/** A GET sent with its target exactly as written (fetch would percent-encode a quote in it), with the admin token. */
function sentAsWritten(base: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path: target, headers: { authorization: 'Bearer test-admin-token-0123456789' } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject).end();
  });
}

async function refusal(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = await response.json();
  return { status: response.status, code: body.error.code, message: body.error.message };
}

describe('GET /api/exports/orders/link', () => {
  it('gives a link that downloads the same file as the bearer route, without the token', async () => {
    const stack = await open({ served: true });
    const orderId = await paidOrder(stack);
    const link = await linkTo(stack, '/api/exports/orders/link?status=success&currency=UAH');
    expect(link.url).toBe(`${stack.companionUrl}${link.path}`);
    expect(link.path).toMatch(/^\/api\/downloads\/orders\?status=success&currency=UAH&expires=\d+&signature=[\w-]{43}$/);
    // No token in it, and a minute to follow it.
    expect(link.url).not.toContain('test-admin-token');
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(50_000);
    expect(Date.parse(link.expires_at) - Date.now()).toBeLessThanOrEqual(61_000);

    const file = await follow(link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-all-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(file.headers.get('cache-control')).toBe('no-store');
    const text = await file.text();
    expect(text).toContain(`"${orderId}"`);
    // The bearer route is as it was, for merchants' scripts.
    const bearer = await stack.request('GET', '/api/exports/orders?status=success&currency=UAH', { admin: true });
    expect(bearer.status).toBe(200);
    expect(await bearer.text()).toBe(text);
    // The link is followed as often as needed until it expires (a retried download).
    expect((await follow(link.url)).status).toBe(200);
    // The request log names the route, never the link's query.
    expect(stack.logs.filter((line) => line.includes(link.path.slice(link.path.indexOf('signature='))))).toEqual([]);
  });

  it('judges the filters when the link is asked for, with the admin token', async () => {
    const stack = await open({ served: true });
    const refused = await stack.json('GET', '/api/exports/orders/link?card_last4=4242424242424242', 400, { admin: true });
    expect(refused.error.fields).toEqual({ card_last4: 'must be the last four digits of the card, never more' });
    // A card number in a filter would go out in the link handed on: refused, never echoed.
    for (const query of ['session_id=4111111111111111', 'email=4111111111111111%40x.test', 'session_id=4608%202146%208804%201941%20063']) {
      const echoed = await stack.request('GET', `/api/exports/orders/link?${query}`, { admin: true });
      expect(echoed.status, query).toBe(400);
      const text = await echoed.text();
      expect(text, query).toContain('must not contain a card number');
      expect(text, query).not.toMatch(/4111111111111111|4608/);
    }
    expect((await stack.request('GET', '/api/exports/orders/link')).status).toBe(401);
  });

  it('says a database away when the link is asked for, not in a download that fails', async () => {
    const stack = await open({ served: true });
    const { ledger } = stack.companion.companion.services;
    const listOrders = vi.spyOn(ledger, 'listOrders').mockRejectedValueOnce(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    const away = await stack.request('GET', '/api/exports/orders/link?status=success', { admin: true });
    expect([away.status, (await away.json()).error.code]).toEqual([503, 'ledger_unavailable']);
    expect(listOrders).toHaveBeenCalledWith(expect.objectContaining({ status: 'success', limit: 1 }));
    expect((await follow((await linkTo(stack, '/api/exports/orders/link?status=success')).url)).status).toBe(200);
  });

  it('refuses, saying why, a link whose address was changed in any way', async () => {
    const stack = await open({ served: true });
    const { url } = await linkTo(stack, '/api/exports/orders/link?status=success');
    const [address, signature] = url.split('&signature=') as [string, string];
    const invalid = (message: string) => ({ status: 403, code: 'download_link_invalid', message: expect.stringContaining(message) });
    const mismatch = invalid('its signature does not match its address');
    // Other filters, one more, the expiry moved, another file, another signature, none at all.
    expect(await refusal(await follow(url.replace('status=success', 'status=failure')))).toEqual(mismatch);
    expect(await refusal(await follow(url.replace('status=success', 'status=success&held=true')))).toEqual(mismatch);
    expect(await refusal(await follow(url.replace(/expires=(\d+)/, (_, at: string) => `expires=${Number(at) + 3600}`)))).toEqual(mismatch);
    expect(await refusal(await follow(url.replace('/api/downloads/orders', '/api/downloads/receipts/2024-01-01')))).toEqual(mismatch);
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await refusal(await follow(`${address}&signature=${flipped}`))).toEqual(mismatch);
    expect(await refusal(await follow(`${address}&signature=${signature.slice(1)}`))).toEqual(mismatch);
    expect(await refusal(await follow(address))).toEqual(invalid('it carries no expiry and signature'));
    // Something added after the signature, or an expiry no number: said as what was done to the link.
    expect(await refusal(await follow(`${url}&x=1`))).toEqual(invalid('something was added after its signature'));
    expect(await refusal(await follow(url.replace(/expires=\d+/, 'expires=99999999999999999999999')))).toEqual(invalid('its expiry is not a number of seconds'));
    expect(await refusal(await follow(`${address}&signature=abc%3D`))).toEqual(invalid('its signature is damaged'));
    // The admin token does not stand in for a link: the link's route serves links only.
    expect(await refusal(await stack.request('GET', '/api/downloads/orders?status=success', { admin: true }))).toEqual(invalid('it carries no expiry and signature'));
    // The bearer routes still want the token.
    expect((await follow(url.replace('/api/downloads/orders', '/api/exports/orders'))).status).toBe(401);
  });

  it('is followed by a browser whatever characters the filters were sent with (a quote a URL parser encodes)', async () => {
    const stack = await open({ served: true });
    // A script's curl sends the quote as is; a browser (and fetch) would send it as %27.
    const asked = await sentAsWritten(stack.companionUrl, "/api/exports/orders/link?email=o'brien@example.com&status=success");
    expect(asked.status).toBe(200);
    const link = JSON.parse(asked.body) as Link;
    expect(new URL(link.url).searchParams.get('status')).toBe('success');
    const file = await follow(link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-/);
  });

  it('carries the filters that name a customer sealed, so that a proxy’s log of it names nobody', async () => {
    const stack = await open({ served: true });
    const hers = await paidOrder(stack, { customer_id: 'cust-olena-42', customer: { email: 'olena.koval@example.com', phone: '+380501234567' } });
    const other = await paidOrder(stack, { customer_id: 'cust-other-43', customer: { email: 'other@example.com', phone: '+380501234568' } });
    const session = (await stack.ledger.getPayment(hers))!.sessionId!;
    const link = await linkTo(stack, `/api/exports/orders/link?status=success&email=olena.koval%40example.com&customer_id=cust-olena-42&card_last4=4242&session_id=${session}`);
    expect(link.path).toMatch(/^\/api\/downloads\/orders\?status=success&sealed=[\w-]+&expires=\d+&signature=[\w-]{43}$/);
    // The filters' part of the link: its host's port and its expiry's digits may hold 4242 by chance.
    const filters = decodeURIComponent(link.path.replace(/&expires=.*$/, ''));
    for (const named of ['olena', 'koval', 'cust-olena-42', '4242', session]) expect(filters).not.toContain(named);
    const text = await (await follow(link.url)).text();
    expect(text).toContain(`"${hers}"`);
    expect(text).not.toContain(`"${other}"`);
    // Sealed, still signed: another customer's filters cannot be put in its place.
    const otherLink = await linkTo(stack, '/api/exports/orders/link?status=success&email=other%40example.com');
    const sealedOf = (url: string) => new URL(url).searchParams.get('sealed')!;
    expect((await refusal(await follow(link.url.replace(sealedOf(link.url), sealedOf(otherLink.url))))).message).toContain('its signature does not match its address');
  });

  it('stops working a minute after it was issued', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ served: true, clock });
    const link = await linkTo(stack, '/api/exports/orders/link');
    clock.advance(59_000);
    expect((await follow(link.url)).status).toBe(200);
    clock.advance(2_000);
    expect(await refusal(await follow(link.url))).toEqual({
      status: 403, code: 'download_link_expired', message: expect.stringContaining(`The download link expired at ${link.expires_at}`),
    });
  });

  it('is refused at an instance when it would outlast its minute there (issued by one whose clock is ahead)', async () => {
    const ahead = await open({ served: true, clock: new TestClock(Date.now() + 86_400_000) });
    const link = await linkTo(ahead, '/api/exports/orders/link');
    const other = await open({ served: true });
    expect(await refusal(await follow(`${other.companionUrl}${link.path}`))).toEqual({
      status: 403, code: 'download_link_invalid', message: expect.stringContaining('it expires later than a link issued now would'),
    });
  });

  it('is followed at another instance with the same admin token (no state kept), under the base path', async () => {
    const stack = await open({ served: true, companion: { basePath: '/payments' } });
    const link = await linkTo(stack, '/api/exports/orders/link', '/payments');
    expect(link.url).toBe(`${stack.companionUrl}/payments${link.path}`);
    expect((await follow(link.url)).status).toBe(200);
    const other = await open({ served: true, companion: { basePath: '/payments' } });
    expect((await follow(`${other.companionUrl}/payments${link.path}`)).status).toBe(200);
  });
});

describe('GET /api/receipts/:date/link', () => {
  it('is followed a few times at most, so a link read in a log cannot have the gateway make the ZIP again and again', async () => {
    const stack = await open({ served: true });
    const today = new Date().toISOString().slice(0, 10);
    const link = await linkTo(stack, `/api/receipts/${today}/link?format=html`);
    for (let time = 1; time <= 5; time++) expect((await follow(link.url)).status).toBe(200);
    // Another spelling of the same signature (base64url's spare bits) is the same link.
    const signature = link.url.slice(link.url.indexOf('&signature=') + 11);
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${link.url.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`;
    expect(Buffer.from(respelled.slice(respelled.indexOf('&signature=') + 11), 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(await refusal(await follow(respelled))).toEqual({
      status: 403, code: 'download_link_used_up', message: expect.stringContaining('followed 5 times'),
    });
    expect((await follow(link.url)).status).toBe(403);
    // Another link is counted apart (one asked for in the same second, for the same file, is the same link).
    expect((await follow((await linkTo(stack, `/api/receipts/${today}/link?format=pdf`)).url)).status).toBe(200);
  });

  it('says whether the day has receipts, and links to its ZIP', async () => {
    const stack = await open({ served: true });
    await paidOrder(stack);
    const today = new Date().toISOString().slice(0, 10);
    const link = await linkTo(stack, `/api/receipts/${today}/link?format=pdf`);
    expect(link.empty).toBe(false);
    expect(link.path).toMatch(new RegExp(`^/api/downloads/receipts/${today}\\?format=pdf&expires=\\d+&signature=`));
    const zip = await follow(link.url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="receipts-${today}.zip"`);
    expect(zip.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    // Another day or format is another link.
    expect((await follow(link.url.replace('format=pdf', 'format=html'))).status).toBe(403);
    expect((await follow(link.url.replace(today, '2024-01-01'))).status).toBe(403);

    expect((await linkTo(stack, '/api/receipts/2024-01-01/link')).empty).toBe(true);
    expect((await stack.json('GET', '/api/receipts/2030-13-45/link', 400, { admin: true })).error.fields).toEqual({ date: 'must be a date yyyy-MM-dd' });
    expect((await stack.json('GET', `/api/receipts/${today}/link?format=docx`, 400, { admin: true })).error.fields.format).toBeDefined();
  });
});
