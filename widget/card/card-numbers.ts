/**
 * The card-number recogniser: where a text holds a card number, however a person, a keyboard or a
 * page wrote its digits, and nowhere else. One implementation for `<pay-form>`'s name checks, the
 * companion's refusals and masks, the gateway client's redaction and the sandbox's inspector.
 *
 * A card number is judged by its digits: 14–19 of them (MIN_DIGITS: 13-digit numbers are no
 * longer issued, and barcodes and phones have 13), with a scheme's prefix, a length that scheme
 * issues and a valid check digit. Any decimal digit counts (full-width ４, Arabic-Indic ٤,
 * mathematical 𝟒), and so do the look-alikes (superscript ⁴, subscript ₄, circled ④). Between the
 * digits may stand anything that is not a letter — spaces, dashes,
 * dots, `|`, `+`, `:`, `*`, brackets — up to eight between two groups, and what a reader does not see at all:
 * mark-up as a browser shows it (tags, comments; a line's break or a table's cell is a space; in a
 * text with mark-up a run of white space, breaks among it, is one however long, as a browser collapses it),
 * combining marks (underlines, keycaps) and format characters, however many. What mark-up holds
 * (a tag's value, a comment) is read as written too: a browser hides it, a log keeps it. A
 * character entity (`&#32;`, `&nbsp;`, `&#x2D;`) or a URL's escape (`%20`) reads as the character
 * it stands for, as a reader sees it: a space or a dash between groups is one, an entity of a
 * format character is nothing.
 * A group of more than 19 digits may have one run into it, or straddle it and the groups beside
 * it: their digits are judged as one run, and taken whole when a card number stands anywhere in
 * it; a long id without one (most date-time ids) is kept. A group of 19 that is a card number
 * with its security code run into it is taken too.
 *
 * What people write with as many digits is kept. The groups must be a card number's: in fours,
 * each digit alone, split at the scheme's own gaps (4-6-5), or its first six apart from the rest
 * (`411111|1111111111`), and separated alike (fours may
 * mix their marks, as typing slips do, and the first may stand in brackets), so timestamps,
 * dates, amounts and phone numbers, written in pairs and threes and with mixed punctuation, are
 * not taken for one. A number right after `+` with
 * no more digits than a phone has (15) is a phone. UUIDs, hexadecimal ids, IBANs and ids such as
 * `e4-1795384870676` (a short group run into a word) are identifiers. No scheme issues numbers
 * starting with 0, 1 or 7, which keeps epoch timestamps and most national numbers out.
 */
import { candidates, gapsOf, type Brand } from './brands.js';
import { ANY_DIGIT, DIGIT_LOOKALIKES, hasEnoughDigits, MIN_DIGITS } from './enough-digits.js';
import { luhn } from './luhn.js';

/** Where a card number is in a text, as string offsets: `text.slice(start, end)`. */
export interface CardNumberSpan {
  readonly start: number;
  readonly end: number;
  /**
   * Its digits as read, 0–9: not those of what a reader does not see between them (`%20`,
   * `&#45;`), which the span holds too.
   */
  readonly digits: string;
}

const MAX_DIGITS = 19;
/** E.164: a phone has at most 15 digits. */
const MAX_PHONE_DIGITS = 15;
/** Visible characters that may stand between two groups of a card number's digits. */
const MAX_GAP = 8;
/** The issuer's identification number (BIN): a card number's first six digits. */
const BIN_DIGITS = 6;
/** What stands between two numbers side by side: white space (a list's `; `, ` | ` too), a point, a comma. */
const BETWEEN_NUMBERS = /[\s.,]/;
/** What stands before an amount's cents (`62039833.00`): a point or a comma alone. */
const CENTS = /^[.,]$/;
/** Sizes of groups a card number may be written in throughout. */
const ALIKE = [1, 4];

