/**
 * Secrets: the admin API opens only to its token; a webhook whose signature is forged,
 * tampered with or stripped of its padding is refused and leaves no trace; the widget in real
 * Chromium never follows a redirect that is not https (or the test session's sandbox); and
 * after payments of every kind, refunds, saved cards and bad input, no test card number or
 * CVV is in any file, database or log the stack wrote — SQLite and PostgreSQL.
 *
 * `.ci/test` also scans, after the whole Vitest run, every file the resilience suites kept in
 * PAYFORM_AT_REST_DIR (e2e/resilience/scan-at-rest.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../server/companion/openapi/api-catalog.js';
import { card, cardNumber, EXPIRY, payOnHostedPage, TEST_AMEX_CVV, TEST_CVV } from '../../server/companion/test/cards.js';
import { ADMIN_TOKEN, createStack, eventually, payBody } from '../../server/companion/test/stack.js';
import type { Json, Stack } from '../../server/companion/test/stack.js';
import { TEST_CARDS, testProjectCredentials } from '../../server/gateway/test-project.js';
import { encodeWebhookData, signWebhook } from '../../server/gateway/webhook.js';
import { withTestDatabase } from '../../server/ledger/testing/databases.js';
import type { LedgerBackend } from '../../server/ledger/testing/databases.js';
import { launchChromium } from '../chromium.js';
import { filesUnder, scanDump, scanFile } from './support/at-rest.js';
import type { AtRestFinding } from './support/at-rest.js';
import { ensureWidgetBuilt } from './support/widget-build.js';
import { dumpPostgres, postgresSchemaBackend, sqliteFileBackend } from './support/stored-state.js';
import type { SqliteFileBackend } from './support/stored-state.js';

const API_SECRET = testProjectCredentials({}).apiSecret;
const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };
const FULL_CUSTOMER = { fname: 'Olena', lname: 'Koval', ...CONTACT };

describe('the merchant API without its token', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await createStack({ served: true });
  });
  afterAll(async () => {
    await stack.close();
  });

  const wrongTokens: Record<string, string>[] = [
    {},
    { Authorization: '' },
    { Authorization: 'Bearer' },
    { Authorization: 'Bearer wrong-admin-token-000000' },
    { Authorization: `Bearer ${ADMIN_TOKEN.toUpperCase()}` },
    { Authorization: `Bearer ${ADMIN_TOKEN} ` + 'x' },
    { Authorization: `Bearer ${ADMIN_TOKEN.slice(0, 8)}` },
    { Authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
    { Authorization: ADMIN_TOKEN },
    { 'X-Admin-Token': ADMIN_TOKEN },
    { Cookie: `admin_token=${ADMIN_TOKEN}` },
  ];

  it('is refused on every admin route, whatever is sent in its place, and never echoes a token', async () => {
    const admin = API.filter((operation) => operation.access === 'admin');
    expect(admin.length).toBeGreaterThan(20);
    let refused = 0;
    for (const operation of admin) {
      const path = operation.path.replace(/:(\w+)/g, 'x1');
      for (const headers of [...wrongTokens, {}]) {
        const query = Object.keys(headers).length === 0 && refused % 2 === 1 ? `?token=${ADMIN_TOKEN}` : '';
        const response = await stack.request(operation.method.toUpperCase(), path + query, {
          headers,
          ...(operation.method === 'post' ? { body: {} } : {}),
        });
        const text = await response.text();
        expect(response.status, `${operation.method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(JSON.parse(text).error.code).toBeTypeOf('string');
        expect(text).not.toContain(ADMIN_TOKEN);
        refused += 1;
      }
    }
    expect(refused).toBe(admin.length * (wrongTokens.length + 1));
  });
});

describe('webhook signatures', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await createStack({ served: true });
  });
  afterAll(async () => {
    await stack.close();
  });

  const post = (form: string) => stack.request('POST', '/webhooks/gateway', { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  const formOf = (data: string, signature: string) => new URLSearchParams({ data, signature }).toString();

  it('forged, tampered, stripped or borrowed ones are refused and leave nothing behind; the genuine one is applied', async () => {
    // The sandbox holds its webhook back; the test posts the genuine form itself.
    await stack.control('PUT', '/_sandbox/faults', { webhook_delay_ms: 3_600_000 });
    const session = await stack.openSession();
    const challenge = (await (await stack.pay(session.id, payBody({ card: card('three_ds_challenge') }))).json()) as Json;
    await stack.control('POST', `/_sandbox/3ds/${challenge.payment_id}`, { result: 'success' });
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${session.order_id}`);
    const genuine = deliveries.find((delivery: Json) => delivery.event_status === 'success').body as { data: string; signature: string };
    const other = await stack.openSession();
    await stack.pay(other.id);
    const { deliveries: others } = await stack.control('GET', `/_sandbox/webhooks?order_id=${other.order_id}`);
    const borrowed = others[0].body as { data: string; signature: string };

    const event = JSON.parse(Buffer.from(genuine.data, 'base64url').toString('utf8')) as Json;
    const tamperedData = encodeWebhookData({ ...event, amount: 0.01 });
    const flipped = genuine.data.slice(0, 10) + (genuine.data[10] === 'A' ? 'B' : 'A') + genuine.data.slice(11);
    const standardAlphabet = genuine.signature.replaceAll('-', '+').replaceAll('_', '/');
    const hexSignature = Buffer.from(genuine.signature, 'base64url').toString('hex');
    const forgeries: [string, string][] = [
      ['signed with another secret', formOf(genuine.data, signWebhook(genuine.data, 'not-the-api-secret'))],
      ['signed with the API key instead of the secret', formOf(genuine.data, signWebhook(genuine.data, testProjectCredentials({}).apiKey))],
      ['amount changed, signature kept', formOf(tamperedData, genuine.signature)],
      ['one character of data changed', formOf(flipped, genuine.signature)],
      ['data padding stripped', formOf(genuine.data.replace(/=+$/, ''), genuine.signature)],
      ['signature padding stripped', formOf(genuine.data, genuine.signature.replace(/=+$/, ''))],
      ['signature in hex', formOf(genuine.data, hexSignature)],
      ['signature upper-cased', formOf(genuine.data, genuine.signature.toUpperCase())],
      ['signature with a space', formOf(genuine.data, ` ${genuine.signature}`)],
      ['empty signature', formOf(genuine.data, '')],
      ['another event’s signature', formOf(genuine.data, borrowed.signature)],
      ['forged signature first, genuine second', `${formOf(genuine.data, signWebhook(genuine.data, 'x'))}&signature=${encodeURIComponent(genuine.signature)}`],
      ...(standardAlphabet === genuine.signature ? [] : [['signature in the standard base64 alphabet', formOf(genuine.data, standardAlphabet)] as [string, string]]),
    ];
    const before = await stack.ledger.getOrder(session.order_id);
    const changesBefore = stack.changes.length;
    for (const [what, form] of forgeries) {
      const response = await post(form);
      expect(response.status, what).toBeGreaterThanOrEqual(400);
      expect(response.status, what).toBeLessThan(500);
      await response.arrayBuffer();
    }
    // Nothing stored, nothing moved, nobody told.
    expect(await stack.ledger.getOrder(session.order_id)).toEqual(before);
    expect(stack.changes.slice(changesBefore)).toEqual([]);
    expect((await stack.ledger.listWaitingEvents({ quietForMs: 0 })).length).toBe(0);

    const accepted = await post(formOf(genuine.data, genuine.signature));
    expect(accepted.status).toBe(200);
    expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');
    // The sandbox's own forms sign with the same secret the companion verifies with.
    expect(signWebhook(genuine.data, API_SECRET)).toBe(genuine.signature);
  });
});

describe('the widget and redirects, in Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  beforeAll(async () => {
    ensureWidgetBuilt();
    stack = await createStack({ served: true });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  afterEach(async () => {
    await page?.context().close();
  });

  /** A shop page on the companion's origin with a `<pay-form>` for a fresh session, card typed in. */
  async function checkout(answer: Json, view?: (view: Json) => Json): Promise<string> {
    const session = await stack.openSession({ customer: FULL_CUSTOMER });
    const context = await browser.newContext();
    page = await context.newPage();
    requested.length = 0;
    page.on('request', (request) => requested.push(request.url()));
    await page.route(`${stack.companionUrl}/shop`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><title>Shop</title><script type="module" src="/widget/pay-form.js"></script></head><body><pay-form session="${session.id}"></pay-form></body></html>`,
      }),
    );
    // The companion never hands out such an answer (it refuses unsafe redirects itself): this
    // stands in for a compromised or misconfigured backend, to test the widget's own guard.
    await page.route(`${stack.companionUrl}/api/checkout/sessions/${session.id}/pay`, (route) => route.fulfill({ json: answer }));
    if (view) {
      // The session's reads, whatever their query (the element's says the widget's version).
      await page.route((url) => url.href.split('?')[0] === `${stack.companionUrl}/api/checkout/sessions/${session.id}`, async (route) => {
        const real = await route.fetch();
        await route.fulfill({ response: real, json: view((await real.json()) as Json) });
      });
    }
    await page.route(/^https?:\/\/(evil|example)\./, (route) => route.fulfill({ contentType: 'text/html', body: '<title>elsewhere</title>' }));
    // The outcome comes back through a binding, not as an evaluate's result: a redirect
    // navigates the page away, and an evaluate still open then fails with its context destroyed.
    let report: (outcome: string) => void = () => {};
    const outcome = new Promise<string>((resolve) => (report = resolve));
    await page.exposeFunction('reportPayOutcome', (text: string) => report(text));
    await page.goto(`${stack.companionUrl}/shop`);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date').fill('12/30');
    await page.getByLabel('Security code').fill('737');
    await page.evaluate(() => {
      const form = document.querySelector('pay-form')!;
      const tell = (window as unknown as { reportPayOutcome(text: string): void }).reportPayOutcome;
      form.addEventListener('pay-error', (event) => tell(`error ${(event as CustomEvent<{ code: string }>).detail.code}`), { once: true });
      form.addEventListener('pay-redirect', (event) => tell(`redirect ${(event as CustomEvent<{ url: string }>).detail.url}`), { once: true });
    });
    await page.getByRole('button', { name: /^Pay/ }).click();
    return outcome;
  }

  for (const target of ['http://evil.example/3ds', 'javascript:alert(document.cookie)', 'data:text/html,<h1>pay here</h1>', '//evil.example/3ds', 'ftp://evil.example/3ds', 'http://127.0.0.1:9/3ds']) {
    it(`does not go to ${target}`, async () => {
      const outcome = await checkout({ status: 'redirect', redirect_url: target, order_id: 'x' });
      expect(outcome).toBe('error unsafe_redirect');
      expect(page.url()).toBe(`${stack.companionUrl}/shop`);
      expect(requested.filter((url) => !url.startsWith(stack.companionUrl))).toEqual([]);
      await expect.poll(() => page.getByRole('alert').or(page.getByRole('status')).first().textContent()).toBeTruthy();
    });
  }

  it('does not take a plain-http "sandbox" from a session that is not a test one', async () => {
    const outcome = await checkout({ status: 'redirect', redirect_url: 'http://evil.example/3ds', order_id: 'x' }, (view) => ({ ...view, test: false, sandbox_origin: 'http://evil.example' }));
    expect(outcome).toBe('error unsafe_redirect');
    expect(requested.some((url) => url.includes('evil.example'))).toBe(false);
  });

  it('goes to an https page, and to the test session’s own sandbox', async () => {
    expect(await checkout({ status: 'redirect', redirect_url: 'https://example.test/3ds', order_id: 'x' })).toBe('redirect https://example.test/3ds');
    await eventually(() => expect(requested).toContain('https://example.test/3ds'));
    const sandboxPage = `${stack.sandboxUrl}/3ds/anything`;
    expect(await checkout({ status: 'redirect', redirect_url: sandboxPage, order_id: 'x' })).toBe(`redirect ${sandboxPage}`);
  });
});

function describeAtRest(name: string, backend: () => LedgerBackend, dump?: (stack: Stack) => Promise<AtRestFinding[]>): void {
  describe(`card data at rest (${name})`, () => {
    it('is nowhere after payments of every kind, refunds, saved cards and bad input', async () => {
      const used = backend();
      const stack = await createStack({ backend: used, served: true, companion: { rateLimits: { perSession: 1_000, perClient: 1_000 } } });
      try {
        const pay = async (body: Record<string, unknown>, session?: Json) => {
          const opened = session ?? (await stack.openSession({ customer_id: 'at-rest-customer' }));
          const answer = (await (await stack.pay(opened.id, payBody(body))).json()) as Json;
          return { session: opened, answer };
        };
        for (const testCard of TEST_CARDS) {
          const cvv = testCard.brand === 'amex' ? TEST_AMEX_CVV : TEST_CVV;
          for (const number of [testCard.number, testCard.number.replace(/(\d{4})(?=\d)/g, '$1 '), testCard.number.replace(/(\d{4})(?=\d)/g, '$1-')]) {
            const { answer } = await pay({ card: { number, ...EXPIRY, cvv } });
            if (answer.status === 'redirect') await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'success' });
          }
        }
        // The saved card pays again; a purchase is refunded in two parts, under idempotency keys
        // (their stored answers are scanned too).
        const saved = await stack.json('GET', '/api/customers/at-rest-customer/cards', 200, { admin: true });
        expect(saved.cards.length).toBeGreaterThan(0);
        const view = await stack.json('GET', `/api/checkout/sessions/${(await stack.openSession({ customer_id: 'at-rest-customer' })).id}`, 200);
        const visa = view.saved_cards.find((saved: Json) => String(saved.mask).endsWith('4242'));
        const { session, answer } = await pay({ card: { token: visa.token } });
        expect(answer.status).toBe('success');
        await stack.json('POST', `/api/orders/${session.order_id}/refund`, 200, { admin: true, body: { amount: 100 }, headers: { 'Idempotency-Key': 'at-rest-1' } });
        await stack.json('POST', `/api/orders/${session.order_id}/refund`, 200, { admin: true, body: {}, headers: { 'Idempotency-Key': 'at-rest-2' } });
        // Hosted: the card typed on the sandbox's page.
        const hosted = await stack.openSession({ customer: CONTACT });
        const { redirect_url: hostedPage } = await stack.json('POST', `/api/checkout/sessions/${hosted.id}/hosted`, 200, { body: {} });
        await payOnHostedPage(hostedPage);
        // Bad input carrying card data where it does not belong, each on a checkout of its own.
        for (const body of [
          { card: { number: cardNumber('success'), ...EXPIRY, cvv: '12345' } },
          { card: { number: `${cardNumber('success')}1`, ...EXPIRY, cvv: TEST_CVV } },
          { card: { number: cardNumber('success'), ...EXPIRY, cvv: TEST_CVV, extra: cardNumber('success') } },
          { card: { token: cardNumber('success') } },
          { card: card(), fingerprint: { browserLanguage: cardNumber('success') } },
          { card: card(), customer: { fname: 'Olena', lname: 'Koval', email: `${cardNumber('success')}@x`, phone: '1' } },
          // The payer typed the card number into a name field: it must not be kept there.
          { card: card(), customer: { fname: cardNumber('success').replace(/(\d{4})(?=\d)/g, '$1 '), lname: 'Koval', email: 'olena@example.com', phone: '+380501234567' } },
          { card: card(), customer: { fname: 'Olena', lname: `Koval ${cardNumber('success', 'mastercard')}`, email: 'olena@example.com', phone: '+380501234567' } },
          // …with other separators, or in full-width digits, in a name and in an e-mail address.
          ...['  ', '\u00a0', '\u2009', '\t', '.', '/', '_', ',', ' - '].map((separator) => ({
            card: card(),
            customer: { ...FULL_CUSTOMER, fname: `Olena ${cardNumber('success').match(/.{4}/g)!.join(separator)}` },
          })),
          { card: card(), customer: { ...FULL_CUSTOMER, lname: cardNumber('success').replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit))) } },
          { card: card(), customer: { ...FULL_CUSTOMER, email: `${cardNumber('success').match(/.{4}/g)!.join('.')}@example.com` } },
        ]) {
          await (await stack.pay((await stack.openSession()).id, payBody(body))).arrayBuffer();
        }
        await stack.settleWebhooks();

        // Everything the stack wrote: its files, its log lines, its database rows.
        const findings: AtRestFinding[] = [];
        if ('dir' in used) {
          const dir = (used as SqliteFileBackend).dir;
          writeFileSync(join(dir, 'companion.log'), `${stack.logs.join('\n')}\n`);
          const files = filesUnder(dir);
          expect(files.some((file) => file.endsWith('.db'))).toBe(true);
          for (const file of files) findings.push(...scanFile(file));
        } else {
          findings.push(...scanDump('companion log', { lines: stack.logs }));
        }
        if (dump) findings.push(...(await dump(stack)));
        expect(findings).toEqual([]);
        // The scan looked at real data: every payment is there, with its mask.
        const orders = (await stack.ledger.listOrders({ limit: 200 })).orders;
        expect(orders.length).toBeGreaterThan(TEST_CARDS.length * 3);
        expect(orders.filter((payment) => payment.ccMask).length).toBeGreaterThan(10);
      } finally {
        await stack.close();
      }
    }, 120_000);
  });
}

describeAtRest('SQLite file', sqliteFileBackend);
withTestDatabase((url) => {
  const backend = postgresSchemaBackend(url);
  describeAtRest('PostgreSQL', () => backend, async () => scanDump(`postgres ${backend.schema}`, await dumpPostgres(url, backend.schema)));
});
