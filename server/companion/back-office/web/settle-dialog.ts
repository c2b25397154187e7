/**
 * The back office's "Mark settled": the operator settled a held order — with the customer, or in
 * the gateway's portal — and says how (`POST /api/orders/:order_id/settle-discrepancy`). The
 * version sent is the discrepancy's as the page shows it, so a report that came meanwhile is
 * refused by the companion rather than settled unread.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { api } from './admin-api.js';
import type { ApiError, OrderSummary } from './admin-api.js';
import { isolated, isolatedText } from './bidi-isolation.js';
import { refusalNotice } from './refusal-notice.js';
import { dialogActions } from './dialog-actions.js';

/** The companion's limit on a note (SETTLEMENT_NOTE_MAX in server/ledger/input.ts). */
const NOTE_MAX = 500;

export interface SettleDraft {
  readonly order: OrderSummary;
  readonly busy: boolean;
  /** One per dialog: a retry after a lost answer is answered, not refused as settled already. */
  readonly idempotencyKey: string;
  /** What the note starts as: the one written before a report came and the dialog closed. */
  readonly note: string;
  readonly error?: ApiError;
}

/** Whether the order waits for a person to settle it. */
export const settleable = (order: OrderSummary): boolean => order.discrepancy !== null && order.discrepancy.settled === null;

/** Marks `order`'s discrepancy, as the page read it, settled with `note`. */
export function settleOrder(token: string, order: OrderSummary, note: string, idempotencyKey: string): Promise<{ order: OrderSummary }> {
  return api<{ order: OrderSummary }>(token, `/api/orders/${encodeURIComponent(order.order_id)}/settle-discrepancy`, {
    method: 'POST',
    body: { note, version: order.discrepancy!.version },
    idempotencyKey,
  });
}

/** The note's refusal in the page's words: empty, else the companion's own. */
function noteWords(reason: string): string {
  if (reason === 'must say how the order was settled') return t('settle.noteEmpty');
  return isolatedText(t('dialog.notAccepted', { reason: isolatedText(reason) }));
}

export function settleDialog(draft: SettleDraft, handlers: { submit: (note: string) => void; close: () => void }): TemplateResult {
  const { order, error } = draft;
  const refused = error?.fields.note === undefined ? undefined : noteWords(error.fields.note);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('note') as HTMLTextAreaElement;
    const note = input.value.trim();
    input.setCustomValidity(note ? '' : t('settle.noteEmpty'));
    if (!note) return void input.reportValidity();
    handlers.submit(note);
  };
  return html`<dialog class="operation-dialog settle-dialog" aria-labelledby="settle-title" @close=${handlers.close}
    @cancel=${(event: Event) => draft.busy && event.preventDefault()}>
    <form method="dialog" novalidate @submit=${submit}>
      <h2 id="settle-title"><span dir="auto">${t('settle.title')}\u00a0· <span class="mono">${isolated(order.order_id)}</span></span></h2>
      <p class="muted">${t('settle.text')}</p>
      <div class="field">
        <label for="settle-note">${t('settle.note')}</label>
        <textarea id="settle-note" name="note" rows="3" maxlength=${NOTE_MAX} required aria-required="true" dir="auto" .value=${draft.note}
          aria-describedby="settle-note-error" aria-invalid=${refused ? 'true' : nothing}
          @input=${(event: InputEvent) => (event.target as HTMLTextAreaElement).setCustomValidity('')}></textarea>
        <span class="field__error" id="settle-note-error">${refused ?? ''}</span>
      </div>
      ${refusalNotice(error, ['note'])}
      ${dialogActions({ busy: draft.busy, label: t('settle.title'), close: handlers.close })}
    </form>
  </dialog>`;
}
