/**
 * `/checkout`: contact details and payment options (the shop's own form), then the payment: the
 * shop's server opens a checkout session for the cart and the page embeds `<pay-form>` for it,
 * with `<pay-button>` as the way to pay on the gateway's own page instead.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { SHOP_CURRENCY, cartTotal, productById, sellerById, sellerShares } from '../../catalog.js';
import { t } from '../ui/i18n.js';
import type { MessageKey } from '../ui/i18n.js';
// Isolated, as the back office's amounts are: in the right-to-left preview "420,00 грн" read "грн 420,00".
import { shownAmount } from '../../../server/companion/back-office/web/bidi-isolation.js';
import { mountPage } from '../ui/page-chrome.js';
import { preferences } from '../../../server/companion/back-office/web/preferences.js';
import { testCardsPanel } from '../ui/test-cards-panel.js';
import { cartLines, onCartChange } from './cart.js';
import { cartLink } from './cart-link.js';
import { keepCheckout, keptCheckout } from './kept-checkout.js';
import { openCheckout, readSession, ShopError } from './shop-api.js';
import type { CheckoutOptions, Contact, OpenedCheckout } from './shop-api.js';

/** `ended`: the session can no longer be paid (its attempts used up, or it expired): a new one can. */
type Step = { name: 'details' } | { name: 'opening' } | { name: 'paying'; checkout: OpenedCheckout; ended?: boolean };

const CONTACT_KEY = 'kavarnia:contact';
/** Whether this browser last asked for its card to be remembered: the next checkout offers it so. */
const REMEMBER_KEY = 'kavarnia:remember-card';
const FIELDS = [
  ['fname', 'given-name', 'text'],
  ['lname', 'family-name', 'text'],
  ['email', 'email', 'email'],
  ['phone', 'tel', 'tel'],
] as const satisfies readonly (readonly [keyof Contact, string, string])[];

/** A demo customer, so a sales demo goes straight to the card; every field can be changed. */
const DEMO_CONTACT: Contact = { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380 67 123 4567' };

const kept = keptCheckout();
let step: Step = kept ? { name: 'paying', checkout: kept.checkout } : { name: 'details' };
let contact: Contact = storedContact();
let options: CheckoutOptions = kept?.options ?? { method: 'purchase', split: false, remember_card: rememberAsked() };
let errors: Partial<Record<keyof Contact, string>> = {};
let problem = '';
/** Shown again while offline: the page waits for the connection to load itself again. */
let waitingToReload = false;

const page = mountPage('checkout', content, cartLink);
onCartChange(() => {
  if (step.name === 'paying') void cartChangedWhilePaying(step.checkout);
  else page.refresh();
});
// Back from 3-D Secure or the hosted page through the browser's cache: the form shows what it
// showed when the customer left. Loaded again, it reads what became of the session meanwhile.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  if (step.name === 'paying') return reloadWhenOnline();
  step = { name: 'details' };
  page.refresh();
});

/**
 * Loads the page again, once there is a connection to load it with: offline, a reload put the
 * browser's own error page in place of the checkout. Until then the page stays as it was and says why.
 */
function reloadWhenOnline(): void {
  if (navigator.onLine) return location.reload();
  if (waitingToReload) return;
  waitingToReload = true;
  page.refresh();
  addEventListener('online', () => location.reload(), { once: true });
}
document.addEventListener('pay-success', (event) => {
  if (step.name !== 'paying') return;
  const { session, order_id: orderId } = step.checkout;
  // <pay-form> and <pay-button> follow the same session and each says it is paid: the page leaves once.
  // The session stays kept until the result page has shown it paid (it empties the cart, which a
  // kept checkout then no longer matches, and drops it): reloaded before the result page came,
  // this page shows the session paid, not a new one to pay a second time.
  step = { name: 'details' };
  showResult(session, (event as CustomEvent<{ orderId?: string }>).detail.orderId ?? orderId);
});

// The form says why the session ended; the shop offers a new one for the same cart and details.
document.addEventListener('pay-error', (event) => {
  if (step.name !== 'paying' || (event as CustomEvent<{ code: string }>).detail.code !== 'closed') return;
  step = { ...step, ended: true };
  page.refresh();
});

function content(): TemplateResult {
  const lines = cartLines();
  if (lines.length === 0 && step.name !== 'paying') {
    return html`<h1>${t('checkout.heading')}</h1>
      <div class="panel empty-cart"><p>${t('checkout.empty')}</p><a class="button" href="/">${t('checkout.backToShop')}</a></div>`;
  }
  return html`<h1>${t('checkout.heading')}</h1>
    <div class="checkout-layout">
      <div class="checkout-main">
        ${step.name === 'paying' ? detailsSummary() : detailsForm()}
        ${step.name === 'paying' ? paymentSection(step.checkout, step.ended) : nothing}
      </div>
      <aside class="checkout-aside">
        ${orderSummary()}
        ${testCardsPanel(() => page.refresh())}
      </aside>
    </div>`;
}

