/**
 * The 3-D Secure challenge page: the issuer's step in which the cardholder confirms the payment.
 * The sandbox lets the tester choose the issuer's answer. A plain form with two submit buttons
 * works without JavaScript; the button pressed decides `result`.
 */
import { html } from 'hono/html';
import type { Payment } from '../state/records.js';
import { layout } from './layout.js';
import type { Markup } from './layout.js';
import { paymentSummary } from './page-parts.js';

export function challengePage(payment: Payment, merchant: string, action: string, error?: string): Markup {
  return layout(
    '3-D Secure verification',
    html`<h1>Confirm this payment with your bank</h1>
${error ? html`<div class="error-summary" role="alert"><h2>There is a problem</h2><p>${error}</p></div>` : ''}
<p>Your card issuer asks you to confirm this payment (3-D Secure).</p>
${paymentSummary(payment, merchant)}
<p class="hint" id="challenge-hint">In the sandbox there is no code to enter: choose how the issuer answers.</p>
<form method="post" action="${action}" aria-describedby="challenge-hint">
<div class="actions">
<button type="submit" name="result" value="success">Complete authentication</button>
<button type="submit" name="result" value="failure" class="secondary">Fail authentication</button>
</div>
</form>`,
  );
}