// Digits with nothing a reader sees between them (NUL in the scanned text) make one group.
const DIGIT_GROUP = new RegExp(String.raw`${ANY_DIGIT}(?:\0*${ANY_DIGIT})*`, 'gu');
const DECIMAL_DIGIT = /\p{Nd}/u;
const OTHER_DIGIT = new RegExp(String.raw`(?![0-9])${ANY_DIGIT}`, 'gu');
const LETTER = /\p{L}/u;
// What a reader does not see between digits: combining and enclosing marks (U+0332 underline,
// U+20E3 keycap, variation selectors) and format characters (zero-width space, soft hyphen); and
// entities, named (escaped again too: `&amp;nbsp;`), decimal or hexadecimal, which `shown` reads
// as what they stand for.
const ENTITY_OR_MARK = String.raw`&(?:amp;)*(?:[a-z]{2,31}|#\d{1,7}|#x[\da-f]{1,6});|[\p{M}\p{Cf}]`;
// Mark-up, as a browser reads it: a comment (`<!-- -->`, `<!-->`); a declaration, a processing
// instruction or a stray end (`<!DOCTYPE html>`, `<?xml?>`, `</ br>`) up to its `>`; a tag, its
// quoted values holding `>` too. Each runs to the text's end when nothing closes it, so a match
// never fails and the scan stays linear however many `<` there are (`shown` reads it as written,
// but for the tags in it).
const MARKUP = String.raw`<!--(?:-?>|[^]*?(?:--!?>|$))|<(?:[!?]|\/(?![a-z]))[^>]*(?:>|$)|<\/?[a-z](?:[^>=]|=\s*(?:"[^"]*(?:"|$)|'[^']*(?:'|$))?)*(?:>|$)`;
// The text as a browser shows it, and (when its mark-up holds digits) as written.
const INVISIBLE = new RegExp(`${MARKUP}|${ENTITY_OR_MARK}`, 'giu');
// The text as written, for what mark-up holds: only a closed tag or comment without a digit in it
// is read as a browser would (`<input value="4242 <b>4242</b> …">` is one number to a log's reader).
const WRITTEN_UNSEEN = new RegExp(String.raw`<\/?[a-z][^<>\d]*>|<!--[^<>\d]*-->|${ENTITY_OR_MARK}`, 'giu');
// Tags a browser breaks a line or a table's cell at (`<br>`, `</td><td>`): a space between digits.
// Any other (`<b>`, `<span>`, `<x-price>`) and a comment is nothing.
const BREAKS_LINE = /^<\/?(?:br|p|div|t[dhr]|li|d[dlt]|h\d|hr|[ou]l|table|pre|blockquote|section|article|header|footer)(?![^\s/>])/i;
const CLOSED = />$/;
// White space a browser collapses (not a no-break space): a run of it, with the mark-up standing in
// it (tags, comments, a line's or a cell's breaks), reads as one space, however long.
const COLLAPSIBLE = /[ \t\n\r\f]\0*[ \t\n\r\f][ \t\n\r\f\0]*/g;
// In mark-up nothing closes: a closed comment or tag (no `<` in it, so each try stops at the next one), an entity, a mark.
const IN_UNCLOSED = new RegExp(String.raw`<!--(?:-?>|[^<]*?--!?>)|<\/?[a-z](?:[^<>="']|=\s*(?:"[^"<]*"|'[^'<]*'|(?=[^"'])))*>|${ENTITY_OR_MARK}`, 'giu');
const HAS_DIGIT = new RegExp(ANY_DIGIT, 'u');
// An entity's parts, once INVISIBLE has found it (capturing there would slow every match).
const ENTITY = /(?:#(x?)(\w+)|(\w+));$/i;
const MAY_HIDE = /[<&\p{M}\p{Cf}]/u;
const UNSEEN = /[\p{M}\p{Cf}]/u;
// Named entities of the spaces and marks people put between digits, each name then its character
// (a short list: the widget's bundle carries it). Any other name is read as nothing: a mask errs safe.
const NAMED = new Map(
  'nbsp\xa0ensp\u2002emsp\u2003thinsp\u2009hairsp\u200atab\tnewline\nhyphen\u2010dash\u2010ndash\u2013mdash\u2014minus\u2212period.comma,colon:sol/verbar|lowbar_ast*plus+lpar(rpar)middot\xb7bull\u2022'
    .match(/[a-z]+[^a-z]/g)!
    .map((entry) => [entry.slice(0, -1), entry.slice(-1)]),
);
// Identifiers: UUIDs, and hexadecimal ids of 16 characters or more (a ledger's 20, an event's 64).
// A dash written as an entity or escape reads with NUL after it (`&#45;`: `-\0\0\0\0`).
const IDENTIFIER = /[\da-f]{8}-\0*[\da-f]{4}-\0*[\da-f]{4}-\0*[\da-f]{4}-\0*[\da-f]{12}|(?<![\p{L}\p{Nd}])(?=[\da-f]*[a-f])[\da-f]{16,}(?![\p{L}\p{Nd}])/giu;
const MAY_IDENTIFY = /[a-f]/i;
// A hexadecimal-looking word that is a card number and a few letters on either side (`4111…1111abcd`,
// `abc4111…`, `a4111…1111b`), or letters on one side only (`deadbeef4111…1111`, `faced4111…`), is not
// an id: its digits stay digits to judge. About one random 20-digit hex id in 80,000 is made so: the
// ledger draws its order ids again rather than make one.
const CARD_AND_A_FEW_LETTERS = /^[a-f]{0,4}\d{14,19}[a-f]{0,4}$|^[a-f]+\d{14,19}$|^\d{14,19}[a-f]+$/i;
// An IBAN (ISO 13616): a country's two letters, two check digits, then up to 30 letters and
// digits, written whole or in groups of four.
const IBAN = /(?<![\p{L}\p{Nd}])[A-Z]{2}\d{2}(?:[A-Z\d]{11,30}|(?: \0*[A-Z\d]{4}){2,7}(?: \0*[A-Z\d]{1,3})?)(?![\p{L}\p{Nd}])/gu;
const MAY_BE_IBAN = /[A-Z]{2}\d{2}/;
// A URL's escapes of spaces, punctuation and digits (`%20`, `%3D`, `%2D`, `%34`) are the character
// each stands for, and so are they escaped again, as a URL put in another's query is (`%2520`):
// `%20` a space, `%2B` a plus before a phone number, `%34%32` the digits 42.
const PERCENT_ESCAPE = /%(?:25)*(?:2[\da-f]|3[\da-f]|40|5[b-f]|60|7[b-e])/gi;
// A `+` after a space, right before digits, starts a phone number: it ends what came before.
const PHONE_START = /\s[+＋]$/;
const PLUS = /^[+＋]$/;

/** 0–9 for any digit: Unicode keeps each script's ten decimal digits together, in order. */
function asciiDigit(digit: string): string {
  const lookalike = DIGIT_LOOKALIKES.indexOf(digit);
  if (lookalike >= 0) return String(lookalike % 10);
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return String((code - zero) % 10);
}

/** `text` with every digit written 0–9 (full-width ４, superscript ⁴ as 4), the rest as it is. */
export const foldDigits = (text: string): string => text.replace(OTHER_DIGIT, asciiDigit);

interface Group {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
  /** What stands between this group and the one before: as written, and as compared (see `separator`). */
  readonly gap: string;
  readonly after: string;
}

/**
 * What separates two groups of one card number, as compared between its groups (`-` and ` - `
 * alike, any white space alike), or `undefined` when the gap cannot: too long, a letter in it, or
 * a phone number starting.
 */
function separator(gap: string): string | undefined {
  const visible = gap.replace(/\0/g, '');
  if (visible.length > MAX_GAP || LETTER.test(visible) || PHONE_START.test(visible)) return undefined;
  const marks = visible.replace(/\s+/g, '');
  return marks || (visible ? ' ' : '');
}

/**
 * The scheme that issues `digits` as a whole card number, if one does. UnionPay also issues
 * numbers that fail the check digit: from 16 digits such a number counts (shorter, it may be an
 * Indonesian phone number written without its +, which starts with 62 too).
 */
function issuer(digits: string): Brand | undefined {
  const brand = issuedBy(digits, digits.length);
  return brand && (luhn(digits) || (brand.noLuhn && digits.length > 15)) ? brand : undefined;
}

/** The scheme that issues numbers of `length` digits starting as `digits` do. */
const issuedBy = (digits: string, length: number): Brand | undefined => candidates(digits).find((brand) => brand.lengths.includes(length));

/**
 * Whether a run of digits has a card number inside it, digits run into it before or after (its
 * expiry date and CVV, a prefix): every stretch of a card number's length is judged. The check
 * digit's sum is carried leftwards from each end, so a long run costs a few operations a digit.
 */
function hidesCardNumber(digits: string): boolean {
  // Each digit's value as it counts in the check digit's sum, undoubled and doubled.
  const plain = new Uint8Array(digits.length);
  const doubled = new Uint8Array(digits.length);
  for (let at = 0; at < digits.length; at += 1) {
    const digit = digits.charCodeAt(at) - ZERO;
    plain[at] = digit;
    doubled[at] = digit > 4 ? digit * 2 - 9 : digit * 2;
  }
  for (let end = digits.length; end >= MIN_DIGITS; end -= 1) {
    let sum = 0;
    for (let length = 1; length <= MAX_DIGITS && length <= end; length += 1) {
      sum += length % 2 === 0 ? doubled[end - length]! : plain[end - length]!;
      if (length >= MIN_DIGITS && sum % 10 === 0 && issuedBy(digits.slice(end - length, end - length + 6), length)) return true;
    }
  }
  return false;
}

/**
 * Whether groups of these lengths are grouped as people and schemes group card numbers; `apart`:
 * what the text has between the first two; `cents`: whether the last is followed by an amount's.
 */
function groupedLikeACard(lengths: readonly number[], brand: Brand, digits: string, apart: string, cents: boolean): boolean {
  if (lengths.length === 1) return true;
  const first = lengths[0]!;
  // In fours or each digit alone, a shorter rest allowed at the end. Not in pairs or threes:
  // times, dates and amounts (1 234 567) are written so.
  if (ALIKE.includes(first) && lengths.every((length, i) => (i === lengths.length - 1 ? length <= first : length === first))) return true;
  // Or its issuer's six apart, the rest whole (`411111|1111111111`), as BIN tables and card
  // lookups write a number, close; with its check digit, and not apart by white space, a point or
  // a comma, which put two numbers side by side so (a time's microseconds, then an amount; an id,
  // then the next item of a list).
  if (lengths.length === 2 && first === BIN_DIGITS) return luhn(digits) && !BETWEEN_NUMBERS.test(apart);
  // Or split only where the scheme prints its gaps: 4-6-5, 4-6-9, 4-4-5. Groups of 4 to 6, the
  // rest up to 9: two ids of eight digits side by side are not a card number. A rest that leaves
  // out a gap its scheme prints, then cents, is an amount's whole part (a phone, then 62039833.00).
  const gaps = gapsOf(brand);
  let at = 0;
  return (
    lengths.every((length, i) => length >= 4 && length <= (i === lengths.length - 1 ? 9 : 6)) &&
    lengths.slice(0, -1).every((length) => gaps.includes((at += length))) &&
    !(cents && gaps.some((gap) => gap > at && gap < digits.length))
  );
}

/** How a 16-digit number is split in two as people write one: in halves, its first or last four apart, or its issuer's six. */
const SPLITS_IN_TWO = new Set(['8,8', '4,12', '12,4', '6,10']);
/**
 * The splits taken on their shape alone, a card said or not. About one pair of random ids in
 * thirty so written is taken too (see SPEAKS_OF_A_CARD), and stays so: a card number kept whole
 * in a log or a stored text is a breach, an id masked is not. The rarer forms (its first six
 * apart by a space, halves in fours with another mark between, a phone's shape) need a card said.
 */
const SPLITS_UNSAID = new Set(['8,8', '4,12', '12,4']);
/** What stands between its two parts: a space, or a dash with or without a space each side. */
const BETWEEN_PARTS = /^(?:[ \xa0\u2007\u2009\u202f]|[ \xa0]?[-\u2010\u2011\u2013][ \xa0]?)$/;
/** The most digits a group after it may have: an expiry's or a code's four; more make it a list of numbers. */
const LISTED = 4;
/** What ends an item of a list: a number before or after one is another item, not part of it. */
const ITEM_BREAK = /[;,|]/;
/**
 * What tells a number written in the rarer two-part forms from two numbers side by side (two
 * phones: `2255-3769 2255-1462`): a word of a card in the widget's languages (card, картка,
 * карта, Karte, carte, tarjeta, karta; cartão, carta), a scheme's name, `pan`, a security code's
 * name, or an expiry date (`12/30`, `12/2030`). About one random 16-digit number in thirty has a
 * scheme's prefix and its check digit, and no digit can tell the two apart.
 */
const SPEAKS_OF_A_CARD =
  /card|cart[aãe]o?|kart|карт|tarjeta|(?<![a-z])pan(?![a-z])|cvv|cvc|visa|master\s?card|maestro|amex|american\s?express|jcb|union\s?pay|diners|(?<!\d)(?:0[1-9]|1[0-2])\s?\/\s?(?:20)?\d\d(?!\d)/i;

/**
 * Whether a 16-digit number is written in two parts (`42424242 42424242`, `4242 424242424242`;
 * where a card is said, `cardSaid`, also `424242 4242424242` and halves written in fours,
 * `4242-4242 4242-4242`): with its check digit (UnionPay's numbers that fail it would take two
 * ids in), a space or a dash between, standing alone. Digits joined to it
 * before (`ORD-2001-6327 003366893243`, `00:00:00.42843909 97757129`, `+6 36695684 49437419`), a
 * longer number after (ids side by side, `45678912 45678913 45678914`) or cents
 * (`36695684 49437419.00`) make it parts of other data; a list's `;` or `,` before them keeps them
 * apart. `before` and `after`: the groups beside it.
 */
function writtenInTwo(window: readonly Group[], digits: string, cardSaid: () => boolean, before?: Group, after?: Group): boolean {
  const parts = partsOf(window);
  if (!parts) return false;
  const [first, second] = parts;
  const joinedBefore = before !== undefined && !ITEM_BREAK.test(window[0]!.gap);
  const joinedAfter = after !== undefined && !ITEM_BREAK.test(after.gap) && (after.digits.length > LISTED || (after.digits.length === 2 && CENTS.test(after.gap.replace(/\0/g, ''))));
  return (
    SPLITS_IN_TWO.has(`${first},${second}`) &&
    luhn(digits) &&
    BETWEEN_PARTS.test(window[window.length / 2]!.gap.replace(/\0/g, '')) &&
    !joinedBefore &&
    !joinedAfter &&
    ((window.length === 2 && SPLITS_UNSAID.has(`${first},${second}`)) || cardSaid())
  );
}

/**
 * The digits in each of the two parts of a number so written: two groups, or two halves each in
 * fours split alike, another mark between them (`4242-4242 4242-4242`, `4242 4242-4242 4242`).
 */
function partsOf(window: readonly Group[]): readonly [number, number] | undefined {
  if (window.length === 2) return [window[0]!.digits.length, window[1]!.digits.length];
  if (window.length !== 4 || window.some((group) => group.digits.length !== 4)) return undefined;
  const [, second, third, fourth] = window as [Group, Group, Group, Group];
  return second.after === fourth.after && SLIPS.has(second.after) && third.after !== second.after ? [8, 8] : undefined;
}

/**
 * What a reader sees of a tag, mark or entity, as long as it is written: an entity's character
 * first (`&#32;` a space, so groups split by it are grouped as they look), then NUL; NUL alone for
 * the rest and for an entity of nothing seen (`&zwj;`, `&#8203;`, a name not known). A tag that
 * breaks a line is a space; mark-up nothing closes is read as written.
 */
function shown(found: string): string {
  let character = '';
  if (found[0] === '<') {
    // Unclosed, it ran to the text's end: only once, so what hides in it is read in one more pass.
    if (!CLOSED.test(found)) return `<${found.slice(1).replace(IN_UNCLOSED, shown)}`;
    character = BREAKS_LINE.test(found) ? ' ' : '';
  } else if (found[0] === '&') {
    const [, hex, code, name] = ENTITY.exec(found)!;
    const point = code ? parseInt(code, hex ? 16 : 10) : 0;
    character = name ? (NAMED.get(name.toLowerCase()) ?? '') : point <= 0x10ffff ? String.fromCodePoint(point) : '';
  }
  return (UNSEEN.test(character) ? '' : character).padEnd(found.length, '\0');
}

/**
 * The readings of a text the scan judges, offsets unchanged: as a browser shows it, its mark-up
 * read as nothing or a line's break; and, when its mark-up holds digits (an attribute's value, a
 * comment: `<input value="4242…">`), as written too, which a browser hides but a log keeps.
 */
function readings(text: string): string[] {
  if (!MAY_HIDE.test(text)) return [readable(text)];
  let markupHoldsDigits = false;
  let hasMarkup = false;
  // Where mark-up nothing closes starts: a browser shows nothing from there, so it is read as written.
  let shownUntil = text.length;
  const rendered = text.replace(INVISIBLE, (found, at: number) => {
    if (found[0] === '<') {
      markupHoldsDigits ||= HAS_DIGIT.test(found);
      if (CLOSED.test(found)) hasMarkup = true;
      else shownUntil = at;
    }
    return shown(found);
  });
  // Only a text with mark-up is a page: elsewhere (a log's columns) white space is as long as it is written.
  const browsed = hasMarkup ? collapsed(rendered.slice(0, shownUntil)) + rendered.slice(shownUntil) : rendered;
  return markupHoldsDigits ? [readable(browsed), readable(text.replace(WRITTEN_UNSEEN, shown))] : [readable(browsed)];
}

/** A page's text as shown, each run of white space in it as a browser shows it: its first character, then NUL. */
const collapsed = (page: string): string => page.replace(COLLAPSIBLE, (run) => run[0]!.padEnd(run.length, '\0'));

/**
 * A text's reading (its mark-up, entities and marks read) with URL escapes read as their
 * characters then NUL, and identifiers made letters (not digits to judge).
 */
function readable(hidden: string): string {
  // The character first: a mask that ends at a card's last digit leaves no half of an escape after it.
  const unescaped = hidden.includes('%') ? hidden.replace(PERCENT_ESCAPE, (found) => String.fromCharCode(parseInt(found.slice(-2), 16)).padEnd(found.length, '\0')) : hidden;
  const identified = MAY_IDENTIFY.test(unescaped) ? unescaped.replace(IDENTIFIER, (found) => (CARD_AND_A_FEW_LETTERS.test(found) ? found : 'x'.repeat(found.length))) : unescaped;
  return MAY_BE_IBAN.test(identified) ? identified.replace(IBAN, (found) => (isIban(found) ? 'x'.repeat(found.length) : found)) : identified;
}

/** Whether an IBAN's check holds: its first four characters moved to the end, letters as 10–35, it leaves 1 from 97. */
function isIban(written: string): boolean {
  const text = written.replace(/[ \0]/g, '');
  if (text.length < 15) return false;
  let rest = 0;
  for (const character of text.slice(4) + text.slice(0, 4)) rest = Number(`${rest}${parseInt(character, 36)}`) % 97;
  return rest === 1;
}

/** Whether a `+` stands right before `index`, nothing a reader sees between them. */
function afterPlus(text: string, index: number): boolean {
  let at = index - 1;
  while (at >= 0 && text[at] === '\0') at -= 1;
  return PLUS.test(text[at] ?? '');
}

/** The marks a typing slip mixes between the fours of one card number: a space, a dash, a dot. */
const SLIPS = new Set([' ', '-', '.']);

/**
 * Whether the groups are separated as a person writes one number: alike (`4242 4242 …`,
 * `4242-4242-…`), or in fours with spaces, dashes and dots mixed as typing slips
 * (`4242 4242-4242.4242`). What separates a time's parts, a date's and a zone's is not
 * (`07:21:16.5850-0530`), nor two numbers of eight side by side, each written alike
 * (`2255-3769 2255-1462`), nor what stands between two numbers in a list (`; `, ` / `). `next`:
 * the group after them.
 */
function separatedAsOne(window: readonly Group[], digits: string, next?: Group): boolean {
  if (window.every((group, i) => i < 2 || group.after === window[1]!.after)) return true;
  // Mixed, the check digit must hold: UnionPay's numbers that fail it would take phone numbers in.
  if (!luhn(digits)) return false;
  // And a shorter last group ends a number in fours: digits going on after it, joined as it is,
  // were written in pairs (a phone's last fours, then a date: `5071.5961 2197-08-02`).
  const last = window.at(-1)!;
  if (last.digits.length < 4 && next?.after === last.after) return false;
  if (window.some((group, i) => (i < window.length - 1 && group.digits.length !== 4) || (i > 0 && !SLIPS.has(group.after)))) return false;
  return window.every((group, i) => i < 1 || i + 2 >= window.length || group.after !== window[i + 2]!.after || group.after === window[i + 1]!.after);
}

// Any opening and closing bracket, full-width and angle ones too, paired or not: a mask errs safe.
const OPENING = /[\p{Ps}<]/u;
const CLOSING = /^[\p{Pe}>]/u;
const SPACE_OR_HIDDEN = /[\s\0]/;

/**
 * A first four in brackets (`(4242) 4242 4242 4242`, `[4242]-4242-…`, `（4242） …`, as a phone's
 * area code is written): where its opening bracket is, and the groups with the closing one taken
 * out of the separator after it, which is then compared as the rest are. Undefined when none.
 */
function bracketed(text: string, window: readonly Group[]): { readonly opening: number; readonly window: readonly Group[] } | undefined {
  const [first, second, third] = window;
  if (!third || first!.digits.length !== 4) return undefined;
  let opening = first!.start - 1;
  while (opening >= 0 && SPACE_OR_HIDDEN.test(text[opening]!)) opening -= 1;
  if (!OPENING.test(text[opening] ?? '') || !CLOSING.test(second!.after)) return undefined;
  const after = second!.after.slice(1) || third.after;
  return { opening, window: [first!, { ...second!, after }, ...window.slice(2)] };
}

/**
 * Whether 19 digits are a card number of 16 with its three-digit security code typed right
 * after it (`4111111111111111` then `123`), or an Amex number of 15 with its four. Only these:
 * shorter card numbers and shorter runs would take one ordinary number in twelve as well.
 */
export function isCardWithCode(digits: string): boolean {
  if (digits.length !== MAX_DIGITS) return false;
  const sixteen = issuer(digits.slice(0, 16));
  return sixteen ? sixteen.cvv === undefined : issuer(digits.slice(0, 15))?.cvv === 4;
}

/**
 * Whether groups end in a word: a short group run into letters (`e4-…`, `…-12ab`) is part of an
 * identifier, and a card number is not made of it and the groups beside it. A whole number run
 * into letters (`olena4111111111111111`) is still one.
 */
function endsInAWord(text: string, window: readonly Group[]): boolean {
  if (window.length === 1) return false;
  const first = window[0]!;
  const last = window.at(-1)!;
  return (first.digits.length < 4 && LETTER.test(text[first.start - 1] ?? '')) || (last.digits.length < 4 && LETTER.test(text[last.end] ?? ''));
}

/** Runs of digit groups that may belong together, each group with its digits written 0–9. */
function* chains(text: string): Generator<Group[]> {
  let chain: Group[] = [];
  DIGIT_GROUP.lastIndex = 0;
  for (let found; (found = DIGIT_GROUP.exec(text)); ) {
    const last = chain.at(-1);
    const gap = last ? text.slice(last.end, found.index) : '';
    const after = separator(gap);
    if (after === undefined) {
      yield chain;
      chain = [];
    }
    chain.push({ start: found.index, end: found.index + found[0].length, digits: foldDigits(found[0]).replace(/\0/g, ''), gap, after: after ?? '' });
  }
  if (chain.length > 0) yield chain;
}

const ZERO = 48;
const NINE = 57;
const LAST_ASCII = 127;
const LT = 60;
const NUL = 0;
const AMP = 38;
const PERCENT = 37;
const ESCAPE_HERE = new RegExp(PERCENT_ESCAPE.source, 'iy');

/**
 * A quick look that clears most text without the scan: whether plain ASCII text (nothing
 * hidden — no `<`, `&`, marks or other scripts) has a run of digit groups that could make a card
 * number. (NUL joins digits for the scan: such text goes to it too.) A run ends where the scan's chains end — at a letter, or at more than MAX_GAP
 * characters between groups — and after any group of 2–3 or 7+ digits but 8 and 12 (a number
 * written in two), which only a card number's last group (or a whole one) can be: none of the
 * groupings it is written in carries one onwards. Timestamps, UUIDs, tokens and amounts are
 * cleared here; anything it cannot clear (other text included) goes to the scan, so it never
 * hides a card number.
 */
function mayHoldCardNumber(text: string): boolean {
  let run = 0;
  let group = 0;
  let gap = 0;
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    // An escape (`%2D`, `%252D`, `%34`) is read as one character, as the scan reads it.
    let escape = 0;
    if (code === PERCENT) {
      ESCAPE_HERE.lastIndex = i;
      const found = ESCAPE_HERE.exec(text)?.[0];
      if (found) {
        i += found.length - 1;
        escape = parseInt(found.slice(-2), 16);
      }
    }
    // An escaped digit is the digit.
    if (escape >= ZERO && escape <= NINE) code = escape;
    if (code >= ZERO && code <= NINE) {
      if (group === 0 && gap > MAX_GAP) run = 0;
      group += 1;
      gap = 0;
      continue;
    }
    if (code > LAST_ASCII || code === LT || code === AMP || code === NUL) return true;
    if (group > 0) {
      run += group;
      if (run >= MIN_DIGITS) return true;
      if (group < 4 ? group > 1 : group > 6 && group !== 8 && group !== 12) run = 0;
      group = 0;
    }
    // A letter ends a chain (ASCII here: code | 32 folds capitals).
    if ((code | 32) >= 97 && (code | 32) <= 122) run = 0;
    // An escaped space or mark is one mark (skipped above): its letter (`%2D`) ends nothing.
    gap += 1;
  }
  return run + group >= MIN_DIGITS;
}

