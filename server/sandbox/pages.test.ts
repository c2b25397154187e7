import { beforeEach, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '@payform/gateway/testing';
import { directPayment, hostedPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox();
});

async function hostedCheckout(overrides: Json = {}): Promise<{ path: string; orderId: string }> {
  const request = hostedPayment(sandbox.project, overrides);
  const response = await sandbox.post('/api/v1/payment', request);
  return { path: new URL(response.headers.get('location') ?? '').pathname, orderId: request.order_id };
}

const submit = (path: string, fields: Record<string, string>, origin = 'http://localhost') =>
  sandbox.app.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams(fields).toString(),
  });

const card = (number: string, cvv = '123') => ({ cc_number: number, exp_month: '12', exp_year: '30', card_cvv: cvv });
const stateOf = async (orderId: string) => (await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`))[0];

describe('hosted checkout page', () => {
  it('is an accessible form with labelled card fields, the amount, the test cards and a strict CSP', async () => {
    const { path } = await hostedCheckout();
    const page = await sandbox.app.request(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("form-action 'self' https://shop.example");
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<label for="card-number">Card number<\/label>/);
    expect(html).toMatch(/<input id="card-number" name="cc_number"[^>]*autocomplete="cc-number"/);
    expect(html).toMatch(/<input id="security-code" name="card_cvv"[^>]*autocomplete="cc-csc"/);
    expect(html).toContain('<legend>Expiry date</legend>');
    expect(html).toContain('Pay 250.00 UAH');
    expect(html).not.toMatch(/<script|style=/);
    for (const testCard of TEST_CARDS) expect(html).toContain(testCard.label);
  });

  it('checks the card on the server: errors in a summary and at each field, nothing secret echoed, state unchanged', async () => {
    const { path, orderId } = await hostedCheckout();
    const answer = await submit(path, { cc_number: '4242 4242 4242 4241', exp_month: '13', exp_year: '2', card_cvv: '12' });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain('<title>Error: Pay payform test shop · payform sandbox</title>');
    expect(html).toMatch(/role="alert"/);
    expect(html).toContain('<a href="#card-number">The card number is not valid: check it for typing errors</a>');
    expect(html).toContain('Enter the expiry month as a number from 1 to 12');
    expect(html).toContain('Enter the expiry year as 2 or 4 digits');
    expect(html).toContain('The security code must be 3 digits');
    expect(html).toMatch(/id="card-number"[^>]*aria-invalid="true"[^>]*aria-describedby="card-number-hint card-number-error"/);
    expect(html).not.toContain('4241');
    expect(html).toMatch(/id="expiry-month"[^>]*value="13"/);
    expect(await stateOf(orderId)).toMatchObject({ status: 'init' });
  });

  it('refuses an expired date and a wrong-length Amex code', async () => {
    const { path } = await hostedCheckout();
    const expired = await (await submit(path, { ...card('4242424242424242'), exp_month: '2', exp_year: '2026' })).text();
    expect(expired).toContain('The card has expired');
    const amex = await (await submit(path, card('378282246310005', '123'))).text();
    expect(amex).toContain('The security code must be 4 digits for American Express cards');
  });

  it('pays with a success card: webhook, redirect to result_url, and the page shows the outcome afterwards', async () => {
    const { path, orderId } = await hostedCheckout({ method: 'auth' });
    const answer = await submit(path, card('4242 4242 4242 4242'));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('https://shop.example/checkout/return/2');
    expect(await stateOf(orderId)).toMatchObject({ status: 'success', status_code: '1002', mode: 'hosted', cc_mask: '424242******4242' });
    await sandbox.deliver();
    expect(sandbox.inbox.events(orderId).map((event) => event.status_code)).toEqual(['1002']);
    const again = await sandbox.app.request(path);
    expect(await again.text()).toContain('Payment successful');
    const repost = await submit(path, card('4242424242424242'));
    expect(repost.status).toBe(303);
    expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, orderId)?.payment.status).toBe('success');
  });

  it('declines a decline card and shows the outcome page when there is no result_url', async () => {
    const { path, orderId } = await hostedCheckout({ result_url: undefined });
    const answer = await submit(path, card('4000000000009995'));
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('Payment declined');
    expect(html).toContain('You can close this page.');
    expect(await stateOf(orderId)).toMatchObject({ status: 'failure', status_code: '4009' });
  });

  it('sends the 3220 card through the challenge page, which decides and redirects to result_url', async () => {
    const { path, orderId } = await hostedCheckout();
    const answer = await submit(path, card('4000000000003220'));
    expect(answer.status).toBe(303);
    const challenge = new URL(answer.headers.get('location') ?? '').pathname;
    expect(challenge).toMatch(/^\/3ds\/[0-9a-f]{32}$/);
    expect(await stateOf(orderId)).toMatchObject({ status: 'pending', status_code: '2122', user_action_required: true });
    // Reopening the checkout page while the challenge is open leads back to it.
    const reopened = await sandbox.app.request(path);
    expect(reopened.status).toBe(303);
    const page = await sandbox.app.request(challenge);
    const html = await page.text();
    expect(html).toContain('Confirm this payment with your bank');
    expect(html).toContain('<button type="submit" name="result" value="success">Complete authentication</button>');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://shop.example");
    const done = await submit(challenge, { result: 'success' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://shop.example/checkout/return/2');
    expect(await stateOf(orderId)).toMatchObject({ status: 'success', eci: '05' });
    expect(await (await sandbox.app.request(challenge)).text()).toContain('This verification is already finished.');
  });

  it('links its stylesheet and posts its forms under the public URL’s path, where a proxy serves the sandbox', async () => {
    const publicUrl = 'https://proxy.example/gateway';
    sandbox = testSandbox({ publicUrl });
    const location = (await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project))).headers.get('location')!;
    expect(location).toMatch(/^https:\/\/proxy\.example\/gateway\/api\/v1\/checkout\/[^/]+\/form$/);
    // The proxy asks the sandbox for its own path; the browser resolves what the page holds against the page's URL.
    const own = new URL(location).pathname.slice('/gateway'.length);
    const links = async (page: string, path: string) => {
      const html = await (await sandbox.app.request(path)).text();
      // Its own links: not the icon (`data:,`) nor the way back to the shop.
      return [...html.matchAll(/(?:action|href)="([^"#]+)"/g)].map(([, link]) => new URL(link!, page).href).filter((link) => !/^data:|shop\.example/.test(link));
    };
    expect(await links(location, own)).toEqual([`${publicUrl}/assets/sandbox.css`, location]);
    const answer = await submit(own, card('4000000000003220'), 'https://proxy.example');
    const challenge = answer.headers.get('location')!;
    expect(challenge).toMatch(/^https:\/\/proxy\.example\/gateway\/3ds\//);
    expect(await links(challenge, new URL(challenge).pathname.slice('/gateway'.length))).toEqual([`${publicUrl}/assets/sandbox.css`, challenge]);
    // What the customer typed comes back as typed, a slash first too.
    const { path } = await hostedCheckout();
    const typed = await (await submit(path.slice('/gateway'.length), { cc_number: '4242424242424242', exp_month: '/1', exp_year: '/30', card_cvv: '123' })).text();
    expect(typed).toContain('value="/1"');
  });

  it('shows a cancelled or expired payment page as gone (410) and an unknown one as 404', async () => {
    const cancelled = await hostedCheckout();
    await sandbox.post(`/api/v1/pos/${sandbox.project.posId}/order/${cancelled.orderId}/cancel`, undefined);
    const page = await sandbox.app.request(cancelled.path);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('Payment cancelled');
    const expired = await hostedCheckout({ order_timeout: 60 });
    await sandbox.advance(60_000);
    expect((await sandbox.app.request(expired.path)).status).toBe(410);
    expect((await submit(expired.path, card('4242424242424242'))).status).toBe(303);
    expect(await stateOf(expired.orderId)).toMatchObject({ status: 'failure', status_code: '4149' });
    // Posted to, with no result_url to go back to: gone as well.
    const unreturned = await hostedCheckout({ result_url: undefined });
    await sandbox.post(`/api/v1/pos/${sandbox.project.posId}/order/${unreturned.orderId}/cancel`, undefined);
    const posted = await submit(unreturned.path, card('4242424242424242'));
    expect(posted.status).toBe(410);
    expect(await posted.text()).toContain('Payment cancelled');
    expect((await sandbox.app.request('/api/v1/checkout/0123456789abcdef0123456789abcdef/form')).status).toBe(404);
  });

  it('refuses a form posted from another site', async () => {
    const { path, orderId } = await hostedCheckout();
    const answer = await submit(path, card('4242424242424242'), 'https://evil.example');
    expect(answer.status).toBe(403);
    expect(await stateOf(orderId)).toMatchObject({ status: 'init' });
  });

  it('lets a direct lookup without card data collect the card on the form', async () => {
    const lookup = await sandbox.postJson('/api/v1/payment', {
      pos_id: sandbox.project.posId, mode: 'direct', method: 'lookup', amount: 1, currency: 'UAH', description: 'Card check',
      order_id: 'lookup-form', order_3ds_bypass: 'supported', browser_fingerprint: directPayment(sandbox.project).browser_fingerprint,
    });
    const path = new URL(String(lookup.user_action_url)).pathname;
    expect(await (await sandbox.app.request(path)).text()).toContain('Verify card');
    const answer = await submit(path, card('5454545454545454'));
    expect(await answer.text()).toContain('Card verified');
    expect(await stateOf('lookup-form')).toMatchObject({ status: 'success', method: 'lookup', cc_mask: '545454******5454' });
  });
});

describe('3-D Secure page', () => {
  it('fails the payment with the fail button; an unknown challenge is 404; an empty answer is asked again', async () => {
    const payment = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, {}, '4000000000003220'));
    const path = new URL(String(payment.user_action_url)).pathname;
    const empty = await submit(path, {});
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Choose one of the two buttons.');
    const failed = await submit(path, { result: 'failure' });
    expect(failed.headers.get('location')).toBe('https://shop.example/checkout/return/1');
    expect(await stateOf(String(payment.order_id))).toMatchObject({ status: 'failure', status_code: '4153' });
    expect((await sandbox.app.request('/3ds/0123456789abcdef0123456789abcdef')).status).toBe(404);
  });
});

describe('front page and stylesheet', () => {
  it('serves the front page with the test cards and the stylesheet as text/css', async () => {
    const home = await sandbox.app.request('/');
    expect(await home.text()).toContain(sandbox.project.posId);
    const css = await sandbox.app.request('/assets/sandbox.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('.error-summary');
  });
});
