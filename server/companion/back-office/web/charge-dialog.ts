/**
 * The back office's "Charge saved card": a new payment with the card an order's customer saved
 * (a card verification, or a payment with "remember my card"), made from the shop's server
 * without the customer — `POST /api/customers/:customer_id/cards/:card_id/charges`. The card is
 * found among the customer's saved cards by the order's mask; a card since deleted or expired
 * is refused by the companion before the gateway hears of it.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { api, ApiError } from './admin-api.js';
import type { OrderSummary } from './admin-api.js';
import { editableAmount, typedAmount, typedAmountProblem } from './money.js';
import type { ApiAmount } from './money.js';
import { isolated, shownAmount } from './bidi-isolation.js';
import { chargeRefusals } from './operation-refusals.js';
import type { ChargeRefusals } from './operation-refusals.js';
import { refusalNotice } from './refusal-notice.js';
import { dialogActions } from './dialog-actions.js';
import { pageConfig } from './page-config.js';

export interface ChargeDraft {
  readonly order: OrderSummary;
  readonly busy: boolean;
  /** One per dialog: a double click or a retried request never charges twice. */
  readonly idempotencyKey: string;
  /** The amount as typed so far: the button says what it will charge. */
  readonly typed: string;
  readonly error?: ApiError;
}

/** What the companion answers (ChargeAnswer in server/companion/merchant/saved-card-charges.ts). */
export interface ChargeAnswer {
  readonly order_id: string;
  readonly amount: ApiAmount;
  readonly currency: string;
  readonly status: 'success' | 'failure' | 'pending' | 'action_required';
  readonly message?: string;
  readonly challenge_url?: string;
}

export interface ChargeRequest {
  readonly amount: ApiAmount;
  readonly description: string;
  readonly method: 'purchase' | 'auth';
  /** A microfinance merchant's borrower, as typed: the gateway asks every payment for one of them. */
  readonly customer?: { readonly birthday?: string; readonly tax_id?: string };
}

/** Whether the order's customer may still have its card saved. */
export const chargeable = (order: OrderSummary): boolean => order.status === 'success' && order.customer_id !== null && order.card !== null;

/** Charges the saved card that paid (or verified) `order`, once per `idempotencyKey`. */
export async function chargeSavedCard(token: string, order: OrderSummary, request: ChargeRequest, idempotencyKey: string): Promise<ChargeAnswer> {
  const customer = encodeURIComponent(order.customer_id!);
  const { cards } = await api<{ cards: { id: string; mask: string }[] }>(token, `/api/customers/${customer}/cards`);
  const card = cards.find((candidate) => candidate.mask === order.card!.mask);
  if (!card) throw new ApiError(409, 'card_not_saved', t('charge.noCard', { last4: order.card!.mask.slice(-4) }));
  return api<ChargeAnswer>(token, `/api/customers/${customer}/cards/${encodeURIComponent(card.id)}/charges`, {
    method: 'POST',
    body: { ...request, currency: order.currency },
    idempotencyKey,
  });
}

/**
 * A microfinance merchant's charge needs the borrower's date of birth or tax id (the tax id above
 * 30 000 UAH), unless the card's last payments gave them: the companion says which, beside them.
 */
function borrowerFields(refused: ChargeRefusals): TemplateResult {
  return html`<p class="field__hint" id="charge-borrower-hint">${t('charge.borrowerHint')}</p>
    <div class="fields">
      ${borrowerField('birthday', t('charge.birthday'), refused.birthday, { type: 'date', min: '1900-01-01' })}
      ${borrowerField('tax_id', t('charge.taxId'), refused.taxId, { maxlength: '32', dir: 'ltr' })}
    </div>`;
}