/** Where `text` holds card numbers, in order. */
export function findCardNumbers(text: string): CardNumberSpan[] {
  return mayHoldCardNumber(text) ? scanForCardNumbers(text) : [];
}

/**
 * The scan itself, without the quick look first (the tests compare the two). `cardSaid`: whether
 * the text speaks of a card, asked only of a number written in two parts (`writtenInTwo`).
 */
export function scanForCardNumbers(text: string, cardSaid: () => boolean = () => SPEAKS_OF_A_CARD.test(text)): CardNumberSpan[] {
  if (!hasEnoughDigits(text)) return [];
  // Answered once for the text: asked anew of each number in two parts, its scan of the whole
  // text made a long list of them quadratic (seconds for a 76 KB one).
  let said: boolean | undefined;
  const saysCard = () => (said ??= cardSaid());
  const [shownSpans, writtenSpans] = readings(text).map((reading) => spansIn(reading, saysCard));
  return writtenSpans ? united(shownSpans!, writtenSpans) : shownSpans!;
}

/**
 * The spans of two readings as one list in order, spans that overlap made one (its digits those
 * of the wider: a card number read through a tag around it and the same one read inside it).
 */
function united(one: readonly CardNumberSpan[], other: readonly CardNumberSpan[]): CardNumberSpan[] {
  const spans: CardNumberSpan[] = [];
  for (const span of [...one, ...other].sort((a, b) => a.start - b.start)) {
    const last = spans.at(-1);
    if (!last || span.start >= last.end) spans.push(span);
    else spans[spans.length - 1] = { start: last.start, end: Math.max(last.end, span.end), digits: span.end - span.start > last.end - last.start ? span.digits : last.digits };
  }
  return spans;
}

