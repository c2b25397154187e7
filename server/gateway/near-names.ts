/**
 * The name a mistyped one was likely meant to be (`PAYFORM_ADMINTOKEN`, `SANDBOX_PROJECT`,
 * `basepath`): what a misconfiguration names in its message, so the fix is in the line that
 * reports it. The companion and the sandbox both read settings people type.
 */

/**
 * The nearest of `known` with the same letters but for underscores and case, or at most two edits
 * away. With `cutShort`, failing a near one, the first of `known` that `name` is cut short of at
 * an underscore (`PAYFORM_SESSION_TTL` for PAYFORM_SESSION_TTL_SECONDS): too many letters away to
 * be near, yet plainly meant; for variable names, whose words underscores join.
 */
export function nearestName(name: string, known: readonly string[], options: { readonly cutShort?: boolean } = {}): string | undefined {
  const bare = (text: string) => text.replaceAll('_', '').toLowerCase();
  const distance = (candidate: string) => (bare(candidate) === bare(name) ? 0 : editDistance(candidate, name));
  let nearest: string | undefined;
  let nearestDistance = 3;
  for (const candidate of known) {
    const d = distance(candidate);
    if (d < nearestDistance) [nearest, nearestDistance] = [candidate, d];
  }
  return nearest ?? (options.cutShort ? known.find((candidate) => candidate.startsWith(`${name}_`)) : undefined);
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
