// What the back office draws: statistics over time and the live feed of changes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../ledger/testing/databases.js';
import { card } from '../test/cards.js';
import { ADMIN_TOKEN, createStack, payBody } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

const HOUR = 3_600_000;
// Half past the current hour: buckets are predictable and test cards have not expired.
const START = Math.floor(Date.now() / HOUR) * HOUR + HOUR / 2;
const at = (ms: number) => new Date(ms).toISOString();
let stack: Stack;
let clock: TestClock;
beforeEach(async () => {
  clock = new TestClock(START);
  stack = await createStack({ clock });
});
afterEach(async () => {
  await stack.close();
});

async function payWith(outcome: 'success' | 'rejected' | 'three_ds_challenge') {
  const session = await stack.openSession();
  await stack.pay(session.id, payBody({ card: card(outcome) }));
  return session;
}

describe('GET /api/stats', () => {
  it('counts payments per hour by outcome with the success rate, every bucket present', async () => {
    await payWith('success');
    await payWith('rejected');
    // The gateway refusing calls: an attempt never sent is the merchant's trouble, not a decline.
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 429, phase: 'before', scope: { method: 'POST', path: '/api/v1/payment' } });
    expect((await payWith('success').then((session) => stack.ledger.getPayment(session.order_id)))).toMatchObject({ status: 'failure', statusCode: null });
    await stack.control('DELETE', '/_sandbox/faults');
    clock.advance(HOUR);
    await payWith('success');
    await payWith('three_ds_challenge');
    const hour = START - HOUR / 2;
    const stats = await stack.json('GET', `/api/stats?from=${at(hour)}&to=${at(hour + 3 * HOUR)}&bucket=hour`, 200, { admin: true });
    expect(stats.buckets).toEqual([
      { start: at(hour), total: 3, succeeded: 1, failed: 1, in_flight: 0, not_sent: 1, cancelled: 0, success_rate: 0.5 },
      { start: at(hour + HOUR), total: 2, succeeded: 1, failed: 0, in_flight: 1, not_sent: 0, cancelled: 0, success_rate: 1 },
      { start: at(hour + 2 * HOUR), total: 0, succeeded: 0, failed: 0, in_flight: 0, not_sent: 0, cancelled: 0, success_rate: null },
    ]);
    expect(stats.totals).toEqual({ total: 5, succeeded: 2, failed: 1, in_flight: 1, not_sent: 1, cancelled: 0, success_rate: 2 / 3 });
  });

  it('defaults to the last day by hour, days start at the given UTC offset, and bad ranges are 400', async () => {
    await payWith('success');
    const last = await stack.json('GET', '/api/stats', 200, { admin: true });
    // The last 24 hours from half past: 25 hour buckets, the first and last partly.
    expect(last.buckets).toHaveLength(25);
    expect(last.totals.succeeded).toBe(1);
    // Each bucket starts on its hour, the first one too (before the window does): a chart labels it so.
    expect(last.buckets.map((bucket: { start: string }) => bucket.start)).toEqual(Array.from({ length: 25 }, (_, i) => at(START - HOUR / 2 - 24 * HOUR + i * HOUR)));
    // The back office's default window, in its browser's zone: Kathmandu's hours start a quarter past UTC's.
    const zoned = await stack.json('GET', '/api/stats?time_zone=Asia/Kathmandu', 200, { admin: true });
    expect(zoned.buckets[0].start).toBe(at(START - HOUR / 2 - 24 * HOUR + HOUR / 4));
    const dayStart = Math.floor((START + 2 * HOUR) / (24 * HOUR)) * 24 * HOUR - 2 * HOUR;
    const days = await stack.json('GET', `/api/stats?bucket=day&utc_offset_minutes=120&from=${at(dayStart)}&to=${at(dayStart + 24 * HOUR)}`, 200, { admin: true });
    expect(days.buckets).toEqual([expect.objectContaining({ start: at(dayStart), succeeded: 1 })]);
    expect((await stack.json('GET', '/api/stats?from=yesterday', 400, { admin: true })).error.fields.from).toBeDefined();
    expect((await stack.json('GET', `/api/stats?from=${at(START)}&to=${at(START - HOUR)}`, 400, { admin: true })).error.fields.to).toBe('must be after from');
    expect((await stack.json('GET', '/api/stats?from=2000-01-01T00:00:00Z&to=2030-01-01T00:00:00Z&bucket=hour', 400, { admin: true })).error.fields.to).toContain('buckets');
  });

  it('starts days at each local midnight of time_zone, across the clocks going back', async () => {
    // Kyiv, 25 October 2026: +03:00 until 04:00, then +02:00. A payment at 23:30 that night
    // (21:30Z) is the 25th's; the fixed offset the period starts with put it on the 26th.
    clock.now = Date.parse('2026-10-25T21:30:00Z');
    await payWith('success');
    const period = new URLSearchParams({ bucket: 'day', from: '2026-10-24T00:00:00+03:00', to: '2026-10-27T00:00:00+02:00' });
    const days = await stack.json('GET', `/api/stats?${period}&time_zone=Europe/Kyiv`, 200, { admin: true });
    expect(days.buckets.map((day: { start: string; succeeded: number }) => [day.start, day.succeeded])).toEqual([
      ['2026-10-23T21:00:00.000Z', 0],
      ['2026-10-24T21:00:00.000Z', 1],
      ['2026-10-25T22:00:00.000Z', 0],
    ]);
    // utc_offset_minutes stays a fixed offset, as documented: its days run 21:00Z to 21:00Z.
    const fixed = await stack.json('GET', `/api/stats?${period}&utc_offset_minutes=180`, 200, { admin: true });
    expect(fixed.buckets.map((day: { start: string; succeeded: number }) => [day.start, day.succeeded])).toEqual([
      ['2026-10-23T21:00:00.000Z', 0],
      ['2026-10-24T21:00:00.000Z', 0],
      ['2026-10-25T21:00:00.000Z', 1],
      ['2026-10-26T21:00:00.000Z', 0],
    ]);
  });

  it('refuses a time zone it does not know, or one sent with utc_offset_minutes, naming time_zone', async () => {
    const refusal = async (query: string) => (await stack.json('GET', `/api/stats?bucket=day&${query}`, 400, { admin: true })).error.fields;
    expect(await refusal('time_zone=Europe/Atlantis')).toEqual({ time_zone: expect.stringContaining('not a known time zone') });
    expect(await refusal('time_zone=')).toEqual({ time_zone: expect.stringContaining('not a known time zone') });
    expect(await refusal('time_zone=Europe/Kyiv&utc_offset_minutes=120')).toEqual({ time_zone: expect.stringContaining('not taken with utc_offset_minutes') });
  });
});

