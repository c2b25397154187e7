/**
 * The locale amounts and times are written in: the browser's own when it is one of the page's
 * language — an English page in a British browser writes "27 Nov 2026, 14:05:09", not "Nov 27,
 * 2026, 2:05:09 PM" — else the language's. The words stay the page's language either way.
 */
import { preferences } from './preferences.js';
import type { Language } from './preferences.js';

export function displayLocale(lang: Language = pageLanguage()): string {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  // Asked for every amount and time of a page of orders: the last answer stands while neither
  // changes (a browser gives the same languages array until they change).
  if (last?.browser !== browser || last.lang !== lang) last = { browser, lang, locale: chosen(browser, lang) };
  return last.locale;
}

/**
 * The page's language; outside a page (Node: tests, tools reading amounts with money.ts) the
 * catalogs' own, English, rather than an error for want of a document.
 */
function pageLanguage(): Language {
  return typeof document === 'undefined' ? 'en' : preferences().lang;
}

let last: { readonly browser: readonly string[]; readonly lang: Language; readonly locale: string } | undefined;

function chosen(browser: readonly string[], lang: Language): string {
  for (const tag of browser) {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical && canonical.split('-')[0]!.toLowerCase() === lang) return canonical;
    } catch {
      // Not a language tag (a browser's setting gone wrong): the next one, or the page's language.
    }
  }
  return lang;
}

/**
 * A rate (0…1) as a whole percentage the way the page's locale writes it ("89%"; "89 %" where
 * that is the custom). Written "89 %" by hand, a right-to-left page read it "% 89".
 */
export function formatPercent(rate: number): string {
  const locale = displayLocale();
  // Asked for every bucket of the chart at each render: one format a locale, as money.ts keeps.
  let format = percentFormats.get(locale);
  if (!format) percentFormats.set(locale, (format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 })));
  return format.format(rate);
}

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A count as the page's locale writes it ("23,089"; "23 089" in Ukrainian), or short where room
 * is scarce, as on the chart's scale ("20k"; "20 тис.").
 */
export function formatCount(count: number, short = false): string {
  const locale = displayLocale();
  const key = `${locale} ${short}`;
  let format = countFormats.get(key);
  if (!format) countFormats.set(key, (format = new Intl.NumberFormat(locale, short ? { notation: 'compact' } : {})));
  return format.format(count);
}

const countFormats = new Map<string, Intl.NumberFormat>();
