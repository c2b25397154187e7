// The back office's times: a row's date shows whenever it is not today's.
import { describe, expect, it } from 'vitest';
import { formatTime } from './times.js';

describe('a time in the back office', () => {
  const now = new Date(2026, 10, 26, 0, 10);
  it('is the time alone for today, the date and time for any other day, and the date when asked', () => {
    const today = new Date(2026, 10, 26, 0, 5).toISOString();
    const lastNight = new Date(2026, 10, 25, 23, 50).toISOString();
    expect(formatTime(today, 'en', false, now)).toBe(new Intl.DateTimeFormat('en', { timeStyle: 'medium' }).format(new Date(today)));
    expect(formatTime(lastNight, 'en', false, now)).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(lastNight)));
    expect(formatTime(lastNight, 'en', false, now)).toMatch(/Nov 25, 2026/);
    expect(formatTime(today, 'uk', true, now)).toMatch(/2026/);
  });
});
