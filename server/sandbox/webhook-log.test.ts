// The delivery log's pages: a cursor keeps its place when old finished deliveries make room and
// across a reset, so following the pages lists each delivery once.
import { describe, expect, it } from 'vitest';
import { DeliveryLog, LOG_LIMIT } from './webhook-log.js';
import type { Delivery } from './webhook-sender.js';

const delivery = (id: number, status: Delivery['status'] = 'delivered') => ({ id: String(id), order_id: `order-${id % 3}`, status }) as Delivery;
const everything = () => true;

function readAll(log: DeliveryLog, limit: number, after = 0): string[] {
  const ids: string[] = [];
  for (let cursor = after, more = true; more; ) {
    const page = log.page(cursor, limit, everything);
    ids.push(...page.deliveries.map((listed) => listed.id));
    ({ cursor, more } = page);
  }
  return ids;
}

describe('DeliveryLog', () => {
  it('keeps a cursor’s place while old finished deliveries make room, and keeps the unfinished', () => {
    const log = new DeliveryLog();
    log.add(delivery(0, 'retrying'));
    for (let id = 1; id <= LOG_LIMIT; id += 1) log.add(delivery(id));
    const before = log.page(0, 10, everything);
    expect(before.deliveries.map((listed) => listed.id)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for (let id = LOG_LIMIT + 1; id <= LOG_LIMIT + LOG_LIMIT / 10; id += 1) log.add(delivery(id));
    expect(log.all()).toHaveLength(LOG_LIMIT);
    // The oldest finished ones went; the cursor goes on after delivery 9 all the same.
    const after = log.page(before.cursor, 3, everything);
    expect(after.deliveries.map((listed) => listed.id)).toEqual(['1002', '1003', '1004']);
    const ids = readAll(log, 1000);
    expect(ids[0]).toBe('0');
    expect(ids).toHaveLength(LOG_LIMIT);
    expect(new Set(ids).size).toBe(LOG_LIMIT);
  });

  it('lists past an old cursor only what came after a clear', () => {
    const log = new DeliveryLog();
    for (let id = 0; id < 5; id += 1) log.add(delivery(id));
    const { cursor } = log.page(0, 100, everything);
    log.clear();
    log.add(delivery(5), delivery(6));
    expect(readAll(log, 1, cursor)).toEqual(['5', '6']);
    expect(readAll(log, 1)).toEqual(['5', '6']);
  });

  it('moves the cursor past what it looked at when nothing more matches', () => {
    const log = new DeliveryLog();
    for (let id = 0; id < 9; id += 1) log.add(delivery(id));
    const ofOrder1 = (listed: Delivery) => listed.order_id === 'order-1';
    const first = log.page(0, 2, ofOrder1);
    expect(first).toMatchObject({ deliveries: [{ id: '1' }, { id: '4' }], more: true });
    const last = log.page(first.cursor, 2, ofOrder1);
    expect(last).toMatchObject({ deliveries: [{ id: '7' }], cursor: 9, more: false });
  });
});