/** One of the borrower's fields, its refusal beside it. `input`: the attributes of its kind. */
function borrowerField(name: 'birthday' | 'tax_id', label: string, refusal: string | undefined, input: { type?: string; min?: string; maxlength?: string; dir?: string }): TemplateResult {
  const id = `charge-${name.replace('_', '-')}`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} name=${name} type=${input.type ?? 'text'} min=${input.min ?? nothing} maxlength=${input.maxlength ?? nothing} dir=${input.dir ?? nothing}
      autocomplete="off" aria-describedby="charge-borrower-hint ${id}-error" aria-invalid=${refusal ? 'true' : nothing}>
    <span class="field__error" id="${id}-error">${refusal ?? ''}</span>
  </div>`;
}

/** The typed amount in minor units, when it is one a charge can take. */
function chargeAmount(typed: string, currency: string): number | undefined {
  const amount = typedAmount(typed, currency);
  return typeof amount === 'number' && amount > 0 ? amount : undefined;
}

export function chargeDialog(
  draft: ChargeDraft,
  handlers: { submit: (request: ChargeRequest) => void; typed: (text: string) => void; close: () => void },
): TemplateResult {
  const { order, error } = draft;
  // The companion's reasons are a program's, in English and minor units: said beside each field in
  // the page's words and the currency's units, as the operation dialog says them; the customer's
  // details, which have no field here, in the notice.
  // A field the companion refused is aria-invalid; otherwise the attribute is left out, never
  // "false", which would hide from screen readers the page's own check refusing it (setCustomValidity).
  const refused = chargeRefusals(error, { currency: order.currency, example: order.amount });
  // Nothing limits what a saved card may be charged: the button names the amount before it is sent.
  const amount = chargeAmount(draft.typed, order.currency);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const fields = (event.target as HTMLFormElement).elements;
    const input = fields.namedItem('amount') as HTMLInputElement;
    const description = fields.namedItem('description') as HTMLInputElement;
    // Said here, in the page's language and the currency's own units, before anything is sent.
    const charged = chargeAmount(text('amount'), order.currency);
    const problem = typedAmountProblem(charged ?? text('amount'), order.currency, order.amount);
    input.setCustomValidity(problem);
    if (charged === undefined || problem) return void input.reportValidity();
    description.setCustomValidity(text('description') ? '' : t('dialog.descriptionEmpty'));
    if (!text('description')) return void description.reportValidity();
    const borrower = Object.fromEntries([['birthday', text('birthday')], ['tax_id', text('tax_id')]].filter(([, value]) => value));
    handlers.submit({
      amount: charged,
      description: text('description'),
      method: text('method') === 'auth' ? 'auth' : 'purchase',
      ...(Object.keys(borrower).length > 0 && { customer: borrower }),
    });
  };
  return html`<dialog class="operation-dialog charge-dialog" aria-labelledby="charge-title" @close=${handlers.close}
    @cancel=${(event: Event) => draft.busy && event.preventDefault()}>
    <form method="dialog" novalidate @submit=${submit}>
      <h2 id="charge-title">${t('action.chargeCard')}</h2>
      <p class="muted">${t('dialog.chargeCardText', { card: isolated(`•••• ${order.card?.mask.slice(-4) ?? ''}`) })}</p>
      <div class="field">
        <label for="charge-amount">${t('dialog.amount', { currency: order.currency })}</label>
        <input id="charge-amount" name="amount" inputmode="decimal" autocomplete="off" dir="ltr" required aria-required="true"
          placeholder=${editableAmount(order.amount, order.currency)} aria-describedby="charge-amount-error" aria-invalid=${refused.amount ? 'true' : nothing}
          @input=${(event: InputEvent) => {
            const input = event.target as HTMLInputElement;
            input.setCustomValidity('');
            handlers.typed(input.value);
          }}>
        <span class="field__error" id="charge-amount-error">${refused.amount ?? ''}</span>
      </div>
      <div class="field">
        <label for="charge-description">${t('dialog.description')}</label>
        <input id="charge-description" name="description" autocomplete="off" maxlength="2048" required aria-required="true" dir="auto"
          .value=${t('charge.description', { order: order.order_id })} aria-describedby="charge-description-error" aria-invalid=${refused.description ? 'true' : nothing}
          @input=${(event: InputEvent) => (event.target as HTMLInputElement).setCustomValidity('')}>
        <span class="field__error" id="charge-description-error">${refused.description ?? ''}</span>
      </div>
      <div class="field">
        <label for="charge-method">${t('dialog.method')}</label>
        <select id="charge-method" name="method">
          <option value="purchase">${t('method.purchase')}</option>
          <option value="auth">${t('method.auth')}</option>
        </select>
      </div>
      ${pageConfig().merchantSector === 'microfinance' ? borrowerFields(refused) : nothing}
      ${refusalNotice(error, refused.placed, refused.customer)}
      ${dialogActions({ busy: draft.busy, label: amount === undefined ? t('action.chargeCard') : t('charge.submit', { amount: shownAmount(amount, order.currency) }), close: handlers.close })}
    </form>
  </dialog>`;
}
