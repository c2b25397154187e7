import { describe, expect, it } from 'vitest';
import { detectBrand } from './brands.js';
import { formatCvv, formatExpiry, formatNumber, group, type Edit, type Keystroke } from './format.js';

// States are written with the caret as "|": "4242 4|" is the value "4242 4" with the caret at 6.
const at = (state: string): Edit => ({ value: state.replace('|', ''), caret: state.indexOf('|') });
const show = ({ value, caret }: Edit): string => value.slice(0, caret) + '|' + value.slice(caret);
const key = (after: string, inputType?: string, before?: string): Keystroke => ({ ...at(after), inputType, before: before?.replace('|', '') });

describe('formatNumber', () => {
  it.each([
    // typing at the end
    ['4|', 'insertText', '|', '4|'],
    ['4242|', 'insertText', '424|', '4242|'],
    ['42424|', 'insertText', '4242|', '4242 4|'],
    ['4242 42424|', 'insertText', '4242 4242|', '4242 4242 4|'],
    ['3782822|', 'insertText', '378282|', '3782 822|'],
    ['3782 8224631|', 'insertText', '3782 822463|', '3782 822463 1|'],
    ['3782 822463 100052|', 'insertText', '3782 822463 10005|', '3782 822463 10005|'], // Amex stops at 15
    ['3056 930902 59041|', 'insertText', '3056 930902 5904|', '3056 930902 59041|'], // Diners 4-6-4(+)
    ['5555 5555 5555 44449|', 'insertText', '5555 5555 5555 4444|', '5555 5555 5555 4444|'], // Mastercard stops at 16
    // typing in the middle keeps the caret after the typed digit
    ['41|242 4242', 'insertText', '4|242 4242', '41|24 2424 2'],
    ['4242 1|4242', 'insertText', '4242 |4242', '4242 1|424 2'],
    ['4241| 4242', 'insertText', '424| 4242', '4241 |4242'], // a digit before a gap: the caret moves past it
    // letters and other characters never get in
    ['4242a|', 'insertText', '4242|', '4242|'],
    // deleting
    ['4242 424|', 'deleteContentBackward', '4242 4242|', '4242 424|'],
    ['4242 |', 'deleteContentBackward', '4242 4|', '4242|'],
    ['4242|4242', 'deleteContentBackward', '4242 |4242', '424|4 242'], // backspace over a gap deletes the digit before it
    ['4242|4242', 'deleteContentForward', '4242| 4242', '4242| 242'], // delete over a gap deletes the digit after it
    ['|242 4242', 'deleteContentBackward', '4|242 4242', '|2424 242'],
    ['4242 4242|', 'deleteContentBackward', '4242 4242 |', '4242 4242|'],
    // paste strips spaces, dashes and NBSPs
    ['4242-4242-4242-4242|', 'insertFromPaste', '|', '4242 4242 4242 4242|'],
    ['4242\u00a04242\u00a04242\u00a04242|', 'insertFromPaste', '|', '4242 4242 4242 4242|'],
    [' 3782 822463 10005 |', 'insertFromPaste', '|', '3782 822463 10005|'],
    ['4242 4242 4242 4242 4242|', 'insertFromPaste', '|', '4242 4242 4242 4242 424|'], // Visa stops at 19
    ['55554242 4242|', 'insertFromPaste', '|4242 4242', '5555 4242 4242|'],
    // a paste that runs on into the expiry (and the code) keeps the number alone
    ['4242 4242 4242 4242 12/30|', 'insertFromPaste', '|', '4242 4242 4242 4242|'],
    ['4242-4242-4242-4242  3 / 2031 737|', 'insertFromPaste', '|', '4242 4242 4242 4242|'],
    ['3782 822463 10005\n12.30|', 'insertFromPaste', '|', '3782 822463 10005|'],
    // autofill: no input type, no previous value
    ['4111111111111111|', undefined, undefined, '4111 1111 1111 1111|'],
  ])('%j (%s from %j) → %j', (after, inputType, before, expected) => {
    expect(show(formatNumber(key(after, inputType, before)))).toBe(expected);
  });
});

