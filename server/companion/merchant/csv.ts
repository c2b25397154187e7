/**
 * CSV as RFC 4180 writes it (CRLF line ends; a text cell in double quotes, its quotes doubled)
 * and safe to open in a spreadsheet: a text cell that begins as a formula would (= + - @, a tab,
 * a carriage return) is written after an apostrophe, so Excel, LibreOffice and Google Sheets
 * show it as text instead of running it; so is one of digits a spreadsheet would change as a
 * number ("000123"). Order ids, e-mails and names are customers' and merchants' text:
 * "=HYPERLINK(…)" must reach the accountant as those characters.
 */

/**
 * A cell: text (quoted, guarded), a number written as is, a decimal figure written bare as well
 * (`{ decimal: '249.50' }`), or nothing (an empty cell). Money stays a number to a spreadsheet
 * told to read quoted cells as text, as one is to keep ids' and phones' leading zeros.
 */
export type CsvCell = string | number | { readonly decimal: string } | null;

// An apostrophe too, so a program undoes the guard without doubt: a text cell that begins with
// one had one put there (a phone "+380…" is written "'+380…", a name "'Nita" "''Nita"). Also
// after blanks a spreadsheet may trim (spaces, a line break, a no-break or zero-width space),
// and the full-width signs some read as their ASCII twins, and `|` (DDE in older Excel).
const FORMULA_START = /^[\s\u200b-\u200d\u2060\ufeff]*[=+\-@\t\r'|\uff1d\uff0b\uff0d\uff20]/;
/** A number as text ("-5.00"): a spreadsheet reads it as a number, never as a formula. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
/**
 * Digits a spreadsheet opening the file by a double click reads as a number and changes: an id's
 * or a phone's leading zero dropped ("000123" → 123), past 15 digits rounded (a 20-digit order id
 * → 1.23457E+19, and so saved). Guarded as a formula is, so they stay text as written.
 */
const CHANGED_AS_NUMBER = /^(?:0\d+|\d{16,})$/;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') return PLAIN_NUMBER.test(value.decimal) ? value.decimal : csvCell(value.decimal);
  const text = (FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)) || CHANGED_AS_NUMBER.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
