/** Reading a pending payment's outcome again and again: at its interval, offline or not, then slower, watching. */
import type { CheckoutElement } from './checkout-element.js';
import { fetchView, type Caller } from './companion.js';
import type { SessionView } from './session-view.js';
import { refocus } from './announcements.js';
import { wake } from './following.js';
import { timing } from './timings.js';

/**
 * The least wait between two reads of an outcome, whatever asked for less (or for no number):
 * never a loop of requests. The most a timer can wait: longer, the browser fires it at once.
 */
const NAP_LEAST = 20;
const NAP_MOST = 2 ** 31 - 1;

/**
 * Waits `interval` before the next read of an outcome; offline, until the connection is back,
 * and back online, not a moment longer: no read is spent on a network that is not there, and
 * the customer is not kept waiting for a timer (30 s once polling gave up) once it is.
 */
export const nap = (interval: number): Promise<void> =>
  new Promise((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      removeEventListener('online', wake);
      resolve();
    };
    // NaN, which compares false, waits the least too.
    const timer = navigator.onLine ? setTimeout(wake, interval > NAP_LEAST ? Math.min(interval, NAP_MOST) : NAP_LEAST) : undefined;
    addEventListener('online', wake);
  });

/**
 * The session once it is no longer pending, read every `interval` until `timeout` has passed or
 * the poll is no longer `current`. Time offline does not count: back online, the outcome is read
 * for as long as it would have been.
 */
export async function polled(element: Caller, current: () => boolean, interval: number, timeout: number): Promise<SessionView | undefined> {
  for (let until = Date.now() + timeout; Date.now() < until; ) {
    const since = Date.now();
    const offline = !navigator.onLine;
    await nap(interval);
    if (offline) until += Date.now() - since;
    if (!current()) return undefined;
    const view = await fetchView(element).catch(() => undefined);
    // Not its to tell any more (an element of its session showed as the read was under way).
    if (!current()) return undefined;
    if (view && view.status !== 'pending') return view;
  }
  return undefined;
}

/** Watching after polling gave up: every so many polls' time, for an hour at most. */
export const WATCH_SLOWER = 15;
export const WATCH_FOR = 3_600_000;

/**
 * The customer waits ("Check again") while the outcome is decided without them: an attempt the
 * gateway never took is ended by reconciliation within minutes, a challenge left on the bank's
 * page times out. The form shows that when it comes — the pay button again, and why — so no
 * customer is left on "still being confirmed": read every 15 polls' time, for an hour at most.
 */
export async function watch(element: CheckoutElement, current: () => boolean): Promise<void> {
  const view = await polled(element, current, timing(element, 'pollInterval') * WATCH_SLOWER, WATCH_FOR);
  if (!view || !current()) return;
  wake(element.session, view);
  // Focus that was in the element (on the message, or "Check again") stays in it as it changes.
  const focused = element.shadowRoot!.activeElement !== null;
  // Declined: ready first (`pay-ready`, when the page has not heard it), then the decline.
  await element.settle(view);
  if (focused) await refocus(element);
}
