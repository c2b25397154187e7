/**
 * Fields of an `application/x-www-form-urlencoded` body, read as `URLSearchParams` reads them
 * (the first of each name; `+` a space; percent-escapes decoded as UTF-8, a malformed one kept
 * as written, invalid UTF-8 as U+FFFD), without building a `URLSearchParams` of the whole body:
 * the webhook's two fields are base64url with at most an escaped `=` or two, and its
 * `URLSearchParams` cost a tenth of the route's own CPU. A value with nothing to decode is
 * returned as it came; one with something falls back to `URLSearchParams` whenever
 * `decodeURIComponent` would not give the same text.
 */
export function formFields<Name extends string>(body: string, names: readonly Name[]): Partial<Record<Name, string>> {
  const found: Partial<Record<Name, string>> = {};
  let missing = names.length;
  // URLSearchParams reads past one leading `?`, as of a query.
  let start = body.startsWith('?') ? 1 : 0;
  while (start <= body.length && missing > 0) {
    let end = body.indexOf('&', start);
    if (end === -1) end = body.length;
    if (end > start) {
      const equals = body.indexOf('=', start);
      const nameEnd = equals === -1 || equals > end ? end : equals;
      const name = decodeFormText(body.slice(start, nameEnd)) as Name;
      if (names.includes(name) && found[name] === undefined) {
        found[name] = nameEnd === end ? '' : decodeFormText(body.slice(nameEnd + 1, end));
        missing -= 1;
      }
    }
    start = end + 1;
  }
  return found;
}

/**
 * One name or value as the form encoding spells it: `+` for a space, `%XX` for a byte. Only what
 * follows the first `+` or `%` can differ from what was sent — decodeURIComponent copies every
 * other character as it is — so only that tail is decoded: a webhook's `data` is a kilobyte or
 * more of base64url whose one escape is its `=` padding at the end.
 */
function decodeFormText(text: string): string {
  const plus = text.indexOf('+');
  const percent = text.indexOf('%');
  if (plus === -1 && percent === -1) return text;
  const from = plus === -1 ? percent : percent === -1 ? plus : Math.min(plus, percent);
  try {
    const tail = decodeURIComponent(plus === -1 ? text.slice(from) : text.slice(from).replaceAll('+', ' '));
    return from === 0 ? tail : text.slice(0, from) + tail;
  } catch {
    // A `%` not followed by two hex digits, or bytes that are not UTF-8: URLSearchParams keeps
    // the first as written and replaces the second, where decodeURIComponent throws.
    return new URLSearchParams(`v=${text}`).get('v')!;
  }
}
