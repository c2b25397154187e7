/** The buttons every order dialog ends with: Close, and its action, both held while it is sent. */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';

export function dialogActions({ busy, label, close, danger = false }: { readonly busy: boolean; readonly label: string | TemplateResult; readonly close: () => void; readonly danger?: boolean }): TemplateResult {
  return html`<div class="dialog-actions">
    <button class="button button--quiet" type="button" ?disabled=${busy} @click=${close}>${t('dialog.close')}</button>
    <button class=${danger ? 'button button--danger' : 'button'} type="submit" ?disabled=${busy}>${busy ? t('dialog.sending') : label}</button>
  </div>`;
}
