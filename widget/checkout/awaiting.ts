/**
 * The elements of a session awaiting a payment's outcome (confirming, waiting): the one that reads
 * it for all, which alone offers going on with the challenge and says a connection lost.
 */
import { html } from 'lit';
import type { CheckoutElement } from './checkout-element.js';
import { redirectRefusal } from './redirect.js';
import { wake } from './following.js';
import { go } from './leaving.js';
import { shown } from './session-elements.js';

/**
 * The customer can go on with the challenge the payment waits for: the gateway ends it unpaid
 * only when it times out, and no new attempt may start meanwhile. Only to a safe address.
 */
export function offerChallenge(element: CheckoutElement): void {
  const { view, t } = element;
  const url = view?.challenge_url;
  if (!url || !t.challenge_continue || redirectRefusal(url, view)) return;
  // Its words read as it renders: the page may change the language meanwhile. Only while this
  // session is confirmed or waited on: not once it ends, nor as another session loads.
  const { session } = element;
  element.offer = () =>
    element.session === session && /^(co|w)/.test(element.phase) && offering.get(session) === element
      ? html`<button part="button" dir="auto" @click=${() => go(element, url, '3ds')}>${element.t.challenge_continue}</button>`
      : undefined;
  share(session, true);
}

/** Of each session, the element in the page that offers going on with its challenge (`offerChallenge`). */
export const offering = new Map<string, CheckoutElement>();

/**
 * One offer of a challenge a page, not one an element: a `<pay-button>` beside the form, both back
 * from the bank, would each say the bank is waiting and each offer to go on. The reader of the
 * outcome offers it (`awaiting`); the others say the payment is being confirmed. Chosen again as an element comes, goes or moves on, so the offer
 * moves rather than doubles or vanishes; elements of another session are not touched. `said`:
 * the words are to be said even though the offer stays where it was.
 */
export function share(session: string, said?: boolean): void {
  const candidates = awaiting(session);
  const owner = candidates[0];
  const before = offering.get(session);
  const moved = before !== owner;
  if (owner) offering.set(session, owner);
  else offering.delete(session);
  if (moved) {
    // The reader of the outcome changed (`settled`): its followers look again at which one reads,
    // and one that read it until now, still confirming or waiting, follows the new one.
    wake(session);
    if (before?.isConnected && before.session === session && /^(co|w)/.test(before.phase)) void before.poll();
  }
  if (!moved && !said) return;
  for (const each of candidates) {
    const { t, notice } = each;
    // Only what the offer changes: not a message of its own (an error, offline).
    if (each.offer && each.phase === 'confirming' && (notice === t.confirming || notice === t.challenge_waiting)) each.say(each === owner ? t.challenge_waiting! : t.confirming);
    each.requestUpdate();
  }
}

/**
 * The elements of `session` in the page awaiting its outcome (confirming, waiting), the one that
 * reads it for all first (`share`): a card form — a challenge comes of paying by card, so that is
 * where the customer paid — else the first in the page.
 */
const awaiting = (session: string): CheckoutElement[] =>
  [...shown]
    .filter((each) => each.isConnected && each.session === session && /^(co|w)/.test(each.phase))
    .sort((a, b) => +a.hosted - +b.hosted || (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_PRECEDING ? 1 : -1));

/**
 * While a payment's outcome is awaited (confirming, waiting), a connection lost is said, not left
 * behind a spinner — by the element that reads the outcome, once a page as "Check again" is: a
 * screen reader hears it from one live region, not from each element of the session. Back
 * online, or no longer the reader, the element says what it said before, and the outcome is read
 * at once (`nap`). Nothing is paid meanwhile: those phases offer no pay button.
 */
export function tellConnection(element: CheckoutElement): void {
  const { t, phase, notice, session } = element;
  if (!/^(co|w)/.test(phase) || !t.offline) return;
  const reader = awaiting(session)[0] === element;
  if (!navigator.onLine && reader) element.say(t.offline);
  else if (notice === t.offline) element.say(phase === 'waiting' ? t.waiting || t.confirming : element.offer && reader ? t.challenge_waiting! : t.confirming);
}
for (const type of ['offline', 'online']) addEventListener(type, () => shown.forEach(tellConnection));
