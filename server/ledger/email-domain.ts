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
  return withDomainLabels(email, (label) => (IDNA_LABEL.test(label) ? domainToUnicode(label) || label : NON_ASCII.test(label) ? label.toLowerCase() : label));
}

/** The address with each label of its domain as `spelt` gives it (unchanged without an @). */
function withDomainLabels(email: string, spelt: (label: string) => string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : `${email.slice(0, at + 1)}${email.slice(at + 1).split('.').map(spelt).join('.')}`;
}

/** ASCII letters lowered, as SQLite's and PostgreSQL's lower() agree on them. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The address in the spellings a search matches, each once as lower() reads it: as given, its
 * domain as written, and in IDNA's ASCII.
 */
export function emailSpellings(email: string): string[] {
  const written = emailAsWritten(email);
  const ascii = withDomainLabels(written, (label) => (NON_ASCII.test(label) ? domainToASCII(label) || label : label));
  const once = new Map<string, string>();
  for (const spelling of [email, written, ascii]) if (!once.has(asciiLower(spelling))) once.set(asciiLower(spelling), spelling);
  return [...once.values()];
}
