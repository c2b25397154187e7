/**
 * The recogniser against generated text (fast-check): card numbers of every scheme, spelled with
 * any separators, mark-up and digit forms, are all found; phone numbers, order ids, UUIDs,
 * timestamps and amounts never are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BRANDS, type Brand } from './brands.js';
import { findCardNumbers, foldDigits, holdsCardNumber, maskCardNumbers, scanForCardNumbers } from './card-numbers.js';
import { MIN_DIGITS } from './enough-digits.js';
import { luhn } from './luhn.js';

// PROPERTY_RUNS=100000 tries far more cases, for a change to the recogniser.
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 2_000) };

// ---- Card numbers ----------------------------------------------------------------------------

/** A prefix of `brand` written out: a range "2221-2720" gives any number in it. */
const prefixOf = (brand: Brand): fc.Arbitrary<string> =>
  fc.constantFrom(...brand.prefixes).chain((prefix) => {
    const [low, high = low] = prefix.split('-') as [string, string?];
    return fc.integer({ min: Number(low), max: Number(high) }).map((n) => String(n).padStart(low.length, '0'));
  });

/** The check digit that makes `body` pass the Luhn test. */
const checkDigit = (body: string) => String([...'0123456789'].findIndex((digit) => luhn(body + digit)));

const cardNumber: fc.Arbitrary<{ brand: Brand; digits: string }> = fc.constantFrom(...BRANDS).chain((brand) =>
  fc.tuple(prefixOf(brand), fc.constantFrom(...brand.lengths.filter((length) => length >= MIN_DIGITS))).chain(([prefix, length]) =>
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length - prefix.length - 1, maxLength: length - prefix.length - 1 }).map((rest) => {
      const body = prefix + rest;
      return { brand, digits: body + checkDigit(body) };
    }),
  ),
);

/** Where people and schemes split a card number: nowhere, every digit, in fours, at the scheme's gaps. */
const grouping = (brand: Brand, length: number): fc.Arbitrary<number[]> =>
  fc.oneof(
    fc.constant<number[]>([length]),
    fc.constantFrom(1, 4).map((size) => Array.from({ length: Math.ceil(length / size) }, (_, i) => Math.min(size, length - i * size))),
    fc.constant([...(brand.gaps ?? [4, 8, 12, 16]).filter((gap) => gap < length), length].map((end, i, ends) => end - (ends[i - 1] ?? 0))),
  );

