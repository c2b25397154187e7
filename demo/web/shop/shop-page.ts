/** `/`: the products, the cart beside them, the test cards. */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { PRODUCTS, SHOP_CURRENCY, cartTotal, productById, sellerById } from '../../catalog.js';
import type { Product } from '../../catalog.js';
import { t } from '../ui/i18n.js';
// Isolated, as the back office's amounts are: in the right-to-left preview "420,00 грн" read "грн 420,00".
import { shownAmount } from '../../../server/companion/back-office/web/bidi-isolation.js';
import { mountPage } from '../ui/page-chrome.js';
import { preferences } from '../../../server/companion/back-office/web/preferences.js';
import { productArt } from '../ui/product-art.js';
import { testCardsPanel } from '../ui/test-cards-panel.js';
import { addToCart, cartLines, onCartChange, setQuantity } from './cart.js';
import { cartLink } from './cart-link.js';

/** The three makers' goods on the front page's picture. */
const HERO_PRODUCTS = ['ethiopia-guji', 'kosiv-cup', 'clay-dripper'];

const page = mountPage('shop', content, cartLink);
onCartChange(page.refresh);

function content(): TemplateResult {
  return html`<section class="hero" aria-labelledby="hero-heading">
      <div>
        <p class="hero__eyebrow">${t('hero.eyebrow')}</p>
        <h1 id="hero-heading">${t('hero.title')}</h1>
        <p class="hero__text">${t('hero.text')}</p>
        <p class="hero__note"><span class="test-pill">${t('testMode')}</span> ${t('hero.testNote')}</p>
      </div>
      <div class="hero__art" aria-hidden="true">${HERO_PRODUCTS.map((id) => productArt(productById(id)!))}</div>
    </section>
    <div class="shop-layout">
      <section aria-labelledby="products-heading">
        <h2 id="products-heading" class="section-heading">${t('products.heading')}</h2>
        <ul class="product-grid">${PRODUCTS.map(productCard)}</ul>
      </section>
      <aside class="shop-aside">
        ${cartPanel()}
        ${testCardsPanel(() => page.refresh())}
      </aside>
    </div>`;
}

function productCard(product: Product): TemplateResult {
  const { lang } = preferences();
  const inCart = cartLines().find((line) => line.product === product.id)?.quantity ?? 0;
  const name = product.name[lang];
  return html`<li class="product">
    ${productArt(product)}
    <div class="product__body">
      <h3 class="product__name">${name}</h3>
      <p class="product__note">${product.note[lang]}</p>
      <p class="product__seller">${t('product.by', { seller: sellerById(product.seller)!.name })}</p>
    </div>
    <div class="product__buy">
      <span class="product__price">${shownAmount(product.price, SHOP_CURRENCY)}</span>
      <button class="button button--small" type="button" aria-label="${t('product.add')}: ${name}" @click=${() => addToCart(product.id)}>${t('product.add')}</button>
    </div>
    ${inCart ? html`<p class="product__in-cart">${t('product.inCart', { count: inCart })}</p>` : nothing}
  </li>`;
}

function cartPanel(): TemplateResult {
  const { lang } = preferences();
  const lines = cartLines();
  return html`<section class="panel cart" id="cart" aria-labelledby="cart-heading">
    <h2 id="cart-heading">${t('cart.heading')}</h2>
    ${lines.length === 0
      ? html`<p class="muted">${t('cart.empty')}</p>`
      : html`<ul class="cart__lines">
            ${lines.map((line) => {
              const product = productById(line.product)!;
              const name = product.name[lang];
              return html`<li class="cart__line">
                <span class="cart__name">${name}</span>
                <span class="stepper" role="group" aria-label=${t('cart.quantityOf', { name })}>
                  <button type="button" class="icon-button" @click=${() => setQuantity(product.id, line.quantity - 1)}
                    aria-label=${line.quantity === 1 ? t('cart.remove', { name }) : t('cart.less', { name })}>−</button>
                  <output aria-live="off">${line.quantity}</output>
                  <button type="button" class="icon-button" @click=${() => setQuantity(product.id, line.quantity + 1)}
                    aria-label=${t('cart.more', { name })}>+</button>
                </span>
                <span class="cart__price">${shownAmount(product.price * line.quantity, SHOP_CURRENCY)}</span>
              </li>`;
            })}
          </ul>
          <p class="cart__total"><span>${t('cart.total')}</span><strong>${shownAmount(cartTotal(lines), SHOP_CURRENCY)}</strong></p>
          <a class="button button--block" href="/checkout">${t('cart.checkout')}</a>`}
  </section>`;
}
