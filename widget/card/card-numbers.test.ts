import { describe, expect, it } from 'vitest';
import { findCardNumbers, foldDigits, holdsCardNumber, holdsCardNumberOfItsLength, maskCardNumbers, nameHoldsCardNumber, scanForCardNumbers } from './card-numbers.js';

const VISA = '4111111111111111';
const groups = (digits: string, size = 4) => digits.match(new RegExp(`.{1,${size}}`, 'g'))!;
const FULL_WIDTH = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
const ARABIC_INDIC = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));
const SUPERSCRIPT = (digits: string) => digits.replace(/\d/g, (digit) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(digit)]!);
const SUBSCRIPT = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0x2080 + Number(digit)));
const CIRCLED = (digits: string) => digits.replace(/\d/g, (digit) => (digit === '0' ? '⓪' : String.fromCharCode(0x245f + Number(digit))));
/** Each digit 1–9 of an enclosed family (its zero ⓪ or ⓿, outside it where the family has none in the BMP). */
const ENCLOSED = (first: number, zero: string) => (digits: string) => digits.replace(/\d/g, (digit) => (digit === '0' ? zero : String.fromCharCode(first + Number(digit) - 1)));
/** A German mobile number that passes the Luhn check, 13 digits: a Visa's length once. */
const LUHN_PHONE = '4915123456704';
/** A new line and the indentation of a pretty-printed page: more white space than a card number's gaps have. */
const INDENTED = `\n${' '.repeat(10)}`;

