// Amounts and times as this browser writes the page's language: a British browser's English page
// has the 24-hour clock and the day first, the words staying the page's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubbedPage } from './testing/page.js';
import { formatAmount } from './money.js';
import { displayLocale, formatCount } from './locale.js';
import { formatTime } from './times.js';

const page = stubbedPage();
const browser = (...languages: string[]) => vi.stubGlobal('navigator', { languages, language: languages[0] });
afterEach(() => void vi.unstubAllGlobals());

describe('the locale of amounts and times', () => {
  const afternoon = new Date(Date.UTC(2026, 10, 25, 14, 5, 9)).toISOString();

  it('is the browser’s own when it is of the page’s language', () => {
    browser('en-GB', 'uk');
    expect(displayLocale()).toBe('en-GB');
    expect(formatAmount(1500, 'USD')).toBe('US$15.00');
    expect(formatTime(afternoon, displayLocale(), true)).not.toMatch(/PM/);
    page.lang = 'uk';
    expect(displayLocale()).toBe('uk');
  });

  it('is the first of the browser’s languages that is the page’s, skipping a tag that is none', () => {
    browser('not a tag!', 'de-DE', 'uk-UA', 'en-AU');
    page.lang = 'uk';
    expect(displayLocale()).toBe('uk-UA');
    page.lang = 'en';
    expect(displayLocale()).toBe('en-AU');
  });

  it('is the page’s language when the browser has none of it', () => {
    browser('de-DE');
    expect(displayLocale()).toBe('en');
    expect(formatAmount(1500, 'USD')).toBe('$15.00');
  });

  it('writes counts in the locale’s groups, and short on the chart’s scale, where four digits is all the room', () => {
    browser('en-GB');
    expect([formatCount(23089), formatCount(40000, true), formatCount(200, true)]).toEqual(['23,089', '40k', '200']);
    page.lang = 'uk';
    browser('uk-UA');
    expect(formatCount(23089).replace(/\s/gu, ' ')).toBe('23 089');
    expect(formatCount(40000, true).replace(/\s/gu, ' ')).toBe('40 тис.');
  });
});