// What may stand between groups: visible separators, mark-up and what a reader does not see.
const SEPARATORS = [
  ' ', '  ', '      ', '\t', '\n', '\u00a0', '\u2009', '\u202f', '\u3000', '\u200b', '\u00ad', '-', ' - ', '–', '—', '.', '. ', ',', ', ',
  '/', ' / ', '\\', '_', '|', ' | ', '+', ':', '*', '**', '(', ')', ') (', '[', ']', '#', '~', '·', "'", '’', '\uff0d', '\uff0e',
  '<b>', '</b>', '<span class="pan">', '</span>', '<br/>', '</td><td>', '&nbsp;', '&#8209;', '&thinsp;', '&#32;', '&#x2D;', '&#8203;', '&zwj;',
  // A page's indentation: in a text with mark-up a browser collapses it, as any run of white space.
  '\n            ', '\n\t\t\t\t\t\t\t\t\t',
];
const separator = fc
  .array(fc.constantFrom(...SEPARATORS), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(''))
  // What a reader sees: an entity is the character it stands for, a line's break a space.
  .map((gap) => ({ gap, visible: gap.replace(/<br\/>|<\/?td>/g, ' ').replace(/<[^>]*>|&#8203;|&zwj;|[\u200b\u00ad]/g, '').replace(/&#8209;/g, '\u2011').replace(/&#x2D;/g, '-').replace(/&[^;]*;/g, ' ') }))
  // With mark-up, a run of white space is one space, as a browser collapses it.
  .map(({ gap, visible }) => ({ gap, visible: gap.includes('<') ? visible.replace(/[ \t\n]+/g, ' ') : visible }))
  // A `+` after a space right before digits starts a phone number, which ends the card number.
  .filter(({ visible }) => visible.length <= 8 && !/\s\+$/.test(visible))
  .map(({ gap }) => gap);

// Decimal digits of other scripts (zero of each), and marks that decorate each digit.
const ZEROS = [0x30, 0xff10, 0x0660, 0x06f0, 0x0966, 0x09e6, 0x0e50, 0x1d7ce, 0x1d7ec];
const DECORATIONS = ['', '\u0332', '\ufe0f\u20e3', '\u0301'];
const digitForm = fc.record({ zero: fc.constantFrom(...ZEROS), decoration: fc.constantFrom(...DECORATIONS) });

const AROUND = ['', 'Olena ', 'card: ', 'paid by ', '<td>', '"', '(', 'олена ', 'tel. '];
const AFTER = ['', ' Koval', '</td>', '"', ')', ' 12/28', '.', ' exp 12/28 cvv'];

const spelledCard = cardNumber.chain(({ brand, digits }) =>
  fc
    .record({
      groups: grouping(brand, digits.length),
      // A person writes one number with one separator; mark-up may differ between groups.
      separators: fc.tuple(separator, fc.array(fc.constantFrom('', '<b>', '</b>', '</span><span>', '&#8203;', '<!-- a note -->', '<!---->', '<span title="a > b">'), { minLength: 19, maxLength: 19 })).map(([between, markup]) => markup.map((tag) => between + tag)),
      form: digitForm,
      before: fc.constantFrom(...AROUND),
      after: fc.constantFrom(...AFTER),
    })
    .map(({ groups, separators, form, before, after }) => {
      const write = (digit: string) => String.fromCodePoint(form.zero + Number(digit)) + form.decoration;
      let at = 0;
      const written = groups.map((size, i) => {
        const group = [...digits.slice(at, (at += size))].map(write).join('');
        return i === 0 ? group : separators[i]! + group;
      });
      return { digits, text: before + written.join('') + after };
    }),
);

describe('every card number, however it is written, is found', () => {
  it('in generated spellings of every scheme', () => {
    fc.assert(
      fc.property(spelledCard, ({ digits, text }) => {
        expect(holdsCardNumber(text)).toBe(true);
        const left = foldDigits(maskCardNumbers(text, '#')).replace(/\D/g, '');
        expect(left.includes(digits)).toBe(false);
      }),
      RUNS,
    );
  });

  it('written with the separators the security probe used', () => {
    for (const text of [
      '4242|4242|4242|4242', '4242+4242+4242+4242', '4242:4242:4242:4242', '4242*4242*4242*4242', '(4242)(4242)(4242)(4242)',
      '4242      4242      4242      4242', [...'4242424242424242'].map((digit) => `${digit}\u0332`).join(''),
      [...'4242424242424242'].map((digit) => `${digit}\ufe0f\u20e3`).join(''), '4242<b>4242</b>4242<i>4242</i>',
      '<span>4242</span> <span>4242</span> <span>4242</span> <span>4242</span>', '4242&nbsp;4242&nbsp;4242&nbsp;4242',
      '4242.4242.4242.4242', '4242  4242  4242  4242', '4242/4242/4242/4242', '４２４２４２４２４２４２４２４２',
    ]) {
      const masked = maskCardNumbers(`refund for ${text} please`, '#');
      expect(foldDigits(masked).replace(/\D/g, ''), text).toBe('');
    }
  });
});

/** Text with each character of `marks` spelled, as `spellings` pick, plainly or as an entity of it. */
const ENCODED = '  -.,:/+()\u00a0';
const NAMES: Record<string, string> = { '.': 'period', ',': 'comma', ':': 'colon', '/': 'sol', '+': 'plus', '(': 'lpar', ')': 'rpar', '\u00a0': 'nbsp' };
const entitySpelling = (character: string, pick: number): string => {
  const code = character.charCodeAt(0);
  return [
    character, `&#${code};`, `&#x${code.toString(16)};`, `&#X00${code.toString(16).toUpperCase()};`,
    NAMES[character] ? `&${NAMES[character]};` : `&#0${code};`, `&amp;#${code};`, code < 128 ? `%${code.toString(16)}` : `&#${code};`,
  ][pick % 7]!;
};
const spellEntities = (text: string, picks: readonly number[]) =>
  [...text].map((character, i) => (ENCODED.includes(character) ? entitySpelling(character, picks[i % picks.length]!) : character)).join('');
const picks = fc.array(fc.nat(6), { minLength: 1, maxLength: 40 });

// Card numbers in fours or at the scheme's gaps, with the same separator throughout (or a space after
// a first dash), each spelled plainly, as a decimal, hexadecimal or named entity, or a URL's escape, mixed.
const cardWithEntities = cardNumber.chain(({ brand, digits }) =>
  fc.record({ groups: grouping(brand, digits.length), between: fc.constantFrom(' ', '  ', '-', ' - ', '.', '/', ',', ':', '\u00a0', '+'), picks, zwj: fc.nat(8) }).map(({ groups, between, picks: chosen, zwj }) => {
    let at = 0;
    // Format characters a reader does not see, however many, with the separator.
    const written = groups.map((size) => digits.slice(at, (at += size))).join(between + '\u200d'.repeat(zwj));
    return { digits, plain: `x ${written} y`, text: `x ${spellEntities(written, chosen)} y` };
  }),
);

describe('a 16-digit card number written in two parts', () => {
  it('is found where the text speaks of a card', () => {
    const sixteen = cardNumber.filter(({ digits }) => digits.length === 16 && luhn(digits));
    fc.assert(
      fc.property(sixteen, pick(8, 4, 12, 6), pick(' ', '-', ' - ', '\u00a0'), pick('card ', 'Картка ', 'Karte: ', 'tarjeta ', 'Visa '), ({ digits }, first, between, said) => {
        const text = `${said}${digits.slice(0, first)}${between}${digits.slice(first)}`;
        expect(maskCardNumbers(text, '#')).toBe(`${said}#`);
      }),
      RUNS,
    );
  });
});

describe('a card number with its separators written as entities or escapes', () => {
  it('is found as it is written plainly', () => {
    fc.assert(
      fc.property(cardWithEntities, ({ digits, plain, text }) => {
        expect(holdsCardNumber(text)).toBe(true);
        expect(findCardNumbers(text).map((span) => span.digits)).toEqual(findCardNumbers(plain).map((span) => span.digits));
        expect(foldDigits(maskCardNumbers(text, '#')).replace(/\D/g, '').includes(digits)).toBe(false);
      }),
      RUNS,
    );
  });
});

// ---- Ordinary data --------------------------------------------------------------------------

const digitsOf = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const pick = <T,>(...values: T[]) => fc.constantFrom(...values);

/** Split `digits` into groups of the given sizes (the rest in the last), joined by `joiner`. */
const split = (digits: string, sizes: readonly number[], joiner: string) => {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) if (at < digits.length) parts.push(digits.slice(at, (at += size)));
  if (at < digits.length) parts.push(digits.slice(at));
  return parts.join(joiner);
};

const phone = fc.oneof(
  // International, E.164: `+`, a country code, at most 15 digits, written as people write them.
  fc
    .tuple(digitsOf(1, 3).filter((code) => !code.startsWith('0')), digitsOf(6, 12), pick(' ', '-', '', '.'), pick<number[]>([3, 3, 2, 2], [2, 3, 4], [3, 4], [3, 3, 4], [2, 2, 2, 2], []))
    .filter(([code, rest]) => code.length + rest.length <= 15)
    .map(([code, rest, joiner, sizes]) => `+${code} ${split(rest, sizes, joiner)}`),
  fc.tuple(digitsOf(2, 2), digitsOf(3, 3), digitsOf(3, 3), digitsOf(2, 2), digitsOf(2, 2)).map(([code, area, a, b, c]) => `+${code} (${area}) ${a}-${b}-${c}`),
  // National: a trunk 0 first, or a short number.
  fc.tuple(digitsOf(2, 3), digitsOf(3, 3), digitsOf(2, 2), digitsOf(2, 2)).map(([area, a, b, c]) => `(0${area}) ${a}-${b}-${c}`),
  fc.tuple(digitsOf(9, 12)).map(([rest]) => `00${rest}`),
);

// Epoch times in digits until 2039: past it a time in microseconds starts like a Mir card (2200…),
// and from 2096 one in milliseconds like a 13-digit Visa.
const millis = fc.integer({ min: Date.UTC(2001, 8, 9, 1, 46, 40), max: Date.UTC(2039, 0, 1) });
const date = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2199, 11, 31) }).map((ms) => new Date(ms));
const timestamp = fc.oneof(
  date.map((d) => d.toISOString()),
  date.map((d) => d.toISOString().replace('T', ' ').replace('Z', '')),
  fc.tuple(date, digitsOf(0, 9), pick('Z', '+02:00', '-0530', ' +0000', '')).map(([d, fraction, zone]) => `${d.toISOString().slice(0, 19).replace('T', ' ')}${fraction ? `.${fraction}` : ''}${zone}`),
  date.map((d) => d.toUTCString()),
  date.map((d) => `${d.getUTCDate()}.${d.getUTCMonth() + 1}.${d.getUTCFullYear()} ${d.getUTCHours()}:${String(d.getUTCMinutes()).padStart(2, '0')}`),
  fc.tuple(date, date).map(([from, to]) => `${from.toISOString().slice(0, 10)}–${to.toISOString().slice(0, 10)}`),
  millis.map(String),
  fc.tuple(millis, digitsOf(3, 6)).map(([ms, more]) => `${ms}${more}`),
  millis.map((ms) => String(Math.floor(ms / 1000))),
);

