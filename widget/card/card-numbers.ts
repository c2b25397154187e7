/**
 * Card numbers written into text, however a person separates the digits. The judgement is on
 * the digits alone: any decimal digit (full-width ４, Arabic-Indic ٤… count as 4), joined by
 * short runs of what people put between groups of digits. Whole groups that together make 13–19
 * digits with a valid check digit are a card number, and so is any group of more than 19 digits;
 * other numbers in text (a flat, a date, an amount, a 12-digit id, a phone written with `+`) are
 * not. Pure: the widget checks the customer fields with it as the payer types, the companion
 * refuses and masks with it.
 */
import { hasEnoughDigits, MIN_DIGITS } from './enough-digits.js';
import { luhn } from './luhn.js';

/** Where a card number is in a text, as string offsets: `text.slice(start, end)`. */
export interface CardNumberSpan {
  readonly start: number;
  readonly end: number;
}

const MAX_DIGITS = 19;
/** E.164: a phone has at most 15 digits. */
const MAX_PHONE_DIGITS = 15;

// White space of any width (tab, no-break, thin, ideographic), invisible format characters, dashes
// and connectors of any kind (`-`, `–`, `_`), and the punctuation digits are grouped with, in their
// full-width forms too. Up to five in a row: " - ", " / ", two spaces and a dash. Only runs of
// enough digits are matched.
const SEPARATOR = String.raw`[\s\p{Cf}\p{Pd}\p{Pc}.,/\\'’·\uFF0C\uFF0E\uFF0F]`;
const DIGIT_RUN = new RegExp(String.raw`\p{Nd}(?:${SEPARATOR}{0,5}\p{Nd}){${MIN_DIGITS - 1},}`, 'gu');
const DIGIT_GROUP = /\p{Nd}+/gu;
const DIGIT = /\p{Nd}/u;
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;

/** 0–9 for any decimal digit: Unicode keeps each script's ten digits together, in order. */
function asciiDigit(digit: string): string {
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((code - zero) % 10);
}

/** `text` with every decimal digit written 0–9 (full-width ４ as 4), the rest as it is. */
export const foldDigits = (text: string): string => text.replace(OTHER_DIGIT, asciiDigit);

/** Where `text` holds card numbers, in order. */
export function findCardNumbers(text: string): CardNumberSpan[] {
  const spans: { start: number; end: number }[] = [];
  if (!hasEnoughDigits(text)) return spans;
  // exec, not matchAll: matchAll copies the expression on each call, which costs ten times more.
  DIGIT_RUN.lastIndex = 0;
  for (let run; (run = DIGIT_RUN.exec(text)); ) {
    const groups: RegExpExecArray[] = [];
    DIGIT_GROUP.lastIndex = 0;
    for (let group; (group = DIGIT_GROUP.exec(run[0])); ) groups.push(group);
    const digits = groups.map(([group]) => foldDigits(group));
    // A number written after `+` with no more digits than a phone has is a phone.
    if (digits.join('').length <= MAX_PHONE_DIGITS && /[+＋]/.test(text[run.index - 1] ?? '')) continue;
    // Whole groups only: the separators a person types fall between a card number's parts. A
    // group longer than any card number may hold one with more digits run into it.
    let last: { start: number; end: number } | undefined;
    groups.forEach((first, from) => {
      const span = (to: number) => {
        const start = run.index + first.index;
        const end = run.index + groups[to]!.index + groups[to]![0].length;
        if (last && start < last.end) last.end = Math.max(last.end, end);
        else spans.push((last = { start, end }));
      };
      if (digits[from]!.length > MAX_DIGITS) span(from);
      for (let to = from, number = ''; to < groups.length && (number += digits[to]).length <= MAX_DIGITS; to += 1) {
        if (number.length >= MIN_DIGITS && luhn(number)) span(to);
      }
    });
  }
  return spans;
}

/** Whether `text` holds a card number anywhere. */
export const holdsCardNumber = (text: string): boolean => findCardNumbers(text).length > 0;

/** `text` with each card number in it replaced by `mask`. */
export function maskCardNumbers(text: string, mask: string): string {
  const spans = findCardNumbers(text);
  if (spans.length === 0) return text;
  let masked = '';
  let from = 0;
  for (const span of spans) {
    masked += text.slice(from, span.start) + mask;
    from = span.end;
  }
  return masked + text.slice(from);
}
