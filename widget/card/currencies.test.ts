// Amounts as pages show them: ISO 4217's digits, the ones the gateway is sent, whatever Intl's
// own table (CLDR) says for the currency.
import { describe, expect, it } from 'vitest';
import { currencyExponent, moneyFormat } from './currencies.js';

const shown = (minor: number | string, currency: string, locale = 'en') => moneyFormat(currency, locale)(minor).replace(/\s/g, ' ');

describe('money as a page shows it', () => {
  it('writes the digits the gateway is sent where Intl would round them away', () => {
    // CLDR shows HUF, IDR and COP without decimals and IQD with none: the customer would read
    // "HUF 11" for a charge of 10.50.
    expect(shown(1050, 'HUF')).toBe('HUF 10.50');
    expect(shown(1050, 'IDR')).toBe('IDR 10.50');
    expect(shown(1050, 'COP')).toBe('COP 10.50');
    expect(shown(1250, 'IQD')).toBe('IQD 1.250');
  });

  it('writes two, three or no decimals as ISO 4217 counts them', () => {
    expect(shown(10050, 'UAH')).toBe('UAH 100.50');
    expect(shown(1230, 'KWD')).toBe('KWD 1.230');
    expect(shown(500, 'JPY')).toBe('¥500');
    expect(shown(150, 'XTS')).toBe('XTS 1.50');
    expect(shown(10050, 'UAH', 'uk')).toMatch(/^100,50 \S+$/);
  });

  it('never goes through a float', () => {
    expect(shown(999_999_999_999_999, 'UAH')).toBe('UAH 9,999,999,999,999.99');
    expect(shown('9007199254740993', 'KWD')).toBe('KWD 9,007,199,254,740.993');
    for (const currency of ['UAH', 'KWD', 'JPY']) expect(shown(1, currency)).toMatch(currencyExponent(currency) === 0 ? /\b1$/ : /0\.0*1$/);
  });

  it('counts every currency ISO 4217 gives no or three decimals as it does, and the rest as two', () => {
    // ISO 4217's list (the funds codes CLF, UYI and UYW aside): one missing would send 1.000 OMR as 10.00.
    for (const code of 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF'.split(' ')) expect(currencyExponent(code), code).toBe(0);
    for (const code of 'BHD IQD JOD KWD LYD OMR TND'.split(' ')) expect(currencyExponent(code), code).toBe(3);
    for (const code of ['UAH', 'EUR', 'USD', 'GBP', 'HUF', 'IDR', 'XTS']) expect(currencyExponent(code), code).toBe(2);
  });
});
