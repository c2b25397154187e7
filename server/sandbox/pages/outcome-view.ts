/**
 * What the customer sees when there is nowhere to return to (no result_url), or when a page is
 * opened again after the payment moved on.
 */
import { html } from 'hono/html';
import type { Payment } from '../state/records.js';
import { layout } from './layout.js';
import type { Markup } from './layout.js';
import { paymentSummary } from './page-parts.js';

export function outcomeTitle(payment: Payment): string {
  const verification = payment.method === 'lookup';
  switch (payment.status) {
    case 'success':
      return verification ? 'Card verified' : 'Payment successful';
    case 'pending':
      return 'Payment is being processed';
    case 'init':
      return 'Payment not started';
    case 'failure':
      if (payment.statusCode === '6007') return 'Payment cancelled';
      if (payment.statusCode === '4149') return 'Payment page expired';
      return verification ? 'Card not verified' : 'Payment declined';
  }
}

export function outcomePage(payment: Payment, merchant: string, description: string | undefined): Markup {
  const title = outcomeTitle(payment);
  const tone = payment.status === 'success' ? 'outcome-success' : payment.status === 'failure' ? 'outcome-failure' : '';
  const resultUrl = payment.details.result_url;
  return layout(
    title,
    html`<h1 class="${tone}">${title}</h1>
${description ? html`<p>${description}</p>` : ''}
${paymentSummary(payment, merchant)}
${resultUrl ? html`<p><a href="${resultUrl}">Return to ${merchant}</a></p>` : html`<p>You can close this page.</p>`}`,
  );
}

/** A page for a link that leads nowhere (unknown or finished session). */
export function missingPage(title: string, message: string): Markup {
  return layout(title, html`<h1>${title}</h1><p>${message}</p>`);
}
