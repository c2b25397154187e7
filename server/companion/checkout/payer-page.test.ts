// The pages payments come from: one refused is said once per origin, and a flood of made-up
// origins (anyone may send any page_url) never keeps a real misconfiguration from being said.
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { createLogger, memorySink } from '../log/logger.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';
import { PayerPages, returnablePage, shopHome } from './payer-page.js';

const openStack = stacksPerTest();
const HOUR = 60 * 60_000;

const options = { allowedOrigins: ['https://shop.example'], publicUrl: 'https://pay.shop.example', sandboxOrigin: undefined };

describe('PayerPages', () => {
  it('takes an allowed page back without its fragment, and says a refused origin once', () => {
    const memory = memorySink();
    const pages = new PayerPages(options, createLogger({ sink: memory.sink }));
    expect(pages.returnable('https://shop.example/checkout?cart=7#pay')).toBe('https://shop.example/checkout?cart=7');
    expect(pages.returnable('https://www.shop.example/checkout')).toBeUndefined();
    expect(pages.returnable('https://www.shop.example/other')).toBeUndefined();
    expect(memory.lines.filter((line) => line.includes('www.shop.example'))).toHaveLength(1);
  });

  it('says a flood of made-up origins in a few lines an hour, and a real misconfiguration once the hour has passed', () => {
    const memory = memorySink();
    const clock = new TestClock();
    const pages = new PayerPages(options, createLogger({ sink: memory.sink }), clock.read);
    for (let i = 0; i < 1_000; i++) pages.returnable(`https://made-up-${i}.example/`);
    expect(memory.lines.length).toBeLessThanOrEqual(20);
    clock.advance(HOUR);
    pages.returnable('https://www.shop.example/checkout');
    pages.returnable('https://www.shop.example/checkout');
    expect(memory.lines.filter((line) => line.includes('https://www.shop.example'))).toHaveLength(1);
  });

  it('names no origin that is not one: a host holding a comma, or longer than a DNS name', () => {
    const memory = memorySink();
    const pages = new PayerPages(options, createLogger({ sink: memory.sink }));
    // URL reads the first as the origin `https://shop.example,evil.example`; PAYFORM_ALLOWED_ORIGINS would read two.
    expect(pages.returnable('https://shop.example,evil.example/checkout')).toBeUndefined();
    expect(pages.returnable(`https://${'a'.repeat(300)}.example/checkout`)).toBeUndefined();
    expect(memory.lines).toHaveLength(1);
    expect(memory.lines[0]).toContain('an origin that is not one');
    expect(memory.lines[0]).not.toMatch(/evil|aaaa|PAYFORM_ALLOWED_ORIGINS/);
  });
});

/** A stack whose gateway calls' `result_url`s are kept, in the order sent: where the customer comes back to. */
async function stackKeepingResultUrls(): Promise<{ stack: Stack; resultUrls: string[] }> {
  const resultUrls: string[] = [];
  const stack: Stack = await openStack({
    gateway: {
      fetch: async (input, init) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { result_url?: string }) : {};
        if (body.result_url) resultUrls.push(body.result_url);
        return stack.sandbox.fetch(new Request(input, init));
      },
    },
  });
  return { stack, resultUrls };
}

describe('returnablePage', () => {
  // The page goes into the gateway's result_url and, from the public landing's `?page=`, into a
  // redirect's Location: a card number in its address would be sent on and echoed, as a
  // return_url's would (refused when the session is opened).
  it('does not go back to a page whose address holds a card number, however it is written', () => {
    for (const page of [
      'https://shop.example/checkout?card=4242424242424242',
      'https://shop.example/checkout?n=4242-4242-4242-4242&cvv=123',
      'https://shop.example/4242%204242%204242%204242/pay',
    ]) {
      expect(returnablePage(page, options)).toBeUndefined();
    }
    // Ids and long runs of digits are not card numbers.
    expect(returnablePage('https://shop.example/checkout?order=20261128160000039595&cart=7', options)).toBe('https://shop.example/checkout?order=20261128160000039595&cart=7');
  });

  it('does not carry a page whose card number is escaped as the UTF-8 of full-width digits into the 3-D Secure return', async () => {
    const { stack, resultUrls } = await stackKeepingResultUrls();
    // What a browser's address bar holds for a page whose query has "４１１１…" in it.
    const fullWidth = encodeURIComponent([...'4111111111111111'].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join(''));
    const session = await stack.openSession();
    const paid = await stack.pay(session.id, payBody({ card: card('three_ds_challenge'), page_url: `https://shop.example/cart?c=${fullWidth}` }));
    expect(await paid.json()).toMatchObject({ status: 'redirect' });
    expect(resultUrls).toEqual([`${stack.companionUrl}/checkout/return/${session.id}`]);
    expect(stack.logs.join('\n')).toContain('its address holds a card number');
  });

  it('pays from a page whose address is too long to carry, and brings the customer back to the companion\'s own page', async () => {
    const { stack, resultUrls } = await stackKeepingResultUrls();
    // A shop's tracking parameters, or a long query of its own: nothing the customer can shorten.
    const page = `${stack.companionUrl}/checkout?utm=${'a'.repeat(9_000)}`;
    const session = await stack.openSession();
    const paid = await stack.pay(session.id, payBody({ card: card('three_ds_challenge'), page_url: page }));
    expect(await paid.json()).toMatchObject({ status: 'redirect' });
    expect(resultUrls).toEqual([`${stack.companionUrl}/checkout/return/${session.id}`]);
    const hostedSession = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
    expect((await stack.json('POST', `/api/checkout/sessions/${hostedSession.id}/hosted`, 200, { body: { page_url: page } })).redirect_url).toMatch(/^http/);
  });

  it('says a page refused for a card number by its origin alone', () => {
    const memory = memorySink();
    const pages = new PayerPages(options, createLogger({ sink: memory.sink }));
    expect(pages.returnable('https://shop.example/checkout?card=4242424242424242')).toBeUndefined();
    expect(memory.lines.join('\n')).not.toContain('4242');
  });
});

describe('shopHome', () => {
  it('is the one shop the companion serves, and nothing made up when it serves none or several', () => {
    expect(shopHome(options)).toBe('https://shop.example/');
    // Mounted in the shop's own server (a base path): the shop is that server's origin.
    expect(shopHome({ allowedOrigins: [], publicUrl: 'https://shop.example/payments' })).toBe('https://shop.example/');
    // Alone on its origin, or serving several shops: no page of the companion's is a shop.
    expect(shopHome({ allowedOrigins: [], publicUrl: 'https://pay.shop.example' })).toBeUndefined();
    expect(shopHome({ allowedOrigins: ['https://shop.example', 'https://outlet.example'], publicUrl: 'https://pay.shop.example' })).toBeUndefined();
    // Its own origin allowed (the bin's default) names no shop when it is alone there, and stays
    // the shop when the companion is mounted in that shop's server.
    expect(shopHome({ allowedOrigins: ['https://pay.shop.example'], publicUrl: 'https://pay.shop.example' })).toBeUndefined();
    expect(shopHome({ allowedOrigins: ['https://pay.shop.example', 'https://shop.example'], publicUrl: 'https://pay.shop.example' })).toBe('https://shop.example/');
    expect(shopHome({ allowedOrigins: ['https://shop.example'], publicUrl: 'https://shop.example/payments' })).toBe('https://shop.example/');
  });
});
