/**
 * `/result`: where the customer lands after 3-D Secure or the gateway's page (the companion's
 * return route sends them here with `checkout_session`), and after paying on the checkout page.
 * The state shown is the session's, read from the companion and followed by `<pay-form>` — never
 * the `status` or `order_id` in the address, which anyone can type. A failed payment can be
 * retried right here.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from '../ui/i18n.js';
import type { MessageKey } from '../ui/i18n.js';
// Isolated, as the back office's amounts are: in the right-to-left preview "420,00 грн" read "грн 420,00".
import { shownAmount } from '../../../server/companion/back-office/web/bidi-isolation.js';
import { mountPage } from '../ui/page-chrome.js';
import { preferences } from '../../../server/companion/back-office/web/preferences.js';
import { clearCart } from './cart.js';
import { cartLink } from './cart-link.js';
import { keepCheckout } from './kept-checkout.js';
import { readSession } from './shop-api.js';
import type { SessionSummary } from './shop-api.js';

type Outcome = SessionSummary['status'] | 'loading' | 'unknown';

const sessionId = new URLSearchParams(location.search).get('checkout_session') ?? '';
let outcome: Outcome = sessionId ? 'loading' : 'unknown';
let summary: SessionSummary | undefined;
// The order shown is the session's (its view, then the widget's answers), never the `order_id`
// in the address: anyone can send a customer here with another order's id in the link.
let orderId: string | undefined;

const HEADINGS: Record<Outcome, [MessageKey, MessageKey | undefined]> = {
  loading: ['result.loading', undefined],
  open: ['result.openHeading', 'result.openText'],
  pending: ['result.pendingHeading', 'result.pendingText'],
  success: ['result.successHeading', 'result.successText'],
  failure: ['result.failureHeading', 'result.failureText'],
  expired: ['result.expiredHeading', 'result.expiredText'],
  unknown: ['result.unknownHeading', 'result.unknownText'],
};

const ICONS: Partial<Record<Outcome, string>> = { success: '✓', failure: '!', expired: '!', unknown: '?', open: '…', pending: '…' };

function content(): TemplateResult {
  // A card verification saved a card: it paid for nothing.
  const [heading, text] = outcome === 'success' && summary?.method === 'lookup' ? (['result.savedHeading', 'result.savedText'] as const) : HEADINGS[outcome];
  const { lang } = preferences();
  return html`<section class="result result--${outcome}" aria-labelledby="result-heading">
    <div class="result__head">
      ${ICONS[outcome] ? html`<span class="result__icon" aria-hidden="true">${ICONS[outcome]}</span>` : nothing}
      <div>
        <h1 id="result-heading">${t(heading)}</h1>
        ${text ? html`<p class="result__text">${t(text)}</p>` : nothing}
      </div>
    </div>
    ${summary
      ? html`<dl class="result__facts">
          <div><dt>${t('result.order')}</dt><dd class="mono">${orderId ?? summary.order_id ?? '—'}</dd></div>
          <div><dt>${t('result.amount')}</dt><dd>${shownAmount(summary.amount, summary.currency)}</dd></div>
          ${summary.description ? html`<div class="result__wide"><dt>${t('result.items')}</dt><dd>${summary.description.replace(/^Kavarnia: /, '')}</dd></div>` : nothing}
        </dl>`
      : nothing}
    ${sessionId && outcome !== 'unknown' && outcome !== 'success'
      ? html`<div class="result__payment"><pay-form session=${sessionId} lang=${lang}></pay-form></div>`
      : nothing}
    <p class="result__actions">
      <a class="button" href="/">${t('result.continue')}</a>
      ${orderId ?? summary?.order_id ? html`<a class="button button--quiet" href="/admin?${new URLSearchParams({ order: (orderId ?? summary?.order_id)! })}">${t('result.backOffice')}</a>` : nothing}
    </p>
  </section>`;
}

const page = mountPage('result', content, cartLink);

function show(next: Outcome): void {
  // A saved card bought nothing: the cart stays.
  if (next === 'success' && summary?.method !== 'lookup') clearCart();
  // Paid: the checkout this tab kept for a reload (checkout-page.ts) is done with.
  if (next === 'success') keepCheckout(undefined);
  outcome = next;
  page.refresh();
}

document.addEventListener('pay-success', (event) => {
  orderId = (event as CustomEvent<{ orderId?: string }>).detail.orderId ?? orderId;
  show('success');
});
document.addEventListener('pay-failure', (event) => {
  orderId = (event as CustomEvent<{ orderId?: string }>).detail.orderId ?? orderId;
  show('failure');
});
// The widget is polling a pending payment: say so until it settles.
document.addEventListener('pay-ready', () => {
  if (outcome === 'pending') show('open');
});

if (sessionId) {
  try {
    summary = await readSession(sessionId);
    // The widget's events may have come first; they are newer.
    if (outcome === 'loading') show(summary.status);
    else page.refresh();
  } catch {
    show('unknown');
  }
}
