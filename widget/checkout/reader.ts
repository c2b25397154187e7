/**
 * The outcome of a pending payment, read by one element of its session for all of them, the
 * others following it (following.ts); still pending, watched on.
 */
import type { CheckoutElement } from './checkout-element.js';
import type { SessionView } from './session-view.js';
import { refocus } from './announcements.js';
import { offerChallenge, offering, share } from './awaiting.js';
import { cameBack } from './coming-back.js';
import { echoes, news, wake } from './following.js';
import { challenges, clickToLeave, go } from './leaving.js';
import { polled, watch } from './polling.js';
import { ready } from './ready.js';
import { inPage } from './session-elements.js';
import { timing } from './timings.js';

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
