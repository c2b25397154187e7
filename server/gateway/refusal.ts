/**
 * What the gateway said when it refused the client's credentials (401, 403), and the client's
 * credentials kept out of it. A gateway may quote a header it refused (`CPAY key:secret`) or a
 * secret sent where the key goes, and whatever the refusal says ends up in an error's message
 * and in the operator's log line: each credential it quotes, whole or cut short, is named in
 * brackets (`[API secret]`) instead — which also says where it was found.
 */
import { gatewayWords } from './errors.js';

export interface Credential {
  /** What it is called in the text that stands for it: `API secret`. */
  readonly name: string;
  readonly value: string;
}

/** The most of a refusal an operator's line quotes: the gateway's message may run to 512 characters. */
export const MAX_WORDS = 200;

/**
 * A run of a credential this long in a word is that credential cut short (`sk_live_4f9a…`):
 * long enough that ordinary words never share one with a random key, nor test credentials with
 * one another by their common prefix (the sandbox's `sandbox-test-widget-key` and its API
 * secret share 13 characters: the widget key is not the secret).
 */
const ECHO_RUN = 16;
const WORD = /[^\s"'`“”‘’«»()[\]{}<>,;]{16,}/g;
/**
 * Shorter than this, a credential is not looked for: a key of `test` would name every "test" the
 * gateway wrote ("this [API key] project"), and a value so short guards nothing a log could leak.
 */
const LOOKED_FOR = 8;

/** The gateway's words of a refusal, credentials named, on one line, at most MAX_WORDS characters; undefined when it said none. */
export function refusalWords(body: unknown, credentials: readonly Credential[]): string | undefined {
  const words = gatewayWords(withoutCredentials(body, credentials));
  if (words === undefined) return undefined;
  const line = words.replace(/\s+/g, ' ').trim();
  return line.length > MAX_WORDS ? `${line.slice(0, MAX_WORDS - 1)}…` : line;
}

/** `value` (a parsed JSON body, or text) with every credential in its strings and keys named, not quoted. */
export function withoutCredentials<T>(value: T, credentials: readonly Credential[]): T {
  // Longest first: a credential inside another is named as the longer one's part, never left half.
  const ordered = credentials.filter((credential) => credential.value.length >= LOOKED_FOR).sort((a, b) => b.value.length - a.value.length);
  return unquoted(value, ordered, 0) as T;
}

const MAX_DEPTH = 8;

function unquoted(value: unknown, credentials: readonly Credential[], depth: number): unknown {
  if (typeof value === 'string') return unquotedText(value, credentials);
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any error body goes: left out rather than read for credentials.
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.map((item) => unquoted(item, credentials, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [unquotedText(key, credentials), unquoted(item, credentials, depth + 1)]));
}

function unquotedText(text: string, credentials: readonly Credential[]): string {
  let said = text;
  for (const { name, value } of credentials) said = said.replaceAll(value, `[${name}]`);
  return said.replace(WORD, (word) => {
    const echoed = credentials.find(({ value }) => sharesRun(word, value));
    return echoed ? `[${echoed.name}]` : word;
  });
}

/** Whether `word` holds ECHO_RUN characters in a row of `secret`. */
function sharesRun(word: string, secret: string): boolean {
  if (secret.length < ECHO_RUN) return false;
  for (let start = 0; start + ECHO_RUN <= word.length; start += 1) if (secret.includes(word.slice(start, start + ECHO_RUN))) return true;
  return false;
}