describe('findCardNumbers', () => {
  it.each([
    ['nothing between', VISA],
    ['one space', groups(VISA).join(' ')],
    ['two spaces', groups(VISA).join('  ')],
    ['a no-break space', groups(VISA).join('\u00a0')],
    ['a thin space', groups(VISA).join('\u2009')],
    ['a narrow no-break space', groups(VISA).join('\u202f')],
    ['an ideographic space', groups(VISA).join('\u3000')],
    ['a tab', groups(VISA).join('\t')],
    ['a line break', groups(VISA).join('\n')],
    ['a zero-width space', groups(VISA).join('\u200b')],
    ['a hyphen', groups(VISA).join('-')],
    ['a spaced hyphen', groups(VISA).join(' - ')],
    ['an en dash', groups(VISA).join('–')],
    ['dots', groups(VISA).join('.')],
    ['slashes', groups(VISA).join('/')],
    ['spaced slashes', groups(VISA).join(' / ')],
    ['underscores', groups(VISA).join('_')],
    ['commas', groups(VISA).join(',')],
    ['a comma and a space', groups(VISA).join(', ')],
    ['a space after each digit', VISA.split('').join(' ')],
    ['full-width digits', FULL_WIDTH(VISA)],
    ['full-width digits and spaces', groups(FULL_WIDTH(VISA)).join('\u3000')],
    ['Arabic-Indic digits', ARABIC_INDIC(VISA)],
    ['superscript digits', SUPERSCRIPT(VISA)],
    ['subscript digits and spaces', groups(SUBSCRIPT(VISA)).join(' ')],
    ['circled digits', CIRCLED('4000056655665556')],
    ['negative circled digits', ENCLOSED(0x2776, '⓿')('4000056655665556')],
    ['double circled digits and spaces', groups(ENCLOSED(0x24f5, '⓪')(VISA)).join(' ')],
    ['sans-serif circled digits', ENCLOSED(0x2780, '⓪')('4000056655665556')],
    ['negative sans-serif circled digits', ENCLOSED(0x278a, '⓿')(VISA)],
    ['parenthesized digits', ENCLOSED(0x2474, '⓪')('4000056655665556')],
    ['digits with a full stop, and spaces', groups(ENCLOSED(0x2488, '⓪')(VISA)).join(' ')],
    ['digits of four kinds', `${SUPERSCRIPT('4111')} ${SUBSCRIPT('1111')} ${CIRCLED('1111')} ${FULL_WIDTH('1111')}`],
    ['Amex groups 4-6-5', '3782 822463 10005'],
    ['its first six apart, a bar between', '411111|1111111111'],
    ['its first six apart, a dash between', '411111-1111111111'],
    ['an Amex number\'s first six apart', '378282|246310005'],
    ['14 digits', '3056 930902 5904'],
    ['19 digits', '4111 1111 1111 1111 003'],
    ['a UnionPay number that fails the check digit, as some do', '6212 3456 7890 1234'],
    ['an 18-digit UnionPay number that fails it', '621234567890123456'],
    ['mixed marks between fours', '4111 1111-1111.1111'],
    ['a dash, then spaces', '4111-1111 1111 1111'],
    ['its first four in brackets', '(4111) 1111 1111 1111'],
    ['its first four in brackets, dashes after', '(4111)1111-1111-1111'],
    ['its first four in brackets and a dash', '(4111)-1111-1111-1111'],
    ['its first four in square brackets, dots after', '[4111].1111.1111.1111'],
    ['its first four in spaced brackets', '( 4111 ) 1111 1111 1111'],
    ['its first four in braces', '{4111} 1111 1111 1111'],
    ['its first four in full-width brackets', '（4111） 1111 1111 1111'],
    ['its first four in unmatched brackets', '(4111] 1111 1111 1111'],
    ['its security code run into it', `${VISA}123`],
    ['an Amex number and its four-digit code run into it', '3782822463100054321'],
    ['two halves, a space between', '42424242 42424242'],
    ['two halves, a no-break space between', '41111111\u00a011111111'],
    ['two halves, a dash between', '42424242-42424242'],
    ['two halves, a spaced en dash between', '54545454 \u2013 54545454'],
    ['its first four apart', '4242 424242424242'],
    ['its last four apart', '424242424242 4242'],
  ])('finds a card number written with %s', (_, written) => {
    const text = `Olena ${written} Koval`;
    expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end))).toEqual([written]);
  });

  it('takes a UnionPay number without its check digit only from 16 digits: shorter, it may be a phone', () => {
    // 62 is also Indonesia's calling code: 62 812 3456 7890 (14 digits) is a mobile number.
    expect(holdsCardNumber('call 62812345678902')).toBe(false);
    expect(holdsCardNumber('6281234567890')).toBe(false);
    // Only UnionPay issues numbers that fail it: a Visa-shaped one is not a card number.
    expect(holdsCardNumber('4111 1111 1111 1112')).toBe(false);
  });

  it('finds a card number run into letters, or followed by its expiry date', () => {
    expect(holdsCardNumber(`olena${VISA}@example.com`)).toBe(true);
    expect(holdsCardNumber('olena.4111.1111.1111.1111@example.com')).toBe(true);
    const text = '4111 1111 1111 1111 12/28';
    expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end))).toEqual(['4111 1111 1111 1111']);
  });

  it('finds a card number in a hexadecimal-looking word and in a URL\'s escapes', () => {
    for (const text of [
      `${VISA}a@example.com`, `ref ${VISA}abcd`, `abc${VISA}`, `a${VISA}b`, `ref ab${VISA}cd`, `?card%3D${VISA}%26cvv`, `card ${VISA.match(/.{4}/g)!.join('%20')}`,
      '4111%2D1111%2D1111%2D1111', 'card=4111%2C1111%2C1111%2C1111', 'x=3782%2D822463%2D10005', 'fee 2%4111111111111111',
      // A URL in another's query is escaped twice: `%20` becomes `%2520`, ` / ` `%2B%252F%2B`.
      'result_url=https%3A%2F%2Fshop.example%2Fsearch%3Fq%3D4111%25201111%25201111%25201111',
      'page=%3Fq%3D4111%2B%252F%2B1111%2B%252F%2B1111%2B%252F%2B1111', 'q%3D4111%2520%252D%25201111%2520%252D%25201111%2520%252D%25201111',
      // Each digit escaped too, once or twice; and letters on one side only, however many.
      `card ${[...VISA].map((digit) => `%3${digit}`).join('')}`, `q=${[...VISA].map((digit) => `%253${digit}`).join('')}`, `4111 %31%31%31%31 1111 1111`,
      `deadbeef${VISA}`, `faced${VISA}@example.com`, `${VISA}cafe`,
    ]) {
      expect(findCardNumbers(text), text).toHaveLength(1);
      expect(findCardNumbers(text), `${text}: the quick look agrees with the scan`).toEqual(scanForCardNumbers(text));
    }
    // Ids stay ids: a hex id with a long run of digits inside it, or at an end with many letters.
    expect(findCardNumbers(`e3b0c44298fc1c14${VISA}9afbf4c8996fb924`)).toEqual([]);
    expect(findCardNumbers(`${VISA}e3b0c44298fc`)).toEqual([]);
    expect(findCardNumbers('id%3D%31%32%33%34')).toEqual([]);
    // An escaped plus still starts a phone; alternating gaps are two numbers side by side.
    expect(findCardNumbers('phone=%2B4915112345678')).toEqual([]);
    expect(findCardNumbers('back=%3Fphone%3D%252B4915112345678')).toEqual([]);
    expect(findCardNumbers('Tel. 2255-3769 2255-1462')).toEqual([]);
  });

  it('takes more than 19 digits in a row for a card number when one stands anywhere in them', () => {
    const text = `id ${VISA}0000 and 2026-11-22 ${'1'.repeat(30)} ref 00${VISA}1228 then 9${VISA}0000`;
    expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end))).toEqual([`${VISA}0000`, `00${VISA}1228`, `9${VISA}0000`]);
    // A long id with no card number in it is an id: a date-time and a sequence, thirty ones.
    expect(findCardNumbers('order 20261122143015123456')).toEqual([]);
    expect(findCardNumbers('1'.repeat(30))).toEqual([]);
    // One straddling a long group and the groups before or after it is taken with them.
    for (const straddling of ['4111 1111 1111 11110000000000000000', '3782 822463 100050000000000000000', '00000000000000000000004111 1111 1111 1111']) {
      const written = `card ${straddling} end`;
      expect(findCardNumbers(written).map(({ start, end }) => written.slice(start, end)), straddling).toEqual([straddling]);
    }
    // At the very end of a megabyte of digits too (its cost is measured in the bench, not here).
    expect(findCardNumbers(`${'1'.repeat(1_000_000)}${VISA}`)).toMatchObject([{ start: 0, end: 1_000_016 }]);
  });

  it.each([
    ['a flat number', 'Apt 12'],
    ['an address', 'Flat 12, 3rd floor, 14/2 Khreshchatyk St'],
    ['a date', '2026-11-22'],
    ['dates', 'from 22.11.2026 to 01.12.2026'],
    ['an amount', '1 234 567,89 UAH'],
    ['a 12-digit gateway id', '123456789012'],
    ['a spaced phone with +', '+380 44 123 4567'],
    ['a phone with + that passes the Luhn check', `+${LUHN_PHONE}`],
    ['a spaced phone with + that passes the Luhn check', '+49 1512 3456704'],
    ['16 digits that fail the check digit', '4111 1111 1111 1112'],
    ['12 digits that pass it', '4111 1111 1113'],
    ['a timestamp', '2026-11-22T10:00:00.123'],
    ['a UUID', '6f1c2a3b-4d5e-4f60-8123-456789012345'],
    ['an IBAN', 'Invoice to IBAN UA213223130000026007233566001'],
    ['a German IBAN', 'DE89370400440532013000'],
    ['an IBAN in groups of four', 'IBAN UA21 3223 1300 0002 6007 2335 6600 1'],
    ['two numbers of eight side by side, each written alike', '4111-1111 1111-1111'],
    ['a nanosecond timestamp', '1795854494765123456'],
    ['17 digits', '41111111111111111'],
    // Shorter card numbers with three digits after them: one ordinary number in twelve is such.
    ['a 13-digit Visa number and three digits', '4222222222222001'],
    ['a 16-digit number with a 13-digit card in it', '4226880920332252'],
    // 13 digits, each passing the card check digit: Visa and Maestro numbers no longer issued.
    ['a German mobile without its +', LUHN_PHONE],
    ['a Visa number of 13 digits, long expired', '4222 2222 22222'],
    ['a Ukrainian product barcode', 'EAN 4820024700061'],
    ['a Polish product barcode', '5901234123457 x2'],
    ['a time in milliseconds', '4102444800007'],
    ['two phone numbers of eight, one with a space, one with a dash', '6212 3456 6298-7654'],
    // Halves of a card number's digits, but ids side by side: a list, in a table's columns, or failing the check digit.
    ['three ids of eight in a list', '42424242 42424242 42424242'],
    ['an id of eight after two', '12345678 42424242 42424242'],
    ['two ids of eight, a comma between', '42424242, 42424242'],
    ['two ids of eight in a tab-separated row', '42424242\t42424242'],
    ['two ids of eight that fail the check digit', '42424242 42424241'],
    ['two UnionPay-like ids of eight that fail it', '62123456 78901234'],
  ])('finds none in %s', (_, text) => {
    expect(findCardNumbers(text)).toEqual([]);
  });

  it('takes a number of 14–15 digits as a phone only when `+` is written right before it', () => {
    expect(holdsCardNumber('30569309025904')).toBe(true);
    expect(holdsCardNumber('+30569309025904')).toBe(false);
    expect(holdsCardNumber(`tel. ${'378282246310005'}`)).toBe(true);
    // No phone has 16 digits: a `+` does not hide a card number.
    expect(holdsCardNumber(`+${VISA}`)).toBe(true);
    expect(holdsCardNumber(`+${groups(VISA).join(' ')}`)).toBe(true);
  });

  it('gives each card number\'s digits as read, without those of the escapes and entities between them', () => {
    for (const written of ['4111%201111%201111%201111', '4111&#45;1111&#45;1111&#45;1111', '4111%2520 1111%25201111%25201111', '４１１１ １１１１ １１１１ １１１１', '4111<b>1111</b>1111<i>1111</i>']) {
      expect(findCardNumbers(`card ${written}.`).map(({ digits }) => digits), written).toEqual(['4111111111111111']);
    }
  });

  it('finds each of several card numbers once', () => {
    const text = `a ${VISA} b 3782-822463-10005 c`;
    expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end))).toEqual([VISA, '3782-822463-10005']);
    // Listed, each written alike: what separates them is not masked with them.
    const listed = '4242+4242+4242+4242 ; 4242:4242:4242:4242 / 4242.4242.4242.4242';
    expect(findCardNumbers(listed).map(({ start, end }) => listed.slice(start, end))).toEqual(['4242+4242+4242+4242', '4242:4242:4242:4242', '4242.4242.4242.4242']);
    // One with its code run in, after one without: both, in order.
    for (const pair of [`Cards: ${VISA}, 5555555555554444737`, `4111 1111 1111 1111 / ${VISA}123`]) {
      expect(maskCardNumbers(pair, '#'), pair).toMatch(/^[^\d]*# ?[,/] #$/);
    }
  });
});

