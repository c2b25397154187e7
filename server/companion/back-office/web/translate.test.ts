// The back office's messages with a value in them: text when the values are text; markup when a
// value is (an amount isolated in its <bdi>, inside "was {amount}"), the sentence isolated too, so
// that each reads as written in right-to-left text.
import { describe, expect, it } from 'vitest';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { isolated, shownAmount } from './bidi-isolation.js';
import { stubbedPage } from './testing/page.js';

/** A template as the markup it renders (attributes aside): its strings and its values, in order. */
const markup = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(markup).join('');
  if (typeof value !== 'object' || value === null) return String(value);
  const { strings, values } = value as TemplateResult;
  return strings.map((text, i) => `${text}${i < values.length ? markup(values[i]) : ''}`).join('');
};

const page = stubbedPage('rtl');

describe('a message with a value in it', () => {
  it('is the text, placeholders filled, when every value is text', () => {
    expect(t('outcome.was', { amount: 'UAH 15.00' })).toBe('was UAH 15.00');
    expect(t('unmatched.more', { count: 50 })).toBe('The newest 50 are shown.');
    expect(t('charge.submit')).toBe('Charge {amount}');
  });

  it('is markup, isolated, the value in its own <bdi>, when a value is markup: in any language, wherever the placeholder stands', () => {
    expect(markup(t('outcome.was', { amount: shownAmount(1500, 'UAH') }))).toBe('<bdi>was <bdi>UAH\u00a015.00</bdi></bdi>');
    expect(markup(t('charge.submit', { amount: isolated('UAH 149.00') }))).toBe('<bdi>Charge <bdi>UAH 149.00</bdi></bdi>');
    page.lang = 'uk';
    expect(markup(t('balances.reserve', { amount: isolated('1 500,00 грн') }))).toBe('<bdi>резерв <bdi>1 500,00 грн</bdi></bdi>');
    expect(markup(t('dialog.overCapture', { limit: isolated('A'), held: isolated('B') }))).toMatch(/^<bdi>Проєкт дозволяє списати до <bdi>A<\/bdi>, більше за <bdi>B<\/bdi>, .+<\/bdi>$/u);
  });
});
