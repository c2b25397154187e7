/**
 * What happens once the customer pays: checking the submitted form, the pay request (tokenized
 * first in tokenize mode) and its answer, 3-D Secure and hosted-page redirects, polling a pending
 * payment, and what an error leaves the customer to do; and, before, formatting a field as it is
 * typed, moving on from a field typed to its end and judging a field left. A chunk of its own,
 * fetched as the form shows (checkout-element.ts, `loadPaying`): none of it is needed for the
 * form to show, so the page does not wait for it, and by the customer's click or keystroke it is there.
 */
// The card's checks and brand detector, which the form runs as the customer types (pay-form.ts).
export { checkCvv, checkExpiry, checkNumber, detectBrand } from '@payform/card/fields';
import { html, type ReactiveElement, type TemplateResult } from 'lit';
import { emit, type FieldName } from '../events.js';
import type { PayForm } from '../pay-form/pay-form.js';
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError, fetchView, unloaded } from './companion.js';
import type { SessionView } from './session-view.js';
import { hush, keepSummary, refocus, relocalise, sayOnce } from './announcements.js';
import { offerChallenge, offering, share, tellConnection } from './awaiting.js';
import { cameBack, leftForBank, payingAnew } from './coming-back.js';
import { echoes, news, unfollow, wake } from './following.js';
import { isForm, type Form } from './form.js';
import { anotherSession, keepCard, keepTyped } from './kept-typing.js';
import { challenges, clickToLeave, go, hostedAtClick, redirect } from './leaving.js';
import { cardSent, follow, release } from './one-payment.js';
import { answer, DECLINE_SETTLES_MS, declinedAt, paidAway, recover, wentOn } from './outcome.js';
import { polled, watch } from './polling.js';
import { close, codeOf, markRefused, mayBePaid, shopSide, unasked } from './refusals.js';
import { relay, retold, TOLD } from './relay.js';
import { hostedPage, payment, request } from './requests.js';
import { held, inPage, payers, shown } from './session-elements.js';
import { keepTime, offerTime } from './time-to-pay.js';
import { checkTimings, timing } from './timings.js';
import { composed } from './typing.js';
import '../index.js'; // keeps the form's modules in one chunk under esbuild: see index.ts
export { readAgain } from './companion-away.js';
export type { Form } from './form.js';
export { reset } from './kept-typing.js';
export { timing } from './timings.js';
export { left, reformat, advance } from './typing.js';

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

/** Leaves for the gateway's hosted page, one payment at a time; `<pay-form>` checks the customer fields it asks for first. */
async function payHosted(element: CheckoutElement): Promise<void> {
  if (await claim(element)) await leave(element);
}

/** Goes to the hosted page (the element is `paying`); back to `ready` when that cannot be. `url`: the page already opened. */
async function leave(element: CheckoutElement, fallback?: 'tokenizer_unreachable', url?: string): Promise<void> {
  // The page may set another session while the hosted page is asked for: the element shows that
  // one, and this one's page is neither opened nor its error shown there (as pay() does).
  const { session } = element;
  try {
    // Without a view (it failed to load), the hosted button was the fallback: the session is
    // loaded again first, as the page would (the redirect check needs its sandbox origin). One
    // that asks a form for the customer's details, is no longer open, or fails again shows that
    // instead, and nothing is sent.
    if (!element.view) {
      await element.load();
      // Set by the load (TypeScript still holds it for the undefined it was before).
      const view = element.view as SessionView | undefined;
      if (!view || element.phase !== 'ready' || (isForm(element) && view.customer_fields.length)) {
        // The button pressed went with the form that came: the focus goes to its first field, not the page's start.
        await element.updateComplete;
        return refocus(element, element.renderRoot.querySelector<HTMLElement>('[part~=input]') ?? undefined);
      }
      element.phase = 'paying';
      element.say(element.t.processing);
    }
    const page = url ?? (await hostedPage(element, fallback));
    if (element.session !== session) return;
    if (!redirect(element, page, 'hosted')) {
      // The page kept the customer, or a frame waits for their click: nothing is being processed
      // any more, and the focus the disabled button dropped comes back to it.
      element.phase = 'ready';
      if (!hostedAtClick.has(element)) element.say('');
      void refocus(element);
    }
  } catch (error) {
    if (element.session !== session) return;
    // Refused because the session is being paid (by card, in the form beside this button) or is paid: show that.
    if (error instanceof CompanionError && error.status === 409 && wentOn(element, await fetchView(element).catch(() => undefined))) return refocus(element);
    // A page set up wrong: the element closes rather than stay on offer for clicks that cannot work.
    const shop = shopSide(element, error) ?? (isForm(element) ? undefined : unasked(error));
    if (shop) return close(element, shop);
    element.phase = 'ready';
    void refocus(element);
    if (isForm(element)) markRefused(element, error);
    element.fail(error);
  }
}

