import { describe, expect, it } from 'vitest';
import { repeatedKeys, walkJsonText } from './json-text.js';

/** Every key and number the walk meets, with its path and, for a key, whether it came again. */
function walked(json: string): string[] {
  const met: string[] = [];
  walkJsonText(json, {
    key: (key, again, path) => met.push(`key ${key} at ${path().join('/')}${again ? ' again' : ''}`),
    number: (literal, key, path) => met.push(`number ${literal[0]} under ${key ?? '(array)'} at ${path().join('/')}`),
  });
  return met;
}

describe('walkJsonText', () => {
  it('meets each key and number literal as written, with its path', () => {
    expect(walked('{"a": 1.50, "b": [2, {"c": -3e2}], "d": {"e": 0}}')).toEqual([
      'key a at a',
      'number 1.50 under a at a',
      'key b at b',
      'number 2 under (array) at b/0',
      'key c at b/1/c',
      'number -3e2 under c at b/1/c',
      'key d at d',
      'key e at d/e',
      'number 0 under e at d/e',
    ]);
  });

  it('says a key an object names twice, not one that other objects name too', () => {
    expect(walked('[{"id": 1, "id": 2}, {"id": 3}]').filter((line) => line.startsWith('key'))).toEqual(['key id at 0/id', 'key id at 0/id again', 'key id at 1/id']);
  });

  it('reads strings whole: quotes, brackets, commas and digits inside them are text', () => {
    expect(walked('{"k\\"ey": "a, [b]: {1}", "n": "12.345"}')).toEqual(['key k"ey at k"ey', 'key n at n']);
    // A string may end in an escaped backslash: the quote after it closes the string.
    expect(walked('{"a\\\\": "x\\\\", "b": 1}')).toEqual(['key a\\ at a\\', 'key b at b', 'number 1 under b at b']);
  });
});

describe('repeatedKeys', () => {
  it('names a key given twice in one object, however it is written, and masks one that may be a card number', () => {
    expect(repeatedKeys('{"a": 1, "\\u0061": 2, "b": {"c": 1, "c": 2}}')).toEqual(['a', 'b.c']);
    expect(repeatedKeys('{"4242424242424242": 1, "4242424242424242": 2}')).toEqual(['*']);
    expect(repeatedKeys('[{"id": 1}, {"id": 2}]')).toEqual([]);
    // Text that is no JSON ends the walk, whatever it met: a lone minus, a string left open.
    expect(repeatedKeys('{"a": -, "a": 1}')).toEqual(['a']);
    expect(repeatedKeys('{"a": "open')).toEqual([]);
  });
});
