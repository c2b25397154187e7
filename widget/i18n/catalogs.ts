import { en, type Catalog } from './en.js';

/**
 * Catalogs other than English load on demand as small sibling modules, so the bundle carries
 * one language (see docs/widget.md, "Localisation").
 */
const LOADERS: Record<string, () => Promise<{ default: Catalog }>> = {
  uk: () => import('./uk.js'),
  pl: () => import('./pl.js'),
  de: () => import('./de.js'),
  fr: () => import('./fr.js'),
  es: () => import('./es.js'),
};

/** The catalog of a BCP 47 tag's language; English when there is none or it cannot load. */
export const loadCatalog = async (tag: string): Promise<Catalog> =>
  (await LOADERS[tag.split('-')[0]!.toLowerCase()]?.().catch(() => undefined))?.default ?? en;