/**
 * The session once it is no longer pending, polled every `pollInterval` for `pollTimeout` at most;
 * undefined if it stayed pending, or as soon as the poll is no longer `current`. Still pending,
 * it is watched on, less often (`watch`).
 */
export async function settled(element: CheckoutElement, current: () => boolean): Promise<SessionView | undefined> {
  // Told as one shown ready is (`ready`): an element that loads on a pending session may take a
  // payment's challenge or end too. The customer is back at the checkout: on to a challenge held.
  ready(element);
  echoes.delete(element);
  const challenge = challenges.get(element.session);
  if (challenge && element.isConnected) {
    challenges.delete(element.session);
    go(element, challenge, '3ds');
  }
  // Back (the browser's button) without finishing the challenge: going on with it is offered at once.
  element.offer = undefined;
  share(element.session);
  if (cameBack(element.session) || clickToLeave.delete(element.session)) offerChallenge(element);
  // "Check again" (focused: it was just pressed) gives way to "Confirming…". A page that loads
  // on a pending session has focus nowhere in it, and keeps it where it is.
  if (element.shadowRoot!.activeElement) void refocus(element);
  // Out of the page, it watches only until an element of its session is in it, even once that one
  // has gone: it read the session itself, or polled as its heir (`handOver`), and told the page the
  // end, which would hear it twice.
  let gaveWay = false;
  const watching = (): boolean => current() && (element.isConnected || !(gaveWay ||= inPage(element).length > 0));
  const { session } = element;
  // One element of the session in the page reads its outcome for all of them (`share`: the card
  // form, else the first), and alone offers "Check again"; out of the page, an element reads its own.
  const leads = (): boolean => watching() && (!element.isConnected || offering.get(session) === element);
  while (watching()) {
    if (!leads()) {
      // The others show what it reads, and the page hears that end from it alone (`echoes`).
      const view = await news(session, element);
      if (view) return echoes.set(element, view), view;
      continue;
    }
    const view = await polled(element, leads, timing(element, 'pollInterval'), timing(element, 'pollTimeout'));
    if (view) return wake(session, view), view;
    if (!leads()) continue;
    // Still pending after polling: a challenge left unfinished is the likeliest reason. Its
    // followers offer it too, should the reading move to one of them (`share`: the owner's alone shows).
    for (const each of new Set([element, ...inPage(element)])) if (/^(co|w)/.test(each.phase)) offerChallenge(each);
    void watch(element, leads);
    return undefined;
  }
  return undefined;
}

/**
 * The pay button, or Enter in a field, one payment at a time: a hosted element leaves for the
 * hosted page; a form shows what each field lacks, or pays its card (or the chosen saved card)
 * and the customer fields the session asks for.
 */
export async function submit(element: CheckoutElement): Promise<void> {
  // The hosted page opened before the customer's click was over (`go`): this click goes there.
  const opened = hostedAtClick.get(element);
  hostedAtClick.delete(element);
  if (opened?.session === element.session) return void ((await claim(element)) && (await leave(element, undefined, opened.url)));
  if (element.hosted) return payHosted(element);
  if (await claim(element, 'pay-submit')) await pay(element as Form);
}

/** Elements whose `pay-submit` is being told: what its listeners start is not another claim. */
const claiming = new WeakSet<CheckoutElement>();

/**
 * Takes the element from `ready` to `paying`, once a form's fields are all right: waits for
 * their checks, then shows what each lacks or claims it, with no await between — a second
 * click then finds it `paying`, so it never pays twice. `event`: told first, cancelable.
 */
