/** A session read while the companion is away (down, restarting): read again, once a page, until it answers. */
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError, fetchView } from './companion.js';
import { isForm } from './form.js';
import { nap } from './polling.js';
import { timing } from './timings.js';

/**
 * Nothing answered, or a server in front of the companion answered for it (502–504): the companion
 * is down or restarting (a deploy), and may be back in a moment.
 */
const companionAway = (error: unknown): boolean => error instanceof CompanionError && (error.code === 'network' || error.status > 501);

/**
 * The reads of a session while its companion is away (`readAgain`), one a page: whether the
 * companion answered, or undefined once the element reading stopped (another session set, a
 * click); and the element that says so, of those waiting on them.
 */
const rereading = new Map<string, { readonly reads: Promise<boolean | undefined>; speaker: CheckoutElement }>();

/**
 * A session read that failed online (checkout-element.ts, `load`). The companion away: said once
 * a page (the page hears `pay-error` once, one live region says it: a card form's, where the
 * customer looks to pay, rather than a `<pay-button>`'s beside it), and the session read again
 * half a `pollInterval` later (1 s), then twice as long each time up to four of them (8 s), for
 * half a `pollTimeout` (30 s) at most, by the element that met it first: the others of the
 * session wait on its reads. Reads alone: a payment is never sent again by itself (its request
 * carries no key the companion could know a second one by). Answered, each element loads the
 * session; still away, the customer is asked to try again, and a button reads the session at a
 * click. `current`: the read is still the element's (no other session set since, no click that
 * read it again).
 */
export async function readAgain(element: CheckoutElement, error: unknown, current: () => boolean): Promise<void> {
  if (!current()) return;
  const { session, t } = element;
  // Anything else is told as it was met: a click (the hosted button) reads the session again. A
  // view of another companion version (diagnose.ts, `versionSkew`): the shop cannot take payments.
  if (!companionAway(error)) return element.fail(error, error instanceof CompanionError && error.unavailable ? t.unavailable : undefined);
  let shared = rereading.get(session);
  if (!shared) {
    element.fail(error, t.retrying);
    rereading.set(session, (shared = { reads: reread(element, current), speaker: element }));
    // Before the others hear how it went: one left reading becomes the reader.
    void shared.reads.then(() => rereading.delete(session));
  } else if (isForm(element) && !isForm(shared.speaker)) {
    // The words move to the card form; the page heard pay-error once, from the first.
    element.say(shared.speaker.notice, true);
    shared.speaker.say('');
    shared.speaker = element;
  }
  const answered = await shared.reads;
  if (!current()) return;
  if (answered) return void element.load();
  if (answered === undefined) return readAgain(element, error, current);
  if (shared.speaker === element) element.say(element.t.network || element.t.server, true);
}

/** `readAgain`'s reads by one element: true once the companion answers, false when it stayed away. */
async function reread(element: CheckoutElement, current: () => boolean): Promise<boolean | undefined> {
  const [pollInterval, pollTimeout] = [timing(element, 'pollInterval'), timing(element, 'pollTimeout')];
  for (let wait = pollInterval / 2, until = Date.now() + pollTimeout / 2; Date.now() < until; wait = Math.min(wait * 2, pollInterval * 4)) {
    await nap(wait);
    if (!current()) return undefined;
    const again = await fetchView(element).then(() => undefined, (failed: unknown) => failed);
    if (!current()) return undefined;
    if (!companionAway(again)) return true;
  }
  return false;
}
