import { describe, expect, it } from 'vitest';
import { SaidOnce } from './said-once.js';

describe('SaidOnce', () => {
  it('says a key the first time, again once forgotten, and forgets everything once full rather than grow', () => {
    const said = new SaidOnce(2);
    expect(said.empty).toBe(true);
    expect([said.first('a'), said.first('a'), said.first('b'), said.first('b')]).toEqual([true, false, true, false]);
    said.forget('a');
    expect(said.first('a')).toBe(true);
    // Full with a and b: c makes it start over, so a and b are said again.
    expect([said.first('c'), said.first('a'), said.first('c')]).toEqual([true, true, false]);
    said.clear();
    expect(said.empty).toBe(true);
  });
});
