/**
 * Secrets people make up: the admin token, the notification secret. Long enough is not enough
 * when a guesser tries the few characters repeated, or the words people type (`password12345678`,
 * `changeme-changeme`) before anything random.
 */

/** Fewer distinct characters than this is a few of them, repeated. */
const MIN_DISTINCT_CHARACTERS = 8;
/** What stands around the word in a made-up secret: digits, marks, spaces. */
const NOT_LETTERS = /[^a-z]/g;
/** The words tried first. */
const COMMON_WORDS = /^(?:password|changeme|secret|admin|administrator|token|letmein|qwerty|welcome|default|example|test|payform|shop)+$/;
/** A mark or digit written for a letter inside a word (`p@ssw0rd`), not among the digits around it. */
const FOR_A_LETTER = /(?<=[a-z])[@$0](?=[a-z@$0])|[@$0](?=[a-z])/g;
const LETTER_OF: Readonly<Record<string, string>> = { '@': 'a', $: 's', '0': 'o' };

/** Why `secret` is easy to guess, as said after its name; undefined when it is not. */
export function guessable(secret: string): string | undefined {
  if (new Set(secret).size < MIN_DISTINCT_CHARACTERS) return 'is easy to guess (a few characters, repeated)';
  const letters = secret.toLowerCase().replace(FOR_A_LETTER, (mark) => LETTER_OF[mark]!).replace(NOT_LETTERS, '');
  return COMMON_WORDS.test(letters) ? 'is easy to guess (a common word, with digits or marks)' : undefined;
}