async function claim(element: CheckoutElement, event?: 'pay-submit'): Promise<boolean> {
  // Disabled by the merchant's form (checkout-element.ts, `updated`): not even by `pay()`.
  if (element.phase !== 'ready' || claiming.has(element) || element.matches(':disabled')) return false;
  // The rest of a double or triple click a decline answered at once: not the same card again.
  if (performance.now() - (declinedAt.get(element) ?? -Infinity) < DECLINE_SETTLES_MS) return false;
  if (isForm(element)) {
    // A customer field waits for its checks to load, and a name or address that may hold a card
    // number for the detector's verdict: a check may be pending twice over.
    for (let pending = waiting(element); pending.length; pending = waiting(element)) await Promise.all(pending);
    if (element.phase !== 'ready' || !valid(element)) return false;
  }
  if (event) {
    // A listener that pays again (the page's pay(), a click) finds the claim under way.
    claiming.add(element);
    const going = emit(element, event, {}, true);
    claiming.delete(element);
    if (!going) return false;
  }
  element.phase = 'paying';
  payingAnew();
  // A challenge held for the session is over: its attempt ended, or a new one would not be its.
  challenges.delete(element.session);
  retold.delete(element);
  echoes.delete(element);
  cardSent.delete(element);
  element.say(element.t.processing);
  return true;
}

/** Shows what each field lacks: true when all of them can be sent; else the first is focused. */
function valid(form: Form): boolean {
  const inputs = form.inputs();
  form.show(Object.fromEntries(inputs.map((input) => [input.name, form.check(input).code])));
  const first = inputs.find((input) => form.errors[input.name as FieldName]);
  if (!first) return true;
  hush(form, first);
  first.focus();
  // The same words again are not news to a screen reader: said anew after a moment without them.
  // English's come with its specific messages; without them, the general "check this value".
  const fix = form.t.fix ?? form.t.invalid;
  if (form.notice !== fix) form.say(fix, true);
  else {
    form.say('');
    setTimeout(() => form.phase === 'ready' && !form.notice && form.say(fix, true), 150);
  }
  return false;
}

/** What the form's checks still wait for. */
const waiting = (form: Form): Promise<unknown>[] => form.inputs().flatMap((input) => form.check(input).pending ?? []);

/** Pays directly, or on the hosted page when tokenize mode cannot reach its tokenizer (the form is `paying`). */
async function pay(form: Form): Promise<void> {
  // What is being paid stays what the fields show: they hold still until the answer.
  const inputs = form.inputs();
  for (const input of inputs) input.readOnly = true;
  // The page may set another session meanwhile: the form then shows that one (its load), and this
  // payment goes no further, nor does its answer or error show as that session's, as a poll's would not.
  const { session } = form;
  const moved = (): boolean => form.session !== session;
  const view = form.view!;
  // Whether the card went to the companion: from then on, an error may hide a payment taken.
  let sent = false;
  try {
    const direct = request(form);
    // Tokenize mode: the card goes to the gateway from here, loaded on demand (tokenized.ts).
    const paid = view.tokenizer ? await (await import('../pay-form/tokenized.js').catch(unserved(form))).tokenized(direct, view) : direct;
    if (moved()) return;
    // Without it the tokenizer is out of reach: the gateway's own page takes the card instead.
    if (!paid) return await leave(form, 'tokenizer_unreachable');
    sent = true;
    cardSent.add(form);
    // A reload before the answer loses the redirect to a challenge: the page it brings offers it (`cameBack`).
    leftForBank(session);
    const answered = await payment(form, paid);
    if (!moved()) answer(form, answered);
    else void paidAway(form, session, answered, view.order_id);
  } catch (error) {
    const code = codeOf(error);
    // The page set another session, before the error or as the session was read again after it.
    // Its outcome unknown, the card may have been charged: the page hears it by the order's id
    // (to check on its server before offering that order again), the customer nothing of it here.
    if ((moved() || (await recover(form, error, moved, sent)) === false) && sent && mayBePaid(code)) {
      emit(form, 'pay-error', { code, message: form.t.waiting || form.t.confirming, orderId: view.order_id });
    }
  } finally {
    for (const input of inputs) input.readOnly = false;
  }
}

/** A chunk that did not load: worked out, and thrown, as what paying takes is (checkout-element.ts). */
const unserved =
  (element: CheckoutElement) =>
  async (error: unknown): Promise<never> => {
    throw await unloaded(element, error);
  };
