/**
 * A moment as the page's language writes it: its time, and its date too where asked or whenever
 * it is not today's — at night, 23:50 yesterday and 00:10 today must not read alike.
 */
export function formatTime(iso: string, lang: string, withDate = false, now = new Date()): string {
  const at = new Date(iso);
  const dated = withDate || at.toDateString() !== now.toDateString();
  return new Intl.DateTimeFormat(lang, { ...(dated ? { dateStyle: 'medium' } : {}), timeStyle: 'medium' }).format(at);
}
