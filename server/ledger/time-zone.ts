// A time zone's offsets over a period, read from the runtime's Intl (its ICU time zone data):
// where the stats' local days begin, a 23- or 25-hour day across a clock change included.

/** A stretch of the period in which the zone's offset from UTC stays the same. */
export interface OffsetSpan {
  readonly from: number;
  /** Left out. */
  readonly to: number;
  /** Milliseconds east of UTC (UTC+03:00 → 10_800_000). */
  readonly offset: number;
}

/**
 * How far apart the offset is read before a change between two reads is looked for. Two changes
 * within one step would cancel out unseen; since 1970 the closest were a week apart (parts of
 * Brazil, October 2000). Some thousand reads over the longest period the stats take.
 */
const DAY_MS = 86_400_000;
const PROBE_MS = 4 * DAY_MS;

/**
 * Formatters kept, the most recently used: a formatter is costly to build, and a merchant's
 * reports use one zone or a few. The names a runtime takes run to hundreds (IANA names and their
 * links) or thousands (a runtime that takes UTC offsets as zones, as ECMA-402 now allows:
 * `+05:30`, `-0800`, `+05`), and each one the merchant API was sent would otherwise stay.
 */
export const FORMATTERS_KEPT = 64;

// Keyed in lower case as Intl reads the names; a Map's order is its use, the least recent first.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  const key = zone.toLowerCase();
  let format = formatters.get(key);
  if (format) {
    formatters.delete(key);
  } else {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    if (formatters.size >= FORMATTERS_KEPT) formatters.delete(formatters.keys().next().value!);
  }
  formatters.set(key, format);
  return format;
}

/** The zones whose formatters are kept, the least recently used first (for tests). */
export function keptTimeZones(): string[] {
  return [...formatters.keys()];
}

/** An IANA time zone name the runtime knows (`Europe/Kyiv`, `Asia/Kathmandu`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset at `instant`, in milliseconds (whole seconds: the local time is read to the second). */
function offsetAt(format: Intl.DateTimeFormat, instant: number): number {
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value);
  const local = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return local - (instant - (((instant % 1000) + 1000) % 1000));
}

/** `instant` as the zone's wall clock reads it, in milliseconds as if that were UTC (`toISOString` writes its date and time). */
export function wallClock(zone: string, instant: number): number {
  return instant + offsetAt(formatterOf(zone), instant);
}

/** [from, to) cut where the zone's offset changes, each piece with its offset. */
export function offsetSpans(zone: string, from: number, to: number): OffsetSpan[] {
  const format = formatterOf(zone);
  const spans: OffsetSpan[] = [];
  let start = from;
  let offset = offsetAt(format, from);
  for (let read = from; read < to - 1; ) {
    const next = Math.min(read + PROBE_MS, to - 1);
    if (offsetAt(format, next) === offset) {
      read = next;
      continue;
    }
    // The first instant after `read` with another offset: reads go on from it, so a second change before `next` is found too.
    let [before, after] = [read, next];
    while (after - before > 1) {
      const middle = before + Math.floor((after - before) / 2);
      if (offsetAt(format, middle) === offset) before = middle;
      else after = middle;
    }
    spans.push({ from: start, to: after, offset });
    [start, read, offset] = [after, after, offsetAt(format, after)];
  }
  spans.push({ from: start, to, offset });
  return spans;
}

/**
 * Where the zone's local day holding `instant` began: its midnight, read at the offset in force
 * then (a clock change between that midnight and `instant` moves it by the change); the first of
 * two where the clocks went back to midnight (Havana's); the change itself on a day whose midnight
 * was skipped (Santiago's: 00:00 is 01:00).
 */
export function localDayStart(zone: string, instant: number): number {
  const format = formatterOf(zone);
  const offset = offsetAt(format, instant);
  // Midnight as a UTC clock would read that local date.
  const midnight = Math.floor((instant + offset) / DAY_MS) * DAY_MS;
  const atInstantsOffset = midnight - offset;
  // The offsets a midnight of that date can have been read at: the instant's, and those around it then.
  const offsets = new Set([offset, offsetAt(format, atInstantsOffset), offsetAt(format, atInstantsOffset - 1)]);
  const starts = [...offsets].map((one) => midnight - one);
  const midnights = starts.filter((start) => offsetAt(format, start) === midnight - start);
  // None reads 00:00: the clocks jumped over it, and the day begins where they landed.
  return midnights.length > 0 ? Math.min(...midnights) : Math.max(...starts);
}
