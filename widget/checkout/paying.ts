/**
 * What happens once the customer pays: checking the submitted form, the pay request (tokenized
 * first in tokenize mode) and its answer, 3-D Secure and hosted-page redirects, polling a pending
 * payment, and what an error leaves the customer to do; and, before, formatting a field as it is
 * typed, moving on from a field typed to its end and judging a field left. A chunk of its own,
 * fetched as the form shows (checkout-element.ts, `loadPaying`): none of it is needed for the
 * form to show, so the page does not wait for it, and by the customer's click or keystroke it is there.
 */
import { digitsOf, formatCvv, formatExpiry, formatNumber, maxLength, type Brand, type Check, type CheckCode, type Edit, type Keystroke } from '@payform/card/fields';
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
import { cameBack, leftForBank, payingAnew, takeBackKept } from './coming-back.js';
import { echoes, news, unfollow, wake } from './following.js';
import { isForm, type Form } from './form.js';
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
import '../index.js'; // keeps the form's modules in one chunk under esbuild: see index.ts
export { readAgain } from './companion-away.js';
export type { Form } from './form.js';
export { timing } from './timings.js';

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
 * The merchant's `<form>` was reset (checkout-element.ts, `formResetCallback`): a form ready to pay
 * shows as a fresh one, what the customer typed cleared — no card, no details, no errors nor brand,
 * the first saved card chosen — and the page hears each field emptied (`pay-change`) and the brand
 * gone. So does one confirming or waiting, its fields given way to the outcome, should they come
 * back unpaid. A payment in flight is left as it is: its card is being sent.
 */
export function reset(element: CheckoutElement): void {
  // What was read out of the fields to put back (`keepCard`, `anotherSession`, `keepTyped`) goes too, even loading.
  for (const forget of forgets.get(element) ?? []) forget();
  // Ready, confirming or waiting: the only phases in r, co or w.
  if (!isForm(element) || !/^(r|co|w)/.test(element.phase)) return;
  const { brand } = element;
  Object.assign(element, { errors: {}, brand: undefined, invalid: false, complete: false });
  if (brand) emit(element, 'pay-brand-change', {});
  element.empty();
}

/** Of each form, what lets go of the typing held out of its fields, for the form's reset (`reset`). */
const forgets = new WeakMap<CheckoutElement, (() => void)[]>();
const onReset = (element: CheckoutElement, forget: () => void): void => void forgets.set(element, [...(forgets.get(element) ?? []), forget]);

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

/**
 * A form whose fields gave way to "Confirming…" and that comes back payable (its attempt never
 * reached the gateway, or was declined): the customer finds what they typed but the security
 * code (not held for as long as confirming may take: three or four digits, typed again), is
 * told when no payment was taken, and the focus they had in the form goes to the pay button,
 * not the emptied message it was on.
 */
function keepTyped(form: Form): void {
  let phase = form.phase;
  takeBackKept(form);
  let typed: [string, string][] | undefined;
  // Emptied, not dropped: the form still comes back said (`not_taken`), with the focus on its button.
  onReset(form, () => (typed &&= []));
  /** Whether the focus was in the form as its fields gave way. */
  let focused = false;
  let back = false;
  form.addController({
    hostUpdate() {
      const was = phase;
      phase = form.phase;
      // Read before this update renders the outcome in the fields' place.
      if (was === 'paying' && phase === 'confirming') {
        typed = form.inputs().filter((input) => input.name !== 'cvv').map((input) => [input.name, input.value]);
        focused = form.shadowRoot!.activeElement !== null;
      }
      back = phase === 'ready' && /^(co|w)/.test(was) && typed !== undefined;
      if (back && form.view?.status === 'open' && form.view.method !== 'lookup') form.say(form.t.not_taken ?? '');
      if (!/^(co|w|r)/.test(phase)) typed = undefined;
    },
    hostUpdated() {
      takeBackKept(form);
      if (!back) return;
      back = false;
      for (const [name, value] of typed ?? []) {
        const input = form.field(name as FieldName);
        if (input && !input.value) input.value = value;
      }
      typed = undefined;
      const root = form.renderRoot as ShadowRoot;
      const lost = document.activeElement === document.body || root.activeElement?.matches('[part=message]');
      if (focused && lost) root.querySelector<HTMLElement>('[part=button]')?.focus();
    },
  });
}

/**
 * The page switched `mode` after the form showed (direct, then hosted, then direct again: a "pay
 * on the secure page instead" toggle): what the customer typed of their card is theirs, not the
 * mode's. Read as the card fields give way to the hosted button, and put back once they show
 * again for the same session, judged as autofill is, so that the page hears each field
 * (`pay-change`) as it is again. Dropped when another session comes (`anotherSession` has its own
 * rule) or the element pays on the hosted page: the security code is held no longer than that.
 */
