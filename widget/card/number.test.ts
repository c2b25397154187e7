import { describe, expect, it } from 'vitest';
import { BRANDS, detectBrand, type BrandId } from './brands.js';
import { checkNumber } from './number.js';
import { luhn } from './luhn.js';

// Published test numbers of card schemes, acquirers and PSPs, plus numbers built in ranges that
// have no published test card (Mir, Prostir, Maestro 50…), all Luhn-valid unless marked.
const REAL: Record<BrandId, string[]> = {
  visa: [
    '4242424242424242', '4000056655665556', '4111111111111111', '4012888888881881',
    '4005519200000004', '4009348888881881', '4012000033330026', '4012000077777777', '4217651111111119',
    '4500600000000061', '4003050500040005', '4917610000000000', '4263982640269299', '4917484589897107',
    '4001919257537193', '4007702835532454', '4000000000003220', '4000000000000119', '4111111111111111003',
  ],
  mastercard: [
    '5555555555554444', '5200828282828210', '5105105105105100', '5454545454545454', '2223003122003222',
    '2222400010000008', '2223000048400011', '5425233430109903', '2221000000000009', '5101180000000007',
    '2720992720992729', '5577000055770004', '5136333333333335',
  ],
  amex: [
    '378282246310005', '371449635398431', '378734493671000', '370000000000002', '340000000000009',
    '345436849253786', '374245455400126',
  ],
  discover: [
    '6011111111111117', '6011000990139424', '6011981111111113', '6445644564456445', '6011000400000000',
    '6500000000000002', '6011601160116611', '6559906559906557', '6011000000000000001',
    // The top of Discover's 644–649 range as well as its bottom.
    '6490000000000004', '6499999999999996',
  ],
  diners: [
    '30569309025904', '38520000023237', '36227206271667', '36006666333344', '3056930009020004',
    '36700102000000', '36148900647913', '30000000000004', '30950000000000',
  ],
  jcb: ['3566002020360505', '3530111333300000', '3566111111111113', '3569990010095841', '3528000700000000', '3589000000000003', '3528000000000000007'],
  unionpay: [
    '6200000000000005', '6205500000000000004', '6250941006528599', '8171999927660000', '6212345678901265',
    '6250947000000014', '6221261111113245',
    '6282000000000000', // UnionPay numbers need not pass Luhn
  ],
  maestro: [
    '6759649826438453', '6799990100000000019', '5000000000000611', '6304000000000000', '5018000000000009',
    '6761000000000006', '5600000000000003', '6759000000000000',
  ],
  mir: ['2200000000000004', '2201382000000013', '2200770212727079', '2204000000000000', '2201300000000007', '220012345678901231'],
  prostir: ['9804000000000009', '9804123456789014', '9804998877665541', '9804202601010003', '9804111122223336'],
};

describe('checkNumber with real-world numbers', () => {
  for (const [brand, numbers] of Object.entries(REAL)) {
    it.each(numbers)(`${brand} %s is valid and detected`, (digits) => {
      expect(detectBrand(digits)?.id).toBe(brand);
      expect(checkNumber(digits)).toEqual({ valid: true, potentiallyValid: true });
    });
  }
  it('covers every brand', () => expect(Object.keys(REAL).sort()).toEqual(BRANDS.map((b) => b.id).sort()));
});

describe('checkNumber lengths and Luhn', () => {
  it.each([
    // digits, valid, potentiallyValid, code
    ['', false, true, 'empty'],
    ['4', false, true, 'incomplete'],
    ['424242424242424', false, true, 'incomplete'], // 15-digit Visa: 16 or 19 may follow
    // Lengths no longer issued (Visa 13, Maestro 12–13): the recogniser that keeps card numbers out
    // of logs starts at 14 digits, so the form takes none shorter.
    ['4222222222222', false, true, 'incomplete'],
    ['5000000000005', false, true, 'incomplete'],
    ['4242424242424241', false, true, 'invalid'], // Luhn fails, but a 19-digit Visa may still follow
    ['42424242424242424242', false, false, 'invalid'], // longer than any Visa
    ['5555555555554445', false, false, 'invalid'], // Luhn fails at Mastercard's only length
    ['555555555555444', false, true, 'incomplete'],
    ['378282246310006', false, false, 'invalid'],
    ['3782822463100051', false, false, 'invalid'], // Amex has 15 digits
    ['6200000000000006', true, true, undefined], // UnionPay without Luhn
    ['9804000000000008', false, false, 'invalid'],
    ['98040000000000', false, true, 'incomplete'],
    ['1234567812345678', false, false, 'unsupported'], // no scheme issues from 1
    ['0', false, false, 'unsupported'],
    ['7', false, false, 'unsupported'],
    ['2205', false, false, 'unsupported'], // between Mir (2200–2204) and Mastercard (2221–2720)
    ['2721', false, false, 'unsupported'],
    ['4242 4242', false, false, 'invalid'], // digits only: formatting is stripped before
  ])('%s → valid %s, potentially %s, %s', (digits, valid, potentiallyValid, code) => {
    expect(checkNumber(digits)).toEqual(code ? { valid, potentiallyValid, code } : { valid, potentiallyValid });
  });

  it('rejects a brand the merchant does not accept', () => {
    expect(checkNumber('378282246310005', ['visa', 'mastercard'])).toEqual({ valid: false, potentiallyValid: false, code: 'unsupported' });
    expect(checkNumber('4242424242424242', ['visa', 'mastercard']).valid).toBe(true);
  });
});

describe('luhn', () => {
  it.each([
    ['0', true], ['18', true], ['79927398713', true], ['79927398710', false], ['4242424242424242', true],
    ['4242424242424243', false], ['2223003122003222', true], ['2223003122003223', false],
  ])('%s → %s', (digits, ok) => expect(luhn(digits)).toBe(ok));
});

describe('detectBrand', () => {
  it.each([
    ['', undefined], ['4', 'visa'], ['5', undefined], ['51', 'mastercard'], ['55', 'mastercard'], ['50', 'maestro'],
    ['56', 'maestro'], ['2', undefined], ['22', undefined], ['220', 'mir'], ['2204', 'mir'], ['222', 'mastercard'],
    ['2221', 'mastercard'], ['27', 'mastercard'], ['272', 'mastercard'], ['2720', 'mastercard'], ['3', undefined],
    ['34', 'amex'], ['37', 'amex'], ['30', 'diners'], ['305', 'diners'], ['306', undefined], ['3095', 'diners'],
    ['35', 'jcb'], ['3527', undefined], ['3528', 'jcb'], ['3589', 'jcb'], ['6', undefined], ['60', 'discover'],
    ['601', 'discover'], ['6011', 'discover'], ['6012', undefined], ['62', 'unionpay'], ['622126', 'unionpay'],
    ['63', 'maestro'], ['64', 'discover'], ['643', undefined], ['644', 'discover'], ['649', 'discover'], ['65', 'discover'], ['67', 'maestro'],
    ['81', 'unionpay'], ['9', 'prostir'], ['98', 'prostir'], ['9805', undefined], ['504175', undefined],
    ['504176', 'maestro'], ['506699', undefined],
  ])('%s → %s', (digits, brand) => expect(detectBrand(digits)?.id).toBe(brand));
});
