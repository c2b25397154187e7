/**
 * The back office's dialog for one secondary operation on an order: capture, void, refund, their
 * split variants and the cancel of an unpaid hosted payment. It asks for what the operation takes
 * (amount, shares per seller, a comment), sends it to the merchant API and shows the refusal, field
 * by field, when the companion or the gateway says no. The rules are the companion's; the dialog
 * only pre-fills what it can.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import { wireStep } from '@payform/gateway/wire';
import { amountPattern, editableAmount, fromUnits, typedAmount, typedAmountProblem, units } from './money.js';
import type { ApiAmount } from './money.js';
import { amountText, isolated, isolatedText, shownAmount } from './bidi-isolation.js';
import { outcomeUnknown } from './admin-api.js';
import type { ApiError, OrderDetail, Share } from './admin-api.js';
import { pageConfig } from './page-config.js';
import { operationRefusals } from './operation-refusals.js';
import { refusalNotice } from './refusal-notice.js';
import { applicableActions, isSplitPaid } from './order-actions.js';
import { dialogActions } from './dialog-actions.js';

export type OperationAction = 'capture' | 'split-capture' | 'void' | 'refund' | 'split-refund' | 'cancel';

export interface OperationDraft {
  readonly action: OperationAction;
  readonly order: OrderDetail;
  readonly busy: boolean;
  readonly error?: ApiError;
  /** The request `error` answers: its `split[i]` is the i-th share it sent. */
  readonly sent?: OperationRequest;
  /**
   * Made when the dialog opens and sent with every submit of it: a second click, or a retry after
   * an answer lost on the way, gets the first answer instead of refunding (capturing…) again.
   */
  readonly idempotencyKey: string;
  /** When a key opened it (`performance.now()`; -Infinity for a click): see KEY_BOUNCE_MS. */
  readonly keyedAt: number;
}

/**
 * How soon after a key opens the dialog an Enter is taken for that one, bounced or pressed twice
 * out of habit: it submits nothing. The field starts at all there is, so a
 * second Enter would refund (void, capture) the whole payment before anyone read the dialog.
 */
const KEY_BOUNCE_MS = 700;

/**
 * The dialogs (by their idempotency key) typed in since they opened: an Enter after typing is the
 * operator's own, sent however soon it comes ("5", Enter), never taken for the bounce and dropped unsaid.
 */
const typedIn = new Set<string>();

/** An Enter that is the key's bounce, or the habitual second press, that opened the dialog: it submits nothing. */
function bounced(event: KeyboardEvent, draft: OperationDraft): boolean {
  return event.key === 'Enter' && !typedIn.has(draft.idempotencyKey) && performance.now() - draft.keyedAt < KEY_BOUNCE_MS;
}

/** What the dialog sends: the API path's last part and the body. */
export interface OperationRequest {
  readonly action: OperationAction;
  readonly body: { amount?: ApiAmount; comment?: string; split?: Share[]; f_receipt_delivery?: ReceiptDelivery };
}

/** How the gateway sends a refund's receipt to the customer (its `f_receipt_delivery`); unchosen, as the project is set up to. */
const RECEIPT_DELIVERIES = ['email', 'sms', 'viber', 'none'] as const;
type ReceiptDelivery = (typeof RECEIPT_DELIVERIES)[number];
const DELIVERY_NAMES: Record<ReceiptDelivery, MessageKey> = { email: 'dialog.receiptEmail', sms: 'dialog.receiptSms', viber: 'dialog.receiptViber', none: 'dialog.receiptNone' };

const receiptDeliveryField = () => html`<div class="field">
  <label for="operation-receipt">${t('dialog.receiptDelivery')}</label>
  <select id="operation-receipt" name="receipt">
    <option value="">${t('dialog.receiptDefault')}</option>
    ${RECEIPT_DELIVERIES.map((way) => html`<option value=${way}>${t(DELIVERY_NAMES[way])}</option>`)}
  </select>
</div>`;

/** Each action's name, on its button and as its dialog's title. */
export const ACTION_NAMES: Record<OperationAction, MessageKey> = {
  capture: 'action.capture',
  'split-capture': 'action.splitCapture',
  void: 'action.void',
  refund: 'action.refund',
  'split-refund': 'action.splitRefund',
  cancel: 'action.cancel',
};

