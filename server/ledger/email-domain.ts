/**
 * An e-mail address's domain in its two spellings: as people write it (`müller.de`) and as a
 * browser's e-mail field gives it (`xn--mller-kva.de`, IDNA's ASCII). Addresses are kept as
 * written; searches match either, so orders stored under one spelling are found by the other.
 */
import { domainToASCII, domainToUnicode } from 'node:url';

const IDNA_LABEL = /^xn--/i;
const NON_ASCII = /[\u0080-\u{10ffff}]/u;

/**
 * The domain as people write it, in lower case where SQLite's lower() would not fold it: each
 * `xn--` label read (`müller`; one IDNA cannot read is left), each other non-ASCII one lowered
 * (`MÜLLER` as `müller`: only lowered, what it holds is the address's checks' to judge). ASCII
 * labels are left as typed.
 */
export function emailAsWritten(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  if (at < 0 || !(/(^|\.)xn--/i.test(domain) || NON_ASCII.test(domain))) return email;
  const labels = domain.split('.').map((label) => (IDNA_LABEL.test(label) ? domainToUnicode(label) || label : NON_ASCII.test(label) ? label.toLowerCase() : label));
  return `${email.slice(0, at + 1)}${labels.join('.')}`;
}

/** ASCII letters lowered, as SQLite's and PostgreSQL's lower() agree on them. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The address in the spellings a search matches, each once as lower() reads it: as given, its
 * domain as written, and in IDNA's ASCII.
 */
export function emailSpellings(email: string): string[] {
  const written = emailAsWritten(email);
  const at = written.lastIndexOf('@');
  const ascii = at < 0 ? undefined : `${written.slice(0, at + 1)}${written.slice(at + 1).split('.').map((label) => (NON_ASCII.test(label) ? domainToASCII(label) || label : label)).join('.')}`;
  const spellings = [email, written, ...(ascii ? [ascii] : [])];
  const once = new Map<string, string>();
  for (const spelling of spellings) if (!once.has(asciiLower(spelling))) once.set(asciiLower(spelling), spelling);
  return [...once.values()];
}
