/**
 * A walk over JSON text for what `JSON.parse` forgets: how a number was written, and a key an
 * object names twice. Not a parser: it runs over text `JSON.parse` has already taken, and
 * follows only strings, brackets, commas, colons and number literals.
 */
import { fieldPath } from './issues.js';

export type JsonPath = readonly (string | number)[];

/** A number literal as written: `[1]` its fraction digits, `[2]` its exponent. */
export type NumberLiteral = RegExpExecArray;

export interface JsonTextVisitor {
  /** An object's key; `again` when the object named it before (JSON.parse keeps the last). */
  key?(key: string, again: boolean, path: () => JsonPath): void;
  /** A number literal, under `key` in an object (undefined in an array); `path` ends with it. */
  number?(literal: NumberLiteral, key: string | undefined, path: () => JsonPath): void;
}

const NUMBER = /-?\d+(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;

type Frame = { inObject: boolean; key: string | undefined; index: number; readingKey: boolean; keys: Set<string> | undefined };

/** Visits `json`, which must be text `JSON.parse` accepted. */
export function walkJsonText(json: string, visitor: JsonTextVisitor): void {
  const frames: Frame[] = [];
  // The keys an object named so far, kept only for a visitor that asks whether one comes again.
  const keeping = visitor.key !== undefined;
  const path = (): JsonPath => frames.map((frame) => (frame.inObject ? (frame.key ?? '') : frame.index));
  let at = 0;
  while (at < json.length) {
    const char = json[at]!;
    const top = frames.at(-1);
    if (char === '{' || char === '[') {
      const inObject = char === '{';
      frames.push({ inObject, key: undefined, index: 0, readingKey: inObject, keys: inObject && keeping ? new Set() : undefined });
      at += 1;
    } else if (char === '}' || char === ']') {
      frames.pop();
      at += 1;
    } else if (char === ',') {
      if (top?.inObject) top.readingKey = true;
      else if (top) top.index += 1;
      at += 1;
    } else if (char === ':') {
      if (top) top.readingKey = false;
      at += 1;
    } else if (char === '"') {
      const end = stringEnd(json, at);
      if (top?.inObject && top.readingKey) {
        // Decoded only when it holds an escape: most keys are their own text.
        const raw = json.slice(at + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(json.slice(at, end)) as string) : raw;
        top.key = key;
        if (top.keys) {
          const again = top.keys.has(key);
          top.keys.add(key);
          visitor.key?.(key, again, path);
        }
      }
      at = end;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = at;
      const literal = NUMBER.exec(json);
      // A `-` with no digit after it (no JSON) would be read again for ever: stepped over.
      if (literal) visitor.number?.(literal, top?.inObject ? top.key : undefined, path);
      at = literal ? NUMBER.lastIndex : at + 1;
    } else {
      at += 1; // whitespace, true, false, null
    }
  }
}

/** The index just past the string literal that opens at `start`. */
function stringEnd(json: string, start: number): number {
  let quote = json.indexOf('"', start + 1);
  // A quote after an odd number of backslashes is escaped, part of the string.
  for (;;) {
    if (quote === -1) return json.length; // not JSON after all: the walk ends
    let slashes = 0;
    while (json.charCodeAt(quote - 1 - slashes) === 0x5c) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    quote = json.indexOf('"', quote + 1);
  }
}

/**
 * The keys `json` names twice in one object, as paths (`fieldPath`: a key that could hold card
 * data shows as `*`). JSON.parse keeps the last without a word, where another reader of the same
 * text may keep the first.
 */
export function repeatedKeys(json: string): string[] {
  const found: string[] = [];
  walkJsonText(json, {
    key(_key, again, path) {
      if (again) found.push(fieldPath(path()));
    },
  });
  return found;
}
