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
    const focused = document.activeElement;
    // Where the focus was, should a change it did not ask for (the live feed) take its element away.
    const around = focused && main.contains(focused) ? focused.closest<HTMLElement>('[role=group], section') : null;
    render(headerTemplate(extra()), header);
    render(content(), main);
    // After the task: what took the element away on purpose (a dialog, a review) places the focus itself.
    if (focused && around && !focused.isConnected) setTimeout(() => (document.activeElement === null || document.activeElement === document.body) && keepFocusNear(around, main));
  };
  onPreferencesChange(refresh);
  refresh();
  return { refresh };
}

/**
 * The focused element went (an action the order no longer takes): the focus goes to the first
 * focusable element of its group or section, else to the content itself — never to the page's
 * start, where the next Tab would begin again (WCAG 2.4.3).
 */
function keepFocusNear(around: HTMLElement, main: HTMLElement): void {
  const within = around.isConnected ? around : main;
  const target = within.querySelector<HTMLElement>('button:not([disabled]), a[href], input, select, [tabindex]') ?? main;
  target.focus();
}

function headerTemplate(extra: TemplateResult | typeof nothing): TemplateResult {
  return html`<a class="skip-link" href="#main">${t('skip')}</a>
    <div class="site-header__inner">
      <span class="brand">${card}<span>payform</span><small>${t('brand.name')}</small></span>
      ${displayTools(extra)}
    </div>`;
}
