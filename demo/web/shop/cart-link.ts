/** The header's link to the checkout, with the number of items in the cart. */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from '../ui/i18n.js';
import { cartCount } from './cart.js';

const bag = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" d="M5 8h14l-1.2 12H6.2z"/><path fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" d="M9 10V7a3 3 0 0 1 6 0v3"/></svg>`;

export function cartLink(): TemplateResult {
  const count = cartCount();
  return html`<a class="cart-link" href="/checkout" aria-label="${t('cart.link')}, ${t(count === 1 ? 'cart.item' : 'cart.items', { count })}">${bag}<span>${t('cart.link')}</span><span
    class="cart-link__count">${count}</span></a>`;
}
