import { describe, expect, it } from 'vitest';
import { SaidOnce } from './said-once.js';

describe('SaidOnce', () => {
  it('says a key the first time, and again once forgotten', () => {
    const said = new SaidOnce(2);
    expect(said.empty).toBe(true);
    expect([said.first('a'), said.first('a'), said.first('b'), said.first('b')]).toEqual([true, false, true, false]);
    said.forget('a');
    expect(said.first('a')).toBe(true);
    said.clear();
    expect(said.empty).toBe(true);
  });

  it('once full, starts over at most once a minute: a flood of new keys is neither remembered nor said', () => {
    let now = 0;
    const said = new SaidOnce(2, () => now);
    expect([said.first('a'), said.first('b')]).toEqual([true, true]);
    // Full within the minute the memory began: new keys are held back, known ones stay quiet.
    now = 59_000;
    expect([said.first('c'), said.first('d'), said.first('a')]).toEqual([false, false, false]);
    // A minute on, it starts over: what comes is said again, and the next minute counts from here.
    now = 60_000;
    expect([said.first('c'), said.first('a'), said.first('c')]).toEqual([true, true, false]);
    now = 100_000;
    expect(said.first('e')).toBe(false);
    now = 120_000;
    expect(said.first('e')).toBe(true);
  });
});