const EXPLANATIONS: Record<OperationAction, MessageKey> = {
  capture: 'dialog.captureText',
  'split-capture': 'dialog.splitCaptureText',
  void: 'dialog.voidText',
  refund: 'dialog.refundText',
  'split-refund': 'dialog.splitRefundText',
  cancel: 'dialog.cancelText',
};

export const takesAmount = (action: OperationAction) => action === 'capture' || action === 'refund';
export const isSplit = (action: OperationAction) => action === 'split-capture' || action === 'split-refund';

/**
 * What is left to refund of each seller's share, by the companion's rules: what the seller was
 * paid (a purchase's split, or the splits of an auth's successful captures) less its shares of
 * the refunds not failed. Keyed by the seller's id in lower case.
 */
export function sharesLeft(detail: OrderDetail): Map<string, { readonly id: string; readonly left: number }> {
  const { order, operations } = detail;
  const paid = order.method === 'purchase' ? [order.split] : operations.filter((operation) => operation.kind === 'capture' && operation.status === 'success').map((operation) => operation.split);
  const left = new Map<string, { id: string; left: number }>();
  for (const share of paid.flatMap((split) => split ?? [])) {
    const key = share.sub_merchant_id.toLowerCase();
    left.set(key, { id: share.sub_merchant_id, left: (left.get(key)?.left ?? 0) + units(share.amount) });
  }
  for (const share of operations.filter((operation) => operation.kind === 'refund' && operation.status !== 'failure').flatMap((operation) => operation.split ?? [])) {
    const seller = left.get(share.sub_merchant_id.toLowerCase());
    if (seller) seller.left = Math.max(0, seller.left - units(share.amount));
  }
  return left;
}

/**
 * The shares a split dialog starts from: for a refund, what is left of each seller's share; else
 * the amount spread over the sellers the back office was given.
 */
export function suggestedShares(detail: OrderDetail, action: OperationAction): Share[] {
  const left = action === 'split-refund' ? [...sharesLeft(detail).values()] : [];
  if (left.length > 0) return left.map((share) => ({ sub_merchant_id: share.id, amount: fromUnits(share.left) }));
  const sellers = pageConfig().subMerchants;
  if (sellers.length === 0) return [];
  // The reserve itself, though the project may allow capturing a little more.
  const all = Math.min(units(detail.order.amount), units(detail.totals.capturable));
  // Each a multiple of what the gateway carries (10 fils of a three-decimal currency); the first takes the rest.
  const step = wireStep(detail.order.currency);
  const each = Math.floor(all / sellers.length / step) * step;
  return sellers.map((seller, i) => ({
    sub_merchant_id: seller.id,
    amount: fromUnits(i === 0 ? all - each * (sellers.length - 1) : each),
  }));
}

/** A field per seller: the configured ones, and any other the payment was already split to. */
function shareFields(shares: readonly Share[]): { readonly id: string; readonly name: string }[] {
  const sellers = pageConfig().subMerchants;
  const known = new Set(sellers.map((seller) => seller.id.toLowerCase()));
  return [...sellers, ...shares.filter((share) => !known.has(share.sub_merchant_id.toLowerCase())).map((share) => ({ id: share.sub_merchant_id, name: share.sub_merchant_id }))];
}

