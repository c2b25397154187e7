/**
 * The visitor's display preferences: theme, language and direction, kept in localStorage and
 * applied to <html> by /preferences.js (before the first paint, and again on every change).
 * The demo shop's pages use this module and that script too: each page names its own storage
 * key on the script's tag (`<script src="/preferences.js" data-preferences="…">`), so a shop
 * and its back office on one origin keep their choices apart.
 */
export type Theme = 'light' | 'dark';
export type Language = 'en' | 'uk';
export type Direction = 'ltr' | 'rtl';

export interface Preferences {
  /** Absent: follow the system. */
  readonly theme?: Theme;
  readonly lang: Language;
  readonly dir: Direction;
}

let storageKey: string | undefined;

/** The page's key, which is also the name of the event that applies a change. */
function key(): string {
  storageKey ??= document.querySelector<HTMLScriptElement>('script[data-preferences]')?.dataset.preferences;
  if (!storageKey) throw new Error('preferences: the page needs <script src="/preferences.js" data-preferences="<localStorage key>"> in its <head>');
  return storageKey;
}

export function preferences(): Preferences {
  const root = document.documentElement;
  const theme = root.dataset.theme === 'dark' || root.dataset.theme === 'light' ? root.dataset.theme : undefined;
  return { ...(theme ? { theme } : {}), lang: root.lang === 'uk' ? 'uk' : 'en', dir: root.dir === 'rtl' ? 'rtl' : 'ltr' };
}

/** The theme in effect: the chosen one, else the system's. */
export function effectiveTheme(): Theme {
  return preferences().theme ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

export function setPreferences(change: Partial<Preferences>): void {
  // The language the page took from the browser is no choice: it is saved once one is made, so
  // that changing the theme does not fix the page's language to the browser's of today.
  const { lang: _shown, ...shown } = preferences();
  const lang = change.lang ?? savedLanguage();
  const next = { ...shown, ...change, ...(lang ? { lang } : {}) };
  try {
    localStorage.setItem(key(), JSON.stringify(next));
  } catch {
    // Storage refused (private mode): the change still applies to this page below.
  }
  // /preferences.js applies them (its listener came first), then the pages' listeners render.
  window.dispatchEvent(new CustomEvent(key(), { detail: next }));
}

function savedLanguage(): Language | undefined {
  try {
    const { lang } = JSON.parse(localStorage.getItem(key()) ?? '{}') as { lang?: unknown };
    return lang === 'en' || lang === 'uk' ? lang : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `listener` after every change of preferences (this tab's, or another tab's). */
export function onPreferencesChange(listener: () => void): void {
  // /preferences.js listens first (it ran before any module), so <html> is up to date here.
  window.addEventListener(key(), listener);
  window.addEventListener('storage', (event) => {
    if (event.key !== key()) return;
    window.dispatchEvent(new Event(key()));
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', listener);
}