describe('entities and escapes between digits', () => {
  // A reader sees what an entity stands for: these are 4242 4242 4242 4242, not 42424242 4242 4242.
  it.each([
    ['a decimal entity of a space', '4242&#32;4242 4242 4242'],
    ['a hexadecimal one', '4242&#x20;4242 4242 4242'],
    ['one with an upper-case X and leading zeros', '4242&#X0020;4242 4242 4242'],
    ['a named no-break space', '4242&nbsp;4242 4242 4242'],
    ['a decimal no-break space', '4242&#160;4242 4242 4242'],
    ['a decimal hyphen', '4242&#45;4242-4242-4242'],
    ['a hexadecimal hyphen', '4242&#x2D;4242-4242-4242'],
    ['a named point', '4242&period;4242.4242.4242'],
    ['an entity escaped again', '4242&amp;#32;4242 4242 4242'],
    ['a named space escaped again', '4242&amp;nbsp;4242 4242 4242'],
    ['a URL\'s escaped space', '4242%204242 4242 4242'],
    ['a URL\'s escaped hyphen', '4242%2D4242-4242-4242'],
    ['digits written as entities', '&#52;&#50;&#52;&#50; &#x34;&#x32;&#x34;&#x32; 4242 4242'],
  ])('reads %s as what it stands for', (_, written) => {
    const text = `x ${written} Koval`;
    expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end))).toEqual([written]);
    expect(findCardNumbers(text)[0]?.digits).toBe('4242424242424242');
  });

  it('reads an entity of nothing seen, and format characters however many, as nothing', () => {
    for (const text of [
      '4242&zwj;4242&#8203;4242&#x200B;4242', '42&shy;42 4242 4242 4242', '4242&ZeroWidthSpace;4242&NoBreak;4242&ZeroWidthSpace;4242',
      // Six zero-width joiners, or twenty, with or beside the most visible marks allowed.
      ['4242', '4242', '4242', '4242'].join('\u200d'.repeat(6)), ['4242', '4242', '4242', '4242'].join('\u200d'.repeat(20)),
      ['4242', '4242', '4242', '4242'].join(` ${'\u200d'.repeat(6)}   ${'\u200b'.repeat(6)}    `),
    ]) {
      expect(maskCardNumbers(`x ${text} y`, '#'), text).toBe('x # y');
    }
  });

  it('leaves no part of an escape or entity after the mask', () => {
    expect(maskCardNumbers('q=4111%201111%201111%201111%20end', '#')).toBe('q=#%20end');
    expect(maskCardNumbers('q=4111%25201111%25201111%25201111%2520end', '#')).toBe('q=#%2520end');
    expect(maskCardNumbers('4111 1111 1111 1111&#32;end', '#')).toBe('#&#32;end');
  });

  it('keeps ordinary data written with entities as it keeps it written plainly', () => {
    for (const text of [
      'Order +4 000 5343 9648 62039833&#46;00 UAH already exists', 'Order +4 000 5343 9648 62039833%2E00 UAH',
      'Tel. 2255&#45;3769&#32;2255&#45;1462', 'Tel. 2255-3769&nbsp;2255-1462', '+380&#32;44&#32;123&#32;4567', '&#43;380501234567',
      'x%20%2B49%20151%2012345678', '2026&#45;11&#45;22T10&#58;00&#58;00.123', '411111&#32;1111111111', '411111&#x2C;1111111111',
      'ref 00000000&#45;5041&#45;2850&#45;8361&#45;64611a000000', 'IBAN UA21&#32;3223&#32;1300&#32;0002&#32;6007&#32;2335&#32;6600&#32;1',
    ]) {
      expect(maskCardNumbers(text, '#'), text).toBe(text);
    }
  });
});