function keepCard(form: Form): void {
  let kept: [FieldName, string][] | undefined;
  let session: string;
  onReset(form, () => (kept = undefined));
  form.addController({
    hostUpdate() {
      // Read before this update renders the hosted button in the fields' place.
      if (form.phase === 'ready' && form.hosted && form.field('number')) {
        kept = typedFields(form, (name) => /^(number|exp|cvv)$/.test(name));
        session = form.session;
      }
    },
    hostUpdated() {
      // Loading or ready (the only phases in l or r): anything else (paying on the hosted page, an end) drops it.
      if (!/^[lr]/.test(form.phase)) kept = undefined;
      if (!kept || form.phase !== 'ready' || form.hosted || !form.field('number')) return;
      putBack(form, form.session === session ? kept : []);
      kept = undefined;
    },
  });
}

/**
 * What an input method composed (a CJK one, a phone keyboard's predictive text), once committed:
 * formatted, judged, told to the page and moved on from as one edit typed, by the form's own
 * handling of an `input` (pay-form.ts, `#onInput`). While it is composed, each of its updates is
 * left as the input method shows it (`reformat`): Chromium fires none after the last one, which is
 * still composing, so the form hears of it here.
 */
function composed(form: Form): void {
  form.addEventListener('compositionend', (event) => {
    const [input] = event.composedPath();
    if (input instanceof HTMLInputElement) input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: (event as CompositionEvent).data }));
  });
}

/**
 * The page set another session on the element (a single-page shop's cart changed): nothing of the
 * last one shows, neither as the new one loads (its view: the test banner) nor once it has — the
 * saved card chosen, a form's errors, its summary (`load` clears the live region) and the card's
 * brand. What the customer typed of their card and details is theirs, not the session's: put back
 * once the new session's form shows, and judged for it as autofill is, so that the brand and the
 * errors are those of what shows. Not the security code, typed again for the new amount (as after a
 * payment that came back, `keepTyped`), nor a card being paid for the last session.
 */
function anotherSession(element: CheckoutElement): void {
  let { session, phase } = element;
  /** The form's fields as the customer left them for the last session, until the new one's show. */
  let typed: [FieldName, string][] | undefined;
  onReset(element, () => (typed = undefined));
  element.addController({
    hostUpdate() {
      const was = phase;
      phase = element.phase;
      // Loading another session than the one it showed: `load` began it in this update.
      if (phase === 'loading' && element.session !== session) {
        session = element.session;
        element.view = undefined;
        if (!isForm(element)) return;
        // Read before this update renders the spinner in the fields' place. Loading still (the page
        // set a third session), it keeps what it had.
        typed =
          was === 'ready'
            ? typedFields(element, (name) => name !== 'cvv')
            : was === 'loading'
              ? typed
              : undefined;
        if (element.brand) emit(element, 'pay-brand-change', {});
        Object.assign(element, { errors: {}, edited: {}, brand: undefined, invalid: false, complete: false });
        return;
      }
      // The new session offers saved cards: a card the customer typed stays chosen, not hidden behind the first of them.
      if (isForm(element) && phase === 'ready' && element.view && typed?.some(([name]) => name === 'number')) element.token = '';
    },
    hostUpdated() {
      if (!typed || phase === 'loading' || !isForm(element)) return;
      putBack(element, phase === 'ready' ? typed : []);
      typed = undefined;
    },
  });
}

/** What the customer typed into the fields `kept` names, those not empty. */
function typedFields(form: Form, kept: (name: string) => boolean): [FieldName, string][] {
  return form.inputs().flatMap((input) => (kept(input.name) && input.value ? [[input.name as FieldName, input.value] as [FieldName, string]] : []));
}

/**
 * `fields` typed again: only into the fields the form shows, still empty (`keepTyped` may have put
 * the customer's details back); judged once this update is over, as typing would be.
 */
