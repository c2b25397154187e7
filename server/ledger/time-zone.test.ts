// The time zones' formatters are kept for the zones in use, not for every name the merchant API
// was ever sent: the least recently used goes, and a zone whose formatter went reads as before.
import { describe, expect, it } from 'vitest';
import { FORMATTERS_KEPT, isTimeZone, keptTimeZones, localDayStart, wallClock } from './time-zone.js';

const KYIV = 'Europe/Kyiv';
// 2026-03-29 09:00 UTC: Kyiv is on summer time (UTC+3) since 01:00 UTC that day.
const SUMMER = Date.UTC(2026, 2, 29, 9);

describe('time zone formatters', () => {
  it('keeps a bounded number, the most recently used, whatever names are asked for', () => {
    const names = Intl.supportedValuesOf('timeZone').filter((name) => name !== KYIV);
    expect(names.length).toBeGreaterThan(FORMATTERS_KEPT * 3);
    expect(isTimeZone(KYIV)).toBe(true);
    for (const [i, name] of names.entries()) {
      expect(isTimeZone(name)).toBe(true);
      // One zone in steady use stays while hundreds of others come and go.
      if (i % 10 === 0) expect(wallClock(KYIV, SUMMER)).toBe(Date.UTC(2026, 2, 29, 12));
      const kept = keptTimeZones();
      expect(kept.length).toBeLessThanOrEqual(FORMATTERS_KEPT);
      expect(kept).toContain(KYIV.toLowerCase());
    }
    const kept = keptTimeZones();
    expect(kept).toHaveLength(FORMATTERS_KEPT);
    expect(kept).toContain(KYIV.toLowerCase());
    expect(kept.at(-1)).toBe(names.at(-1)!.toLowerCase());
    expect(kept).not.toContain(names[0]!.toLowerCase());
  });

  it('reads a zone again after its formatter went, and keeps refusing names it does not know', () => {
    const kathmandu = 'Asia/Kathmandu';
    expect(wallClock(kathmandu, SUMMER)).toBe(SUMMER + (5 * 60 + 45) * 60_000);
    for (const name of Intl.supportedValuesOf('timeZone').filter((zone) => zone !== kathmandu).slice(0, FORMATTERS_KEPT)) isTimeZone(name);
    expect(keptTimeZones()).not.toContain(kathmandu.toLowerCase());
    expect(wallClock(kathmandu, SUMMER)).toBe(SUMMER + (5 * 60 + 45) * 60_000);
    expect(localDayStart(KYIV, SUMMER)).toBe(Date.UTC(2026, 2, 28, 22));
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(keptTimeZones()).not.toContain('mars/olympus_mons');
  });
});
