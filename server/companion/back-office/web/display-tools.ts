/**
 * The header's display switches — language, dark theme, right-to-left preview — in the page's
 * language. The back office and the demo shop's pages show the same ones.
 */
import { html } from 'lit';
import type { nothing, TemplateResult } from 'lit';
import { effectiveTheme, preferences, setPreferences } from './preferences.js';
import type { Language } from './preferences.js';

const WORDS = {
  en: { language: 'Language', darkTheme: 'Dark theme', rtlTitle: 'Right-to-left layout preview' },
  uk: { language: 'Мова', darkTheme: 'Темна тема', rtlTitle: 'Перегляд макета справа наліво' },
} satisfies Record<Language, Record<string, string>>;

const moon = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M20.4 15.2A8.5 8.5 0 0 1 8.8 3.6a.6.6 0 0 0-.8-.7A9.6 9.6 0 1 0 21.1 16a.6.6 0 0 0-.7-.8z"/></svg>`;
const sun = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="4.5" fill="currentColor"/><path stroke="currentColor" stroke-width="2" stroke-linecap="round" d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8"/></svg>`;

/** The switches, then `extra` (the shop's cart link, the back office's sign-out). */
export function displayTools(extra: TemplateResult | typeof nothing): TemplateResult {
  const { lang, dir } = preferences();
  const words = WORDS[lang];
  const dark = effectiveTheme() === 'dark';
  return html`<div class="site-tools">
    <label class="visually-hidden" for="language">${words.language}</label>
    <select id="language" @change=${(event: Event) => setPreferences({ lang: (event.target as HTMLSelectElement).value as Language })}>
      <option value="en" ?selected=${lang === 'en'} lang="en">English</option>
      <option value="uk" ?selected=${lang === 'uk'} lang="uk">Українська</option>
    </select>
    <button class="icon-button" type="button" aria-pressed=${dark ? 'true' : 'false'} title=${words.darkTheme}
      @click=${() => setPreferences({ theme: dark ? 'light' : 'dark' })}>${dark ? moon : sun}<span class="visually-hidden">${words.darkTheme}</span></button>
    <button class="icon-button" type="button" aria-pressed=${dir === 'rtl' ? 'true' : 'false'} title=${words.rtlTitle}
      @click=${() => setPreferences({ dir: dir === 'rtl' ? 'ltr' : 'rtl' })}>RTL</button>
    ${extra}
  </div>`;
}
