/**
 * What the live regions say, once (WCAG 4.1.3): in the page's language, not again by another
 * element of the session or after focus read it, a summary gone once its fields are fixed; and
 * where focus goes once what held it is gone (WCAG 2.4.3).
 */
import type { CheckoutElement } from './checkout-element.js';
import type { Form } from './form.js';
import { inPage } from './session-elements.js';

/**
 * The live region holds words, not which message they are: when the page changes the language,
 * the words showing are found in the catalog they came from and said in the new one. A decline
 * in English is the companion's words (checkout-element.ts, `settle`). Here, not in the bundle:
 * what the region says once the form shows comes from this chunk.
 */
export function relocalise(element: CheckoutElement): void {
  // None yet when told as it is made, before its own fields are set: its first words are where it starts.
  let said = element.t as Partial<Record<string, string>> | undefined;
  element.addController({
    hostUpdate() {
      const t = element.t as Partial<Record<string, string>>;
      const { notice, view } = element;
      const before = said ?? t;
      said = t;
      if (t === before || !notice) return;
      // The end's warning said after an error still showing (`keepTime`): each in the new language.
      const near = !!before.expiring && notice !== before.expiring && notice.endsWith(` ${before.expiring}`);
      const words = near ? notice.slice(0, -before.expiring!.length - 1) : notice;
      const key = words === view?.message || words === before.declined_en ? 'declined' : Object.keys(before).find((name) => before[name] === words);
      if (key) element.notice = (t[key] || view?.message || t.declined_en || t.server!) + (near ? ` ${t.expiring ?? before.expiring}` : '');
    },
  });
}

/**
 * The summary of fields to fix ("Check the highlighted fields.", after a submit with mistakes or
 * fields the companion refused) sums up their errors: once none shows one, it goes, rather than
 * stay as an error nothing on the form bears out (and that keeps the end's warning waiting,
 * `keepTime`). Said after the summary, that warning stays, and is not said again.
 */
export function keepSummary(form: Form): void {
  form.addController({
    hostUpdate() {
      const { t, notice } = form;
      const summary = t.fix ?? t.invalid;
      if (form.invalid || !form.alarming || form.phase !== 'ready' || !notice.startsWith(summary)) return;
      const rest = notice.slice(summary.length + 1);
      if (rest) heardBefore.add(form);
      form.say(rest);
    },
  });
}

/** An element's live region (checkout-element.ts, `render`). */
const messageOf = (element: CheckoutElement): HTMLElement | null => element.renderRoot?.querySelector<HTMLElement>('[part=message]') ?? null;

/** Elements whose next words the customer has heard already (`keepSummary`): shown, not said again. */
const heardBefore = new WeakSet<CheckoutElement>();

/** Each quieted live region's return to live (`quiet`). */
const quieted = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/**
 * Keeps a live region from saying the words it shows next, which are heard otherwise: another
 * element of the session says them, focus reads them, or the customer heard them already. Live
 * again once the browser has passed this on to the screen reader (as `hush`), or as soon as
 * other words come (`sayOnce`).
 */
function quiet(region: HTMLElement): void {
  region.ariaLive = 'off';
  clearTimeout(quieted.get(region));
  quieted.set(region, setTimeout(() => (quieted.delete(region), region.removeAttribute('aria-live')), 1000));
}

/**
 * One announcement an event a page (WCAG 4.1.3), as a decline has (the form says it, the button
 * beside it nothing): an element of the session that comes to show the words another one's live
 * region already shows — a payment's success or "Confirming…" (held by the form's payment,
 * `release`, or read for it, `settled`), the session's end (`keepTime` has the element the
 * customer is in read it first) — shows them without saying them again.
 *
 * And focus the customer had in the element, dropped as an update took away what held it (the
 * fields giving way to the payment's outcome, the button to the session's end), goes to the
 * button on offer, else to the message (WCAG 2.4.3), which focus reads: its region does not also
 * say the words it changed to in that update. While the session is read again (`loading`), focus
 * waits for what it shows.
 */
export function sayOnce(element: CheckoutElement): void {
  let focused: Element | null = null;
  let lost = false;
  element.addController({
    hostUpdate() {
      focused = element.shadowRoot!.activeElement;
      const region = messageOf(element);
      const { notice } = element;
      const heard = heardBefore.delete(element);
      if (!region || region.textContent === notice) return;
      if (heard || (notice && inPage(element).some((other) => other !== element && messageOf(other)?.textContent === notice))) return quiet(region);
      // News: said, also by a region quieted a moment ago.
      clearTimeout(quieted.get(region));
      if (quieted.delete(region)) region.removeAttribute('aria-live');
    },
    hostUpdated() {
      lost ||= !!focused && !focused.isConnected;
      if (!lost || element.phase === 'loading') return;
      lost = false;
      // Unless the customer has put it elsewhere meanwhile.
      if (document.activeElement === document.body) focusOn(element);
    },
  });
}

/** Focus on the element's button on offer, else on its message, which focus reads: its live region then says nothing of it. */
export function focusOn(element: CheckoutElement): void {
  const button = element.renderRoot.querySelector<HTMLElement>('[part=button]');
  if (button) return button.focus();
  const message = messageOf(element)!;
  quiet(message);
  message.tabIndex = -1;
  message.focus();
}

/** Each form's pending return of its error regions to live (`hush`). */
const hushed = new WeakMap<Form, ReturnType<typeof setTimeout>>();

/**
 * Each field's error is a polite live region (pay-form.ts), for the errors that come as the
 * customer types or leaves a field. Errors shown all at once, with focus sent to the first of
 * them (`first`), would each be said, and the first again as focus reads it: their regions say
 * nothing of these. Focus reads its field's error (aria-describedby), the form's message sums up,
 * and the customer hears the rest field by field. A field that already has focus (Enter pressed
 * in it) gets no focus change to read it: its region speaks. The regions are live again once the
 * browser has passed this on to the screen reader: a region made live in the same update as its
 * new words says nothing of them.
 */
export function hush(form: Form, first: HTMLInputElement): void {
  const regions = [...form.renderRoot.querySelectorAll<HTMLElement>('[part=error]')];
  for (const region of regions) if (form.shadowRoot!.activeElement !== first || region.id !== `${first.id}-error`) region.ariaLive = 'off';
  clearTimeout(hushed.get(form));
  hushed.set(form, setTimeout(() => regions.forEach((region) => region.removeAttribute('aria-live')), 1000));
}

/**
 * Moves focus to `target`; or, when it was dropped with what held it (a button disabled, a form
 * that gave way to its outcome), to the button on offer, else to the message saying what happens
 * now — never to the page's start. Focus the customer took elsewhere stays there.
 */
export async function refocus(element: CheckoutElement, target?: HTMLElement): Promise<void> {
  await element.updateComplete;
  if (target) return target.focus();
  if (document.activeElement === document.body) focusOn(element);
}