function detailsForm(): TemplateResult {
  const opening = step.name === 'opening';
  const field = ([name, autocomplete, type]: (typeof FIELDS)[number]) => html`<div class="field">
    <label for="contact-${name}">${t(`contact.${name}`)}</label>
    <input id="contact-${name}" name=${name} type=${type} autocomplete=${autocomplete} required aria-required="true"
      dir=${type === 'text' ? nothing : 'ltr'} .value=${contact[name]} aria-invalid=${errors[name] ? 'true' : 'false'}
      aria-describedby="contact-${name}-error" @input=${(event: Event) => (contact = { ...contact, [name]: (event.target as HTMLInputElement).value })}>
    <span class="field__error" id="contact-${name}-error">${errors[name] ?? ''}</span>
  </div>`;
  return html`<form class="panel" novalidate @submit=${submit} aria-labelledby="details-heading" aria-busy=${opening ? 'true' : 'false'}>
    <h2 id="details-heading">${t('checkout.details')}</h2>
    <fieldset>
      <legend>${t('checkout.contact')}</legend>
      <div class="fields">${FIELDS.map(field)}</div>
    </fieldset>
    <fieldset class="options">
      <legend>${t('checkout.options')}</legend>
      <div class="choices">
        ${methodChoice('purchase', 'option.purchase', 'option.purchaseText')}
        ${methodChoice('auth', 'option.auth', 'option.authText')}
        ${methodChoice('lookup', 'option.saveCard', 'option.saveCardText')}
      </div>
      <div class="choices">
        ${toggleChoice('split', options.method !== 'purchase', 'option.split', options.method === 'auth' ? 'option.splitAuthText' : 'option.splitText')}
        ${toggleChoice('remember_card', options.method === 'lookup', 'option.remember', 'option.rememberText')}
      </div>
    </fieldset>
    ${problem ? html`<p class="notice notice--error" role="alert">${problem}</p>` : nothing}
    <button class="button button--block" type="submit" ?disabled=${opening}>${opening ? t('checkout.opening') : t('checkout.continue')}</button>
  </form>`;
}

function methodChoice(method: CheckoutOptions['method'], label: MessageKey, text: MessageKey): TemplateResult {
  return html`<label class="choice">
    <input type="radio" name="method" value=${method} .checked=${options.method === method}
      @change=${() => {
        options = { ...options, method };
        page.refresh();
      }}>
    <span><strong>${t(label)}</strong><span>${t(text)}</span></span>
  </label>`;
}

function toggleChoice(name: 'split' | 'remember_card', disabled: boolean, label: MessageKey, text: MessageKey): TemplateResult {
  return html`<label class="choice">
    <input type="checkbox" name=${name} .checked=${name === 'remember_card' && options.method === 'lookup' ? true : options[name] && !disabled} ?disabled=${disabled}
      @change=${(event: Event) => {
        options = { ...options, [name]: (event.target as HTMLInputElement).checked };
        page.refresh();
      }}>
    <span><strong>${t(label)}</strong><span>${t(text)}</span></span>
  </label>`;
}

function detailsSummary(): TemplateResult {
  const chosen = [
    t(options.method === 'auth' ? 'option.auth' : options.method === 'lookup' ? 'option.saveCard' : 'option.purchase'),
    ...(options.split && options.method === 'purchase' ? [t('option.split')] : []),
    ...(options.remember_card ? [t('option.remember')] : []),
  ];
  return html`<section class="panel details-summary" aria-labelledby="details-heading">
    <div class="details-summary__head">
      <h2 id="details-heading">${t('checkout.details')}</h2>
      <button class="button button--quiet button--small" type="button" @click=${() => {
        backToDetails();
        page.refresh();
      }}>${t('checkout.edit')}</button>
    </div>
    <p>${contact.fname} ${contact.lname} · <span dir="ltr">${contact.email}</span> · <span class="details-summary__phone" dir="ltr">${contact.phone}</span></p>
    <p class="muted">${chosen.join(' · ')}</p>
  </section>`;
}

function paymentSection(checkout: OpenedCheckout, ended = false): TemplateResult {
  const { lang } = preferences();
  return html`<section class="panel payment" aria-labelledby="payment-heading">
    <h2 id="payment-heading" tabindex="-1">${t('checkout.payment')}</h2>
    <p class="muted">${t('checkout.paymentText', { order: checkout.order_id })}</p>
    ${waitingToReload ? html`<p class="notice" role="alert">${t('checkout.offline')}</p>` : nothing}
    <section aria-labelledby="card-heading">
      <h3 id="card-heading" class="visually-hidden">${t('checkout.byCard')}</h3>
      <pay-form session=${checkout.session} lang=${lang}></pay-form>
      ${ended ? html`<button class="button start-again" type="button" @click=${() => void openCheckoutForCart()}>${t('checkout.startAgain')}</button>` : nothing}
    </section>
    <div class="or" role="presentation"><span>${t('checkout.or')}</span></div>
    <section aria-labelledby="hosted-heading">
      <h3 id="hosted-heading">${t('checkout.hosted')}</h3>
      <p class="muted">${t('checkout.hostedText')}</p>
      <pay-button session=${checkout.session} lang=${lang}></pay-button>
    </section>
  </section>`;
}

