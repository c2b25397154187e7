import { describe, expect, it } from 'vitest';
import { alternatingRuns, medianOf, medianRun, runsNote } from './rounds.js';

describe('old against new in rounds', () => {
  it('alternates the trees’ turns: AB BA AB', async () => {
    const order: string[] = [];
    const runs = await alternatingRuns(['old', 'new'], 3, async (tree) => {
      order.push(tree);
      return `${tree}${order.length}`;
    });
    expect(order).toEqual(['old', 'new', 'new', 'old', 'old', 'new']);
    expect(runs).toEqual([
      { tree: 'old', runs: ['old1', 'old4', 'old5'] },
      { tree: 'new', runs: ['new2', 'new3', 'new6'] },
    ]);
  });

  it('keeps the run holding each figure’s median, and notes every run’s', () => {
    const runs = [{ cpu: 2.4, rate: 900 }, { cpu: 1.4, rate: 1_100 }, { cpu: 1.6, rate: 700 }];
    expect(medianRun(runs, (run) => run.cpu)).toBe(runs[2]);
    expect(medianRun(runs, (run) => run.rate)).toBe(runs[0]);
    expect(medianRun(runs.slice(0, 2), (run) => run.cpu)).toBe(runs[1]);
    expect(medianOf(runs, (run) => run.rate / run.cpu)).toBeCloseTo(437.5);
    expect(runsNote(runs, (run) => run.cpu, 2)).toBe('median of 3 runs (2.40, 1.40, 1.60)');
    expect(runsNote(runs.slice(0, 1), (run) => run.cpu, 2)).toBe('');
  });
});
