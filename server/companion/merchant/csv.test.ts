// A cell of the orders export as a spreadsheet opens it: quoted as RFC 4180 has it, and text
// that begins like a formula kept as text.
import { describe, expect, it } from 'vitest';
import { COMMA_DECIMALS, csvCell, csvLine } from './csv.js';

describe('CSV cells', () => {
  it('quotes text, doubling its quotes; writes numbers bare and nothing as an empty cell', () => {
    expect(csvLine(['shop-1042', 24950, null, 'say "hi", then\r\nleave'])).toBe('"shop-1042",24950,,"say ""hi"", then\r\nleave"\r\n');
    expect(csvCell(-500)).toBe('-500');
    // Money's decimals too: a spreadsheet reading quoted cells as text still sums them.
    expect(csvLine([{ decimal: '249.50' }, { decimal: '-5.00' }, { decimal: '500' }])).toBe('249.50,-5.00,500\r\n');
    // One that is not a plain figure is text, guarded as any.
    expect(csvCell({ decimal: '=1+2' })).toBe(`"'=1+2"`);
  });

  it('writes text that a spreadsheet would run after an apostrophe', () => {
    for (const text of ['=1+2', '+380501234567', '-2+3', '@SUM(A1)', '\tcmd', '\r=1']) expect(csvCell(text)).toBe(`"'${text}"`);
    // One that begins with an apostrophe gets another: a reader drops the first, always.
    expect(csvCell("'Nita")).toBe(`"''Nita"`);
    // A number as text is read as a number, never run: left as it is.
    expect(csvCell('-5.00')).toBe('"-5.00"');
    expect(csvCell('olena@example.com')).toBe('"olena@example.com"');
  });

  it('writes digits a spreadsheet would change, read as a number, after an apostrophe', () => {
    // Read as numbers, "000123" became 123, a phone its number without the 0, and 20 digits 1.23457E+19.
    for (const text of ['000123', '0931112233', '007', '12345678901234567890', '1234567890123456']) expect(csvCell(text)).toBe(`"'${text}"`);
    // Digits a spreadsheet keeps as written are left as they are: 15 at most, none leading with 0.
    for (const text of ['1042', '0', '123456789012345', '-5.00']) expect(csvCell(text)).toBe(`"${text}"`);
    // Money is a number the file writes bare, never guarded.
    expect(csvLine([999999999999999, { decimal: '0.05' }])).toBe('999999999999999,0.05\r\n');
  });

  it('writes a decimal comma’s figures quoted, so a comma also taken as a separator never splits them', () => {
    // LibreOffice's import parts cells at commas, semicolons and tabs alike unless told otherwise:
    // a bare 249,50 became two cells, 249 and 50, and every column after them moved.
    expect(csvLine(['tea', 24950, { decimal: '249.50' }, { decimal: '-5.00' }, { decimal: '500' }, null], COMMA_DECIMALS)).toBe('"tea";24950;"249,50";"-5,00";500;\r\n');
  });

  it('guards a formula behind blanks a spreadsheet may trim, a full-width sign or a pipe', () => {
    for (const text of [' =1+1', '\n=1+1', '\u00a0=1+1', '\u200b=1+1', '\ufeff@SUM(1)', '＝1+1', '＋1', '|calc']) expect(csvCell(text)).toBe(`"'${text}"`);
    // Blanks before a name or a figure are left as they are.
    expect(csvCell(' Olena')).toBe('" Olena"');
    expect(csvCell(' 42')).toBe('" 42"');
  });
});