describe('formatExpiry', () => {
  it.each([
    ['1|', 'insertText', '|', '1|'],
    ['0|', 'insertText', '|', '0|'],
    ['2|', 'insertText', '|', '02/|'], // only February can start with 2
    ['12|', 'insertText', '1|', '12/|'],
    ['13|', 'insertText', '1|', '01/3|'],
    ['10|', 'insertText', '1|', '10/|'],
    ['1/|', 'insertText', '1|', '01/|'],
    ['12/3|', 'insertText', '12/|', '12/3|'],
    ['12/30|', 'insertText', '12/3|', '12/30|'],
    ['12/301|', 'insertText', '12/30|', '12/30|'],
    ['12/20|', 'insertText', '12/2|', '12/20|'],
    ['12/203|', 'insertText', '12/20|', '12/203|'], // a four-digit year on its way
    ['12/2030|', 'insertText', '12/203|', '12/30|'],
    ['12/|', 'deleteContentBackward', '12/3|', '12|'],
    ['12|', 'deleteContentBackward', '12/|', '12|'], // the slash goes, the month stays
    ['1|', 'deleteContentBackward', '12|', '1|'],
    ['02|', 'deleteContentBackward', '02/|', '02|'],
    ['1230|', 'insertFromPaste', '|', '12/30|'],
    ['12/2030|', 'insertFromPaste', '|', '12/30|'],
    ['1/30|', 'insertFromPaste', '|', '01/30|'],
    [' 12 / 30 |', 'insertFromPaste', '|', '12/30|'],
    ['12/2030|', undefined, undefined, '12/30|'], // autofill
    // With its separator, an expiry is judged as written: "13/27" is no month, not January 2032.
    ['13/27|', 'insertFromPaste', '|', '13/27|'],
    ['13/2027|', undefined, undefined, '13/27|'], // autofill
    ['21/30|', 'insertFromPaste', '|', '21/30|'],
    ['2/30|', 'insertFromPaste', '|', '02/30|'], // a lone first digit is still the month
    // The month retyped over a selection, its year left in place: no padding until it is done.
    ['1|/29', 'insertText', '12/29', '1|/29'],
    ['11|/29', 'insertText', '1|/29', '11/|29'],
    ['0|/29', 'insertText', '12/29', '0|/29'],
    ['03|/29', 'insertText', '0|/29', '03/|29'],
    ['|/29', 'deleteContentBackward', '12/29', '|/29'],
    ['|2/29', 'deleteContentBackward', '1|2/29', '|2/29'], // not 22/9
    ['4|/29', 'insertText', '|/29', '4|/29'],
    // A separator typed after "13", which padding showed as "01/3": the month typed was 13, no month.
    ['01/3/|', 'insertText', '01/3|', '13/|'],
    ['01/3 |', 'insertText', '01/3|', '13/|'],
    ['01/3a|', 'insertText', '01/3|', '01/3|'],
    // Not a month padded at its first keystroke ("9" → "09/"), nor a "01/3" typed so.
    ['09/3 |', 'insertText', '09/3|', '09/3|'],
    ['01/2/|', 'insertText', '01/2|', '01/2|'],
    // A space typed after the month separates it, as a slash does.
    ['1 |', 'insertText', '1|', '01/|'],
    ['1 2|', 'insertText', '1 |', '01/2|'],
    [' |', 'insertText', '|', '|'],
    ['0 |', 'insertText', '0|', '0|'],
    ['0 1 2 9|', 'insertFromPaste', '|', '01/29|'],
    ['1 2 2 9|', 'insertFromPaste', '|', '12/29|'],
    // Backspace over the slash takes the month's last digit and leaves the year where it is.
    ['12|29', 'deleteContentBackward', '12/|29', '1|/29'],
    ['01|29', 'deleteContentBackward', '01/|29', '0|/29'],
  ])('%j (%s from %j) → %j', (after, inputType, before, expected) => {
    expect(show(formatExpiry(key(after, inputType, before)))).toBe(expected);
  });
});

describe('formatCvv', () => {
  it.each([
    ['12|', '4242', '12|'],
    ['1234|', '4242', '123|'],
    ['1234|', '37', '1234|'],
    ['12345|', undefined, '1234|'],
    ['1a2|', '4242', '12|'],
  ])('%j for %s → %j', (after, number, expected) => {
    expect(show(formatCvv(key(after, 'insertText'), number ? detectBrand(number) : undefined))).toBe(expected);
  });
});

describe('group', () => {
  it('puts spaces before the gap indexes', () => {
    expect(group('378282246310005', [4, 10])).toBe('3782 822463 10005');
    expect(group('4242', [4, 8])).toBe('4242');
    expect(group('', [4])).toBe('');
  });
});
