/**
 * What every page has around its content: the skip link, the header (brand, navigation,
 * language, theme and direction switches, a page's own extra) and the footer. Re-rendered on
 * every change of preferences, with the page's own content.
 */
import { html, nothing, render } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { effectiveTheme, onPreferencesChange, preferences, setPreferences } from './preferences.js';
import type { Language } from './preferences.js';
import { brandMark } from './product-art.js';

export type PageName = 'shop' | 'checkout' | 'result';

export interface Chrome {
  /** Renders the header, footer and the page's content again. */
  refresh(): void;
}

const moon = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M20.4 15.2A8.5 8.5 0 0 1 8.8 3.6a.6.6 0 0 0-.8-.7A9.6 9.6 0 1 0 21.1 16a.6.6 0 0 0-.7-.8z"/></svg>`;
const sun = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="4.5" fill="currentColor"/><path stroke="currentColor" stroke-width="2" stroke-linecap="round" d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8"/></svg>`;

/**
 * Mounts the chrome around `<main>` and renders `content` into it. `extra` goes at the end of
 * the header's tools (the shop's cart link).
 */
export function mountPage(page: PageName, content: () => TemplateResult, extra: () => TemplateResult | typeof nothing = () => nothing): Chrome {
  const header = document.querySelector<HTMLElement>('header.site-header')!;
  const main = document.querySelector<HTMLElement>('main')!;
  const footer = document.querySelector<HTMLElement>('footer.site-footer')!;
  const titles: Record<PageName, Parameters<typeof t>[0]> = { shop: 'title.shop', checkout: 'title.checkout', result: 'title.result' };

  const refresh = () => {
    document.title = t(titles[page]);
    render(headerTemplate(page, extra()), header);
    render(content(), main);
    render(html`<div class="site-footer__inner"><p>${t('footer.demo')}</p><p>${t('footer.sandbox')}</p></div>`, footer);
  };
  onPreferencesChange(refresh);
  refresh();
  return { refresh };
}

function headerTemplate(page: PageName, extra: TemplateResult | typeof nothing): TemplateResult {
  const { lang, dir } = preferences();
  const dark = effectiveTheme() === 'dark';
  return html`<a class="skip-link" href="#main">${t('skip')}</a>
    <div class="site-header__inner">
      <a class="brand" href="/">${brandMark}<span>Kavarnia</span><small>${t('brand.tagline')}</small></a>
      <nav class="site-nav" aria-label=${t('nav.label')}>
        <a href="/" aria-current="page">${t('nav.shop')}</a>
        <!-- The back office of @payform/companion, mounted by demo/stack.ts. -->
        <a href="/admin">${t('nav.backOffice')}</a>
      </nav>
      <div class="site-tools">
        <label class="visually-hidden" for="language">${t('tools.language')}</label>
        <select id="language" @change=${(event: Event) => setPreferences({ lang: (event.target as HTMLSelectElement).value as Language })}>
          <option value="en" ?selected=${lang === 'en'} lang="en">English</option>
          <option value="uk" ?selected=${lang === 'uk'} lang="uk">Українська</option>
        </select>
        <button class="icon-button" type="button" aria-pressed=${dark ? 'true' : 'false'} title=${t('tools.darkTheme')}
          @click=${() => setPreferences({ theme: dark ? 'light' : 'dark' })}>${dark ? moon : sun}<span class="visually-hidden">${t('tools.darkTheme')}</span></button>
        <button class="icon-button" type="button" aria-pressed=${dir === 'rtl' ? 'true' : 'false'} title=${t('tools.rtlTitle')}
          @click=${() => setPreferences({ dir: dir === 'rtl' ? 'ltr' : 'rtl' })}>RTL</button>
        ${extra}
      </div>
    </div>`;
}