function putBack(form: Form, fields: readonly [FieldName, string][]): void {
  void form.updateComplete.then(() => {
    for (const [name, value] of fields) {
      const input = form.field(name);
      if (!input || input.value) continue;
      input.value = value;
      input.dispatchEvent(new InputEvent('input', { bubbles: true }));
    }
  });
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

/**
 * The end of the press under way, if one is: a mouse's main button held, or a tap, whose
 * mousedown and mouseup come as the finger lifts. Resolved a task after its mouseup, once its
 * click is over; or as a drag ends, a key is pressed, or the page loses the focus (a release over
 * a select's list or another origin's frame, which this page never hears).
 */
let pressEnd: Promise<void> | undefined;
const PRESS_ENDS = ['mouseup', 'dragend', 'keydown', 'blur'];
addEventListener(
  'mousedown',
  ({ button }) =>
    button ||
    (pressEnd ??= new Promise((resolve) => {
      const end = (): void => {
        pressEnd = undefined;
        for (const type of PRESS_ENDS) removeEventListener(type, end, true);
        setTimeout(resolve);
      };
      for (const type of PRESS_ENDS) addEventListener(type, end, true);
    })),
  true,
);

/**
 * The customer left a field of the form: one they edited shows what it lacks now ("incomplete"
 * and "required" wait for this), and the page hears of it (`pay-change`) when that changed the
 * error it shows, and only then. Here, not in the bundle: leaving a field comes after the form
 * showed, and so after this chunk was fetched.
 *
 * Left by a press (focus moves as it begins), the field is judged once the press is over
 * (`pressEnd`): its error, a line or two above what was pressed, would move that from under the
 * pointer, and the release would fall beside it — a click on nothing, "Pay" or "I need more
 * time" pressed for nothing. Left by keyboard (Tab), or by a screen reader's focus, at once.
 */
export function left(form: Form, { target }: FocusEvent): void {
  const input = target as HTMLInputElement;
  if (pressEnd) void pressEnd.then(() => judgeLeft(form, input));
  else judgeLeft(form, input);
}

/** `left`'s judgement of `input`, while it is still in the form (not gone with it as the payment's outcome shows). */
function judgeLeft(form: Form, input: HTMLInputElement): void {
  const name = input.name as FieldName;
  if (!(name in form.edited) || !input.isConnected) return;
  const check = form.check(input);
  const { code: error } = check;
  // A value the companion or the tokenizer refused passes the form's own check: only an edit clears its error.
  if (form.errors[name] === error || (!error && form.errors[name])) return;
  form.show({ [name]: error });
  emit(form, 'pay-change', { field: name, empty: !input.value, complete: check.valid, valid: check.potentiallyValid, brand: form.brand?.id, error });
}

/** How each field but the names is formatted as it is typed: the phone kept as typed, but for its digits written 0–9. */
const FORMATS: Partial<Record<FieldName, (keystroke: Keystroke, brand?: Brand) => Edit>> = {
  number: formatNumber,
  exp: formatExpiry,
  cvv: formatCvv,
  phone: (keystroke) => keystroke,
};

/**
 * A field of the form as the customer typed it, formatted, the caret — or each end of a selection —
 * after the same digit. Here, not in the bundle, as `advance`: typing comes after the form showed;
 * a keystroke before this chunk is formatted once it has come (pay-form.ts, `#onInput`), by which
 * time the customer may have selected digits to type over: the selection is kept. True, and
 * nothing rewritten, while an input method composes the field's text (`composed`).
 */
export function reformat(form: Form, input: HTMLInputElement, { inputType, isComposing }: InputEvent): true | void {
  // Rewritten under it, an input method would compose on after what it no longer replaces ("4424" for "4242").
  if (isComposing) return true;
  const name = input.name as FieldName;
  const format = FORMATS[name];
  if (!format) return;
  // NFKC: full-width digits and slashes, as a CJK input method types them, are read as 0–9 and /.
  // Arabic-Indic and Persian digits, which NFKC keeps, are 0–9 by their low four bits; one
  // character for one, so the caret stays where it was (`replace` writes the number as text).
  const value = input.value.normalize('NFKC').replace(/[٠-٩۰-۹]/g, (digit) => (digit.charCodeAt(0) & 15) as never);
  const [start, end] = [input.selectionStart ?? 0, input.selectionEnd ?? 0].map((caret) => format({ value, caret, inputType, before: form.edited[name] }, form.brand));
  input.value = end!.value;
  if (form.shadowRoot!.activeElement === input) input.setSelectionRange(start!.caret, end!.caret);
}

/**
 * A field typed or pasted to its full length (the brand's, for the card number and the security
 * code) and valid, the caret at its end: on to the next field. Autofill has no input type and
 * stays, and so does an edit in the middle (a month retyped before its year). Tab after the move
 * moves on from where focus went, as every Tab does (WCAG 2.1.1): a Tab held there, lest a Tab
 * pressed by habit skip the field, was one the customer pressed for nothing. Here, not in the
 * bundle, as `left`: a field is typed to its end after the form showed. `shown`: the errors the
 * input judged — the code's among them only when the number's brand changed, which the page is
 * told of here too (the bundle's bytes are spent on nothing more than passing them).
 */
export function advance(form: Form, { target, inputType }: InputEvent, { valid }: Check, shown: Partial<Record<FieldName, CheckCode>>): void {
  const input = target as HTMLInputElement;
  const { name, value } = input;
  // The number's new brand judged the security code again (three digits or four): the page hears
  // of it as of any change to the code, not only once the customer leaves the code's field.
  if (name !== 'cvv' && 'cvv' in shown) {
    emit(form, 'pay-change', { field: 'cvv', empty: false, complete: form.check(form.field('cvv')!).valid, valid: !shown.cvv, brand: form.brand?.id, error: shown.cvv });
  }
  const digits = digitsOf(value).length;
  // Not from the code, the last card field: what comes next takes any text, and a digit typed
  // past the code (four for a Visa's three) would land in the first name unseen (WCAG 3.2.2).
  const full = name === 'exp' || (name === 'number' && digits === maxLength(form.brand));
  if (valid && full && /^insert(Text|FromPaste)/.test(inputType) && input.selectionEnd === value.length) {
    const inputs = form.inputs();
    inputs[inputs.indexOf(input) + 1]?.focus();
  }
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
