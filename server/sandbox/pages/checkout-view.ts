/**
 * The hosted checkout page: the gateway's own card form. Plain HTML that posts back to itself;
 * errors come back from the server in an error summary (linked to each field) and next to the
 * field, with aria-invalid and aria-describedby. The card number and security code are never
 * written back into the page.
 */
import { html } from 'hono/html';
import type { Payment } from '../state/records.js';
import type { CardField, FieldError } from './card-form.js';
import { layout } from './layout.js';
import type { Markup } from './layout.js';
import { paymentSummary, testCardTable } from './page-parts.js';
import { formatMinorUnits } from '@payform/gateway';

export interface CheckoutForm {
  readonly errors: readonly FieldError[];
  /** Expiry values to show again after an error (not secret, unlike number and code). */
  readonly kept: { readonly exp_month?: string; readonly exp_year?: string };
}

const EMPTY: CheckoutForm = { errors: [], kept: {} };

const FIELD_IDS: Readonly<Record<CardField, string>> = {
  cc_number: 'card-number',
  exp_month: 'expiry-month',
  exp_year: 'expiry-year',
  card_cvv: 'security-code',
};

interface InputSpec {
  readonly field: CardField;
  readonly label: string;
  readonly hint?: string;
  readonly autocomplete: string;
  readonly maxlength: number;
  readonly value?: string | undefined;
}

function input(spec: InputSpec, errors: readonly FieldError[]): Markup {
  const id = FIELD_IDS[spec.field];
  const error = errors.find((candidate) => candidate.field === spec.field);
  const describedBy = [spec.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${spec.label}</label>
${spec.hint ? html`<p class="hint" id="${id}-hint">${spec.hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error"><span class="visually-hidden">Error:</span> ${error.message}</p>` : ''}
<input id="${id}" name="${spec.field}" type="text" inputmode="numeric" autocomplete="${spec.autocomplete}" maxlength="${spec.maxlength}"
 spellcheck="false" required${error ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${spec.value ? html` value="${spec.value}"` : ''}>
</div>`;
}

export function checkoutPage(payment: Payment, merchant: string, action: string, form: CheckoutForm = EMPTY): Markup {
  const { errors, kept } = form;
  const verification = payment.method === 'lookup';
  const title = verification ? 'Verify your card' : `Pay ${merchant}`;
  const resultUrl = payment.details.result_url;
  return layout(
    errors.length > 0 ? `Error: ${title}` : title,
    html`<h1>${title}</h1>
${errors.length > 0
  ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul>${errors.map((error) => html`<li><a href="#${FIELD_IDS[error.field]}">${error.message}</a></li>`)}</ul>
</div>`
  : ''}
${paymentSummary(payment, merchant)}
<form method="post" action="${action}" novalidate>
${input({ field: 'cc_number', label: 'Card number', hint: 'The long number on the front of your card', autocomplete: 'cc-number', maxlength: 23 }, errors)}
<fieldset>
<legend>Expiry date</legend>
<div class="row">
${input({ field: 'exp_month', label: 'Month', hint: 'For example, 08', autocomplete: 'cc-exp-month', maxlength: 2, value: kept.exp_month }, errors)}
${input({ field: 'exp_year', label: 'Year', hint: 'For example, 29', autocomplete: 'cc-exp-year', maxlength: 4, value: kept.exp_year }, errors)}
</div>
</fieldset>
${input({ field: 'card_cvv', label: 'Security code', hint: 'The last 3 digits on the back of the card (4 on the front for American Express)', autocomplete: 'cc-csc', maxlength: 4 }, errors)}
<div class="actions">
<button type="submit">${verification ? 'Verify card' : `Pay ${formatMinorUnits(payment.amount, payment.currency)}`}</button>
${resultUrl ? html`<a href="${resultUrl}">Return to ${merchant} without paying</a>` : ''}
</div>
</form>
${testCardTable()}`,
  );
}
