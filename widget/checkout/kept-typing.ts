/**
 * What the customer typed, kept for them: as the fields give way to an outcome, the mode or the
 * session, put back once the fields show again; and let go of at the merchant's form's reset.
 */
import { emit, type FieldName } from '../events.js';
import type { CheckoutElement } from './checkout-element.js';
import { takeBackKept } from './coming-back.js';
import { isForm, type Form } from './form.js';

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
 * A form whose fields gave way to "Confirming…" and that comes back payable (its attempt never
 * reached the gateway, or was declined): the customer finds what they typed but the security
 * code (not held for as long as confirming may take: three or four digits, typed again), is
 * told when no payment was taken, and the focus they had in the form goes to the pay button,
 * not the emptied message it was on.
 */
export function keepTyped(form: Form): void {
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
export function keepCard(form: Form): void {
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
 * The page set another session on the element (a single-page shop's cart changed): nothing of the
 * last one shows, neither as the new one loads (its view: the test banner) nor once it has — the
 * saved card chosen, a form's errors, its summary (`load` clears the live region) and the card's
 * brand. What the customer typed of their card and details is theirs, not the session's: put back
 * once the new session's form shows, and judged for it as autofill is, so that the brand and the
 * errors are those of what shows. Not the security code, typed again for the new amount (as after a
 * payment that came back, `keepTyped`), nor a card being paid for the last session.
 */
export function anotherSession(element: CheckoutElement): void {
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
