/**
 * The fewest digits a card number in circulation has: Diners Club's 14. Schemes once issued 13
 * (Visa) and 12–13 (Maestro), long expired; taken for cards in text, they made one in ten of the
 * 13-digit numbers people write — product barcodes (EAN-13: 400–499 Germany to Ukraine, 590
 * Poland), a German or British mobile without its `+`, a time in milliseconds — a card number.
 */
export const MIN_DIGITS = 14;

/**
 * The characters a reader takes for a digit that are not decimal digits to Unicode, in tens from
 * 0 to 9: superscript ⁴, subscript ₄ and circled ④ (whose compatibility form, NFKC, is the
 * digit), and the enclosed ones whose form is not a digit alone or who have none: negative
 * circled ❹, double circled ⓸, the dingbats' sans-serif ➃ and ➍, parenthesized ⑷ and with a
 * full stop ⒋. A family without its zero (or whose zero is outside the BMP) stands ⓪ in its
 * place: the same digit, found first.
 */
export const DIGIT_LOOKALIKES = '⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉⓪①②③④⑤⑥⑦⑧⑨⓿❶❷❸❹❺❻❼❽❾⓪⓵⓶⓷⓸⓹⓺⓻⓼⓽⓪➀➁➂➃➄➅➆➇➈⓿➊➋➌➍➎➏➐➑➒⓪⑴⑵⑶⑷⑸⑹⑺⑻⑼⓪⒈⒉⒊⒋⒌⒍⒎⒏⒐';

/** Any digit as a regular expression's class (`u` flag): every script's decimal digits and the look-alikes. */
export const ANY_DIGIT = String.raw`[\p{Nd}${DIGIT_LOOKALIKES}]`;
const NOT_A_DIGIT = String.raw`[^\p{Nd}${DIGIT_LOOKALIKES}]`;

const ENOUGH_DIGITS = new RegExp(String.raw`(?:${ANY_DIGIT}${NOT_A_DIGIT}*){${MIN_DIGITS}}`, 'u');

/**
 * Whether `text` has as many digits, however written, as the shortest card number. Most text
 * (names, statuses, ids) has fewer, and so holds none: nothing to look for.
 */
export const hasEnoughDigits = (text: string): boolean => ENOUGH_DIGITS.test(text);
