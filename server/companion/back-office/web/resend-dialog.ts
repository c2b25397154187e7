/**
 * The back office's "Re-send webhook": the gateway sends the webhook of the payment, or of one of
 * its operations, again (POST /api/orders/:id/resend-webhook). An operation made at the gateway's
 * portal whose webhook was lost is in no list here — the companion's log names its kind and says to
 * have it sent again — so the kind is chosen, and one transaction of it named by the gateway's id.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import { api } from './admin-api.js';
import type { ApiError, OrderSummary } from './admin-api.js';
import { isolated } from './bidi-isolation.js';
import { refusalNotice } from './refusal-notice.js';
import { dialogActions } from './dialog-actions.js';

export interface ResendDraft {
  readonly order: OrderSummary;
  readonly busy: boolean;
  /** One per dialog: a retry after a lost answer is answered, not asked of the gateway again. */
  readonly idempotencyKey: string;
  readonly error?: ApiError;
}

type Kind = OrderSummary['method'] | 'capture' | 'void' | 'refund';

/** The webhooks an order of this method can have: its payment's, and its operations'. */
const KINDS: Record<OrderSummary['method'], readonly Kind[]> = {
  purchase: ['purchase', 'refund'],
  auth: ['auth', 'capture', 'void', 'refund'],
  lookup: ['lookup'],
};

const KIND_NAMES: Record<Kind, MessageKey> = {
  purchase: 'method.purchase',
  auth: 'method.auth',
  lookup: 'method.lookup',
  capture: 'operation.capture',
  void: 'operation.void',
  refund: 'operation.refund',
};

/** The gateway's ids are UUIDs: another is said here rather than sent to be refused. */
const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

/** What the dialog asks for: the payment's own webhook unless another kind is chosen. */
export interface ResendRequest {
  readonly operation?: Kind;
  readonly transaction_id?: string;
}

export function resendWebhook(token: string, order: OrderSummary, request: ResendRequest, idempotencyKey: string): Promise<unknown> {
  return api(token, `/api/orders/${encodeURIComponent(order.order_id)}/resend-webhook`, { method: 'POST', body: request, idempotencyKey });
}

export function resendDialog(draft: ResendDraft, handlers: { submit: (request: ResendRequest) => void; close: () => void }): TemplateResult {
  const { order, error } = draft;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const kind = (form.elements.namedItem('kind') as HTMLSelectElement).value as Kind;
    const transaction = form.elements.namedItem('transaction') as HTMLInputElement;
    const id = transaction.value.trim();
    const invalid = id !== '' && !UUID.test(id);
    transaction.setCustomValidity(invalid ? t('resend.transactionInvalid') : '');
    if (invalid) transaction.setAttribute('aria-invalid', 'true');
    else transaction.removeAttribute('aria-invalid');
    if (!transaction.reportValidity()) return;
    handlers.submit({ ...(kind === order.method ? {} : { operation: kind }), ...(id ? { transaction_id: id } : {}) });
  };
  const refusedId = error?.fields['transaction_id'];
  return html`<dialog class="operation-dialog resend-dialog" aria-labelledby="resend-title" aria-describedby="resend-text" @close=${handlers.close}
    @cancel=${(event: Event) => draft.busy && event.preventDefault()}>
    <form method="dialog" novalidate @submit=${submit}>
      <h2 id="resend-title"><span dir="auto">${t('action.resend')}\u00a0· <span class="mono">${isolated(order.order_id)}</span></span></h2>
      <p id="resend-text" class="muted">${t('resend.text')}</p>
      <div class="field">
        <label for="resend-kind">${t('resend.kind')}</label>
        <select id="resend-kind" name="kind">
          ${KINDS[order.method].map((kind) => html`<option value=${kind}>${t(KIND_NAMES[kind])}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="resend-transaction">${t('resend.transaction')}</label>
        <input id="resend-transaction" name="transaction" autocomplete="off" spellcheck="false" dir="ltr" class="mono"
          aria-describedby="resend-transaction-hint resend-transaction-error" aria-invalid=${refusedId ? 'true' : nothing}
          @input=${(event: InputEvent) => (event.target as HTMLInputElement).setCustomValidity('')}>
        <span class="field__hint" id="resend-transaction-hint">${t('resend.transactionHint')}</span>
        <span class="field__error" id="resend-transaction-error" aria-live="polite">${refusedId ? isolated(refusedId) : ''}</span>
      </div>
      ${refusalNotice(error, ['transaction_id'])}
      ${dialogActions({ busy: draft.busy, label: t('resend.submit'), close: handlers.close })}
    </form>
  </dialog>`;
}
