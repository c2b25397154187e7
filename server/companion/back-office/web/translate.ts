/**
 * A page's `t(key, { name })` over its catalogs: the text in the page's language (`<html lang>`,
 * set from the visitor's preferences), else in English, with `{name}` placeholders filled.
 */
import { preferences } from './preferences.js';
import type { Language } from './preferences.js';

export type Translate<Key extends string> = (key: Key, values?: Record<string, string | number>) => string;

export function translator<Key extends string>(catalogs: Record<Language, Record<Key, string>>): Translate<Key> {
  return (key, values = {}) => {
    const text = catalogs[preferences().lang][key] ?? catalogs.en[key];
    return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
  };
}
