/** Options a caller passed that payform does not know, each with the one it likely meant. */
import { nearestName } from '@payform/gateway';

/** Each of `given`'s keys that is none of `known`, as "x is not an option (did you mean y?)". */
export function unknownOptions(given: object, known: readonly string[]): string[] {
  return Object.keys(given)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const meant = nearestName(key, known);
      return `${key} is not an option${meant ? ` (did you mean ${meant}?)` : ''}`;
    });
}
