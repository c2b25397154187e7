/**
 * A moment as the page's language writes it: its time, and its date too where asked or whenever
 * it is not today's — at night, 23:50 yesterday and 00:10 today must not read alike.
 */
export function formatTime(iso: string, lang: string, withDate = false, now = new Date()): string {
  return format(iso, lang, withDate, now).format(new Date(iso));
}

/**
 * The same moment as its lines: the date, with what joins it to the time ("Nov 25, 2026,"; in
 * Ukrainian "25 лист. 2026 р.,"), then the time — or the time alone. A narrow column breaks
 * between them, never inside either ("Nov 25, 2026, 4:30:19" over "PM"). Joined by a space, they
 * read as `formatTime`.
 */
export function timeLines(iso: string, lang: string, withDate = false, now = new Date()): readonly string[] {
  const parts = format(iso, lang, withDate, now).formatToParts(new Date(iso));
  const text = (of: readonly Intl.DateTimeFormatPart[]) => of.map((part) => part.value).join('');
  // The time starts at its hour, after the literal that ends the date.
  const hour = parts.findIndex((part) => part.type === 'hour');
  if (hour < 2 || parts[hour - 1]!.type !== 'literal') return [text(parts)];
  return [text(parts.slice(0, hour)).trimEnd(), text(parts.slice(hour))];
}

const HOUR_MS = 3_600_000;

function format(iso: string, lang: string, withDate: boolean, now: Date): Intl.DateTimeFormat {
  const moment = new Date(iso);
  const dated = withDate || moment.toDateString() !== now.toDateString();
  // Within an hour of the clocks changing, a time may read as one lived twice (1:30 as the clocks
  // go back): said with its zone then (PDT, PST; GMT-7, GMT-8), and only then.
  const offsetAt = (ms: number) => new Date(ms).getTimezoneOffset();
  const nearChange = offsetAt(+moment - HOUR_MS) !== offsetAt(+moment + HOUR_MS);
  return new Intl.DateTimeFormat(lang, { ...(dated ? { dateStyle: 'medium' } : {}), timeStyle: nearChange ? 'long' : 'medium' });
}
