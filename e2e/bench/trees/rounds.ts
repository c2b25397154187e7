/**
 * Old against new on a machine that drifts: on this 2-core VM the same code measures up to 1.7×
 * apart from one run to the next, so one run of each tree decides nothing. `--rounds=N` measures
 * every tree N times, the trees taking turns in alternating order (AB BA AB …) so that a drift
 * falls on both alike; each figure is then reported as its median over a tree's runs.
 */

/** One tree's runs, in the order they ran. */
export interface TreeRuns<Tree, T> {
  readonly tree: Tree;
  readonly runs: readonly T[];
}

export async function alternatingRuns<Tree, T>(trees: readonly Tree[], rounds: number, measure: (tree: Tree) => Promise<T>): Promise<Array<TreeRuns<Tree, T>>> {
  const measured = new Map<Tree, T[]>(trees.map((tree) => [tree, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) measured.get(tree)!.push(await measure(tree));
  }
  return trees.map((tree) => ({ tree, runs: measured.get(tree)! }));
}

/** The run whose `figure` is the median (of an even number of runs, the lower middle one). */
export function medianRun<T>(runs: readonly T[], figure: (run: T) => number): T {
  const sorted = [...runs].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The median of `figure` over the runs (a ratio of two figures of each run, say). */
export function medianOf<T>(runs: readonly T[], figure: (run: T) => number): number {
  return figure(medianRun(runs, figure));
}

/** `median of 3 runs (2.10, 1.84, 2.31)` — each run's `figure` in the order they ran —, or nothing for one run. */
export function runsNote<T>(runs: readonly T[], figure: (run: T) => number, digits: number): string {
  return runs.length > 1 ? `median of ${runs.length} runs (${runs.map((run) => figure(run).toFixed(digits)).join(', ')})` : '';
}
