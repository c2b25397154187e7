/**
 * CSV as RFC 4180 writes it (CRLF line ends; a text cell in double quotes, its quotes doubled)
 * and safe to open in a spreadsheet: a text cell that begins as a formula would (= + - @, a tab,
 * a carriage return) is written after an apostrophe, so Excel, LibreOffice and Google Sheets
 * show it as text instead of running it; so is one of digits a spreadsheet would change as a
 * number ("000123"). Order ids, e-mails and names are customers' and merchants' text:
 * "=HYPERLINK(…)" must reach the accountant as those characters.
 */

import { wallClock } from '../../ledger/index.js';

/**
 * A cell: text (quoted, guarded), a number written as is, a decimal figure written bare as well
 * (`{ decimal: '249.50' }`), or nothing (an empty cell). Money stays a number to a spreadsheet
 * told to read quoted cells as text, as one is to keep ids' and phones' leading zeros.
 */
export type CsvCell = string | number | { readonly decimal: string } | { readonly localTime: number } | null;

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

/**
 * How cells are parted and decimals written: RFC 4180's comma and point, or the semicolon and
 * decimal comma a spreadsheet set to a decimal comma (Ukrainian, German) reads by a double click
 * and writes itself. Only the decimal figures change; minor units and text are the same.
 */
export interface CsvFormat {
  readonly separator: ',' | ';';
  readonly decimalMark: '.' | ',';
  /** The IANA zone a `localTime` cell is written in. */
  readonly timeZone?: string | undefined;
}
export const POINT_DECIMALS: CsvFormat = { separator: ',', decimalMark: '.' };
export const COMMA_DECIMALS: CsvFormat = { separator: ';', decimalMark: ',' };

export function csvCell(value: CsvCell, format: CsvFormat = POINT_DECIMALS): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && 'localTime' in value) return localDateTime(value.localTime, format.timeZone ?? 'UTC');
  if (typeof value === 'object') return PLAIN_NUMBER.test(value.decimal) ? decimalFigure(value.decimal, format) : csvCell(value.decimal);
  const text = (FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)) || CHANGED_AS_NUMBER.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * A figure in the file's decimal mark. A comma's is quoted: LibreOffice's import parts cells at
 * commas, semicolons and tabs alike until told otherwise, and split a bare `249,50` in two. A
 * quoted figure is still a number to it and to Excel (unless told to read quoted cells as text;
 * the minor units beside it are bare for that).
 */
function decimalFigure(decimal: string, format: CsvFormat): string {
  return format.decimalMark === '.' || !decimal.includes('.') ? decimal : `"${decimal.replace('.', ',')}"`;
}

/**
 * An instant as the wall clock of `timeZone` reads it, `2026-11-01 00:30:00`: bare, in the one
 * shape Excel (and LibreOffice detecting special numbers) reads as a date and time in every
 * language; an ISO 8601 instant with its `T` and `Z` is text to them.
 */
const localDateTime = (ms: number, timeZone: string): string => new Date(wallClock(timeZone, ms)).toISOString().slice(0, 19).replace('T', ' ');

export function csvLine(cells: readonly CsvCell[], format: CsvFormat = POINT_DECIMALS): string {
  return `${cells.map((cell) => csvCell(cell, format)).join(format.separator)}\r\n`;
}