describe('mark-up between or around digits, as a browser shows it', () => {
  it.each([
    ['line breaks between its fours', '4242<br>4242<br/>4242<BR />4242', '4242<br>4242<br/>4242<BR />4242'],
    ['table cells', '<tr><td>4242</td><td>4242</td>\n  <td>4242</td><td>4242</td></tr>', '4242</td><td>4242</td>\n  <td>4242</td><td>4242'],
    ['paragraphs', '<p>4242</p><p>4242</p><p>4242</p><p>4242</p>', '4242</p><p>4242</p><p>4242</p><p>4242'],
    ['bold first group', '<b>4242</b> 4242 4242 4242', '4242</b> 4242 4242 4242'],
    ['each digit in its own span', [...'4242424242424242'].map((digit) => `<span>${digit}</span>`).join(''), `${[...'4242424242424242'].map((digit) => `<span>${digit}</span>`).join('').slice('<span>'.length)}`],
    ['comments, with words in them', '4242<!-- a note -->4242<!---->4242<!--x-->4242', '4242<!-- a note -->4242<!---->4242<!--x-->4242'],
    ['a tag whose quoted value holds `>`', '4242<img alt="a > b">4242<img alt="a > b">4242<img alt="a > b">4242', '4242<img alt="a > b">4242<img alt="a > b">4242<img alt="a > b">4242'],
    ['a tag with a long address', `4242 <a href="https://shop.example/${'p/'.repeat(60)}">4242</a> 4242 4242`, `4242 <a href="https://shop.example/${'p/'.repeat(60)}">4242</a> 4242 4242`],
    ['a declaration, an instruction and a stray end', '4242<!DOCTYPE html>4242<?xml?>4242</ br>4242', '4242<!DOCTYPE html>4242<?xml?>4242</ br>4242'],
    // A browser collapses a run of white space, however long, into one space.
    ['indented table cells', `<tr>${INDENTED}<td>4242</td>${INDENTED}<td>4242</td>${INDENTED}<td>4242</td>${INDENTED}<td>4242</td>\n</tr>`, `4242</td>${INDENTED}<td>4242</td>${INDENTED}<td>4242</td>${INDENTED}<td>4242`],
    ['indented spans, one a line', `<div>${INDENTED}<span>4242</span>${INDENTED}<span>4242</span>${INDENTED}<span>4242</span>${INDENTED}<span>4242</span>\n</div>`, `4242</span>${INDENTED}<span>4242</span>${INDENTED}<span>4242</span>${INDENTED}<span>4242</span>`],
    ['long white space between its fours in a paragraph', '<p>4242          4242\n\n\t\t\t\t\t\t\t\t4242 \r\n          4242</p>', '4242          4242\n\n\t\t\t\t\t\t\t\t4242 \r\n          4242'],
    ['line breaks and indentation', `<td>4242<br>${INDENTED}4242<br>${INDENTED}4242<br>${INDENTED}4242</td>`, `4242<br>${INDENTED}4242<br>${INDENTED}4242<br>${INDENTED}4242`],
    ['white space around comments and inline tags', `<p>4242 ${INDENTED}<!-- a note -->${INDENTED}4242<b>${INDENTED}</b> <i> </i>${INDENTED}4242          4242</p>`, `4242 ${INDENTED}<!-- a note -->${INDENTED}4242<b>${INDENTED}</b> <i> </i>${INDENTED}4242          4242`],
    ['spaces written as entities', `<p>4242${'&#32;'.repeat(10)}4242 4242 4242</p>`, `4242${'&#32;'.repeat(10)}4242 4242 4242`],
  ])('finds one with %s', (_, written, taken) => {
    const text = `x ${written} Koval`;
    expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end))).toEqual([taken]);
    expect(findCardNumbers(text)[0]?.digits).toBe('4242424242424242');
  });

  it('finds one inside mark-up too, which a browser hides but a log keeps', () => {
    for (const text of [
      '<input value="4242424242424242">', '<a href="/pay?card=4242 4242 4242 4242">pay</a>', '<!-- 4242-4242-4242-4242 -->', '<b title="4242.4242.4242.4242">x</b>',
      // Tags inside a value are text there, but a log's reader sees one number through them.
      '<input value="4242 <b>4242</b> 4242 4242">', '<input value="2223<span class="pan"> 0031 2200 3222">',
    ]) {
      expect(maskCardNumbers(text, '#'), text).not.toMatch(/\d{4}/);
    }
    expect(findCardNumbers('<input value="4111 1111 1111 1111">')[0]?.digits).toBe(VISA);
  });

  it('keeps ordinary data in mark-up, and numbers in cells side by side apart', () => {
    for (const text of [
      '<td>+380501234567</td><td>2026-11-23 07:21:16</td><td>1 249.50</td><td>ord_20261123072116</td>',
      '<b>2024-05-06</b> <i>12:30:00</i> <b>1234.56</b>', '<td>2024</td><td>1234</td><td>5678</td><td>9012</td>',
      `<tr>${Array.from({ length: 16 }, (_, i) => `<td>${i + 1}</td>`).join('')}</tr>`, '<li>4820024700061</li><li>6f1c2a3b-4d5e-4f60-8123-456789012345</li>',
      '<a href="/orders/1795384870676">order</a> <span data-ts="1732346476123">today</span>',
      // The same, indented as pages are: white space a browser collapses keeps them apart all the same.
      `<tr>${INDENTED}<td>+380501234567</td>${INDENTED}<td>2026-11-23 07:21:16</td>${INDENTED}<td>1 249.50</td>${INDENTED}<td>ord_20261123072116</td>\n</tr>`,
      `<tr>${INDENTED}<td>2024</td>${INDENTED}<td>1234</td>${INDENTED}<td>5678</td>${INDENTED}<td>9012</td>\n</tr>`,
      `<tr>${Array.from({ length: 16 }, (_, i) => `${INDENTED}<td>${i + 1}</td>`).join('')}\n</tr>`,
      `<ul>${INDENTED}<li>4820024700061</li>${INDENTED}<li>6f1c2a3b-4d5e-4f60-8123-456789012345</li>${INDENTED}<li>+49 1512 3456704</li>\n</ul>`,
      `<p>2024-05-06${INDENTED}<b>12:30:00</b>${INDENTED}1234.56${INDENTED}2255-3769${INDENTED}2255-1462</p>`,
    ]) {
      expect(maskCardNumbers(text, '#'), text).toBe(text);
    }
  });

  it('collapses only the white space a browser collapses, and only in mark-up it shows', () => {
    for (const text of [
      // Without mark-up, more than eight characters between groups part them (a log's columns), entities of spaces too.
      '4242          4242          4242          4242', `4242${'&#32;'.repeat(10)}4242 4242 4242`, '{"a": "4242",\n          "b": "4242",\n          "c": "4242",\n          "d": "4242"}',
      // No-break spaces are not collapsed: nine of them are nine.
      `<p>4242${'&nbsp;'.repeat(9)}4242 4242 4242</p>`,
      // Mark-up nothing closes is read as written.
      'x<y then 4242          4242          4242          4242 done',
    ]) {
      expect(maskCardNumbers(text, '#'), text).toBe(text);
    }
  });

  it('reads mark-up nothing closes as written, and leaves nothing after a card but what closes it', () => {
    expect(maskCardNumbers('4242 4242 4242 4242<b unclosed', '#')).toBe('#<b unclosed');
    expect(maskCardNumbers('4242 4242 4242 4242<!-- and 2026-11-23', '#')).toBe('#<!-- and 2026-11-23');
    expect(maskCardNumbers('x<y then 4242 4242 4242 4242 done', '#')).toBe('x<y then # done');
    expect(maskCardNumbers('<i>4242 4242 4242 4242</i> 12/28', '#')).toBe('<i># 12/28');
  });

  it('reads 100 KB of stray and unclosed mark-up through, and a card number after it', () => {
    for (const unit of ['<', '<!--', '<a', '<a "', '<a x="', "<a x='", '<!', '</', '4<', '4<!--', '<b>4', '<a <!-- "', `<b>${INDENTED}`, `</td>${INDENTED}<td>4`, `4 ${INDENTED}<i>`, `<a ${INDENTED}`, `4${INDENTED}<!--${INDENTED}`, ' \t\n']) {
      const text = `${unit.repeat(Math.ceil(100_000 / unit.length))} 4111 1111 1111 1111`;
      expect(maskCardNumbers(text, '#'), unit).toMatch(/#$/);
    }
  });
});

