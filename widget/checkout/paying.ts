/**
 * What happens once the customer pays: checking the submitted form, the pay request (tokenized
 * first in tokenize mode) and going to the hosted page; and, re-exported from the modules that do
 * them, 3-D Secure and hosted-page redirects (leaving.ts), the answer and what an error leaves the
 * customer to do (outcome.ts, refusals.ts), polling a pending payment (reader.ts, polling.ts) and,
 * before, formatting a field as it is typed, moving on from a field typed to its end and judging a
 * field left (typing.ts). A chunk of its own, fetched as the form shows (checkout-element.ts,
 * `loadPaying`): none of it is needed for the form to show, so the page does not wait for it, and
 * by the customer's click or keystroke it is there. Its modules are imported from here only, so
 * that they stay in this chunk.
 */
// The card's checks and brand detector, which the form runs as the customer types (pay-form.ts).
export { checkCvv, checkExpiry, checkNumber, detectBrand } from '@payform/card/fields';
import { emit, type FieldName } from '../events.js';
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError, fetchView, unloaded } from './companion.js';
import type { SessionView } from './session-view.js';
import { hush, refocus } from './announcements.js';
import { leftForBank, payingAnew } from './coming-back.js';
import { echoes } from './following.js';
import { isForm, type Form } from './form.js';
import { challenges, hostedAtClick, redirect } from './leaving.js';
import { cardSent } from './one-payment.js';
import { answer, DECLINE_SETTLES_MS, declinedAt, paidAway, recover, wentOn } from './outcome.js';
import { close, codeOf, markRefused, mayBePaid, shopSide, unasked } from './refusals.js';
import { retold } from './relay.js';
import { hostedPage, payment, request } from './requests.js';
import '../index.js'; // keeps the form's modules in one chunk under esbuild: see index.ts
export { readAgain } from './companion-away.js';
export type { Form } from './form.js';
export { reset } from './kept-typing.js';
export { settled } from './reader.js';
export { ready } from './ready.js';
export { timing } from './timings.js';
export { left, reformat, advance } from './typing.js';

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
