// The merchant API's bearer token against guessing: a client that keeps sending wrong tokens is
// refused 429 for a while, its right guess too, and the burst is logged once; a client that sent
// the right token before (the merchant's server, beside a stranger at its address) still passes.
import { describe, expect, it, vi } from 'vitest';
import { fileBackend, TestClock } from '../../ledger/testing/databases.js';
import { ADMIN_TOKEN, eventually, stacksPerTest } from '../test/stack.js';

const openStack = stacksPerTest();
const GUESSER = '198.51.100.23';

describe('wrong admin tokens', () => {
  it('are answered 401, then 429 per client after a burst, with one warning a burst, while the merchant’s right token passes', async () => {
    const clock = new TestClock();
    const stack = await openStack({ clock, companion: { rateLimits: { wrongAdminTokens: 3, windowMs: 60_000 } } });
    const orders = (token: string, ip = GUESSER) => stack.request('GET', '/api/orders', { ip, headers: { Authorization: `Bearer ${token}` } });
    // The merchant's server at the same address (localhost, a proxy not trusted) used it before.
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
    for (let guess = 0; guess < 3; guess += 1) expect((await orders(`guess-${guess}`)).status).toBe(401);
    for (let guess = 3; guess < 8; guess += 1) {
      const refused = await orders(`guess-${guess}`);
      expect(refused.status).toBe(429);
      const seconds = Number(refused.headers.get('retry-after'));
      expect(seconds).toBeGreaterThan(0);
      // The operator signing in reads how long, not "a moment".
      expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited', message: `Too many wrong tokens; try again in ${seconds} s` } });
    }
    // A stranger beside the merchant at its address must not lock the merchant out.
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
    expect((await orders('guess-8')).status, 'the right token does not reset the count').toBe(429);
    // Others are not held back by it.
    expect((await orders(ADMIN_TOKEN, '203.0.113.50')).status).toBe(200);
    const warnings = () => stack.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'warn' && /wrong bearer tokens \(admin, metrics\): client refused/.test(entry.msg));
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ client: GUESSER });
    expect(JSON.stringify(warnings())).not.toContain('guess-');

    clock.advance(60_000);
    expect((await orders('guess-9')).status, 'a new window').toBe(401);
    for (let guess = 0; guess < 4; guess += 1) await orders(`again-${guess}`);
    expect(warnings(), 'a new burst, a new warning').toHaveLength(2);
  });

  it('hold the merchant back too past ten times the limit: a stranger at its address guesses no faster than that, and the error names the fix', async () => {
    const clock = new TestClock();
    const stack = await openStack({ clock, companion: { rateLimits: { wrongAdminTokens: 3, windowMs: 60_000 } } });
    const orders = (token: string) => stack.request('GET', '/api/orders', { ip: GUESSER, headers: { Authorization: `Bearer ${token}` } });
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
    for (let guess = 0; guess < 30; guess += 1) await orders(`guess-${guess}`);
    expect((await orders(ADMIN_TOKEN)).status, 'the merchant, thirty guesses beside it').toBe(200);
    const errors = () => stack.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'error' && /wrong bearer tokens/.test(entry.msg));
    expect(errors()).toEqual([]);
    await orders('guess-30');
    const refused = await orders(ADMIN_TOKEN);
    expect(refused.status, 'the right token, past thirty-one guesses').toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let guess = 31; guess < 40; guess += 1) expect((await orders(`guess-${guess}`)).status).toBe(429);
    expect(errors()).toHaveLength(1);
    expect(errors()[0]).toMatchObject({ client: GUESSER, wrong_tokens: 31 });
    expect(errors()[0].msg).toContain('PAYFORM_TRUST_PROXY');
    // Another client is not held back by it, and the merchant passes again in the next window.
    expect((await stack.request('GET', '/api/orders', { ip: '203.0.113.50', headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
    clock.advance(60_000);
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
  });

  it('do not hold back a client that never held the token by the holders’ error: a stranger alone is refused from the limit on, and not said twice', async () => {
    const clock = new TestClock();
    const stack = await openStack({ clock, companion: { rateLimits: { wrongAdminTokens: 3, windowMs: 60_000 } } });
    for (let guess = 0; guess < 40; guess += 1) await stack.request('GET', '/api/orders', { ip: GUESSER, headers: { Authorization: `Bearer guess-${guess}` } });
    const lines = stack.logs.map((line) => JSON.parse(line)).filter((entry) => /wrong bearer tokens/.test(entry.msg));
    expect(lines.map((entry) => entry.level)).toEqual(['warn']);
  });

  it('let the merchant in past a stranger’s burst after a restart or on another instance: the ledger keeps who held the token', async () => {
    const clock = new TestClock();
    // Over HTTP on 127.0.0.1: the merchant's server and the stranger both come from this machine.
    const stack = await openStack({ clock, backend: fileBackend, served: true, companion: { rateLimits: { wrongAdminTokens: 3, windowMs: 60_000 } } });
    const orders = (on: Pick<typeof stack, 'request'>, token: string) => on.request('GET', '/api/orders', { headers: { Authorization: `Bearer ${token}` } });
    expect((await orders(stack, ADMIN_TOKEN)).status).toBe(200);
    await vi.waitFor(async () => expect((await stack.ledger.tokenHolders()).get('127.0.0.1')).toBe(clock.now));
    // Deployed again: the new process has not seen the merchant's server yet when the stranger guesses.
    const restarted = await stack.instance();
    for (let guess = 0; guess < 5; guess += 1) await orders(restarted, `guess-${guess}`);
    expect((await orders(restarted, 'guess-5')).status).toBe(429);
    expect((await orders(restarted, ADMIN_TOKEN)).status).toBe(200);
    // A day on, the stranger's burst holds the address back again, the merchant's right token too.
    clock.advance(24 * 60 * 60_000);
    const later = await stack.instance();
    for (let guess = 0; guess < 5; guess += 1) await orders(later, `later-${guess}`);
    expect((await orders(later, ADMIN_TOKEN)).status).toBe(429);
  });

  it('count only a token sent: requests without one (preflights, scanners) never lock the merchant out', async () => {
    const clock = new TestClock();
    const stack = await openStack({ clock, companion: { rateLimits: { wrongAdminTokens: 3, windowMs: 60_000 } } });
    const orders = (headers: Record<string, string>) => stack.request('GET', '/api/orders', { ip: GUESSER, headers });
    for (let request = 0; request < 12; request += 1) expect((await orders(request % 2 ? {} : { Authorization: 'Basic c2Nhbm5lcg==' })).status).toBe(401);
    // The merchant's server at that address, just started, has not sent its token yet.
    expect((await orders({ Authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(200);
  });

  it('past the limit refuse a right guess as a wrong one: 429 tells a guesser nothing, at any speed', async () => {
    const clock = new TestClock();
    const stack = await openStack({ clock, companion: { rateLimits: { wrongAdminTokens: 3, windowMs: 60_000 } } });
    const orders = (token: string) => stack.request('GET', '/api/orders', { ip: GUESSER, headers: { Authorization: `Bearer ${token}` } });
    for (let guess = 0; guess < 4; guess += 1) await orders(`guess-${guess}`);
    const found = await orders(ADMIN_TOKEN);
    expect(found.status).toBe(429);
    expect(await found.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringMatching(/^Too many wrong tokens; try again in \d+ s$/) } });
    // The window over, the right token passes, and from then on this client holds it.
    clock.advance(60_000);
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
    for (let guess = 0; guess < 4; guess += 1) await orders(`again-${guess}`);
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
  });

  it('are said within a minute however few, and once a minute however many: a shop sending another token fails every checkout', async () => {
    const clock = new TestClock();
    const stack = await openStack({ clock });
    const orders = (headers: Record<string, string>) => stack.request('GET', '/api/orders', { ip: GUESSER, headers });
    const said = () => stack.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'warn' && /wrong admin token: if it is your shop/.test(entry.msg));
    expect((await orders({ Authorization: `Bearer "${ADMIN_TOKEN}"` })).status).toBe(401);
    // Said once the ledger has told whether the token sent is another instance's newer one.
    await eventually(() => expect(said()).toEqual([expect.objectContaining({ client: GUESSER, refused: 1, msg: expect.stringContaining('must send PAYFORM_ADMIN_TOKEN as Authorization: Bearer <token>') })]));
    for (let request = 0; request < 3; request += 1) await orders({ Authorization: 'Bearer another-token' });
    // The checkout API's own admin route (its guard is another) is one companion's too: still one line a minute.
    expect((await stack.request('DELETE', '/api/checkout/sessions/cs_unknown', { ip: GUESSER, headers: { Authorization: 'Bearer another-token' } })).status).toBe(401);
    // No token at all is a scanner's as often as a shop's: the request log has it.
    await orders({});
    expect(said()).toHaveLength(1);
    clock.advance(60_000);
    await orders({ Authorization: 'Bearer another-token' });
    await eventually(() => expect(said().map((entry) => entry.refused)).toEqual([1, 5]));
    expect(JSON.stringify(said())).not.toContain('another-token');
  });

  it('say what is wrong with the header as sent: missing, another scheme, the token quoted, or another token', async () => {
    const stack = await openStack();
    const refusal = async (headers: Record<string, string>) => {
      const answer = await stack.request('GET', '/api/orders', { ip: GUESSER, headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="payform"');
      return ((await answer.json()) as { error: { code: string; message: string } }).error;
    };
    const which = '(PAYFORM_ADMIN_TOKEN, or the one the bin printed at its latest start)';
    expect(await refusal({})).toEqual({ code: 'unauthorized', message: `No Authorization header: send Authorization: Bearer <token>, with the companion’s admin token ${which}` });
    // The token alone, as an API key is often sent; or another scheme.
    for (const header of [ADMIN_TOKEN, `Token ${ADMIN_TOKEN}`, 'Basic c2hvcDpzZWNyZXQ=']) {
      expect(await refusal({ Authorization: header })).toEqual({ code: 'unauthorized', message: `The Authorization header must read Bearer <token>, with the companion’s admin token ${which}` });
    }
    expect(await refusal({ Authorization: `Bearer "${ADMIN_TOKEN}"` })).toEqual({ code: 'unauthorized', message: `The bearer token is wrapped in quotes: send the companion’s admin token ${which} without them` });
    // Compared whole: a part of the token, or the token run on, is another token.
    for (const near of [ADMIN_TOKEN.slice(0, 1), ADMIN_TOKEN.slice(0, -1), `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(1)]) {
      expect(await refusal({ Authorization: `Bearer ${near}` })).toEqual({ code: 'unauthorized', message: `The bearer token is not the companion’s admin token ${which}` });
    }
    const wrong = await refusal({ Authorization: 'Bearer another-token' });
    expect(wrong).toEqual({ code: 'unauthorized', message: `The bearer token is not the companion’s admin token ${which}` });
    // Nothing sent is echoed.
    expect(JSON.stringify(wrong)).not.toContain('another-token');
  });

  it('are counted whatever the route: the checkout API’s admin routes share the count', async () => {
    const stack = await openStack({ companion: { rateLimits: { wrongAdminTokens: 2 } } });
    const wrong = { ip: GUESSER, headers: { Authorization: 'Bearer not-it' } };
    expect((await stack.request('GET', '/api/orders', wrong)).status).toBe(401);
    expect((await stack.request('POST', '/api/checkout/sessions', { ...wrong, body: { amount: 1, currency: 'UAH', description: 'x' } })).status).toBe(401);
    expect((await stack.request('GET', '/api/balances/accounts', wrong)).status).toBe(429);
    expect((await stack.request('POST', '/api/checkout/sessions', { ...wrong, body: { amount: 1, currency: 'UAH', description: 'x' } })).status).toBe(429);
  });

  it('share their count with wrong metrics tokens: neither token can be guessed at where the other is slowed', async () => {
    const stack = await openStack({ companion: { metricsToken: 'metrics-token-0123456789', rateLimits: { wrongAdminTokens: 2 } } });
    // Straight to the app with the guesser's address: /metrics is not in the OpenAPI document.
    const scrape = (token: string) => stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${token}` } }, { incoming: { socket: { remoteAddress: GUESSER } } } as never);
    // Prometheus at this address scraped before the guesses.
    expect((await scrape('metrics-token-0123456789')).status).toBe(200);
    expect((await scrape('guess-1')).status).toBe(401);
    expect((await scrape('guess-2')).status).toBe(401);
    const refused = await scrape('guess-3');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await stack.request('GET', '/api/orders', { ip: GUESSER, headers: { Authorization: 'Bearer guess-4' } })).status).toBe(429);
    // Its right token still passes.
    expect((await scrape('metrics-token-0123456789')).status).toBe(200);
  });

  it('are not counted for a client whose address the host did not pass: nobody can lock the merchant out', async () => {
    const stack = await openStack({ companion: { rateLimits: { wrongAdminTokens: 2 } } });
    // app.request with no socket and no clientAddress: the address is unknown, as on a bare fetch mount.
    const orders = (token: string) => stack.companion.request('/api/orders', { headers: { Authorization: `Bearer ${token}` } });
    for (let guess = 0; guess < 6; guess += 1) expect((await orders(`guess-${guess}`)).status).toBe(401);
    expect((await orders(ADMIN_TOKEN)).status).toBe(200);
  });
});