export function operationDialog(
  draft: OperationDraft,
  handlers: { submit: (request: OperationRequest) => void; close: () => void },
): TemplateResult {
  const { action, order, error } = draft;
  const currency = order.order.currency;
  const capture = action === 'capture' || action === 'split-capture';
  const limit = capture ? order.totals.capturable : order.totals.refundable;
  // What an empty amount captures: the reserve, never the project's over-capture allowance.
  const held = capture ? Math.min(units(order.order.amount), units(limit)) : units(limit);
  const shares = isSplit(action) ? suggestedShares(order, action) : [];
  const sellers = isSplit(action) ? shareFields(shares) : [];
  // A field the companion refused is aria-invalid; otherwise the attribute is left out, never
  // "false", which would hide from screen readers the page's own check refusing it (setCustomValidity).
  const refused = operationRefusals(error, { currency, example: held, sellers, sent: isSplit(action) ? (draft.sent?.body.split ?? []) : undefined });
  const destructive = action === 'void' || action === 'cancel';
  // Sent before and its outcome unknown: the same request goes again under the same key, and the
  // companion answers what it did. The order read since may show it done (nothing left), so the
  // page's own limits would refuse the very request that finds that out.
  const resending = error !== undefined && outcomeUnknown(error);
  // The order read since (the live feed: another tab, the API, a webhook) no longer takes this
  // action — voided, captured or refunded elsewhere: said, rather than only "up to 0.00".
  const gone = !resending && !applicableActions(order).includes(action);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const comment = text('comment');
    const body: OperationRequest['body'] = comment ? { comment } : {};
    const delivery = RECEIPT_DELIVERIES.find((way) => way === text('receipt'));
    if (delivery) body.f_receipt_delivery = delivery;
    if (takesAmount(action)) {
      const input = (event.target as HTMLFormElement).elements.namedItem('amount') as HTMLInputElement;
      // The field starts at all there is: emptied, it says nothing, and nothing is sent for it
      // (to the API an absent amount is all that is left — one Enter away from a full refund).
      if (!text('amount')) {
        input.setCustomValidity(isolatedText(t('dialog.amountMissing', { limit: amountText(held, currency) })));
        return void input.reportValidity();
      }
      const amount = typedAmount(text('amount'), currency);
      body.amount = amount;
      // Said here, in the page's language and the currency's own units, before anything is sent.
      const problem =
        typedAmountProblem(amount, currency, held) ||
        (!resending && units(amount) > units(limit) ? isolatedText(t('dialog.amountOver', { limit: amountText(limit, currency) })) : '') ||
        // The companion would refuse it (split_refund_required): said before it is sent.
        (!resending && action === 'refund' && isSplitPaid(order) && units(amount) < units(limit) ? t('dialog.splitRefundRequired') : '');
      input.setCustomValidity(problem);
      if (problem) return void input.reportValidity();
    }
    if (isSplit(action)) {
      // Said here, in the currency's units, before anything is sent: a share finer than the
      // gateway carries, more than is left of the seller's share, or shares past the limit.
      const fields = (event.target as HTMLFormElement).elements;
      const inputs = sellers.map((_, i) => fields.namedItem(`share-${i}`) as HTMLInputElement);
      const typed = inputs.map((input) => typedAmount(input.value.trim(), currency));
      const left = action === 'split-refund' ? sharesLeft(order) : undefined;
      const problems = inputs.map((input, i) => {
        const share = typed[i]!;
        const most = resending ? undefined : left?.get(sellers[i]!.id.toLowerCase())?.left;
        const problem =
          typeof share !== 'number' || share === 0 ? '' : typedAmountProblem(share, currency, held) || (most !== undefined && share > most ? isolatedText(t('dialog.amountOver', { limit: amountText(most, currency) })) : '');
        input.setCustomValidity(problem);
        return problem;
      });
      const invalid = inputs.find((_, i) => problems[i]);
      if (invalid) return void invalid.reportValidity();
      // An empty or zero share is no share; one that is not an amount goes as typed, for the
      // companion to refuse naming the field.
      const split = sellers
        .map((seller, i) => ({ sub_merchant_id: seller.id, amount: typed[i]! }))
        .filter((share) => share.amount !== '' && share.amount !== 0);
      body.split = split;
      // The total the shares make, in whole units; the companion checks it against them.
      if (split.every((share) => typeof share.amount === 'number')) {
        const total = split.reduce((sum, share) => sum + units(share.amount), 0);
        const last = inputs.filter((_, i) => typed[i] !== '' && typed[i] !== 0).pop();
        if (last && !resending && total > units(limit)) {
          last.setCustomValidity(isolatedText(t('dialog.sharesOver', { total: amountText(total, currency), limit: amountText(limit, currency) })));
          return void last.reportValidity();
        }
        body.amount = fromUnits(total);
      }
    }
    handlers.submit({ action, body });
  };

  // The title, "Refund · 1042", isolated as a whole and taking the direction of its words, as
  // translate.ts does a sentence with a value in it; the order's id isolated in it (the title's one
  // <bdi>). Else, right to left, the separator took the page's direction and stood before the words
  // ("· Повернути"), the id on their left or, on a phone, below. The separator never starts a line.
  const title = html`<span dir="auto">${t(ACTION_NAMES[action])}\u00a0· <span class="mono">${isolated(order.order.order_id)}</span></span>`;

  return html`<dialog class="operation-dialog" aria-labelledby="operation-title"
    @close=${() => (typedIn.delete(draft.idempotencyKey), handlers.close())}
    @cancel=${(event: Event) => draft.busy && event.preventDefault()}>
    <form method="dialog" novalidate @submit=${submit} @input=${() => typedIn.add(draft.idempotencyKey)}
      @keydown=${(event: KeyboardEvent) => bounced(event, draft) && event.preventDefault()}>
      <h2 id="operation-title">${title}</h2>
      <p class="muted">${t(EXPLANATIONS[action], { limit: shownAmount(capture ? held : limit, currency) })}</p>
      ${gone ? html`<p class="notice" role="status">${t('dialog.gone', { action: t(ACTION_NAMES[action]) })}</p>` : nothing}
      ${capture && units(limit) > held
        ? html`<p class="notice">${t('dialog.overCapture', { limit: shownAmount(limit, currency), held: shownAmount(held, currency) })}</p>`
        : nothing}
      ${takesAmount(action)
        ? html`<div class="field">
            <label for="operation-amount">${t('dialog.amount', { currency })}</label>
            <input id="operation-amount" name="amount" inputmode="decimal" autocomplete="off" dir="ltr" value=${editableAmount(held, currency)}
              @focus=${(event: FocusEvent) => (event.target as HTMLInputElement).select()}
              pattern=${amountPattern(currency).source} aria-describedby="operation-amount-hint operation-amount-error" aria-invalid=${refused.amount ? 'true' : nothing}
              @input=${(event: InputEvent) => (event.target as HTMLInputElement).setCustomValidity('')}>
            <span class="field__hint" id="operation-amount-hint">${t('dialog.amountHint', { limit: shownAmount(held, currency) })}</span>
            <span class="field__error" id="operation-amount-error" aria-live="polite">${refused.amount ?? ''}</span>
          </div>`
        : nothing}
      ${isSplit(action)
        ? html`<fieldset class="shares" aria-describedby=${refused.split ? 'shares-error' : nothing}><legend>${t('dialog.shares', { currency })}</legend>
            ${refused.split ? html`<span class="field__error" id="shares-error">${refused.split}</span>` : nothing}
            ${sellers.map((seller, i) => {
              const share = shares.find((s) => s.sub_merchant_id.toLowerCase() === seller.id.toLowerCase());
              const problem = refused.shares[i];
              // A refusal of the shares as a whole marks each: the focus goes to the first, which reads the reason.
              const described = [problem && `share-${i}-error`, refused.split && 'shares-error'].filter(Boolean).join(' ');
              return html`<div class="field">
                <label for="share-${i}">${isolated(seller.name)}</label>
                <input id="share-${i}" name="share-${i}" inputmode="decimal" autocomplete="off" dir="ltr"
                  .value=${share ? editableAmount(share.amount, currency) : ''} aria-invalid=${described ? 'true' : nothing} aria-describedby=${described || nothing}
                  @input=${(event: InputEvent) => (event.target as HTMLInputElement).setCustomValidity('')}>
                ${problem ? html`<span class="field__error" id="share-${i}-error">${problem}</span>` : nothing}
              </div>`;
            })}
          </fieldset>`
        : nothing}
      ${action === 'cancel' ? nothing : html`<div class="field">
        <label for="operation-comment">${t('dialog.comment')}</label>
        <input id="operation-comment" name="comment" autocomplete="off" maxlength="2048" dir="auto">
      </div>`}
      ${action === 'refund' ? receiptDeliveryField() : nothing}
      ${refusalNotice(error, refused.placed)}
      ${dialogActions({ busy: draft.busy, label: t(ACTION_NAMES[action]), close: handlers.close, danger: destructive })}
    </form>
  </dialog>`;
}
