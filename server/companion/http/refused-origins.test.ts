/**
 * Refused origins as a stranger cannot silence them: anyone can send any Origin, so only a
 * request naming a session this companion opened (the widget's first GET) is warned of, and an
 * origin is said again once the hour has passed. A scanner's made-up origins are debug lines.
 */
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { rawRequest } from '../test/raw-request.js';
import { stacksPerTest } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

const openStack = stacksPerTest();
const HOUR = 60 * 60_000;

const warned = (stack: Stack) =>
  stack.logs.map((line) => JSON.parse(line) as { level: string; msg: string; origin?: string }).filter((entry) => entry.level === 'warn' && entry.msg.includes('origin is not allowed'));

const forged = (stack: Stack, origin: string) => stack.request('OPTIONS', '/api/checkout/sessions/cs_made_up/pay', { headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } });
const shopPage = async (stack: Stack) => {
  const session = await stack.openSession();
  const page = await stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { Origin: 'https://real-shop.example' } });
  expect(page.status).toBe(200);
  expect(page.headers.get('access-control-allow-origin')).toBeNull();
};

it('is still said for the shop’s page after a thousand made-up origins, which are not', async () => {
  const stack = await openStack();
  // Preflights: nothing a stranger cannot send. (Until 0.3 the first thousand origins were each
  // said once, and then no more.)
  for (let i = 0; i < 1_000; i += 1) await forged(stack, `https://forged-${i}.example`);
  expect(warned(stack)).toEqual([]);
  await shopPage(stack);
  expect(warned(stack)).toEqual([expect.objectContaining({ origin: 'https://real-shop.example', msg: expect.stringContaining('add it to PAYFORM_ALLOWED_ORIGINS') })]);
});

describe.each([['in process', false], ['over HTTP', true]])('a refused origin, %s', (_, served) => {
  it('is warned of only on a request naming a session this companion opened', async () => {
    const stack = await openStack({ served });
    await forged(stack, 'https://forged.example');
    await stack.request('GET', '/api/checkout/sessions/cs_made_up', { headers: { Origin: 'https://guess.example' } });
    expect(warned(stack)).toEqual([]);
    expect(stack.logs.filter((line) => line.includes('"level":"debug"') && line.includes('origin is not allowed'))).toHaveLength(2);
    await shopPage(stack);
    expect(warned(stack).map(({ origin }) => origin)).toEqual(['https://real-shop.example']);
  });
});

it('says a refused origin again once the hour has passed, not before', async () => {
  const clock = new TestClock();
  const stack = await openStack({ clock });
  const session = await stack.openSession();
  const page = () => stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { Origin: 'https://real-shop.example' } });
  await page();
  clock.advance(HOUR - 1);
  await page();
  expect(warned(stack)).toHaveLength(1);
  clock.advance(1);
  await page();
  expect(warned(stack)).toHaveLength(2);
});

describe.each([['in process', false], ['over HTTP', true]])('the companion’s own 404 to a refused origin, %s', (_, served) => {
  it('stays readable by any page, and is not taken for a host’s CORS middleware', async () => {
    const stack = await openStack({ served });
    const session = await stack.openSession();
    // What the widget's diagnosis asks, from a page whose origin may be refused: is anything there?
    const probe = await stack.request('GET', `/api/checkout/sessions/${session.id}/probe`, { headers: { Origin: 'https://elsewhere.example' } });
    expect(probe.status).toBe(404);
    expect(probe.headers.get('access-control-allow-origin')).toBe('*');
    expect(stack.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });
});

it('grants no origin that only begins as an allowed one: another host, another port, a longer name', async () => {
  const stack = await openStack();
  const session = await stack.openSession();
  const read = (origin: string) => stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { Origin: origin } });
  for (const origin of ['https://shop.example.evil.test', 'https://shop.example:8443', 'https://shop.examplex', 'http://shop.example']) {
    expect((await read(origin)).headers.get('access-control-allow-origin'), origin).toBeNull();
  }
  expect((await read('https://shop.example')).headers.get('access-control-allow-origin')).toBe('https://shop.example');
});

it('is logged without the C1 controls a header may carry, which terminals take for escape sequences, nor the value that carried them', async () => {
  const stack = await openStack({ served: true });
  const session = await stack.openSession();
  // Header bytes 0x80–0x9f reach the app as U+0080–U+009F: CSI "clear the screen", OSC "set the title".
  const origin = 'https://evil.example\x9b2J\x9d0;paid\x9c';
  const { port } = new URL(stack.companionUrl);
  expect((await rawRequest(port, 'GET', `/api/checkout/sessions/${session.id}`, { Host: `127.0.0.1:${port}`, Origin: origin })).status).toBe(200);
  const lines = stack.logs.filter((line) => line.includes('is not allowed') || line.includes('is not one'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toMatch(/[\u0080-\u009f]/);
  expect(lines[0]).not.toContain('evil.example');
  expect(JSON.parse(lines[0]!)).not.toHaveProperty('origin');
});

it('names in its advice only one origin as a browser sends it, and any other value once an hour, unechoed', async () => {
  const stack = await openStack();
  const session = await stack.openSession();
  const page = (origin: string) => stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { Origin: origin } });
  const madeUp = [
    'https://a.example, https://evil.example', // two origins: PAYFORM_ALLOWED_ORIGINS would take both
    'https://a.example,evil.example', // which URL itself reads as one origin, its host holding the comma
    `https://${'a'.repeat(300)}.example`, // longer than any DNS name
    'https://a.example/then-also-allow-https://evil.example', // an address, not an origin
    'HTTPS://Evil.Example', // not as a browser writes it
  ];
  for (const origin of madeUp) expect((await page(origin)).status, origin).toBe(200);
  const advice = stack.logs.filter((line) => /"level":"warn"/.test(line) && line.includes('checkout API'));
  expect(advice).toHaveLength(1);
  expect(advice[0]).toContain('an origin that is not one');
  expect(advice[0]).not.toMatch(/evil|a\.example|aaaa|PAYFORM_ALLOWED_ORIGINS/i);
  expect(JSON.parse(advice[0]!)).not.toHaveProperty('origin');
  // A real origin is still named, with the setting that allows it.
  await page('https://www.a.example:8443');
  expect(warned(stack)).toEqual([expect.objectContaining({ origin: 'https://www.a.example:8443', msg: expect.stringContaining('add it to PAYFORM_ALLOWED_ORIGINS') })]);
});
