/**
 * A page's `t(key, { name })` over its catalogs: the text in the page's language (`<html lang>`,
 * set from the visitor's preferences), else in English, with `{name}` placeholders filled.
 *
 * A value may be markup — an amount isolated in a <bdi> (bidi-isolation.ts), to keep its own
 * direction inside a sentence of another. The message is then markup too, isolated as a whole:
 * it takes the direction of its own words (its first letter outside the values), not its
 * container's. Else an English sentence in a right-to-left page would put its last value on its
 * left ("UAH 15.00 was"), as a right-to-left language's sentence in a left-to-right page would.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { preferences } from './preferences.js';
import type { Language } from './preferences.js';

type Values = Readonly<Record<string, string | number>>;
type MarkupValues = Readonly<Record<string, string | number | TemplateResult>>;

export interface Translate<Key extends string> {
  (key: Key, values?: Values): string;
  /** Markup, isolated, when any value is markup (the text when none turns out to be). */
  (key: Key, values: MarkupValues): TemplateResult | string;
}

const PLACEHOLDER = /\{(\w+)\}/u;

export function translator<Key extends string>(catalogs: Record<Language, Record<Key, string>>): Translate<Key> {
  function translate(key: Key, values?: Values): string;
  function translate(key: Key, values: MarkupValues): TemplateResult | string;
  function translate(key: Key, values: MarkupValues = {}): TemplateResult | string {
    const text = catalogs[preferences().lang][key] ?? catalogs.en[key];
    // Split on the placeholders: the text at even places, a placeholder's name at odd ones.
    const parts = text.split(PLACEHOLDER).map((part, i) => {
      if (i % 2 === 0) return part;
      return part in values ? values[part]! : `{${part}}`;
    });
    return parts.some((part) => typeof part === 'object') ? html`<bdi>${parts}</bdi>` : parts.join('');
  }
  return translate;
}
