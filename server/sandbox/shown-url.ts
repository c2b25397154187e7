/**
 * A URL as the sandbox shows it to a reader — its log, the inspector, the control plane's
 * answers — with the password in it (`https://shop:secret@…`, a receiver behind HTTP basic
 * authentication) as `***`: it is the merchant's secret, and those are read by more people than
 * the merchant. Webhooks still go to the URL as given (webhook-sender.ts).
 *
 * Any other text is shown as written: a URL without a password, text that does not read as a
 * URL. `parsed` is the text already parsed, where the caller has it.
 */
export function shownUrl(text: string, parsed?: URL): string {
  // A password needs an `@`: nearly every string of a body has none, and is never parsed.
  const url = parsed ?? (text.includes('@') ? URL.parse(text) : null);
  if (!url?.password) return text;
  // A copy: a parsed URL given is the caller's, kept to post to.
  const shown = new URL(url.href);
  shown.password = '***';
  return shown.href;
}