describe('GET /api/changes', () => {
  /** The seq before this companion's first change: its numbers start from a point of its start time. */
  const start = () => stack.companion.companion.services.feed.start;

  it('gives the changes after a sequence number, oldest first', async () => {
    const paid = await payWith('success');
    const declined = await payWith('rejected');
    const all = await stack.json('GET', '/api/changes', 200, { admin: true });
    expect(all.changes.map((change: { kind: string; order_id: string; status: string }) => [change.kind, change.order_id, change.status])).toEqual([
      ['session', paid.order_id, 'open'],
      ['payment', paid.order_id, 'success'],
      ['session', declined.order_id, 'open'],
      ['payment', declined.order_id, 'failure'],
    ]);
    expect(all).toMatchObject({ last_seq: start() + 4, complete: true });
    const later = await stack.json('GET', `/api/changes?after=${start() + 3}`, 200, { admin: true });
    expect(later.changes).toHaveLength(1);
    expect(later.changes[0]).toMatchObject({ seq: start() + 4, source: 'gateway_answer', at: at(START) });
    expect((await stack.json('GET', '/api/changes?after=-1', 400, { admin: true })).error.fields.after).toBe('must be at least 0');
    // A page's size is a count of changes, not a sequence number.
    expect((await stack.json('GET', '/api/changes?limit=abc', 400, { admin: true })).error.fields).toEqual({ limit: 'must be a whole number of changes' });
    for (const limit of [1001, 10_000]) expect((await stack.json('GET', `/api/changes?limit=${limit}`, 400, { admin: true })).error.fields.limit).toBe('must be at most 1000');
  });

  it('pages with limit: last_seq is the page’s last change and complete is false until none is left', async () => {
    await payWith('success');
    await payWith('rejected');
    await payWith('success');
    const seen: number[] = [];
    const pages: { last_seq: number; complete: boolean }[] = [];
    let after = start();
    for (let complete = false; !complete; ) {
      const page = await stack.json('GET', `/api/changes?after=${after}&limit=4`, 200, { admin: true });
      seen.push(...page.changes.map((change: { seq: number }) => change.seq));
      pages.push({ last_seq: page.last_seq, complete: page.complete });
      ({ last_seq: after, complete } = page);
    }
    // Polled by last_seq, a page cut by limit skips nothing.
    expect(seen).toEqual([1, 2, 3, 4, 5, 6].map((n) => start() + n));
    expect(pages).toEqual([{ last_seq: start() + 4, complete: false }, { last_seq: start() + 6, complete: true }]);
    expect(await stack.json('GET', `/api/changes?after=${start() + 6}&limit=4`, 200, { admin: true })).toEqual({ changes: [], last_seq: start() + 6, complete: true });
    // A limit the page does not reach: the newest, as without one.
    expect(await stack.json('GET', `/api/changes?after=${start() + 2}&limit=4`, 200, { admin: true })).toMatchObject({ last_seq: start() + 6, complete: true });
    // Not this feed's: past the latest (another instance's), or from before a restart, whose run
    // numbered from an earlier start (a cursor there may be past this feed's six changes).
    expect(await stack.json('GET', `/api/changes?after=${start() + 500}`, 200, { admin: true })).toEqual({ changes: [], last_seq: start() + 6, complete: false });
    const beforeRestart = await stack.json('GET', `/api/changes?after=${start() - 4_000 + 40}`, 200, { admin: true });
    expect(beforeRestart).toMatchObject({ last_seq: start() + 6, complete: false });
    expect(beforeRestart.changes).toHaveLength(6);
  });

  it('streams changes as server-sent events, resuming after Last-Event-ID', async () => {
    await payWith('success');
    const response = await stack.request('GET', '/api/changes/stream', { admin: true, headers: { 'Last-Event-ID': String(start() + 1) } });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value);
      }
    };
    await readUntil('event: ready');
    expect(text).toContain(`"last_seq":${start() + 2},"complete":true`);
    await readUntil(`id: ${start() + 2}`);
    expect(text).toContain('"kind":"payment"');
    expect(text).not.toContain(`id: ${start() + 1}\n`);
    const next = await payWith('rejected');
    await readUntil(`"order_id":"${next.order_id}","status":"failure"`);
    await reader.cancel();
  });

  it('says on the stream, as it opens, that a Last-Event-ID from before a restart leaves changes out', async () => {
    await payWith('success');
    const response = await stack.request('GET', '/api/changes/stream', { admin: true, headers: { 'Last-Event-ID': String(start() - 4_000 + 40) } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before its first event: ${text}`);
      text += new TextDecoder().decode(value);
    }
    expect(text).toBe(`event: ready\ndata: {"last_seq":${start() + 2},"complete":false}\n\n`);
    await reader.cancel();
  });

  it('refuses a Last-Event-ID that is not a seq, or a query, rather than start from now', async () => {
    await payWith('success');
    for (const lastEventId of ['abc', '1'.repeat(20), '', '-1', '1.5']) {
      const refused = await stack.json('GET', '/api/changes/stream', 400, { admin: true, headers: { 'Last-Event-ID': lastEventId } });
      expect(refused.error.fields, lastEventId).toEqual({ 'Last-Event-ID': 'must be the seq of the last change received (1 to 15 digits)' });
    }
    expect((await stack.json('GET', '/api/changes/stream?after=1', 400, { admin: true })).error.fields).toEqual({ after: 'is not allowed' });
  });

  it('needs the admin token', async () => {
    expect((await stack.request('GET', '/api/changes/stream')).status).toBe(401);
    expect((await stack.request('GET', '/api/changes', { headers: { Authorization: `Bearer ${ADMIN_TOKEN}x` } })).status).toBe(401);
  });
});