/** Where one reading of a text (see `readings`) holds card numbers, in order. */
function spansIn(scanned: string, cardSaid: () => boolean): CardNumberSpan[] {
  const spans: { start: number; end: number }[] = [];
  let last: { start: number; end: number } | undefined;
  const found = (start: number, digitsEnd: number) => {
    // The marks on its last digit and the tags closing it go with it.
    let end = digitsEnd;
    while (scanned[end] === '\0') end += 1;
    if (last && start < last.end) last.end = Math.max(last.end, end);
    else spans.push((last = { start, end }));
  };
  for (const groups of chains(scanned)) {
    const total = groups.reduce((sum, group) => sum + group.digits.length, 0);
    if (total < MIN_DIGITS) continue;
    if (total <= MAX_PHONE_DIGITS && afterPlus(scanned, groups[0]!.start)) continue;
    // A card number may be run into a group too long to be one, or straddle it and its neighbours.
    if (groups.some((group) => group.digits.length > MAX_DIGITS) && hidesCardNumber(groups.map((group) => group.digits).join(''))) {
      found(groups[0]!.start, groups.at(-1)!.end);
    }
    groups.forEach((first, from) => {
      // A card number with its security code run into it is no card number as a whole: taken with it.
      if (isCardWithCode(first.digits) && !issuer(first.digits)) found(first.start, first.end);
      let number = '';
      for (let to = from; to < groups.length && (number += groups[to]!.digits).length <= MAX_DIGITS; to += 1) {
        if (number.length < MIN_DIGITS) continue;
        const brand = issuer(number);
        if (!brand) continue;
        const window = groups.slice(from, to + 1);
        const next = groups[to + 1];
        // An entity's or escape's point (`&#46;`, `%2E`) is read with NUL after it.
        const cents = to + 2 === groups.length && next!.digits.length === 2 && CENTS.test(next!.gap.replace(/\0/g, ''));
        const inTwo = writtenInTwo(window, number, cardSaid, groups[from - 1], next);
        const grouped = inTwo || groupedLikeACard(window.map((group) => group.digits.length), brand, number, window[1]?.gap ?? '', cents);
        if (!grouped || endsInAWord(scanned, window)) continue;
        if (inTwo || separatedAsOne(window, number, next)) found(first.start, groups[to]!.end);
        else {
          // Its brackets go with it: a mask leaves none of them behind.
          const inBrackets = bracketed(scanned, window);
          if (inBrackets && separatedAsOne(inBrackets.window, number, next)) found(inBrackets.opening, groups[to]!.end);
        }
      }
    });
  }
  return spans.map(({ start, end }) => ({ start, end, digits: foldDigits(scanned.slice(start, end)).replace(/\D/g, '') }));
}