describe('a 16-digit number written in two parts', () => {
  // Its halves, its first or last four apart, its first six by a dash: found whatever the text
  // says (above). These rarer forms, also two numbers' or two phones' shape, need a card said.
  const PARTS = [
    ['its first six apart, a space between', '424242 4242424242'],
    ['halves in fours, dashes in them and a space between', '4242-4242 4242-4242'],
    ['halves in fours, spaces in them and a dash between', '4242 4242-4242 4242'],
  ] as const;
  // A card's word in each of the widget's languages, a scheme's name, its expiry after it.
  const SAID = ['card WRITTEN', 'Картка: WRITTEN', 'оплата карта WRITTEN', 'Karte WRITTEN', 'carte n° WRITTEN', 'tarjeta WRITTEN', 'karta WRITTEN', 'Visa WRITTEN', 'PAN=WRITTEN', 'WRITTEN 12/30', 'WRITTEN exp 12/2030'];

  it.each(PARTS)('is found with %s where the text speaks of a card', (_, written) => {
    for (const said of SAID) {
      const text = said.replace('WRITTEN', written);
      expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end)), text).toEqual([written]);
      expect(findCardNumbers(text), `${text}: the quick look agrees with the scan`).toEqual(scanForCardNumbers(text));
    }
  });

  it.each(PARTS)('is two numbers side by side with %s where nothing says it is a card’s', (_, written) => {
    // About one pair of random ids in thirty has a scheme's prefix and the check digit: their shape alone says nothing.
    for (const text of [`Olena ${written} Koval`, written, `parcels ${written} shipped`]) expect(findCardNumbers(text), text).toEqual([]);
  });

  it('is found in its common forms where nothing says it is a card’s: one kept whole would be a breach, an id masked is not', () => {
    for (const written of ['42424242 42424242', '4242 424242424242', '424242424242 4242', '411111-1111111111']) {
      for (const text of [written, `parcels ${written} shipped`]) expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end)), text).toEqual([written]);
    }
  });

  it('asks once whether the text speaks of a card, however many numbers in two parts it holds', () => {
    // Asked of each, a scan of the whole text per number: a long list of them took seconds.
    const text = Array.from({ length: 200 }, () => '424242 4242424242').join(', ');
    let asked = 0;
    expect(scanForCardNumbers(text, () => (asked++, true))).toHaveLength(200);
    expect(asked).toBe(1);
  });

  it('is refused in an id in the forms the masks take unsaid, and not in the rarer ones an id is as often written in', () => {
    for (const id of ['ord-41111111-11111111', '4111 111111111111', '411111-1111111111']) expect(holdsCardNumberOfItsLength(id), id).toBe(true);
    for (const id of ['424242 4242424242', '4242-4242 4242-4242']) expect(holdsCardNumberOfItsLength(id), id).toBe(false);
  });
});

