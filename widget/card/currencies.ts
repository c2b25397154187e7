/**
 * How many fraction digits a currency's minor unit has, per ISO 4217 as the gateway counts it:
 * 24950 UAH minor units are 249.50 UAH, 500 JPY are 500 JPY, 1230 KWD are 1.230 KWD. One table
 * for the widget (which shows amounts) and @payform/gateway (which sends them), so a page never
 * shows another amount than the one charged. Intl's own digits are CLDR's and differ for some
 * currencies (HUF, IDR, COP, IQD…), so they are never left to it.
 */

// ISO 4217 currencies without a minor unit, and those with three fraction digits (fils, baisa,
// millimes). Words in a line, not sets: what every page loads is the smaller for it.
const ZERO_DECIMAL = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF';
const THREE_DECIMAL = 'BHD IQD JOD KWD LYD OMR TND';

/**
 * Fraction digits of a currency's minor unit. Everything not listed above — including the
 * ISO test currency XTS, which ISO leaves without a minor unit — uses 2, as the gateway's
 * test projects take amounts like 1.50 XTS.
 */
export function currencyExponent(currency: string): 0 | 2 | 3 {
  const code = currency.toUpperCase();
  // Only a code of three letters is one: " KW" or "JPYX" are in no line as a word.
  if (!/^[A-Z]{3}$/.test(code)) return 2;
  if (ZERO_DECIMAL.includes(code)) return 0;
  if (THREE_DECIMAL.includes(code)) return 3;
  return 2;
}

/**
 * How `locale` writes minor units of `currency`, with ISO 4217's digits: HUF 1050 is "HUF 10.50",
 * where Intl's own digits would round it to "HUF 11". Through decimal text, never a float.
 */
export function moneyFormat(currency: string, locale?: string): (minor: number | string) => string {
  const digits = currencyExponent(currency);
  // The minimum is enough: the amount written has no more digits than that, and Intl's maximum
  // is raised to meet it (a maximum of its own would only be bytes on every page).
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits });
  return (minor) => format.format(`${minor}E-${digits}` as Intl.StringNumericLiteral);
}
