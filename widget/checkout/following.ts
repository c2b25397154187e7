/**
 * The elements of a session that follow the one reading its outcome (reader.ts, `settled`): each
 * woken with what the reader read, and the end each shows as read for it (`echoes`).
 */
import type { CheckoutElement } from './checkout-element.js';
import type { SessionView } from './session-view.js';

/** Of each session, the elements following its reader (`settled`), each woken with what it read. */
const following = new Map<string, Map<CheckoutElement, (view?: SessionView) => void>>();
/** The outcome `session`'s reader reads next, for `follower`; undefined when the reader changed or the follower left. */
export const news = (session: string, follower: CheckoutElement): Promise<SessionView | undefined> =>
  new Promise((resolve) => following.set(session, (following.get(session) ?? new Map()).set(follower, resolve)));
export function wake(session: string, view?: SessionView): void {
  const woken = following.get(session);
  following.delete(session);
  woken?.forEach((resolve) => resolve(view));
}
/** A follower out of the page follows no more: woken as it leaves (its reading stops), not held until its reader's news. */
export function unfollow(follower: CheckoutElement): void {
  for (const [session, followers] of following) {
    followers.get(follower)?.();
    if (followers.delete(follower) && !followers.size) following.delete(session);
  }
}
/** Of each follower, the end it shows as its reader read it: told to the page by the reader only (`relay`). */
export const echoes = new WeakMap<CheckoutElement, SessionView>();
