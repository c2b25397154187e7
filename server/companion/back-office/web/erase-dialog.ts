/**
 * The back office's "Erase customer's details": a customer asked to be forgotten, and the
 * operator erases them from the order they found (POST /api/customers/erasures). The dialog
 * names whose details go — the order's e-mail and customer id, which reach every order of theirs,
 * not this one alone — and what stays.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { api } from './admin-api.js';
import type { ApiError, OrderSummary } from './admin-api.js';
import { isolated } from './bidi-isolation.js';
import { refusalNotice } from './refusal-notice.js';
import { dialogActions } from './dialog-actions.js';

export interface EraseDraft {
  readonly order: OrderSummary;
  readonly busy: boolean;
  /** One per dialog: a retry after a lost answer is answered, not run again. */
  readonly idempotencyKey: string;
  readonly error?: ApiError;
}

/** What the companion says it erased. */
export interface Erasure {
  readonly order_ids: readonly string[];
  readonly sessions: number;
  readonly events: number;
  readonly cards: number;
  readonly customer_ids: readonly string[];
}

/** Whose details the order names (its customer id stays once erased: erasing again reaches what came since). */
export const erasable = (order: OrderSummary): boolean => Boolean(order.customer?.email || order.customer_id);

/** Erases the details of the customer `order` names, by its e-mail and customer id. */
export function eraseCustomer(token: string, order: OrderSummary, idempotencyKey: string): Promise<Erasure> {
  const email = order.customer?.email;
  return api<Erasure>(token, '/api/customers/erasures', {
    method: 'POST',
    body: { ...(email ? { email } : {}), ...(order.customer_id ? { customer_id: order.customer_id } : {}) },
    idempotencyKey,
  });
}

export function eraseDialog(draft: EraseDraft, handlers: { submit: () => void; close: () => void }): TemplateResult {
  const { order, error } = draft;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    handlers.submit();
  };
  return html`<dialog class="operation-dialog erase-dialog" aria-labelledby="erase-title" aria-describedby="erase-text" @close=${handlers.close}
    @cancel=${(event: Event) => draft.busy && event.preventDefault()}>
    <form method="dialog" @submit=${submit}>
      <h2 id="erase-title">${t('erase.title')}</h2>
      <dl class="facts">
        ${order.customer?.email ? html`<div><dt>${t('erase.email')}</dt><dd dir="ltr">${order.customer.email}</dd></div>` : nothing}
        ${order.customer_id ? html`<div><dt>${t('erase.customerId')}</dt><dd class="mono">${isolated(order.customer_id)}</dd></div>` : nothing}
      </dl>
      <p id="erase-text">${t('erase.text')}</p>
      ${refusalNotice(error, [], error?.code === 'payment_in_flight' ? t('erase.inFlight', { orders: error.orderIds.join(', ') }) : undefined)}
      ${dialogActions({ busy: draft.busy, label: t('erase.submit'), close: handlers.close, danger: true })}
    </form>
  </dialog>`;
}
