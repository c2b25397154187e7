// The return landing reads the order's state for an open attempt — once in a while, not per hit.
import { describe, expect, it } from 'vitest';
import { webhookForm } from '@payform/gateway';
import { testProjectCredentials } from '@payform/gateway/testing';
import { TestClock } from '../../ledger/testing/databases.js';
import { card, CUSTOMER, hostedCardForm, payOnHostedPage } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import { awayOnce } from '../test/ledger-faults.js';

const open = stacksPerTest();

describe('GET /checkout/return/:id', () => {
  it('leaves the database going away as the answer is recorded to the outage\'s one line, and shows the session as read', async () => {
    let reads = 0;
    let armed = false;
    // The session's read after the order state: the first read of the landing works, the second meets the outage.
    const stack = await open({ backend: awayOnce('getSession', false, () => armed && ++reads === 2) });
    const session = await stack.openSession({ customer: CUSTOMER });
    expect((await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ card: card('three_ds_challenge') }) })).status).toBe('redirect');
    armed = true;
    const answer = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('<h1>');
    const lines = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.filter((line) => line.msg.startsWith('the database answers but the ledger’s statements cannot finish in time'))).toHaveLength(1);
    expect(lines.filter((line) => line.msg.includes('could not be read on return'))).toEqual([]);
    expect(stack.logs.filter((line) => line.includes('"stack"'))).toEqual([]);
  });

  it('is never stored by a cache: the page, the way on to the merchant, and the unknown session', async () => {
    const stack = await open();
    const page = await stack.openSession();
    const onward = await stack.openSession({ return_url: 'https://shop.example/thanks' });
    const answers = await Promise.all([page.id, onward.id, 'x'.repeat(43)].map((id) => stack.request('GET', `/checkout/return/${id}`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 303, 404]);
    expect(answers.map((answer) => answer.headers.get('cache-control'))).toEqual(['no-store', 'no-store', 'no-store']);
  });

  it('speaks the customer\'s language: the merchant\'s customer.lang, else the browser\'s best, else English', async () => {
    const stack = await open();
    const paid = await stack.openSession({ customer: CUSTOMER });
    await stack.pay(paid.id, payBody());
    const german = await stack.openSession({ customer: { ...CUSTOMER, lang: 'DE' } });
    await stack.pay(german.id, payBody());
    const declined = await stack.openSession({ customer: CUSTOMER });
    await stack.pay(declined.id, payBody({ card: card('rejected') }));
    const read = async (id: string, acceptLanguage?: string) => {
      const answer = await stack.request('GET', `/checkout/return/${id}`, acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : {});
      const text = await answer.text();
      return { language: answer.headers.get('content-language'), lang: /<html lang="([^"]+)">/.exec(text)?.[1], heading: /<h1>([^<]*)<\/h1>/.exec(text)?.[1], text: /<p>([^<]*)<\/p>/.exec(text)?.[1] };
    };
    expect(await read(paid.id, 'uk')).toEqual({ language: 'uk', lang: 'uk', heading: 'Оплату отримано', text: 'Дякуємо. Цю сторінку можна закрити.' });
    expect(await read(paid.id, 'fr;q=0, pl-PL;q=0.8, xx, es;q=0.5')).toMatchObject({ lang: 'pl', heading: 'Płatność otrzymana' });
    expect(await read(paid.id)).toMatchObject({ lang: 'en', heading: 'Payment received' });
    expect(await read(german.id, 'uk')).toMatchObject({ lang: 'de', heading: 'Zahlung erhalten' });
    // The reasons of a decline are English: another language gets its general sentence.
    expect(await read(declined.id, 'es')).toMatchObject({ heading: 'Pago no completado', text: 'El pago no se completó. Inténtelo de nuevo o use otra tarjeta. No se le ha cobrado nada.' });
    expect((await read(declined.id, 'en')).text).toMatch(/^The payment was declined/);
    expect((await read('x'.repeat(43), 'uk')).heading).toBe('Оплату не знайдено');
  });

  it('says a checkout the shop cancelled was cancelled, not expired, and that nothing was taken, in every language', async () => {
    const clock = new TestClock(Date.now());
    const stack = await open({ clock });
    const closed = await stack.openSession({ customer: CUSTOMER });
    await stack.request('DELETE', `/api/checkout/sessions/${closed.id}`, { admin: true });
    // A hosted page the merchant cancelled closes its session too.
    const hosted = await stack.openSession({ customer: CUSTOMER });
    await stack.json('POST', `/api/checkout/sessions/${hosted.id}/hosted`, 200, { body: {} });
    await stack.json('POST', `/api/orders/${hosted.order_id}/cancel`, 200, { admin: true });
    const expired = await stack.openSession({ customer: CUSTOMER, ttl_seconds: 60 });
    clock.advance(61_000);
    const heading = async (id: string, language: string) => {
      const text = await (await stack.request('GET', `/checkout/return/${id}`, { headers: { 'accept-language': language } })).text();
      return [/<h1>([^<]*)<\/h1>/.exec(text)?.[1], /<p>([^<]*)<\/p>/.exec(text)?.[1]];
    };
    const said = {
      en: ['This checkout was cancelled', 'You have not been charged.'],
      uk: ['Оплату скасовано', 'Кошти не списано.'],
      de: ['Dieser Bezahlvorgang wurde storniert', 'Es wurde nichts abgebucht.'],
      pl: ['Płatność została anulowana', 'Nie pobrano żadnych środków.'],
      fr: ['Ce paiement a été annulé', 'Aucun montant n’a été débité.'],
      es: ['Este pago ha sido cancelado', 'No se le ha cobrado nada.'],
    };
    for (const [language, words] of Object.entries(said)) {
      expect(await heading(closed.id, language)).toEqual(words);
      expect(await heading(hosted.id, language)).toEqual(words);
    }
    expect(await heading(expired.id, 'en')).toEqual(['This checkout has expired', 'You have not been charged.']);
  });

  it('leaves no customer stranded: the way back to the one shop it serves, else plainly that the page can be closed', async () => {
    const read = async (stack: Stack, id: string) => {
      const text = await (await stack.request('GET', `/checkout/return/${id}`)).text();
      return { text: /<p>([^<]*)<\/p>/.exec(text)?.[1], link: /<a href="([^"]*)">([^<]*)<\/a>/.exec(text)?.slice(1) };
    };
    const shop = await open();
    const declined = await shop.openSession({ customer: CUSTOMER });
    await shop.pay(declined.id, payBody({ card: card('rejected') }));
    expect(await read(shop, declined.id)).toEqual({
      text: expect.stringMatching(/^The payment was declined\. .* You have not been charged\.$/),
      link: ['https://shop.example/', 'Return to the shop'],
    });
    const paid = await shop.openSession({ customer: CUSTOMER });
    await shop.pay(paid.id, payBody());
    expect(await read(shop, paid.id)).toEqual({ text: 'Thank you. You can close this page.', link: ['https://shop.example/', 'Return to the shop'] });
    // A mistyped link finds the shop too.
    expect(await (await shop.request('GET', `/checkout/return/${'x'.repeat(43)}`)).text()).toContain('<a href="https://shop.example/">Return to the shop</a>');

    // Two shops: no link is guessed, and the page says what the customer may do and what it cost.
    const two = await open({ companion: { allowedOrigins: ['https://shop.example', 'https://other.example'] } });
    const unpaid = await two.openSession({ customer: CUSTOMER });
    await two.pay(unpaid.id, payBody({ card: card('rejected') }));
    expect(await read(two, unpaid.id)).toEqual({ text: expect.stringMatching(/You have not been charged\. You can close this page\.$/), link: undefined });

    // The bin allows its own origin when PAYFORM_ALLOWED_ORIGINS is unset: alone on it, its home
    // is no shop (a JSON 404), so the customer is not sent there.
    const alone = await open({ companion: { allowedOrigins: ['http://companion.test'] } });
    expect(alone.companionUrl).toBe('http://companion.test');
    const refused = await alone.openSession({ customer: CUSTOMER });
    await alone.pay(refused.id, payBody({ card: card('rejected') }));
    expect(await read(alone, refused.id)).toEqual({ text: expect.stringMatching(/You can close this page\.$/), link: undefined });
    expect(await (await alone.request('GET', `/checkout/return/${'x'.repeat(43)}`)).text()).not.toContain('<a ');
  });

  it('says a payment held for a person is being checked, and does not reload itself for an update that never comes', async () => {
    const stack = await open();
    stack.dropWebhooks = true;
    const session = await stack.openSession({ customer: CUSTOMER });
    await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    // The gateway's page took 5.00 of the 10.10 ordered (an alternative method let the payer change it).
    const event = {
      payment_id: '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b', order_id: session.order_id, pos_id: testProjectCredentials({}).posId, mode: 'hosted', method: 'purchase',
      amount: 10.1, currency: 'UAH', processed_amount: 5, processed_currency: 'UAH', status: 'success', status_code: '1000', created_at: '2030-01-15T09:30:00.000',
    };
    const form = webhookForm(event, testProjectCredentials({}).apiSecret);
    await stack.request('POST', '/webhooks/gateway', { body: new URLSearchParams({ data: form.data, signature: form.signature }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect((await stack.ledger.getPayment(session.order_id))?.discrepancy).toMatchObject({ paidAmount: 500 });
    const text = await (await stack.request('GET', `/checkout/return/${session.id}`, { headers: { 'accept-language': 'pl' } })).text();
    expect(text).not.toContain('http-equiv="refresh"');
    expect(/<h1>([^<]*)<\/h1><p>([^<]*)<\/p>/.exec(text)?.slice(1)).toEqual(['Płatność jest przetwarzana', 'Sklep sprawdza tę płatność. Prosimy nie płacić ponownie.']);
  });

  it('answers a link cut short or run on with a page, never the API\'s JSON', async () => {
    const stack = await open();
    const session = await stack.openSession();
    for (const path of ['/checkout/return/', `/checkout/return/${session.id}/thanks`, '/checkout/challenge/', `/checkout/challenge/${session.id}/x`]) {
      const answer = await stack.request('GET', path, { headers: { 'accept-language': 'de' } });
      expect([path, answer.status, answer.headers.get('content-type'), answer.headers.get('cache-control')]).toEqual([path, 404, 'text/html; charset=UTF-8', 'no-store']);
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await answer.text()).toMatch(/<h1>(Bezahlvorgang|Zahlungslink) nicht gefunden<\/h1>/);
    }
  });

  it('reads the order state at most once per session every 5 seconds, however often it is loaded', async () => {
    const clock = new TestClock(Date.now());
    let orderReads = 0;
    const stack: Stack = await open({
      clock,
      gateway: {
        fetch: async (input, init) => {
          if (/\/orders\/[^/]+$/.test(new URL(String(input)).pathname)) orderReads += 1;
          return stack.sandbox.fetch(new Request(input, init));
        },
      },
    });
    stack.dropWebhooks = true;
    const session = await stack.openSession();
    const other = await stack.openSession();
    for (const id of [session.id, other.id]) await stack.pay(id, payBody({ card: card('three_ds_challenge') }));
    orderReads = 0;
    for (let i = 0; i < 10; i += 1) expect((await stack.request('GET', `/checkout/return/${session.id}`)).status).toBe(200);
    expect(orderReads).toBe(1);
    await stack.request('GET', `/checkout/return/${other.id}`); // another session has its own read
    expect(orderReads).toBe(2);
    clock.advance(5_000);
    await stack.request('GET', `/checkout/return/${session.id}`);
    expect(orderReads).toBe(3);
  });

  it('says pending, not open, to a customer back from a hosted page whose order could not be read', async () => {
    let away = false;
    const stack: Stack = await open({
      gateway: {
        fetch: async (input, init) => {
          if (away) throw new TypeError('fetch failed');
          return stack.sandbox.fetch(new Request(input, init));
        },
        retry: { maxRetries: 0 },
      },
    });
    stack.dropWebhooks = true;
    const session = await stack.openSession({ customer: CUSTOMER, return_url: 'https://shop.example/thanks' });
    const { redirect_url: page } = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
    expect((await stack.sandbox.request(page, { method: 'POST', body: hostedCardForm() })).status).toBeLessThan(400);
    away = true;
    const back = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(new URL(back.headers.get('location')!).searchParams.get('status')).toBe('pending');
    // A reload within the read's 5 s answers from the ledger: still pending, not open.
    const reloaded = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(new URL(reloaded.headers.get('location')!).searchParams.get('status')).toBe('pending');
    expect(stack.logs.filter((line) => line.includes('the order state could not be read on return'))).toHaveLength(1);
  });

  it('without a return_url, sends the customer back to the page they paid from, on an allowed origin only', async () => {
    const stack = await open({ served: true });
    const customer = { fname: 'Olena', lname: 'Koval', email: 'olena@example.com', phone: '+380501234567' };
    /** Pays a new session on the hosted page from `pageUrl`: where the gateway sends the customer back. */
    const payFrom = async (pageUrl: string) => {
      const session = await stack.openSession({ customer });
      const { redirect_url: page } = await stack.json('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: { page_url: pageUrl } });
      const submitted = await payOnHostedPage(page);
      return { session, landing: submitted.headers.get('location')! };
    };

    const { session, landing } = await payFrom('https://shop.example/checkout?cart=7#pay');
    expect(landing).toBe(`${stack.companionUrl}/checkout/return/${session.id}?page=${encodeURIComponent('https://shop.example/checkout?cart=7')}`);
    const back = await fetch(landing, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const page = new URL(back.headers.get('location')!);
    expect(`${page.origin}${page.pathname}`).toBe('https://shop.example/checkout');
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ cart: '7', checkout_session: session.id, order_id: session.order_id });

    // A page on an origin the companion does not serve is not carried, and not followed when forged in.
    const foreign = await payFrom('https://evil.example/checkout');
    expect(foreign.landing).toBe(`${stack.companionUrl}/checkout/return/${foreign.session.id}`);
    const forged = await stack.request('GET', `/checkout/return/${foreign.session.id}?page=${encodeURIComponent('https://evil.example/')}`);
    expect(forged.status).toBe(200);
    // Nor one that only begins as an allowed one does: another host, another port.
    for (const lookalike of ['https://shop.example.evil.test/checkout', 'https://shop.example:8443/checkout', 'https://shop.examplex/checkout']) {
      const answer = await stack.request('GET', `/checkout/return/${session.id}?page=${encodeURIComponent(lookalike)}`);
      expect(answer.headers.get('location') ?? '', lookalike).not.toContain(new URL(lookalike).host);
    }
  });

  it('tells the shop the status the gateway gave, never one written into the return address', async () => {
    const stack = await open();
    const session = await stack.openSession({ return_url: 'https://shop.example/thanks' });
    const back = await stack.request('GET', `/checkout/return/${session.id}?status=success&message=Paid`);
    expect(back.status).toBe(303);
    expect(Object.fromEntries(new URL(back.headers.get('location')!).searchParams)).toMatchObject({ status: 'open', checkout_session: session.id });
  });

  it('tells the shop the order id of the attempt that paid, not the declined one before it', async () => {
    const stack = await open();
    const session = await stack.openSession({ customer: CUSTOMER, return_url: 'https://shop.example/thanks' });
    await stack.pay(session.id, payBody({ card: card('rejected') }));
    await stack.pay(session.id, payBody());
    const back = await stack.request('GET', `/checkout/return/${session.id}`);
    expect(back.status).toBe(303);
    // The retry has an order id of its own: the shop that looked up the first would read a decline.
    expect(Object.fromEntries(new URL(back.headers.get('location')!).searchParams)).toMatchObject({ order_id: `${session.order_id}:2`, status: 'success' });
  });

  it('says once per origin why a page paid from is not returned to, naming the setting', async () => {
    const stack = await open();
    // The shop answering under a second name (www., or 127.0.0.1 for localhost): same-origin to
    // its browser, so CORS lets the payment through, and only the way back is lost.
    for (const page of ['https://www.shop.example/cart', 'https://www.shop.example/other', 'https://olena:secret@shop.example/cart']) {
      const session = await stack.openSession();
      expect((await stack.pay(session.id, payBody({ card: card('three_ds_challenge'), page_url: page }))).status).toBe(200);
    }
    // With a return_url the page is not where the customer goes: nothing to say of it.
    const returning = await stack.openSession({ return_url: 'https://shop.example/thanks' });
    await stack.pay(returning.id, payBody({ card: card('three_ds_challenge'), page_url: 'https://elsewhere.example/cart' }));
    const said = stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; origin?: string }).filter(({ msg }) => msg.includes('not sent back'));
    expect(said).toEqual([
      expect.objectContaining({ level: 'warn', origin: 'https://www.shop.example', msg: expect.stringContaining('add https://www.shop.example to PAYFORM_ALLOWED_ORIGINS (allowedOrigins)') }),
      expect.objectContaining({ level: 'warn', origin: 'https://shop.example', msg: expect.stringContaining('its address must not carry a user name or password') }),
    ]);
    // Nothing but the page's origin is logged: its path, query and credentials are the customer's.
    expect(stack.logs.join('\n')).not.toMatch(/\/cart|secret/);
  });

  it('carries the page of a card payment into its 3-D Secure return address', async () => {
    const resultUrls: string[] = [];
    const stack: Stack = await open({
      gateway: {
        fetch: async (input, init) => {
          const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { result_url?: string }) : {};
          if (body.result_url) resultUrls.push(body.result_url);
          return stack.sandbox.fetch(new Request(input, init));
        },
      },
    });
    const session = await stack.openSession();
    const paid = await stack.pay(session.id, payBody({ card: card('three_ds_challenge'), page_url: 'https://shop.example/cart' }));
    expect(await paid.json()).toMatchObject({ status: 'redirect' });
    expect(resultUrls).toEqual([`${stack.companionUrl}/checkout/return/${session.id}?page=${encodeURIComponent('https://shop.example/cart')}`]);
  });
});
