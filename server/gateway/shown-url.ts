/** A URL as a log line or a refusal may show it: its password as `***`, else as written. Undefined when it does not read as a URL. */
export function passwordMasked(text: string): string | undefined {
  const url = URL.parse(text);
  if (!url) return undefined;
  if (!url.password) return text;
  url.password = '***';
  return url.href;
}
