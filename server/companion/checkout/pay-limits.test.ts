// The pay rate limits themselves: what is counted, under which key, and how much they can hold.
import { describe, expect, it } from 'vitest';
import { awayWhile } from '../../ledger/testing/away-ledger.js';
import { fileBackend } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { clientNetwork, wideNetwork } from '../http/client-address.js';
import { RateLimiter } from '../http/rate-limit.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Stack, StackOptions } from '../test/stack.js';

const openStack = stacksPerTest();
let stack: Stack;
const open = async (options: StackOptions = {}) => (stack = await openStack(options));
const payLimits = () => stack.companion.companion.services.payLimits;

/** A SQLite file whose ledger answers every call as a database gone away while `away()` holds. */
const awayFile = (away: () => boolean): LedgerBackend => ({
  ...fileBackend,
  async open(clock) {
    const opened = await fileBackend.open(clock);
    return { ...opened, ledger: awayWhile(opened.ledger, away) };
  },
});

describe('pay rate limits', () => {
  it('do not count the attempts answered 503 while the ledger is away: the customer who waits pays once it is back', async () => {
    let away = false;
    await open({ backend: awayFile(() => away), companion: { rateLimits: { perSession: 2, perClient: 2 } } });
    const session = await stack.openSession();
    away = true;
    for (let i = 0; i < 4; i += 1) {
      const refused = await stack.pay(session.id, payBody(), { ip: '192.0.2.9' });
      expect(refused.status).toBe(503);
      expect((await refused.json()).error.code).toBe('ledger_unavailable');
    }
    away = false;
    expect((await stack.pay(session.id, payBody(), { ip: '192.0.2.9' })).status).toBe(200);
  });

  it('count no session for an id that cannot be one, so junk ids take no memory', async () => {
    await open({ companion: { rateLimits: { perSession: 100, perClient: 100 } } });
    for (let i = 0; i < 20; i += 1) {
      const response = await stack.pay(`${i}-${'x'.repeat(16_000)}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('session_not_found');
    }
    expect(payLimits().perSession.size).toBe(0);
  });

  it('do not count a session for a client that is already refused', async () => {
    await open({ companion: { rateLimits: { perSession: 2, perClient: 1 } } });
    const session = await stack.openSession();
    expect((await stack.pay(session.id, payBody(), { ip: '192.0.2.1' })).status).toBe(200);
    // Refused as a client: the session's own quota is left alone …
    expect((await stack.pay(session.id, payBody(), { ip: '192.0.2.1' })).status).toBe(429);
    expect((await stack.pay(session.id, payBody(), { ip: '192.0.2.1' })).status).toBe(429);
    // … so another client still has the session's second attempt (answered with the paid attempt).
    expect((await stack.pay(session.id, payBody(), { ip: '192.0.2.2' })).status).toBe(200);
  });

  it('name PAYFORM_TRUST_PROXY when the client refused came through a proxy the companion does not trust', async () => {
    await open({ companion: { rateLimits: { perSession: 100, perClient: 1 } } });
    const sessions = await Promise.all([1, 2].map(() => stack.openSession()));
    const viaProxy = (id: string, customer: string) => stack.pay(id, payBody(), { ip: '10.0.0.5', headers: { 'X-Forwarded-For': customer } });
    expect((await viaProxy(sessions[0]!.id, '198.51.100.1')).status).toBe(200);
    expect((await viaProxy(sessions[1]!.id, '198.51.100.2')).status, 'another customer, counted as the proxy').toBe(429);
    const limited = stack.logs.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'pay attempts rate limited');
    expect(limited).toMatchObject([{ level: 'warn', client: '10.0.0.5', by: 'client', fix: expect.stringContaining('set PAYFORM_TRUST_PROXY=true') }]);
    // From a public address the header is anyone's to send: no advice to trust it.
    const third = await stack.openSession();
    for (const ip of ['203.0.113.7', '203.0.113.7']) await stack.pay(third.id, payBody(), { ip, headers: { 'X-Forwarded-For': '198.51.100.3' } });
    const fromPublic = stack.logs.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'pay attempts rate limited' && entry.client === '203.0.113.7');
    expect(fromPublic).toHaveLength(1);
    expect(fromPublic[0].fix).toBeUndefined();
  });

  it('count an IPv6 client by its /64, which one subscriber holds whole', async () => {
    await open({ companion: { rateLimits: { perSession: 100, perClient: 1 } } });
    const sessions = await Promise.all([1, 2, 3].map(() => stack.openSession()));
    expect((await stack.pay(sessions[0]!.id, payBody(), { ip: '2001:db8:1:2::1' })).status).toBe(200);
    expect((await stack.pay(sessions[1]!.id, payBody(), { ip: '2001:db8:1:2:ffff:ffff:ffff:fffe' })).status).toBe(429);
    expect((await stack.pay(sessions[2]!.id, payBody(), { ip: '2001:db8:1:3::1' })).status).toBe(200);
  });

  it('without a client address count per session only, and say so once: junk cannot lock out real payers', async () => {
    await open({ companion: { rateLimits: { perSession: 2, perClient: 3 } } });
    // A fetch mount with no clientAddress (the Next.js recipe): no socket, no address.
    const payUnknown = (id: string) =>
      stack.companion.request(`/api/checkout/sessions/${id}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
    for (let i = 0; i < 10; i += 1) expect((await payUnknown(`made-up-session-${String(i).padStart(27, '0')}`)).status).toBe(404);
    const session = await stack.openSession();
    expect((await payUnknown(session.id)).status, 'a real customer still pays').toBe(200);
    expect((await payUnknown(session.id)).status).toBe(200);
    expect((await payUnknown(session.id)).status, 'the session keeps its own limit').toBe(429);
    const notes = stack.logs.map((line) => JSON.parse(line)).filter((entry) => /client address/.test(entry.msg));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ level: 'warn' });
    // What to do on a host that gives no address, where a client's own X-Forwarded-For would be trusted.
    expect(notes[0].msg).toContain('where it gives none (a Next.js route handler), set PAYFORM_TRUST_PROXY=true behind a proxy of yours that appends X-Forwarded-For');
  });
});

