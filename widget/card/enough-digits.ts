/** The fewest digits a card number has. */
export const MIN_DIGITS = 13;

const ENOUGH_DIGITS = new RegExp(String.raw`(?:\p{Nd}\P{Nd}*){${MIN_DIGITS}}`, 'u');

/**
 * Whether `text` has as many decimal digits, of any script, as the shortest card number. Most text
 * (names, statuses, ids) has fewer, and so holds none: nothing to look for.
 */
export const hasEnoughDigits = (text: string): boolean => ENOUGH_DIGITS.test(text);
