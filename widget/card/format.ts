import { detectBrand, gapsOf, maxLength, type Brand } from './brands.js';
import { digitsOf } from './check.js';
import { cvvLength } from './cvv.js';

/** An input's state right after an edit, as its `input` event sees it. */
export interface Keystroke {
  value: string;
  caret: number;
  /** `InputEvent.inputType`; absent for autofill and scripted fills. */
  inputType?: string | undefined;
  /** The value before the edit. */
  before?: string | undefined;
}

/** The re-formatted value and where the caret goes. */
export interface Edit {
  value: string;
  caret: number;
}

const DIGIT = /\d/;
/** What a customer types between an expiry's month and year: a slash, a dot, a dash, a space. */
const SEPARATOR = /^(?:\s+|\s*[/.-]\s*)$/;

/** Turns digits into display text; also gets and returns how many digits precede the caret. */
type Shape = (digits: string, before: number, deleting: boolean) => [text: string, before: number];

/**
 * Re-formats an edited value and keeps the caret after the same digit it followed. A deleted
 * separator takes the digit beyond it with it, which is what the customer meant to delete.
 */
function reformat({ value, caret, inputType = '', before: previous }: Keystroke, shape: Shape): Edit {
  const deleting = inputType.startsWith('delete');
  let digits = digitsOf(value);
  let before = digitsOf(value.slice(0, caret)).length;
  if (deleting && previous !== undefined && digits === digitsOf(previous) && before < digits.length) {
    const at = inputType === 'deleteContentForward' ? before : --before;
    digits = digits.slice(0, at) + digits.slice(at + 1);
  }
  const [text, after] = shape(digits, before, deleting);
  let at = 0;
  for (let seen = 0; seen < after; at++) if (DIGIT.test(text[at]!)) seen++;
  // Typing continues after a separator; deleting stops in front of it.
  if (!deleting) while (at < text.length && !DIGIT.test(text[at]!)) at++;
  return { value: text, caret: at };
}

/** Puts a space before each digit index in `gaps`. */
export function group(digits: string, gaps: readonly number[]): string {
  let text = '';
  for (let i = 0; i < digits.length; i++) text += (i && gaps.includes(i) ? ' ' : '') + digits[i];
  return text;
}

const clip = (digits: string, before: number, length: number): [string, number] => {
  const kept = digits.slice(0, length);
  return [kept, Math.min(before, kept.length)];
};

/** An expiry pasted after the number, as a note or an e-mail holds them ("4242 4242 4242 4242 12/30"). */
const PASTED_EXPIRY = /\s+(?:0?[1-9]|1[0-2])\s*[/.-]\s*(?:\d{4}|\d{2})(?!\d).*$/s;

/**
 * Card number: the brand's gaps (4-4-4-4, Amex 4-6-5, Diners 4-6-4), cut at the brand's maximum
 * length. A paste keeps the number alone: an expiry after it is not more of its digits.
 */
export const formatNumber = (keystroke: Keystroke): Edit => {
  const value = keystroke.inputType === 'insertFromPaste' ? keystroke.value.replace(PASTED_EXPIRY, '') : keystroke.value;
  return reformat({ ...keystroke, value, caret: Math.min(keystroke.caret, value.length) }, (digits, before) => {
    const brand = detectBrand(digits);
    const [kept, after] = clip(digits, before, maxLength(brand));
    return [group(kept, gapsOf(brand)), after];
  });
};

/**
 * Expiry as MM/YY. A month that can only have one digit is padded ("2" → "02/", "1/" → "01/",
 * "13" → "01/3"); a four-digit year 20YY becomes YY once complete (autofill often sends MM/YYYY).
 * A month written before a separator (a space too) is taken as written: a pasted, autofilled or
 * typed "13/27" stays an invalid month rather than becoming January 2032. A month of one digit or
 * none retyped in front of its year ("1|/29", the customer's caret at "|") waits for its second digit.
 */
export const formatExpiry = (keystroke: Keystroke): Edit => {
  const { value, caret, inputType, before } = keystroke;
  // A separator typed right after the first digit of a year that padding made ("13" shown as
  // "01/3" at its second keystroke, then "/"): the customer's month was the two digits, no month.
  const padded = inputType === 'insertText' && /^0(1)\/([3-9])$/.exec(before ?? '');
  if (padded && SEPARATOR.test(value.slice(before!.length)) && caret === value.length) return { value: `${padded[1]}${padded[2]}/`, caret: 3 };
  // Backspace over the slash, a year after it: the month's last digit goes, the year stays put
  // ("12/|29" → "1|/29", not "12/9"). The month then waits for its digit, as one retyped does.
  const slash = before?.indexOf('/') ?? -1;
  if (inputType === 'deleteContentBackward' && slash > 0 && caret === slash && value === before!.slice(0, slash) + before!.slice(slash + 1) && slash < before!.length - 1) {
    return { value: `${before!.slice(0, slash - 1)}/${before!.slice(slash + 1)}`, caret: slash - 1 };
  }
  // A month before its separator; typed, white space is one too after a month ("1 27"; not "0 ").
  // Pasted, "1 2 2 9" is digits spaced out, as before.
  const written = inputType === 'insertText' ? /^\s*(?:(\d*)\s*[^\d\s]|([1-9]|\d\d)\s+(?=\d|$))/.exec(value) : /^\s*(\d*)\s*[^\d\s]/.exec(value);
  const month = written?.[1] ?? written?.[2];
  return month !== undefined && month.length < 2 && keystroke.caret < written![0].length
    ? keystroke
    : reformat(keystroke, (digits, before, deleting) => {
        // Only "1" may still become 10, 11 or 12: anything from "13" on is a one-digit month.
        if (!deleting && (month ? month.length === 1 : digits >= '13')) {
          digits = '0' + digits;
          before++;
        }
        const century = digits.slice(2, 4) === '20' && digits.length > 4;
        digits = century && digits.length > 5 ? digits.slice(0, 2) + digits.slice(4, 6) : digits.slice(0, century ? 5 : 4);
        before = Math.min(before, digits.length);
        return [digits.length > 2 || (digits.length === 2 && !deleting) ? digits.slice(0, 2) + '/' + digits.slice(2) : digits, before];
      });
};

/** Security code: digits only, at most the brand's length. */
export const formatCvv = (keystroke: Keystroke, brand?: Brand): Edit =>
  reformat(keystroke, (digits, before) => clip(digits, before, cvvLength(brand)));
