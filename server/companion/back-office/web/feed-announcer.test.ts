import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Change } from './admin-api.js';
import { BETWEEN_MS, FeedAnnouncer, GATHER_MS, OWN_MS } from './feed-announcer.js';

let seq = 0;
const change = (order_id: string, status = 'success', kind: Change['kind'] = 'payment'): Change => ({ seq: (seq += 1), kind, order_id, status, at: new Date().toISOString() });

describe('the live feed said to a screen reader', () => {
  let said: string[][];
  let lines: FeedAnnouncer;
  beforeEach(() => {
    vi.useFakeTimers();
    said = [];
    lines = new FeedAnnouncer((changes) => said.push(changes.map((each) => `${each.order_id} ${each.status}`)));
  });
  afterEach(() => vi.useRealTimers());

  it('gathers a few seconds of changes into one line, the latest of each order', () => {
    lines.change(change('A', 'pending'));
    lines.change(change('B'));
    vi.advanceTimersByTime(GATHER_MS - 1);
    lines.change(change('A'));
    expect(said).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(said).toEqual([['B success', 'A success']]);
  });

  it('says at most one line every so often, holding what came meanwhile for the next', () => {
    lines.change(change('A'));
    vi.advanceTimersByTime(GATHER_MS);
    lines.change(change('B'));
    vi.advanceTimersByTime(BETWEEN_MS - 1);
    expect(said).toEqual([['A success']]);
    vi.advanceTimersByTime(1);
    expect(said).toEqual([['A success'], ['B success']]);
  });

  it('lets the operator’s own line be heard alone, and takes the change it said for its echo', () => {
    // The refund's webhook may come before the refund's own answer, or after it.
    lines.change(change('A', 'success', 'operation'));
    lines.change(change('B'));
    lines.own({ orderId: 'A', status: 'success' });
    lines.change(change('A', 'success', 'operation'));
    vi.advanceTimersByTime(OWN_MS - 1);
    expect(said).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(said).toEqual([['B success']]);
    // Once the echo's time is over, the order's changes are news again.
    lines.change(change('A', 'failure', 'operation'));
    vi.advanceTimersByTime(BETWEEN_MS);
    expect(said).toEqual([['B success'], ['A failure']]);
  });

  it('says what a pending action of the operator’s came to, however soon it comes', () => {
    // "Refund sent; waiting for the gateway's answer", then its webhook two seconds later.
    lines.own({ orderId: 'A', status: 'pending' });
    lines.change(change('A', 'pending', 'operation'));
    vi.advanceTimersByTime(2_000);
    lines.change(change('A', 'success', 'operation'));
    vi.advanceTimersByTime(OWN_MS);
    expect(said).toEqual([['A success']]);
  });

  it('never says a step behind what the operator heard', () => {
    // The refund's pending step comes over the feed before its answer says it succeeded.
    lines.change(change('A', 'pending', 'operation'));
    lines.own({ orderId: 'A', status: 'success' });
    lines.change(change('A', 'success', 'operation'));
    // Gathered before an answer said "pending", a success is news.
    lines.change(change('B', 'success', 'operation'));
    lines.own({ orderId: 'B', status: 'pending' });
    vi.advanceTimersByTime(OWN_MS + BETWEEN_MS);
    expect(said).toEqual([['B success']]);
  });

  it('says nothing of sessions opened or closed, nor of a customer’s details erased, nor anything gathered once signed out', () => {
    lines.change(change('A', 'open', 'session'));
    lines.change(change('C', 'erased', 'customer'));
    vi.advanceTimersByTime(GATHER_MS);
    lines.change(change('B'));
    lines.stop();
    vi.advanceTimersByTime(BETWEEN_MS);
    expect(said).toEqual([]);
  });
});
