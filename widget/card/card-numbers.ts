/**
 * Card numbers written into text, however a person separates the digits. The judgement is on
 * the digits alone: any decimal digit (full-width ４, Arabic-Indic ٤… count as 4), joined by
 * short runs of what people put between groups of digits. Whole groups that together make 13–19
 * digits with a valid check digit are a card number; other numbers in text (a flat, a date, an
 * amount, a 12-digit id, a phone written with `+`) are not. Pure: the widget checks the customer
 * fields with it as the payer types, the companion refuses and masks with it.
 */
import { luhn } from './luhn.js';

/** Where a card number is in a text, as string offsets: `text.slice(start, end)`. */
export interface CardNumberSpan {
  readonly start: number;
  readonly end: number;
}

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;
/** E.164: a phone has at most 15 digits. */
const MAX_PHONE_DIGITS = 15;

// White space of any width (tab, no-break, thin, ideographic), invisible format characters, dashes
// and connectors of any kind (`-`, `–`, `_`), and the punctuation digits are grouped with, in their
// full-width forms too. Up to five in a row: " - ", " / ", two spaces and a dash.
const SEPARATOR = String.raw`[\s\p{Cf}\p{Pd}\p{Pc}.,/\\·'’\u2024\u2027\uFF0C\uFF0E\uFF0F\uFF3C]`;
const DIGIT_RUN = new RegExp(String.raw`\p{Nd}(?:${SEPARATOR}{0,5}\p{Nd})*`, 'gu');
const DIGIT_GROUP = /\p{Nd}+/gu;
const IS_DIGIT = /^\p{Nd}$/u;
const PLUS = new Set(['+', '\uFF0B']);

/** The value 0–9 of any decimal digit: Unicode keeps each script's digits in order, 0 first. */
function digitValue(digit: string): number {
  const code = digit.codePointAt(0)!;
  if (code < 0x80) return code - 0x30;
  let zero = code;
  while (IS_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return (code - zero) % 10;
}

function asciiDigits(group: string): string {
  return /^[0-9]+$/.test(group) ? group : Array.from(group, (digit) => String(digitValue(digit))).join('');
}

interface Group {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
}

function groupsOf(run: string, offset: number): Group[] {
  return Array.from(run.matchAll(DIGIT_GROUP), (match) => ({
    start: offset + match.index,
    end: offset + match.index + match[0].length,
    digits: asciiDigits(match[0]),
  }));
}

/**
 * Every span of whole groups of one digit run with 13–19 digits and a valid check digit,
 * overlapping spans merged. A run written after `+` with at most 15 digits is a phone.
 */
function spansOfRun(text: string, run: string, offset: number, into: CardNumberSpan[]): void {
  const groups = groupsOf(run, offset);
  const digitCount = groups.reduce((sum, group) => sum + group.digits.length, 0);
  if (digitCount < MIN_DIGITS) return;
  if (digitCount <= MAX_PHONE_DIGITS && PLUS.has(text[offset - 1] ?? '')) return;
  let last: { start: number; end: number } | undefined;
  for (let first = 0; first < groups.length; first += 1) {
    let digits = '';
    for (let next = first; next < groups.length && digits.length + groups[next]!.digits.length <= MAX_DIGITS; next += 1) {
      digits += groups[next]!.digits;
      if (digits.length < MIN_DIGITS || !luhn(digits)) continue;
      const span = { start: groups[first]!.start, end: groups[next]!.end };
      if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
      else into.push((last = span));
    }
  }
}

/** Where `text` holds card numbers, in order. */
export function findCardNumbers(text: string): CardNumberSpan[] {
  const spans: CardNumberSpan[] = [];
  for (const match of text.matchAll(DIGIT_RUN)) spansOfRun(text, match[0], match.index, spans);
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