const orderId = fc.oneof(
  // The demo shop's shape: a letter and a digit, then the time in milliseconds.
  fc.tuple(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), digitsOf(1, 2), millis).map(([letter, digit, ms]) => `${letter}${digit}-${ms}`),
  fc.tuple(pick('ORD', 'order', 'inv', 'sub_'), fc.integer({ min: 2001, max: 2099 }), digitsOf(4, 8)).map(([prefix, year, n]) => `${prefix}-${year}-${n}`),
  fc.tuple(pick('order-', 'o_'), millis, digitsOf(1, 4)).map(([prefix, ms, n]) => `${prefix}${ms}-${n}`),
  // Ids the ledger and the gateway make: 20 hexadecimal digits (a retry's `:n`), 64 for events.
  // But for one shaped as a card number with a few letters around it (`ba59831509835926883e`),
  // which the recogniser judges as one on purpose (card-numbers.ts, CARD_AND_A_FEW_LETTERS): about
  // one id in 80,000, which the ledger draws again (server/ledger/sessions.ts, newOrderId).
  fc
    .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 20, maxLength: 20 })
    .filter((id) => /[a-f]/.test(id) && !/^[a-f]{0,4}\d{14,19}[a-f]{0,4}$/.test(id)),
  fc.uuid(),
);

