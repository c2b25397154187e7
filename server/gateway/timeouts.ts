/**
 * The bounds of a wait in milliseconds. Node.js keeps a timer of at most 2^31 − 1 ms: a longer
 * one fires after 1 ms, so a timeout beyond it would end every call at once, and a money-moving
 * call so ended is an unknown outcome.
 */
export const MAX_WAIT_MS = 2_147_483_647;

/** Why `value` cannot be a call's timeout, or undefined when it can. */
export function timeoutRefusal(value: unknown): string | undefined {
  return Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_WAIT_MS
    ? undefined
    : `must be a whole number of milliseconds from 1 to ${MAX_WAIT_MS}`;
}