describe('clientNetwork', () => {
  it('is the IPv4 address itself, or the /64 of an IPv6 one in any spelling', () => {
    expect(clientNetwork('192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('2001:DB8:0:0:1::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('2001:db8:1::')).toBe('2001:db8:1:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('gives an IPv6 network its /48, and an IPv4 address none', () => {
    expect(wideNetwork(clientNetwork('2001:DB8:abcd:12::1'))).toBe('2001:db8:abcd::/48');
    expect(wideNetwork(clientNetwork('2001:db8::1'))).toBe('2001:db8:0::/48');
    expect(wideNetwork(clientNetwork('192.0.2.1'))).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  it('holds at most maxKeys counters, giving up the oldest window first', () => {
    let now = 0;
    const limiter = new RateLimiter(1, 60_000, () => now, 3);
    for (const key of ['a', 'b', 'c']) {
      expect(limiter.take(key).allowed).toBe(true);
      now += 1;
    }
    expect(limiter.take('b').allowed).toBe(false);
    expect(limiter.take('d').allowed).toBe(true);
    expect(limiter.size).toBe(3);
    expect(limiter.take('a').allowed).toBe(true); // 'a' was the oldest: forgotten for 'd'
    expect(limiter.take('c').allowed).toBe(false);
  });

  it('forgets windows that ended', () => {
    let now = 0;
    const limiter = new RateLimiter(1, 1_000, () => now);
    for (let i = 0; i < 1_000; i += 1) limiter.take(`k${i}`);
    expect(limiter.size).toBe(1_000);
    now += 1_000;
    expect(limiter.take('k0')).toEqual({ allowed: true, retryAfterMs: 1_000, justExceeded: false, count: 1 });
    expect(limiter.size).toBe(1);
  });
});
