/** What a dialog shows when the companion refused its request: the message and each field's reason. */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import type { ApiError } from './admin-api.js';

export function refusalNotice(error: ApiError | undefined): TemplateResult | typeof nothing {
  if (!error) return nothing;
  const fields = Object.entries(error.fields);
  return html`<div class="notice notice--error" role="alert">
    <strong>${t('dialog.refused')}</strong> ${error.message}
    ${fields.length ? html`<ul>${fields.map(([field, reason]) => html`<li><span class="mono">${field}</span>: ${reason}</li>`)}</ul>` : nothing}
  </div>`;
}
