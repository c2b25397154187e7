// The change feed's ring: the latest `capacity` changes, whatever was published before them.
import { describe, expect, it } from 'vitest';
import { ChangeFeed, feedStart } from './change-feed.js';

const change = (n: number) => ({ kind: 'payment' as const, orderId: `order-${n}`, status: 'success', source: 'webhook', at: n });

describe('ChangeFeed', () => {
  it('keeps the latest changes, cut in one go past twice its size, and says when some were lost', () => {
    const feed = new ChangeFeed({ capacity: 3 });
    for (let n = 1; n <= 8; n += 1) feed.publish(change(n));
    expect(feed.since(0)).toEqual({ changes: [6, 7, 8].map((seq) => ({ ...change(seq), seq })), lastSeq: 8, complete: false });
    expect(feed.since(5)).toMatchObject({ lastSeq: 8, complete: true });
    expect(feed.since(6, 1)).toMatchObject({ changes: [{ seq: 7 }], lastSeq: 7, complete: false });
    expect(feed.since(8)).toEqual({ changes: [], lastSeq: 8, complete: true });
  });

  it('numbers from its start, and takes a seq from before it (a feed before a restart) as incomplete', () => {
    const start = feedStart(Date.UTC(2026, 10, 30));
    const earlier = new ChangeFeed({ start: feedStart(Date.UTC(2026, 10, 29)) });
    for (let n = 1; n <= 40; n += 1) earlier.publish(change(n));
    const feed = new ChangeFeed({ start });
    expect(feed.since(start)).toEqual({ changes: [], lastSeq: start, complete: true });
    // Before any change here, and after more of them than the cursor's own feed had.
    expect(feed.since(earlier.seq)).toMatchObject({ changes: [], complete: false });
    for (let n = 1; n <= 50; n += 1) feed.publish(change(n));
    expect(feed.since(start)).toMatchObject({ lastSeq: start + 50, complete: true });
    const resumed = feed.since(earlier.seq);
    expect(resumed).toMatchObject({ lastSeq: start + 50, complete: false });
    expect(resumed.changes[0]?.seq).toBe(start + 1);
    // Fifteen digits at most, as a cursor may have.
    expect(String(feedStart(Date.UTC(2999, 0, 1))).length).toBeLessThanOrEqual(15);
  });

  it('keeps one change at least, whatever capacity it is given', () => {
    const feed = new ChangeFeed({ capacity: 0 });
    for (let n = 1; n <= 5; n += 1) feed.publish(change(n));
    expect(feed.since(0).changes.map(({ seq }) => seq)).toEqual([5]);
  });
});