/** Whether `text` holds a card number anywhere. */
export const holdsCardNumber = (text: string): boolean => findCardNumbers(text).length > 0;

/** A run of 15–18 digits written together: a card number with a digit or two run into it, which text keeps (ids have such runs). */
const RUN_ON = /(?<!\d)\d{15,18}(?!\d)/g;

/**
 * Whether a person's name holds a card number: as any text would, in its digits alone however
 * they are grouped (`411111 1111111111`, `41111111 11111111`), or with a digit or two run into it
 * (`40007718031337901`), since a name has next to none.
 */
export function nameHoldsCardNumber(name: string): boolean {
  if (holdsCardNumber(name)) return true;
  const folded = foldDigits(name);
  return holdsCardNumber(folded.replace(/\D/g, '')) || (folded.match(RUN_ON)?.some(hidesCardNumber) ?? false);
}

/** Whether `text` is one unbroken run of more than 19 digits, however written: no card number alone. */
export function isLongDigitRun(text: string): boolean {
  const digits = foldDigits(text);
  return digits.length > MAX_DIGITS && /^\d+$/.test(digits);
}

/**
 * A card number in an id (an order's, a customer's), but for one inside an unbroken run of more
 * than 19 digits. The masks take such a run when a stretch of it passes (its digits may hide
 * one); an id of a date-time and a sequence often is such a run, and a fifth to two thirds of
 * them pass by chance. Written in groups (`4242 4242 4242 4242 4242`), it is a card number and
 * more. Only one that passes the check digit (or is one that does with its security code run
 * in): the masks also take UnionPay's numbers that fail it, and a shop's 16-digit ids starting
 * 62 or 81 would all be taken for those. A number written in two parts counts as the masks take
 * it: in halves or its first or last four apart, always; in the rarer forms (its first six
 * apart by a space, halves in fours with another mark between) only where a card is said, which
 * an id never does — `241202 0000012340`, a date and a sequence, is an id.
 */
export const holdsCardNumberOfItsLength = (text: string): boolean =>
  findCardNumbers(text).some(({ start, end, digits }) => !isLongDigitRun(text.slice(start, end)) && (luhn(digits) || isCardWithCode(digits)));

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
