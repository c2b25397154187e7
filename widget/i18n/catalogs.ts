import { en, type Catalog, type Strings } from './en.js';

/**
 * Catalogs load on demand as small sibling modules, so the bundle carries one language (see
 * docs/widget.md, "Localisation"), and of it only what every form shows: English's specific
 * error messages are a module of their own.
 */
// One import of English's messages for its three uses: a merchant's bundler wraps each import
// in bytes of its own.
const english = () => import('./en-messages.js');
const LOADERS: Record<string, () => Promise<{ default: Partial<Catalog> }>> = {
  en: english,
  uk: () => import('./uk.js'),
  pl: () => import('./pl.js'),
  de: () => import('./de.js'),
  fr: () => import('./fr.js'),
  es: () => import('./es.js'),
};

/**
 * The catalog of a BCP 47 tag's language; English when there is none (said in the console, by
 * the `element` that asked) or it cannot load, and then without its specific messages if they
 * cannot load either.
 */
export async function loadCatalog(tag: string, element: Element): Promise<Strings> {
  const language = tag.split('-')[0]!.toLowerCase();
  let spoken = LOADERS[language] ? language : 'en';
  const load = LOADERS[language] ?? (() => english().then((chunk) => chunk.unknownLanguage(tag, element)));
  const catalog = await load().catch(() => ((spoken = 'en'), english().catch(() => undefined)));
  // English on a page in another language is marked so, for screen readers to pronounce it as English.
  return { ...en, ...catalog?.default, ...(spoken !== language && { lang: spoken }) };
}
