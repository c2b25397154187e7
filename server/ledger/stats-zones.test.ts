// The chart's days in a time zone (Ledger.paymentStats with timeZone), on every backend: each day
// from a local midnight, the days the clocks change on 23 or 25 hours long, zones a quarter of an
// hour off UTC too; hours stay hours.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger } from './ledger.js';
import { paidOrder } from './testing/contract.js';
import { fileBackend, memoryBackend, postgresBackend, TestClock, withTestDatabase } from './testing/databases.js';
import type { LedgerBackend, TestLedger } from './testing/databases.js';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

function describeZoneStats(backend: LedgerBackend): void {
  describe(`stats by time zone on ${backend.name}`, () => {
    let store: TestLedger;
    let ledger: Ledger;
    let clock: TestClock;

    beforeEach(async () => {
      clock = new TestClock();
      store = await backend.open(clock);
      ledger = store.ledger;
    });
    afterEach(() => store.dispose());

    /** A paid order created at each local time given (with its offset). */
    async function paidAt(...times: string[]): Promise<void> {
      for (const time of times) {
        clock.now = at(time);
        await paidOrder(ledger);
      }
    }

    const days = async (timeZone: string, from: string, to: string) =>
      (await ledger.paymentStats({ from: at(from), to: at(to), bucket: 'day', timeZone })).map((day) => [new Date(day.start).toISOString(), day.total]);

    it('starts each Kyiv day at its midnight across the clocks going forward (a 23-hour day)', async () => {
      // 29 March 2026: 03:00 +02:00 becomes 04:00 +03:00.
      await paidAt('2026-03-29T23:30:00+03:00', '2026-03-30T00:30:00+03:00', '2026-03-28T23:30:00+02:00', '2026-03-29T00:30:00+02:00');
      expect(await days('Europe/Kyiv', '2026-03-28T00:00:00+02:00', '2026-03-31T00:00:00+03:00')).toEqual([
        ['2026-03-27T22:00:00.000Z', 1],
        ['2026-03-28T22:00:00.000Z', 2],
        ['2026-03-29T21:00:00.000Z', 1],
      ]);
    });

    it('starts each Kyiv day at its midnight across the clocks going back (a 25-hour day)', async () => {
      // 25 October 2026: 04:00 +03:00 becomes 03:00 +02:00; the hour from 03:00 is lived twice.
      await paidAt('2026-10-25T00:30:00+03:00', '2026-10-25T03:30:00+03:00', '2026-10-25T03:30:00+02:00', '2026-10-25T23:30:00+02:00', '2026-10-26T00:30:00+02:00');
      expect(await days('Europe/Kyiv', '2026-10-24T00:00:00+03:00', '2026-10-27T00:00:00+02:00')).toEqual([
        ['2026-10-23T21:00:00.000Z', 0],
        ['2026-10-24T21:00:00.000Z', 4],
        ['2026-10-25T22:00:00.000Z', 1],
      ]);
      // By the hour, that day has 25 of them, each an hour long, the 03:00 one twice.
      const hours = await ledger.paymentStats({ from: at('2026-10-25T00:00:00+03:00'), to: at('2026-10-26T00:00:00+02:00'), bucket: 'hour', timeZone: 'Europe/Kyiv' });
      expect(hours).toHaveLength(25);
      expect(hours.every((hour, i) => hour.start === at('2026-10-24T21:00:00Z') + i * HOUR)).toBe(true);
      expect(hours.filter((hour) => hour.total > 0).map((hour) => new Date(hour.start).toISOString())).toEqual([
        '2026-10-24T21:00:00.000Z', '2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T21:00:00.000Z',
      ]);
    });

    it('starts Kathmandu’s days and hours a quarter past the UTC hour (+05:45)', async () => {
      await paidAt('2026-06-01T23:50:00+05:45', '2026-06-02T00:10:00+05:45', '2026-06-02T00:50:00+05:45');
      expect(await days('Asia/Kathmandu', '2026-06-01T00:00:00+05:45', '2026-06-03T00:00:00+05:45')).toEqual([
        ['2026-05-31T18:15:00.000Z', 1],
        ['2026-06-01T18:15:00.000Z', 2],
      ]);
      const hours = await ledger.paymentStats({ from: at('2026-06-01T23:00:00+05:45'), to: at('2026-06-02T01:00:00+05:45'), bucket: 'hour', timeZone: 'Asia/Kathmandu' });
      expect(hours.map((hour) => [new Date(hour.start).toISOString(), hour.total])).toEqual([
        ['2026-06-01T17:15:00.000Z', 1],
        ['2026-06-01T18:15:00.000Z', 2],
      ]);
    });

    it('starts a day whose midnight the clocks skip at its first instant', async () => {
      // Santiago, 6 September 2026: midnight −04:00 becomes 01:00 −03:00.
      await paidAt('2026-09-06T01:10:00-03:00');
      expect(await days('America/Santiago', '2026-09-05T00:00:00-04:00', '2026-09-07T00:00:00-03:00')).toEqual([
        ['2026-09-05T04:00:00.000Z', 0],
        ['2026-09-06T04:00:00.000Z', 1],
      ]);
    });

    it('keeps the half hour the clocks skip to apart, and a period’s first day from its midnight (Lord Howe, +10:30 → +11:00)', async () => {
      // 4 October 2026: 02:00 +10:30 becomes 02:30 +11:00, so the local hour from 02:30 is half an hour long.
      await paidAt('2026-10-04T01:45:00+10:30', '2026-10-04T02:45:00+11:00');
      const hours = await ledger.paymentStats({ from: at('2026-10-04T00:00:00+10:30'), to: at('2026-10-04T04:00:00+11:00'), bucket: 'hour', timeZone: 'Australia/Lord_Howe' });
      expect(hours.map((hour) => [new Date(hour.start).toISOString(), hour.total])).toEqual([
        ['2026-10-03T13:30:00.000Z', 0],
        ['2026-10-03T14:30:00.000Z', 1],
        ['2026-10-03T15:30:00.000Z', 1],
        ['2026-10-03T16:00:00.000Z', 0],
      ]);
      // A period from noon: its first day still starts at that day's midnight, as a chart labels it.
      expect(await days('Australia/Lord_Howe', '2026-10-03T12:00:00+10:30', '2026-10-05T00:00:00+11:00')).toEqual([
        ['2026-10-02T13:30:00.000Z', 0],
        ['2026-10-03T13:30:00.000Z', 2],
      ]);
    });

    it('starts a period’s first day at its midnight when the clocks changed between that midnight and the period’s start', async () => {
      // Los Angeles, 8 March 2026: 02:00 −08:00 becomes 03:00 −07:00; a 30-day chart read at noon UTC starts then.
      await paidAt('2026-03-08T01:00:00-08:00', '2026-03-08T12:00:00-07:00', '2026-03-09T00:30:00-07:00');
      expect(await days('America/Los_Angeles', '2026-03-08T12:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
        ['2026-03-08T08:00:00.000Z', 1],
        ['2026-03-09T07:00:00.000Z', 1],
      ]);
      // 1 November 2026: 02:00 −07:00 becomes 01:00 −08:00.
      expect((await days('America/Los_Angeles', '2026-11-01T09:00:00Z', '2026-11-02T09:00:00Z'))[0]).toEqual(['2026-11-01T07:00:00.000Z', 0]);
      // Auckland, 27 September 2026: 02:00 +12:00 becomes 03:00 +13:00; and 5 April 2026 back.
      expect((await days('Pacific/Auckland', '2026-09-26T15:00:00Z', '2026-09-28T00:00:00Z'))[0]).toEqual(['2026-09-26T12:00:00.000Z', 0]);
      expect((await days('Pacific/Auckland', '2026-04-04T15:00:00Z', '2026-04-06T00:00:00Z'))[0]).toEqual(['2026-04-04T11:00:00.000Z', 0]);
      // Havana, 1 November 2026: 01:00 −04:00 goes back to 00:00 −05:00, midnight twice: the day begins at the first.
      expect((await days('America/Havana', '2026-11-01T12:00:00Z', '2026-11-02T12:00:00Z'))[0]).toEqual(['2026-11-01T04:00:00.000Z', 0]);
      // Santiago's skipped midnight, from later that day: the day begins where the clocks jumped.
      expect((await days('America/Santiago', '2026-09-06T12:00:00Z', '2026-09-07T12:00:00Z'))[0]).toEqual(['2026-09-06T04:00:00.000Z', 0]);
    });

    it('refuses a zone it does not know, and a zone with an offset', async () => {
      const period = { from: at('2026-10-01T00:00:00Z'), to: at('2026-11-01T00:00:00Z'), bucket: 'day' } as const;
      await expect(ledger.paymentStats({ ...period, timeZone: 'Europe/Atlantis' })).rejects.toMatchObject({ field: 'timeZone', reason: expect.stringContaining('time zone') });
      await expect(ledger.paymentStats({ ...period, timeZone: 'Europe/Kyiv', utcOffsetMinutes: 120 })).rejects.toMatchObject({ field: 'timeZone' });
      // Too many buckets is refused before the zone's offsets are read, however long the period.
      await expect(ledger.paymentStats({ from: 0, to: at('2026-01-01T00:00:00Z'), bucket: 'hour', timeZone: 'Europe/Kyiv' })).rejects.toMatchObject({ field: 'to' });
      await expect(ledger.paymentStats({ from: at('2012-01-01T00:00:00Z'), to: at('2026-01-01T00:00:00Z'), bucket: 'day', timeZone: 'Europe/Kyiv' })).rejects.toMatchObject({ field: 'to' });
    });
  });
}

describeZoneStats(memoryBackend);
describeZoneStats(fileBackend);
withTestDatabase((url) => describeZoneStats(postgresBackend(url)));