const amount = fc.oneof(
  fc.integer({ min: 0, max: 99_999_999_999 }).map(String),
  fc.integer({ min: 0, max: 9_999_999_999 }).map((minor) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')} UAH`),
  fc.integer({ min: 0, max: 999_999_999 }).map((n) => `${n.toLocaleString('uk-UA')},00 грн`),
  fc.integer({ min: 0, max: 999_999_999 }).map((n) => `$${n.toLocaleString('en-US')}.99`),
);

const ordinary = fc.oneof(
  phone.map((text) => ['phone', text] as const),
  timestamp.map((text) => ['timestamp', text] as const),
  orderId.map((text) => ['order id', text] as const),
  fc.uuid().map((text) => ['uuid', text] as const),
  amount.map((text) => ['amount', text] as const),
);

describe('ordinary data is never taken for a card number', () => {
  it('alone', () => {
    fc.assert(
      fc.property(ordinary, ([, text]) => {
        expect(maskCardNumbers(text, '#')).toBe(text);
      }),
      RUNS,
    );
  });

  it('side by side in a sentence, a log line or a list', () => {
    fc.assert(
      fc.property(fc.array(ordinary, { minLength: 2, maxLength: 4 }), pick(' ', ', ', '; ', ' | ', '\n', ' at ', ' · '), (items, joiner) => {
        const text = `Order ${items.map(([, item]) => item).join(joiner)} already exists`;
        expect(maskCardNumbers(text, '#')).toBe(text);
      }),
      RUNS,
    );
  });

  it('with its marks written as entities or escapes', () => {
    fc.assert(
      fc.property(fc.array(ordinary, { minLength: 1, maxLength: 3 }), pick(' ', ', ', '; ', ' | '), picks, (items, joiner, chosen) => {
        const text = spellEntities(`Order ${items.map(([, item]) => item).join(joiner)} already exists`, chosen);
        expect(maskCardNumbers(text, '#')).toBe(text);
      }),
      RUNS,
    );
  });

  it('in mark-up: cells, lines, list items or inline tags between, a comment beside, digits in attributes', () => {
    fc.assert(
      fc.property(fc.array(ordinary, { minLength: 1, maxLength: 4 }), pick('</td><td>', '<br>', '</li><li>', '</b> <b>', ' <!-- 2 --> ', '</p>\n<p>', '</td>\n          <td>', '</li>\n\t\t\t\t\t\t\t\t\t<li>', '</span>          <span>'), (items, joiner) => {
        const text = `<tr data-row="1"><td>${items.map(([, item]) => item).join(joiner)}</td></tr>`;
        expect(maskCardNumbers(text, '#')).toBe(text);
      }),
      RUNS,
    );
  });

  it('two numbers of 16 digits in the rarer two-part forms, in a line that says nothing of a card', () => {
    // One random pair in thirty has a card number's shape (a scheme's prefix, the check digit):
    // unsaid, its first six apart by a space, or halves in fours with another mark between (two
    // phones), are two numbers.
    const written = fc.oneof(
      fc.tuple(digitsOf(16, 16), pick(' ', ' - ', '\u00a0')).map(([digits, between]) => `${digits.slice(0, 6)}${between}${digits.slice(6)}`),
      fc.tuple(digitsOf(16, 16), pick(['-', ' '], [' ', '-'], ['.', ' '])).map(([digits, [inside, between]]) => `${digits.slice(0, 4)}${inside}${digits.slice(4, 8)}${between}${digits.slice(8, 12)}${inside}${digits.slice(12)}`),
    );
    fc.assert(
      fc.property(written, pick('', 'Order ', 'ids ', 'phones '), (numbers, before) => {
        const text = `${before}${numbers}`;
        expect(maskCardNumbers(text, '#')).toBe(text);
      }),
      RUNS,
    );
  });

  it('in the cases reported', () => {
    for (const text of [
      'Order e4-1795384870676 already exists', '+380501234567', '+38 (050) 123-45-67', '2026-11-23 07:21:16.123', '6f1c2a3b-4d5e-4f60-8123-456789012345',
      // Side by side, as this test found them: a phone and an amount, an id and a list's next item, a phone and a date.
      'Order +4 000 5343 9648 62039833.00 UAH already exists', 'Order ORD-2001-574064; 1540959959 already exists', 'Order +61 473.5071.5961 2197-08-02–2087-09-21 already exists',
    ]) {
      expect(maskCardNumbers(text, '#')).toBe(text);
    }
  });
});

describe('the quick look before the scan', () => {
  // Text made of what the quick look reasons about: digits in groups of any size, gaps of any
  // length, letters, `+`, and the characters that send text straight to the scan.
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 20 }),
    fc.constantFrom(' ', '-', '  ', '.', ':', '/', ' - ', '         ', '+', ' +', 'T', 'x', 'ab', '\0', '<b>', '&nbsp;', '４', 'й', '\u200b', '4242', '4242424242424242', '378282246310005', '5555 5555 5555 4444'),
    // A URL's escapes, escaped again as a page's address is in the gateway's result_url.
    fc.constantFrom('%20', '%2B', '%252B', '%2520', '%25', '%2F', '%252F', '%3D', '%2D', '&#32;', '&#x2D;', '&amp;#43;', '&zwj;'),
  );
  const text = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(''));

  it('finds exactly what the scan finds', () => {
    fc.assert(
      fc.property(text, (sample) => {
        expect(findCardNumbers(sample)).toEqual(scanForCardNumbers(sample));
      }),
      { numRuns: RUNS.numRuns * 5 },
    );
  });

  it('finds exactly what the scan finds in generated card numbers and ordinary data', () => {
    fc.assert(
      fc.property(fc.oneof(spelledCard.map(({ text }) => text), ordinary.map(([, item]) => item)), (sample) => {
        expect(findCardNumbers(sample)).toEqual(scanForCardNumbers(sample));
      }),
      RUNS,
    );
  });
});
