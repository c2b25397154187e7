// The back office's times: a row's date shows whenever it is not today's.
import { describe, expect, it } from 'vitest';
import { formatTime, timeLines } from './times.js';

describe('a time in the back office', () => {
  const now = new Date(2026, 10, 26, 0, 10);
  const today = new Date(2026, 10, 26, 0, 5).toISOString();
  const lastNight = new Date(2026, 10, 25, 23, 50).toISOString();

  it('is the time alone for today, the date and time for any other day, and the date when asked', () => {
    expect(formatTime(today, 'en', false, now)).toBe(new Intl.DateTimeFormat('en', { timeStyle: 'medium' }).format(new Date(today)));
    expect(formatTime(lastNight, 'en', false, now)).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(lastNight)));
    expect(formatTime(lastNight, 'en', false, now)).toMatch(/Nov 25, 2026/);
    expect(formatTime(today, 'uk', true, now)).toMatch(/2026/);
  });

  it('comes apart between its date and its time only, for a narrow column to break there', () => {
    // (Parts may space "AM" with a narrow no-break space where the formatted string has a space.)
    const spaced = (text: string) => text.replace(/\s/gu, ' ');
    expect(timeLines(today, 'en', false, now).map(spaced)).toEqual([spaced(formatTime(today, 'en', false, now))]);
    for (const lang of ['en', 'uk']) {
      const lines = timeLines(lastNight, lang, false, now);
      expect(lines).toHaveLength(2);
      expect(spaced(lines.join(' '))).toBe(spaced(formatTime(lastNight, lang, false, now)));
      expect(lines[0]).toMatch(/2026/);
      expect(lines[1]).toMatch(/^23:50|^11:50/);
    }
    expect(timeLines(lastNight, 'en', false, now)[0]).toBe('Nov 25, 2026,');
  });

  it('says its zone within an hour of the clocks changing, where the hour gone back reads twice', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      // 1 November 2026: 02:00 −07:00 becomes 01:00 −08:00, so 01:30 is lived twice.
      const first = formatTime('2026-11-01T08:30:00.000Z', 'en-US', true);
      const second = formatTime('2026-11-01T09:30:00.000Z', 'en-US', true);
      expect([first, second].map((text) => text.replace(/\s/gu, ' '))).toEqual(['Nov 1, 2026, 1:30:00 AM PDT', 'Nov 1, 2026, 1:30:00 AM PST']);
      // Any other day, no zone.
      expect(formatTime('2026-11-03T09:30:00.000Z', 'en-US', true).replace(/\s/gu, ' ')).toBe('Nov 3, 2026, 1:30:00 AM');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