describe('a card number\'s first six apart from the rest', () => {
  it('is one with its check digit, but not two numbers white space, a point or a comma apart', () => {
    expect(holdsCardNumber('BIN 411111/1111111111')).toBe(true);
    expect(holdsCardNumber('BIN 411111/1111111112')).toBe(false);
    // A time's microseconds and an amount; an amount's thousands; two items of a list.
    for (const text of ['00:00:00.411111 1111111111', '411111.1111111111', '411111,1111111111', '411111; 1111111111', '411111 | 1111111111']) {
      expect(holdsCardNumber(text), text).toBe(false);
    }
  });
});

describe('numbers side by side', () => {
  it('are not read as one card number across them', () => {
    for (const text of [
      // A phone's last two fours and an amount's whole part: a Mastercard split at some of its gaps (4-4-8).
      'Order +4 000 5343 9648 62039833.00 UAH already exists',
      '5343 9648 62039833,00 грн',
      // An order id's last six, then the next item of a list: a Maestro's first six apart.
      'Order ORD-2001-574064; 1540959959 already exists',
      // A phone's last two fours, then a date's year and month: a Maestro in fours, typed with slips.
      'Order +61 473.5071.5961 2197-08-02–2087-09-21 already exists',
    ]) {
      expect(maskCardNumbers(text, '#'), text).toBe(text);
    }
  });

  it('still finds a card number beside them written as one is', () => {
    for (const [text, card] of [
      ['+1 4111 1111 1111 1111', '4111 1111 1111 1111'],
      ['paid by 4111 1111 1111 1111.', '4111 1111 1111 1111'],
      // In fours, or split as its scheme prints it, cents after it do not make it an amount.
      ['5555 5555 5555 4444.00', '5555 5555 5555 4444'],
      ['+4 000 5343 9648 6203 9833.00 UAH', '5343 9648 6203 9833'],
      ['3782 822463 10005.00', '3782 822463 10005'],
      // Not cents: three digits, or more digits after them (an expiry date).
      ['5343 9648 62039833.000', '5343 9648 62039833'],
      ['5343 9648 62039833.12.28', '5343 9648 62039833'],
      // Its first six apart with no white space between, after an id.
      ['ORD-2001-411111|1111111111', '411111|1111111111'],
      // Typed with slips: a shorter last group followed otherwise, or a last four.
      ['3056 9309 0259-04 12/28', '3056 9309 0259-04'],
      ['4111 1111-1111.1111.12.28', '4111 1111-1111.1111'],
    ] as const) {
      expect(findCardNumbers(text).map(({ start, end }) => text.slice(start, end)), text).toEqual([card]);
    }
  });
});

