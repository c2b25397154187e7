/**
 * An e-mail address's domain in its two spellings: as people write it (`müller.de`) and as a
 * browser's e-mail field gives it (`xn--mller-kva.de`, IDNA's ASCII). Addresses are kept as
 * written; searches match either, so orders stored under one spelling are found by the other.
 */
import { domainToASCII, domainToUnicode } from 'node:url';

/** Each `xn--` label of the domain as written; every other character left as it is. */
export function emailAsWritten(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0 || !/(^|\.)xn--/i.test(email.slice(at + 1))) return email;
  const labels = email
    .slice(at + 1)
    .split('.')
    .map((label) => (/^xn--/i.test(label) ? domainToUnicode(label) || label : label));
  return `${email.slice(0, at + 1)}${labels.join('.')}`;
}

/** The address in the spellings a search matches: as given, its domain as written, and in IDNA's ASCII. */
export function emailSpellings(email: string): string[] {
  const written = emailAsWritten(email);
  const at = written.lastIndexOf('@');
  const ascii = at < 0 ? '' : domainToASCII(written.slice(at + 1));
  return [...new Set([email, written, ...(ascii ? [`${written.slice(0, at + 1)}${ascii}`] : [])])];
}
