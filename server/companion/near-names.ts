/** Names a caller gave that payform does not read, each with the one it likely meant. */
import { nearestName } from '@payform/gateway';

/** Each of `given`'s keys that is none of `known`, as "x is not an option (did you mean y?)". */
export function unknownOptions(given: object, known: readonly string[]): string[] {
  return Object.keys(given)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = nearestName(key, known);
      const meant = near ? [near] : namesSharingWords(key, known);
      return `${key} is not an option${meant.length > 0 ? ` (did you mean ${eitherOf(meant)}?)` : ''}`;
    });
}

/** Names as a question offers them: `A`, `A or B`, `A, B or C`. */
export function eitherOf(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}

/** A name's words, upper-case: joined by underscores (`PAYFORM_GATEWAY_URL`) or in camelCase (`gatewayTimeout`). */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split('_')
    .filter(Boolean);

/**
 * The same word, or one misspelt (GATWAY, DATABSE): two letters off only in words of five or
 * more, where that is no other word (URL and TTL are two letters apart).
 */
const sameWord = (a: string, b: string): boolean => a === b || (a.length >= 5 && b.length >= 5 && nearestName(a, [b]) !== undefined);

/**
 * The names of `known` that have the most of `name`'s words (`PAYFORM_GATEWAY_URL`: GATEWAY and
 * URL, in PAYFORM_GATEWAY_BASE_URL and PAYFORM_GATEWAY_WIDGET_URL), those with the fewest other
 * words first, then in `known`'s order: for a name too many letters from any to be a misspelling,
 * yet plainly meant for one. At least half of its words must be found (`ignored` not counted,
 * a prefix every name has), and no more than `most` names may be alike: more are no hint.
 */
export function namesSharingWords(name: string, known: readonly string[], { ignored = [] as readonly string[], most = 3 } = {}): string[] {
  const words = wordsOf(name).filter((word) => !ignored.includes(word));
  if (words.length === 0) return [];
  const scored = known.map((candidate, order) => {
    const theirs = wordsOf(candidate).filter((word) => !ignored.includes(word));
    const shared = words.filter((word) => theirs.some((their) => sameWord(word, their))).length;
    return { candidate, order, shared, others: theirs.length - shared };
  });
  const best = Math.max(...scored.map(({ shared }) => shared));
  if (best === 0 || best * 2 < words.length) return [];
  const alike = scored.filter(({ shared }) => shared === best);
  if (alike.length > most) return [];
  return alike.sort((a, b) => a.others - b.others || a.order - b.order).map(({ candidate }) => candidate);
}
