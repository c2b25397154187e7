/**
 * The name a mistyped one was likely meant to be (`PAYFORM_ADMINTOKEN`, `basepath`): what a
 * misconfiguration names in its message, so the fix is in the line that reports it.
 */

/** The first of `known` with the same letters but for underscores and case, or at most two edits away. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const bare = (text: string) => text.replaceAll('_', '').toLowerCase();
  return known.find((candidate) => bare(candidate) === bare(name) || editDistance(candidate, name) <= 2);
}

/** Levenshtein's distance: the fewest single-letter insertions, deletions and changes from a to b. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** Each of `given`'s keys that is none of `known`, as "x is not an option (did you mean y?)". */
export function unknownOptions(given: object, known: readonly string[]): string[] {
  return Object.keys(given)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const meant = nearestName(key, known);
      return `${key} is not an option${meant ? ` (did you mean ${meant}?)` : ''}`;
    });
}
