/**
 * What every page has around its content: the skip link, the header (brand, navigation,
 * language, theme and direction switches, a page's own extra) and the footer. Re-rendered on
 * every change of preferences, with the page's own content.
 */
import { html, nothing, render } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { displayTools } from '../../../server/companion/back-office/web/display-tools.js';
import { onPreferencesChange } from '../../../server/companion/back-office/web/preferences.js';
import { brandMark } from './product-art.js';

export type PageName = 'shop' | 'checkout' | 'result';

export interface Chrome {
  /** Renders the header, footer and the page's content again. */
  refresh(): void;
}

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
  return html`<a class="skip-link" href="#main">${t('skip')}</a>
    <div class="site-header__inner">
      <a class="brand" href="/">${brandMark}<span>Kavarnia</span><small>${t('brand.tagline')}</small></a>
      <nav class="site-nav" aria-label=${t('nav.label')}>
        <a href="/" aria-current="page">${t('nav.shop')}</a>
        <!-- The back office of @payform/companion, mounted by demo/stack.ts. -->
        <a href="/admin">${t('nav.backOffice')}</a>
      </nav>
      ${displayTools(extra)}
    </div>`;
}
