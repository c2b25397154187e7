/** Each element told of this chunk (`ready`): what it does from then on, wired once. */
import { html, type ReactiveElement, type TemplateResult } from 'lit';
import type { PayForm } from '../pay-form/pay-form.js';
import type { CheckoutElement } from './checkout-element.js';
import { unloaded } from './companion.js';
import { keepSummary, relocalise, sayOnce } from './announcements.js';
import { offering, share, tellConnection } from './awaiting.js';
import { unfollow } from './following.js';
import { isForm, type Form } from './form.js';
import { anotherSession, keepCard, keepTyped } from './kept-typing.js';
import { follow, release } from './one-payment.js';
import { declinedAt } from './outcome.js';
import { relay, TOLD } from './relay.js';
import { held, payers, shown } from './session-elements.js';
import { keepTime, offerTime } from './time-to-pay.js';
import { checkTimings } from './timings.js';
import { composed } from './typing.js';

let warned = false;
const told = new WeakSet<CheckoutElement>();
/** Each form's test mode card list, once its chunk has come (`listTestCards`). */
const testCards = new WeakMap<CheckoutElement, () => TemplateResult | ''>();

/**
 * Loaded as an element shows (checkout-element.ts, `loadPaying`), and told of each; of one made
 * later, as it is made (`tellMade`). On a page that is not a secure context a form's card
 * fields are off (a card is never typed into a page anyone on the way can read or change): the
 * developer hears why, once, from the first `<pay-form>`; a
 * `<pay-button>` only ever goes to the hosted page, and says nothing of it. Each element's live
 * region follows a change of language from then on (`relocalise`), what it says is heard once a
 * page (`sayOnce`), and its payments hold the other elements of its session (`follow`), also
 * once it is out of the page (`relay`).
 */
export function ready(element: CheckoutElement): void {
  if (!told.has(element)) {
    told.add(element);
    // Rendered before this chunk came, its saved cards' marks wait for the brand detector here.
    element.requestUpdate();
    tellMade(element);
    relocalise(element);
    if (isForm(element)) keepSummary(element);
    keepTime(element);
    offerTime(element);
    if (isForm(element)) listTestCards(element);
    if (isForm(element)) keepTyped(element);
    if (isForm(element)) keepCard(element);
    if (isForm(element)) composed(element);
    // Typing after a decline is a new try: a click then pays at once (`claim`).
    if (isForm(element)) element.addEventListener('input', () => declinedAt.delete(element));
    // Tokenize mode's chunk comes now too, not after the click: on a slow network it was a round
    // trip more before every payment. A failure here is met again, and told, at the click.
    if (isForm(element) && element.view?.tokenizer) import('../pay-form/tokenized.js').catch(() => undefined);
    anotherSession(element);
    // Captured: at its target, before the page's own listeners.
    for (const type of TOLD) element.addEventListener(type, (event) => relay(element, event as CustomEvent), true);
    element.addController({
      // Shown, or back in the page, while one of its session pays (in the page or out of it): held at once.
      hostConnected: () => {
        shown.add(element);
        for (const each of [element, ...payers]) follow(each);
      },
      hostDisconnected: () => {
        shown.delete(element);
        unfollow(element);
        // Offering its session's challenge, it hands the offer on to an element of the session still in the page.
        if (offering.get(element.session) === element) share(element.session);
        if (held.has(element)) return release(element);
        // Its payment goes on: judged once it is out of the page, not as a modal or a portal moves it.
        queueMicrotask(() => element.isConnected || follow(element));
      },
      // Ready once it has read the session (told as it was made, it was reading as it came in): held
      // as it shows, in this update. Confirming or waiting offline (as it begins, or "Check
      // again" pressed), the reader of the outcome says so rather than what it would say online (`tellConnection`).
      hostUpdate: () => {
        payers.forEach(follow);
        tellConnection(element);
      },
      hostUpdated: () => {
        follow(element);
        // Its phase or session changed: the offer of a challenge may move to or from it.
        for (const [session, owner] of offering) if (owner === element) share(session);
        share(element.session);
      },
    });
    // Last: it hears the words every other controller leaves in the live region for this update.
    sayOnce(element);
  }
  checkTimings(element);
  // Back from the bank or the hosted page to an element ready to pay another session: said
  // (diagnose.ts), here rather than in the bundle every page loads first.
  if (element.view && location.search.includes('checkout_session=')) void import('./diagnose.js').then((module) => module.returnedElsewhere(element), () => {});
  if (!isForm(element)) return;
  // Test mode's card list, once a form shows a test session (`listTestCards`); asked for once.
  if (element.view?.test && !testCards.has(element)) {
    testCards.set(element, () => '');
    void import('../pay-form/test-cards.js').then(
      (module) => (testCards.set(element, module.testCards(element as PayForm, html)), element.requestUpdate()),
      (error: unknown) => void unloaded(element, error),
    );
  }
  // A mode the form does not know pays on the hosted page: diagnose.ts says so, and what to set.
  if (element.mode && element.mode !== 'hosted' && element.mode !== 'direct') void import('./diagnose.js').then((module) => module.unknownMode(element), () => {});
  if (isSecureContext || warned) return;
  warned = true;
  console.warn(`<${element.localName}>: this page is not a secure context (https, or http on localhost), so the card form is off and customers pay on the hosted page: serve it over https`);
}

/**
 * Test mode's card list, under what the footer shows (the offer of more time), once a form shows
 * a test session: its chunk (test-cards.ts) is loaded then (`ready`), here rather than in the
 * bundle every page loads first, which a page taking real payments would carry for nothing. The
 * footer is extended as the form is told, before the list has come: its coming then changes no
 * element before it, and the offer of more time keeps the focus it may have.
 */
function listTestCards(form: Form): void {
  const footer = form.footer;
  form.footer = () => html`${footer.call(form)}${testCards.get(form)?.()}`;
}

/** The kinds of element told of one (`ready`): each one of them made from then on is told as it is made (`tellMade`). */
const kinds = new WeakSet<typeof ReactiveElement>();

/**
 * Every element of `element`'s kind made from now on is told as it is made, not once it shows:
 * one the page puts in while a payment of its session is under way counts as the customer at
 * checkout while it still reads the session (`atCheckout`). The class, not an import of it: the
 * bundle would export it to this chunk, bytes its budget has no room for.
 */
function tellMade(element: CheckoutElement): void {
  const kind = element.constructor as typeof ReactiveElement;
  if (kinds.has(kind)) return;
  kinds.add(kind);
  kind.addInitializer((made) => ready(made as CheckoutElement));
}
