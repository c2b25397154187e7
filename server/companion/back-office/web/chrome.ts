/**
 * What the back office has around its content: the skip link and the header (name, language,
 * theme and direction switches, sign-out). Re-rendered on every change of preferences, with the
 * content.
 */
import { html, nothing, render } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { displayTools } from './display-tools.js';
import { onPreferencesChange } from './preferences.js';

export interface Chrome {
  /** Renders the header and the content again. */
  refresh(): void;
}

const card = html`<svg class="brand__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false"><rect width="64" height="64" rx="16" fill="currentColor"/><rect x="12" y="20" width="40" height="26" rx="4" fill="var(--bg, #fff)"/><rect x="12" y="26" width="40" height="6" fill="currentColor"/></svg>`;

/** Mounts the header before `<main>` and renders `content` into it; `extra` ends the header's tools. */
export function mountPage(content: () => TemplateResult, extra: () => TemplateResult | typeof nothing = () => nothing): Chrome {
  const header = document.querySelector<HTMLElement>('header.site-header')!;
  const main = document.querySelector<HTMLElement>('main')!;
  const refresh = () => {
    document.title = t('title.admin');
    render(headerTemplate(extra()), header);
    render(content(), main);
  };
  onPreferencesChange(refresh);
  refresh();
  return { refresh };
}

function headerTemplate(extra: TemplateResult | typeof nothing): TemplateResult {
  return html`<a class="skip-link" href="#main">${t('skip')}</a>
    <div class="site-header__inner">
      <span class="brand">${card}<span>payform</span><small>${t('brand.name')}</small></span>
      ${displayTools(extra)}
    </div>`;
}
