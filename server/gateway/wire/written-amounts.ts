/**
 * Amounts as a request's JSON text writes them. `JSON.parse` turns `10.099999999999999` into
 * the same double as `10.1`, so a schema sees a fine amount where the client had the float
 * formatting bug the gateway's notes warn of. This reads the number literals under the amount
 * fields of the text itself.
 */
import { WIRE_MAX_DECIMALS } from './decimals.js';
import { fieldPath } from './issues.js';
import type { FieldIssue } from './issues.js';

/**
 * A number literal (after `:`, `,` or `[`) with three fraction digits or an exponent: nothing else
 * can be over-precise. Not any digit before an `e`: nearly every request's UUIDs have one, and
 * the scan would then run on them all.
 */
const MAYBE_OVER_PRECISE = /[:,[]\s*-?\d+(?:\.\d{3}|(?:\.\d+)?[eE])/;
const NUMBER = /-?\d+(?:\.(\d+))?(?:[eE]([+-]?\d+))?/y;
/** The request fields the interface writes as amounts (split shares are `amount` too). */
const AMOUNT_KEY = /^(?:amount|charge_amount|refund_amount)$/;

type Frame = { key: string | undefined; index: number; inObject: boolean; readingKey: boolean };

/**
 * One issue per amount field written with more fraction digits than the wire allows, named by
 * its path. `json` must be text `JSON.parse` accepted.
 */
export function overPreciseAmounts(json: string): FieldIssue[] {
  if (!MAYBE_OVER_PRECISE.test(json)) return [];
  const issues: FieldIssue[] = [];
  const frames: Frame[] = [];
  const pathOf = () => frames.map((frame) => (frame.inObject ? (frame.key ?? '') : frame.index));
  let at = 0;
  while (at < json.length) {
    const char = json[at]!;
    const top = frames.at(-1);
    if (char === '{' || char === '[') {
      frames.push({ key: undefined, index: 0, inObject: char === '{', readingKey: char === '{' });
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
      if (top?.inObject && top.readingKey) top.key = JSON.parse(json.slice(at, end)) as string;
      at = end;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = at;
      const match = NUMBER.exec(json)!;
      if (top?.inObject && AMOUNT_KEY.test(top.key ?? '') && writtenDecimals(match[1], match[2]) > WIRE_MAX_DECIMALS) {
        issues.push({ field: fieldPath(pathOf()), reason: `must have at most ${WIRE_MAX_DECIMALS} decimal digits as written in the JSON (a float formatted with all its digits?)` });
      }
      at = NUMBER.lastIndex;
    } else {
      at += 1; // whitespace, true, false, null
    }
  }
  return issues;
}

/** The index just past the string literal that opens at `start`. */
function stringEnd(json: string, start: number): number {
  let at = start + 1;
  while (json[at] !== '"') at += json[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** Fraction digits a literal writes once its exponent is applied: 1.005e1 → 2, 1e-3 → 3. */
function writtenDecimals(fraction: string | undefined, exponent: string | undefined): number {
  return Math.max(0, (fraction?.length ?? 0) - Number(exponent ?? 0));
}
