// The change feed's ring: the latest `capacity` changes, whatever was published before them.
import { describe, expect, it } from 'vitest';
import { ChangeFeed } from './change-feed.js';

const change = (n: number) => ({ kind: 'payment' as const, orderId: `order-${n}`, status: 'success', source: 'webhook', at: n });

describe('ChangeFeed', () => {
  it('keeps the latest changes, cut in one go past twice its size, and says when some were lost', () => {
    const feed = new ChangeFeed(3);
    for (let n = 1; n <= 8; n += 1) feed.publish(change(n));
    expect(feed.since(0)).toEqual({ changes: [6, 7, 8].map((seq) => ({ ...change(seq), seq })), lastSeq: 8, complete: false });
    expect(feed.since(5)).toMatchObject({ lastSeq: 8, complete: true });
    expect(feed.since(6, 1)).toMatchObject({ changes: [{ seq: 7 }], lastSeq: 7, complete: false });
    expect(feed.since(8)).toEqual({ changes: [], lastSeq: 8, complete: true });
  });

  it('keeps one change at least, whatever capacity it is given', () => {
    const feed = new ChangeFeed(0);
    for (let n = 1; n <= 5; n += 1) feed.publish(change(n));
    expect(feed.since(0).changes.map(({ seq }) => seq)).toEqual([5]);
  });
});