describe('nameHoldsCardNumber', () => {
  it('takes a name\'s digits alone, however grouped', () => {
    for (const name of ['Olena 411111 1111111111', '41111111 11111111', 'O4111l1111e1111n1111a', '４１１１ １１ １１１１１１１１１１']) expect(nameHoldsCardNumber(name)).toBe(true);
    // With a digit or two run into it, which no text's mask takes (an id of 17 or 18 digits is kept there).
    for (const name of [`Olena ${VISA}01`, `Olena 0${VISA}`, `${VISA}7`]) expect(nameHoldsCardNumber(name), name).toBe(true);
  });

  it('keeps the few numbers names have', () => {
    for (const name of ['Olena (Apt 12)', 'Koval 2026-11-22', 'Koval 123456789012', 'Louis XIV 1638-1715']) expect(nameHoldsCardNumber(name)).toBe(false);
    // Numbers apart are not searched joined at every offset: a birthday and a phone, an id and a flat.
    // (Each of these holds a card number's digits at some offset once all its digits are joined.)
    for (const name of ['Olena 08.12.1985 0500277165', 'Olena 16.08.1993 0500340517', 'Olena 18.10.1995 0500356355']) expect(nameHoldsCardNumber(name), name).toBe(false);
  });
});

describe('maskCardNumbers', () => {
  it('replaces every card number and keeps the rest of the text', () => {
    expect(maskCardNumbers(`paid by ${groups(VISA).join('.')} on 2026-11-22, order 123456789012`, '[card number]')).toBe(
      'paid by [card number] on 2026-11-22, order 123456789012',
    );
    expect(maskCardNumbers(`${FULL_WIDTH(VISA)}/${VISA}`, '#')).toBe('#/#');
    expect(maskCardNumbers('nothing here', '#')).toBe('nothing here');
  });
});

