/** Pieces the checkout, 3-D Secure and outcome pages share. */
import { html } from 'hono/html';
import { formatCardNumber, TEST_CARDS } from '@payform/gateway/testing';
import { formatMinorUnits } from '@payform/gateway';
import { BRAND_NAMES } from '../state/cards.js';
import type { Payment } from '../state/records.js';
import type { Markup } from './layout.js';

/** Who is paid, for what, how much. */
export function paymentSummary(payment: Payment, merchant: string): Markup {
  const card = payment.card;
  return html`<dl class="summary">
<dt>Merchant</dt><dd>${merchant}</dd>
<dt>Order</dt><dd>${payment.orderId}</dd>
<dt>Description</dt><dd>${payment.description}</dd>
${card ? html`<dt>Card</dt><dd>${BRAND_NAMES[card.brand]} ending ${card.mask.slice(-4)}</dd>` : ''}
<dt>Amount</dt><dd class="amount">${formatMinorUnits(payment.amount, payment.currency)}</dd>
</dl>`;
}

/** The sandbox's test cards, so a tester on the page knows what to type. */
export function testCardTable(): Markup {
  return html`<details>
<summary>Sandbox test cards</summary>
<p class="hint">Any future expiry date and any security code of the right length (4 digits for American Express).</p>
<table>
<caption class="visually-hidden">Test cards and what they do</caption>
<thead><tr><th scope="col">Card number</th><th scope="col">Outcome</th></tr></thead>
<tbody>
${TEST_CARDS.map((card) => html`<tr><td class="number">${formatCardNumber(card.number)}</td><td>${BRAND_NAMES[card.brand]}: ${card.label}</td></tr>`)}
</tbody>
</table>
</details>`;
}