function orderSummary(): TemplateResult {
  const { lang } = preferences();
  const lines = cartLines();
  const shares = sellerShares(lines);
  return html`<section class="panel summary" aria-labelledby="summary-heading">
    <h2 id="summary-heading">${t('checkout.summary')}</h2>
    <ul class="summary__lines">
      ${lines.map((line) => {
        const product = productById(line.product)!;
        return html`<li><span>${line.quantity} × ${product.name[lang]}</span><span>${shownAmount(product.price * line.quantity, SHOP_CURRENCY)}</span></li>`;
      })}
    </ul>
    <p class="summary__total"><span>${t('cart.total')}</span><strong>${shownAmount(cartTotal(lines), SHOP_CURRENCY)}</strong></p>
    ${options.split && options.method === 'purchase'
      ? html`<h3 class="summary__split-heading">${t('checkout.splitHeading')}</h3>
          <ul class="summary__lines summary__lines--split">
            ${shares.map((share) => html`<li><span>${sellerById(share.seller.id)!.name}</span><span>${shownAmount(share.amount, SHOP_CURRENCY)}</span></li>`)}
          </ul>`
      : nothing}
  </section>`;
}

async function submit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  errors = Object.fromEntries(
    FIELDS.flatMap(([name]) => {
      const input = form.elements.namedItem(name) as HTMLInputElement;
      if (!input.value.trim()) return [[name, t('contact.required')]];
      // Only the e-mail field has a format the browser checks.
      return input.validity.valid ? [] : [[name, t('contact.emailInvalid')]];
    }),
  );
  problem = '';
  if (Object.keys(errors).length > 0) {
    page.refresh();
    form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
    return;
  }
  saveContact(contact);
  await openCheckoutForCart();
}

/** Opens a checkout session for the cart with the details given, and shows its payment. */
async function openCheckoutForCart(): Promise<void> {
  step = { name: 'opening' };
  page.refresh();
  try {
    const checkout = await openCheckout({ lines: cartLines(), customer: contact, ...options, split: options.split && options.method === 'purchase', lang: preferences().lang });
    step = { name: 'paying', checkout };
    keepCheckout({ cart: JSON.stringify(cartLines()), options, checkout });
    // A verification always remembers the card (the shop's backend gives it a customer).
    keepRememberAsked(options.remember_card || options.method === 'lookup');
    page.refresh();
    // Screen readers hear where they are; the next Tab reaches the card number.
    document.querySelector<HTMLElement>('#payment-heading')?.focus();
  } catch (error) {
    step = { name: 'details' };
    if (error instanceof ShopError) {
      errors = Object.fromEntries(
        Object.entries(error.fields).flatMap(([path, reason]) => {
          const name = /^customer\.(fname|lname|email|phone)$/.exec(path)?.[1];
          return name ? [[name, reason]] : [];
        }),
      );
    }
    // No answer at all (offline, a dropped connection): fetch's own words ("Failed to fetch") tell the customer nothing.
    const message = error instanceof TypeError ? t('checkout.unreachable') : error instanceof Error ? error.message : String(error);
    problem = t('checkout.failed', { message });
    page.refresh();
  }
}

function storedContact(): Contact {
  try {
    const stored = JSON.parse(sessionStorage.getItem(CONTACT_KEY) ?? 'null') as Partial<Contact> | null;
    return { ...DEMO_CONTACT, ...stored };
  } catch {
    return DEMO_CONTACT;
  }
}

function saveContact(value: Contact): void {
  try {
    sessionStorage.setItem(CONTACT_KEY, JSON.stringify(value));
  } catch {
    // Not kept: the demo customer comes back next time.
  }
}

function rememberAsked(): boolean {
  try {
    return localStorage.getItem(REMEMBER_KEY) === 'yes';
  } catch {
    return false;
  }
}

function keepRememberAsked(asked: boolean): void {
  try {
    if (asked) localStorage.setItem(REMEMBER_KEY, 'yes');
    else localStorage.removeItem(REMEMBER_KEY);
  } catch {
    // Not kept: the next checkout asks again.
  }
}

function showResult(session: string, orderId: string): void {
  location.assign(`/result?${new URLSearchParams({ checkout_session: session, order_id: orderId })}`);
}

/**
 * The cart changed in another tab while this one shows its session. Paid there (a duplicated tab:
 * the result page emptied the cart), this tab shows the payment rather than an empty cart that
 * leaves the customer wondering; otherwise the session no longer matches the cart.
 */
async function cartChangedWhilePaying(checkout: OpenedCheckout): Promise<void> {
  const status = await readSession(checkout.session).then(({ status }) => status, () => undefined);
  if (step.name !== 'paying' || step.checkout !== checkout) return;
  if (status === 'success') return showResult(checkout.session, checkout.order_id);
  backToDetails();
  page.refresh();
}

function backToDetails(): void {
  step = { name: 'details' };
  keepCheckout(undefined);
}