describe('foldDigits', () => {
  it('writes the digits of any script as 0–9 and keeps everything else', () => {
    expect(foldDigits(`${FULL_WIDTH('4111')}-${ARABIC_INDIC('1234')} \u{1d7ce}\u{1d7d7} ok 56`)).toBe('4111-1234 09 ok 56');
  });

  it('writes every look-alike as the digit its compatibility form is, and nothing else', () => {
    const lookalikes = `${SUPERSCRIPT('0123456789')}${SUBSCRIPT('0123456789')}${CIRCLED('0123456789')}`;
    expect(foldDigits(lookalikes)).toBe('0123456789'.repeat(3));
    expect(foldDigits(lookalikes)).toBe(lookalikes.normalize('NFKC'));
    expect(foldDigits('x⁺⁽ⁿ⁾₊ ⑩ ❿ ⓾ ⒑')).toBe('x⁺⁽ⁿ⁾₊ ⑩ ❿ ⓾ ⒑');
  });

  it('writes each enclosed digit as the one digit a reader sees in it, though no compatibility form says so', () => {
    const families = [[0x2776, '⓿'], [0x24f5, '⓪'], [0x2780, '⓪'], [0x278a, '⓿'], [0x2474, '⓪'], [0x2488, '⓪']] as const;
    for (const [first, zero] of families) expect(foldDigits(ENCLOSED(first, zero)('0123456789'))).toBe('0123456789');
    // NFKC makes ⑷ "(4)" and ⒋ "4.": three characters and two, where a reader counts one digit.
    expect('⑷⒋'.normalize('NFKC')).toBe('(4)4.');
  });
});
