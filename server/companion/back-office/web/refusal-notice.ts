/**
 * What a dialog shows when its request was refused (a 4xx: not done), declined by the gateway, or
 * went unanswered (no answer or a 5xx: the outcome is unknown): the message and each field's reason.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { outcomeUnknown } from './admin-api.js';
import type { ApiError } from './admin-api.js';
import { isolated } from './bidi-isolation.js';

/**
 * `inline`: the fields whose reasons the dialog says already, not repeated here. A refusal's
 * message only says its fields' reasons again, in the API's terms (minor units, the sellers' ids),
 * so it is left out too when they are all said. `words`: the dialog's own for a refusal of fields
 * it has no input for (the customer's details a charge needs), said instead of the message.
 */
export function refusalNotice(error: ApiError | undefined, inline: readonly string[] = [], words?: string): TemplateResult | typeof nothing {
  if (!error) return nothing;
  // No answer, or a 5xx: the request may have run. Not "not done", or the operator does it again.
  const unknown = outcomeUnknown(error);
  const fields = Object.entries(error.fields).filter(([field]) => !inline.includes(field));
  // Every reason is beside its field already: an empty box would say nothing.
  if (!unknown && !words && fields.length === 0 && Object.keys(error.fields).length > 0) return nothing;
  const heading = unknown ? 'dialog.unknown' : error.code === 'declined' ? 'dialog.declined' : 'dialog.refused';
  return html`<div class="notice notice--error" role="alert" tabindex="-1">
    <strong>${t(heading)}</strong> ${words ?? (error.code === 'invalid_request' ? nothing : isolated(error.message))}
    ${fields.length ? html`<ul>${fields.map(([field, reason]) => html`<li><span class="mono">${isolated(field)}</span>: ${isolated(reason)}</li>`)}</ul>` : nothing}
    ${unknown ? html`<p>${t('dialog.unknownAdvice')}</p>` : nothing}
  </div>`;
}
